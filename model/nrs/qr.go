package nrs

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/einvoice-ng/einvoice/model"
)

// Bounds of a QR timestamp: Unix seconds written with exactly 10 digits.
// Larger values are almost always milliseconds passed by mistake.
const (
	MinQRTimestamp int64 = 1_000_000_000
	MaxQRTimestamp int64 = 9_999_999_999
)

// QRPayload builds the QR content of an invoice per the NRS procedure:
// irn_ts = IRN + "." + Unix seconds; the compact JSON
// {"irn":"<irn_ts>","certificate":"<certificate>"} (keys in that order, the
// certificate exactly as written) is encrypted with the business's RSA public
// key (PKCS#1 v1.5 unless in.Encryption asks for OAEP-SHA256) and encoded in
// standard base64: 344 characters for an RSA-2048 key. The output differs on
// every call; check it by decrypting (DecryptQR).
func (a *Authority) QRPayload(in model.QRInput) (string, error) {
	return qrPayload(in)
}

func qrPayload(in model.QRInput) (string, error) {
	var p model.Problems
	if _, err := ParseIRN(in.IRN); err != nil {
		p.AddAll(nil, model.AsError(err).Fields)
	}
	if in.Timestamp < MinQRTimestamp || in.Timestamp > MaxQRTimestamp {
		msg := "timestamp must be Unix seconds with 10 digits"
		if in.Timestamp > MaxQRTimestamp {
			msg += " (milliseconds given?)"
		}
		p.Add(model.ProblemValueError, msg, "timestamp")
	}
	switch {
	case in.Certificate == "":
		p.Add(model.ProblemMissing, "certificate is required", "certificate")
	case !utf8.ValidString(in.Certificate):
		p.Add(model.ProblemValueError, "certificate must be valid UTF-8 text", "certificate")
	}
	switch {
	case in.PublicKey == nil || in.PublicKey.N == nil:
		p.Add(model.ProblemMissing, "public key is required", "public_key")
	case in.PublicKey.N.BitLen() < MinKeyBits || in.PublicKey.N.BitLen() > MaxKeyBits:
		p.Add(model.ProblemValueError, "public key must be an RSA key of 2048 to 4096 bits", "public_key")
	}
	enc := in.Encryption
	if enc == "" {
		enc = model.QREncryptionPKCS1v15
	}
	if enc != model.QREncryptionPKCS1v15 && enc != model.QREncryptionOAEPSHA256 {
		p.Add(model.ProblemEnum, "encryption must be RSA-PKCS1-v1_5 or RSA-OAEP-SHA256", "encryption")
	}
	if err := p.Err(); err != nil {
		return "", err
	}

	msg := qrJSON(in.IRN, in.Timestamp, in.Certificate)
	random := in.Rand
	if random == nil {
		random = rand.Reader
	}
	var ct []byte
	var err error
	if enc == model.QREncryptionOAEPSHA256 {
		ct, err = rsa.EncryptOAEP(sha256.New(), random, in.PublicKey, msg, nil)
	} else {
		// NRS specifies PKCS #1 v1.5 for the QR payload: its readers
		// decrypt nothing else.
		ct, err = rsa.EncryptPKCS1v15(random, in.PublicKey, msg) //nolint:staticcheck // SA1019: the scheme NRS specifies
	}
	switch {
	case errors.Is(err, rsa.ErrMessageTooLong):
		return "", model.Invalid(model.ProblemStringTooLong, "certificate is too long for the public key", "certificate")
	case err != nil:
		return "", model.Wrap(model.CodeInvalid, err, "public key cannot encrypt the QR payload")
	}
	return base64.StdEncoding.EncodeToString(ct), nil
}

// qrJSON writes {"irn":"<irn>.<ts>","certificate":"<certificate>"} with no
// insignificant space. The IRN was checked to be letters, digits and
// hyphens; the certificate is escaped as JSON requires and otherwise kept
// byte for byte (no HTML escaping, "/" and "+" stay as they are).
func qrJSON(irn string, ts int64, certificate string) []byte {
	b := make([]byte, 0, len(`{"irn":"","certificate":""}`)+len(irn)+11+len(certificate)+8)
	b = append(b, `{"irn":"`...)
	b = append(b, irn...)
	b = append(b, '.')
	b = strconv.AppendInt(b, ts, 10)
	b = append(b, `","certificate":"`...)
	b = appendJSONString(b, certificate)
	b = append(b, `"}`...)
	return b
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s escaped for use inside a JSON string: quote,
// backslash and control characters only.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		default:
			b = append(b, c)
		}
	}
	return b
}

// DecryptQR reverses QRPayload with the private key: it returns the irn_ts
// ("IRN.unix_seconds") and the certificate. The NRS sandbox stand-in and the
// tests use it; production never holds the private key.
func DecryptQR(priv *rsa.PrivateKey, payload string, enc model.QREncryption) (irnWithTS, certificate string, err error) {
	if priv == nil {
		return "", "", model.Invalid(model.ProblemMissing, "private key is required", "private_key")
	}
	ct, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return "", "", model.Invalid(model.ProblemValueError, "qr payload is not standard base64", "qr_payload")
	}
	var msg []byte
	switch enc {
	case "", model.QREncryptionPKCS1v15:
		msg, err = rsa.DecryptPKCS1v15(nil, priv, ct) //nolint:staticcheck // SA1019: the scheme NRS specifies
	case model.QREncryptionOAEPSHA256:
		msg, err = rsa.DecryptOAEP(sha256.New(), nil, priv, ct, nil)
	default:
		return "", "", model.Invalid(model.ProblemEnum, "encryption must be RSA-PKCS1-v1_5 or RSA-OAEP-SHA256", "encryption")
	}
	if err != nil {
		return "", "", model.Invalid(model.ProblemValueError, "qr payload cannot be decrypted with this key", "qr_payload")
	}
	var doc struct {
		IRN         *string `json:"irn"`
		Certificate *string `json:"certificate"`
	}
	if err := json.Unmarshal(msg, &doc); err != nil || doc.IRN == nil || doc.Certificate == nil {
		return "", "", model.Invalid(model.ProblemValueError, `qr payload does not hold {"irn","certificate"}`, "qr_payload")
	}
	return *doc.IRN, *doc.Certificate, nil
}
