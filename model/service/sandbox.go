package service

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"strings"
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
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return SandboxKeys{}, err
	}
	pubDER, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		return SandboxKeys{}, err
	}
	privDER, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return SandboxKeys{}, err
	}
	cert := make([]byte, 45)
	if _, err := rand.Read(cert); err != nil {
		return SandboxKeys{}, err
	}
	return SandboxKeys{
		PublicKeyPEM:  string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})),
		PrivateKeyPEM: string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: privDER})),
		Certificate:   base64.StdEncoding.EncodeToString(cert),
	}, nil
}

// parsePublicKey accepts a PEM or the base64 of a PEM (crypto_keys.txt form)
// holding an RSA public key of at least 2048 bits.
func parsePublicKey(s string) (*rsa.PublicKey, string, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "-----BEGIN") {
		raw, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, "", errors.New("public_key must be a PEM or the base64 of a PEM")
		}
		s = strings.TrimSpace(string(raw))
	}
	block, _ := pem.Decode([]byte(s))
	if block == nil {
		return nil, "", errors.New("public_key must be a PEM or the base64 of a PEM")
	}
	var pub *rsa.PublicKey
	switch block.Type {
	case "PUBLIC KEY":
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, "", errors.New("public_key is not a valid PKIX public key")
		}
		rk, ok := k.(*rsa.PublicKey)
		if !ok {
			return nil, "", errors.New("public_key must be an RSA key")
		}
		pub = rk
	case "RSA PUBLIC KEY":
		k, err := x509.ParsePKCS1PublicKey(block.Bytes)
		if err != nil {
			return nil, "", errors.New("public_key is not a valid PKCS#1 public key")
		}
		pub = k
	default:
		return nil, "", errors.New("public_key must be a PUBLIC KEY or RSA PUBLIC KEY PEM block")
	}
	if pub.N.BitLen() < 2048 {
		return nil, "", errors.New("public_key must be an RSA key of at least 2048 bits")
	}
	der, _ := x509.MarshalPKIXPublicKey(pub)
	return pub, string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})), nil
}

// fingerprint identifies a public key: SHA256 over its PKIX DER, base64.
func fingerprint(pub *rsa.PublicKey) string {
	der, _ := x509.MarshalPKIXPublicKey(pub)
	sum := sha256.Sum256(der)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}
