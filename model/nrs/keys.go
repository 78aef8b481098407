package nrs

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"io"
	"strings"

	"github.com/einvoice-ng/einvoice/model"
)

// Key sizes accepted for the business's QR key. NRS issues RSA-2048 keys,
// which give the 344-character payload.
const (
	MinKeyBits = 2048
	MaxKeyBits = 4096
)

// CryptoKeys is the content of the crypto_keys.txt file NRS issues per
// business: the RSA public key as base64 of a PEM block, and the opaque
// certificate token used in QR payloads exactly as written.
type CryptoKeys struct {
	PublicKey   string `json:"public_key"`
	Certificate string `json:"certificate"`
}

// pemBytes turns the accepted textual forms of a key into PEM bytes: a PEM
// block as is (also with its line breaks written as the two characters \n,
// as happens when it is copied out of a JSON file), or the standard base64
// of such a block, possibly wrapped over several lines.
func pemBytes(s string) []byte {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, `\n`, "\n")
	if strings.HasPrefix(s, "-----BEGIN") {
		return []byte(s)
	}
	compact := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	raw, err := base64.StdEncoding.DecodeString(compact)
	if err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(compact); err != nil {
			return nil
		}
	}
	return raw
}

// ParsePublicKey reads an RSA public key in the crypto_keys.txt forms: the
// base64 of a PEM block or the PEM block itself, holding either a PKIX
// "PUBLIC KEY" or a PKCS#1 "RSA PUBLIC KEY". Keys of 2048 to 4096 bits are
// accepted. Errors are invalid *model.Error at location "public_key".
func ParsePublicKey(s string) (*rsa.PublicKey, error) {
	bad := func(msg string) error { return model.Invalid(model.ProblemValueError, msg, "public_key") }
	if strings.TrimSpace(s) == "" {
		return nil, model.Invalid(model.ProblemMissing, "public key is required", "public_key")
	}
	block, _ := pem.Decode(pemBytes(s))
	if block == nil {
		return nil, bad("public key must be a PEM block or the base64 of one")
	}
	var pub *rsa.PublicKey
	switch block.Type {
	case "PUBLIC KEY":
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, bad("public key PEM does not hold a valid PKIX public key")
		}
		rk, ok := k.(*rsa.PublicKey)
		if !ok {
			return nil, bad("public key must be an RSA key")
		}
		pub = rk
	case "RSA PUBLIC KEY":
		k, err := x509.ParsePKCS1PublicKey(block.Bytes)
		if err != nil {
			return nil, bad("public key PEM does not hold a valid PKCS#1 RSA public key")
		}
		pub = k
	default:
		return nil, bad(`public key PEM must be of type "PUBLIC KEY" or "RSA PUBLIC KEY"`)
	}
	if bits := pub.N.BitLen(); bits < MinKeyBits || bits > MaxKeyBits {
		return nil, bad("public key must be an RSA key of 2048 to 4096 bits")
	}
	return pub, nil
}

// ParsePrivateKey reads an RSA private key as a PEM block ("PRIVATE KEY"
// PKCS#8 or "RSA PRIVATE KEY" PKCS#1) or the base64 of one. Only the NRS
// sandbox stand-in and tests hold private keys. Errors are invalid
// *model.Error at location "private_key".
func ParsePrivateKey(s string) (*rsa.PrivateKey, error) {
	bad := func(msg string) error { return model.Invalid(model.ProblemValueError, msg, "private_key") }
	block, _ := pem.Decode(pemBytes(s))
	if block == nil {
		return nil, bad("private key must be a PEM block or the base64 of one")
	}
	switch block.Type {
	case "PRIVATE KEY":
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, bad("private key PEM does not hold a valid PKCS#8 key")
		}
		rk, ok := k.(*rsa.PrivateKey)
		if !ok {
			return nil, bad("private key must be an RSA key")
		}
		return rk, nil
	case "RSA PRIVATE KEY":
		k, err := x509.ParsePKCS1PrivateKey(block.Bytes)
		if err != nil {
			return nil, bad("private key PEM does not hold a valid PKCS#1 key")
		}
		return k, nil
	}
	return nil, bad(`private key PEM must be of type "PRIVATE KEY" or "RSA PRIVATE KEY"`)
}

// KeyFingerprint identifies a public key without revealing it: "SHA256:"
// followed by the unpadded standard base64 of the SHA-256 of the key's DER
// PKIX encoding (the OpenSSH style). It is stable for a key whatever form it
// was supplied in.
func KeyFingerprint(pub *rsa.PublicKey) string {
	if pub == nil {
		return ""
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(der)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

// SandboxKeys is a generated key set in the forms NRS hands out: the one
// definition of a sandbox business's crypto material, for sandbox projects
// and the NRS sandbox stand-in.
type SandboxKeys struct {
	// PrivateKey decrypts QR payloads; it never leaves the sandbox.
	PrivateKey *rsa.PrivateKey
	// PrivateKeyPEM is PrivateKey as a PKCS#8 "PRIVATE KEY" PEM block.
	PrivateKeyPEM string
	// PublicKey is the crypto_keys.txt form: standard base64 of the PKIX
	// "PUBLIC KEY" PEM block.
	PublicKey string
	// PublicKeyPEM is that PEM block itself, the form a project stores.
	PublicKeyPEM string
	// Certificate is an opaque token: standard base64 of 45 random bytes
	// (60 characters).
	Certificate string
	// Fingerprint is KeyFingerprint of the public key.
	Fingerprint string
}

// CryptoKeys returns the crypto_keys.txt view of the key set.
func (k SandboxKeys) CryptoKeys() CryptoKeys {
	return CryptoKeys{PublicKey: k.PublicKey, Certificate: k.Certificate}
}

// certificateBytes gives a 60-character base64 token, the size NRS issues.
const certificateBytes = 45

// GenerateSandboxKeys generates an RSA-2048 key pair and a certificate token.
// random (nil means crypto/rand) supplies the certificate bytes; since Go
// 1.26 the RSA key itself always comes from a secure source.
func GenerateSandboxKeys(random io.Reader) (SandboxKeys, error) {
	if random == nil {
		random = rand.Reader
	}
	priv, err := rsa.GenerateKey(random, 2048)
	if err != nil {
		return SandboxKeys{}, model.Wrap(model.CodeInternal, err, "cannot generate sandbox keys")
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return SandboxKeys{}, model.Wrap(model.CodeInternal, err, "cannot encode sandbox private key")
	}
	pkix, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		return SandboxKeys{}, model.Wrap(model.CodeInternal, err, "cannot encode sandbox public key")
	}
	cert := make([]byte, certificateBytes)
	if _, err := io.ReadFull(random, cert); err != nil {
		return SandboxKeys{}, model.Wrap(model.CodeInternal, err, "cannot generate sandbox certificate")
	}
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pkix})
	return SandboxKeys{
		PrivateKey:    priv,
		PrivateKeyPEM: string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8})),
		PublicKey:     base64.StdEncoding.EncodeToString(pubPEM),
		PublicKeyPEM:  string(pubPEM),
		Certificate:   base64.StdEncoding.EncodeToString(cert),
		Fingerprint:   KeyFingerprint(&priv.PublicKey),
	}, nil
}
