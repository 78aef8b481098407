package authority

import (
	"crypto/rand"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// serviceIDAlphabet is what a generated sandbox service id is drawn from.
const serviceIDAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// Shapes of generated sandbox API credentials: the key a UUID like NRS's,
// the secret 64 letters and digits.
const (
	sandboxSecretLen      = 64
	sandboxSecretAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
)

// ProvisionSandbox gives a new sandbox project what NRS gives a business: a
// business id, a service id, a key pair and certificate, and the API
// credentials it presents to the NRS sandbox stand-in, sealed into pr.
func (d *Directory) ProvisionSandbox(pr *model.Project) error {
	keys, err := d.cfg.SandboxKeys()
	if err != nil {
		return model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	serviceID, err := randomString(8, serviceIDAlphabet)
	if err != nil {
		return model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	pr.BusinessID = uuid.New().String()
	pr.ServiceID = serviceID
	pr.PublicKey = keys.PublicKeyPEM
	if pr.CertificateEnc, err = d.Seal(pr.ID, "certificate", keys.Certificate); err != nil {
		return err
	}
	if pr.PrivateKeyEnc, err = d.Seal(pr.ID, "private_key", keys.PrivateKeyPEM); err != nil {
		return err
	}
	if err := d.ProvisionSandboxCredentials(pr); err != nil {
		return err
	}
	pr.Configured = true
	return nil
}

// ProvisionSandboxCredentials generates the API key and secret a sandbox
// project presents to the NRS sandbox stand-in and seals them into pr.
func (d *Directory) ProvisionSandboxCredentials(pr *model.Project) error {
	secret, err := randomString(sandboxSecretLen, sandboxSecretAlphabet)
	if err != nil {
		return model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	if pr.APIKeyEnc, err = d.Seal(pr.ID, "api_key", uuid.NewString()); err != nil {
		return err
	}
	if pr.APISecretEnc, err = d.Seal(pr.ID, "api_secret", secret); err != nil {
		return err
	}
	return nil
}

// SandboxBusiness is a sandbox project as the NRS sandbox stand-in must know
// it, its secrets opened.
func (d *Directory) SandboxBusiness(pr *model.Project) (model.SandboxBusiness, error) {
	s, err := d.open(pr)
	if err != nil {
		return model.SandboxBusiness{}, err
	}
	return model.SandboxBusiness{
		ProjectID: pr.ID, BusinessID: pr.BusinessID, ServiceID: pr.ServiceID,
		PublicKeyPEM: pr.PublicKey, QREncryption: pr.QREncryption, BaseURL: d.BaseURL(pr),
		Certificate: s.certificate, PrivateKeyPEM: s.privateKey, APIKey: s.apiKey, APISecret: s.apiSecret,
	}, nil
}

// randomString draws n characters of alphabet uniformly (rejection
// sampling, so no character is favoured).
func randomString(n int, alphabet string) (string, error) {
	limit := 256 - 256%len(alphabet)
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/2)
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			return "", err
		}
		for _, c := range buf {
			if int(c) < limit && len(out) < n {
				out = append(out, alphabet[int(c)%len(alphabet)])
			}
		}
	}
	return string(out), nil
}
