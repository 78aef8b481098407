package service

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
)

// SandboxKeys are a sandbox business's crypto material in the forms of the
// authority's crypto_keys.txt: PEM key pair and an opaque certificate token.
type SandboxKeys struct {
	PublicKeyPEM  string
	PrivateKeyPEM string
	Certificate   string
}

// GenerateSandboxKeys makes a fresh RSA-2048 key pair and a random
// certificate token.
func GenerateSandboxKeys() (SandboxKeys, error) {
	k, err := nrs.GenerateSandboxKeys(nil)
	if err != nil {
		return SandboxKeys{}, err
	}
	pub, pubPEM, err := parsePublicKey(k.PublicKey)
	if err != nil || pub == nil {
		return SandboxKeys{}, model.Wrap(model.CodeInternal, err, "cannot encode sandbox public key")
	}
	return SandboxKeys{PublicKeyPEM: pubPEM, PrivateKeyPEM: k.PrivateKeyPEM, Certificate: k.Certificate}, nil
}

// parsePublicKey accepts the crypto_keys.txt forms (a PEM, or the base64 of
// a PEM) and returns the key with its canonical PKIX PEM, which is what a
// project stores.
func parsePublicKey(s string) (*rsa.PublicKey, string, error) {
	pub, err := nrs.ParsePublicKey(s)
	if err != nil {
		return nil, "", err
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, "", model.Invalid(model.ProblemValueError, "public key cannot be encoded", "public_key")
	}
	return pub, string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})), nil
}

// fingerprint identifies a public key without revealing it.
func fingerprint(pub *rsa.PublicKey) string { return nrs.KeyFingerprint(pub) }
