package nrs

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
)

func TestQRPayload(t *testing.T) {
	a := newAuthority(t)
	keys := loadTestKeys(t)
	tests := []struct {
		name        string
		enc         model.QREncryption
		decryptWith model.QREncryption
		certificate string
		wantJSON    string
	}{
		{
			name: "default is PKCS#1 v1.5", enc: "", decryptWith: model.QREncryptionPKCS1v15,
			certificate: keys.certificate,
			wantJSON:    `{"irn":"INV001-94ND90NR-20240611.1731618237","certificate":"` + keys.certificate + `"}`,
		},
		{
			name: "PKCS#1 v1.5", enc: model.QREncryptionPKCS1v15, decryptWith: model.QREncryptionPKCS1v15,
			certificate: keys.certificate,
			wantJSON:    `{"irn":"INV001-94ND90NR-20240611.1731618237","certificate":"` + keys.certificate + `"}`,
		},
		{
			name: "OAEP-SHA256", enc: model.QREncryptionOAEPSHA256, decryptWith: model.QREncryptionOAEPSHA256,
			certificate: keys.certificate,
			wantJSON:    `{"irn":"INV001-94ND90NR-20240611.1731618237","certificate":"` + keys.certificate + `"}`,
		},
		{
			name: "certificate kept byte for byte, escaped only where JSON requires", enc: model.QREncryptionPKCS1v15,
			decryptWith: model.QREncryptionPKCS1v15,
			certificate: "a+b/c=<&>\"q\"\\\n\x01é",
			wantJSON:    `{"irn":"INV001-94ND90NR-20240611.1731618237","certificate":"a+b/c=<&>\"q\"\\\n\u0001é"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := model.QRInput{
				IRN:         "INV001-94ND90NR-20240611",
				Timestamp:   1731618237,
				PublicKey:   keys.public,
				Certificate: tt.certificate,
				Encryption:  tt.enc,
			}
			p1, err := a.QRPayload(in)
			if err != nil {
				t.Fatalf("QRPayload: %v", err)
			}
			if len(p1) != 344 {
				t.Fatalf("payload has %d characters, want 344", len(p1))
			}
			if _, err := base64.StdEncoding.DecodeString(p1); err != nil {
				t.Fatalf("payload is not standard base64: %v", err)
			}
			p2, _ := a.QRPayload(in)
			if p1 == p2 {
				t.Error("two payloads are equal; encryption must be randomised")
			}
			if got := string(qrJSON(in.IRN, in.Timestamp, in.Certificate)); got != tt.wantJSON {
				t.Fatalf("plaintext = %s, want %s", got, tt.wantJSON)
			}
			var doc map[string]string
			if err := json.Unmarshal([]byte(tt.wantJSON), &doc); err != nil || doc["certificate"] != tt.certificate {
				t.Fatalf("plaintext is not JSON holding the certificate: %v %q", err, doc["certificate"])
			}
			irnTS, cert, err := DecryptQR(keys.private, p1, tt.decryptWith)
			if err != nil {
				t.Fatalf("DecryptQR: %v", err)
			}
			if irnTS != "INV001-94ND90NR-20240611.1731618237" || cert != tt.certificate {
				t.Fatalf("decrypted %q %q", irnTS, cert)
			}
			// The raw plaintext is exactly the compact JSON.
			ct, _ := base64.StdEncoding.DecodeString(p1)
			var raw []byte
			if tt.decryptWith == model.QREncryptionOAEPSHA256 {
				raw, err = keys.private.Decrypt(nil, ct, &rsa.OAEPOptions{Hash: crypto.SHA256})
			} else {
				raw, err = rsa.DecryptPKCS1v15(nil, keys.private, ct)
			}
			if err != nil || string(raw) != tt.wantJSON {
				t.Fatalf("raw plaintext = %q, %v", raw, err)
			}
		})
	}
}

func TestQRPayloadRejects(t *testing.T) {
	a := newAuthority(t)
	keys := loadTestKeys(t)
	good := model.QRInput{IRN: "INV001-94ND90NR-20240611", Timestamp: 1731618237, PublicKey: keys.public, Certificate: keys.certificate}
	small, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(*model.QRInput)
		typ    model.ProblemType
		loc    string
	}{
		{"negative timestamp", func(in *model.QRInput) { in.Timestamp = -1 }, model.ProblemValueError, "timestamp"},
		{"milliseconds", func(in *model.QRInput) { in.Timestamp = 1731618237000 }, model.ProblemValueError, "timestamp"},
		{"just above 10 digits", func(in *model.QRInput) { in.Timestamp = 10_000_000_000 }, model.ProblemValueError, "timestamp"},
		{"fewer than 10 digits", func(in *model.QRInput) { in.Timestamp = 999_999_999 }, model.ProblemValueError, "timestamp"},
		{"zero timestamp", func(in *model.QRInput) { in.Timestamp = 0 }, model.ProblemValueError, "timestamp"},
		{"malformed IRN", func(in *model.QRInput) { in.IRN = "INV-001-94ND90NR-20240611" }, model.ProblemStringPatternMismatch, "irn"},
		{"IRN with quote", func(in *model.QRInput) { in.IRN = `INV"1-94ND90NR-20240611` }, model.ProblemStringPatternMismatch, "irn"},
		{"no IRN", func(in *model.QRInput) { in.IRN = "" }, model.ProblemMissing, "irn"},
		{"no certificate", func(in *model.QRInput) { in.Certificate = "" }, model.ProblemMissing, "certificate"},
		{"certificate not UTF-8", func(in *model.QRInput) { in.Certificate = "\xff\xfe" }, model.ProblemValueError, "certificate"},
		{"certificate too long for the key", func(in *model.QRInput) { in.Certificate = strings.Repeat("A", 300) }, model.ProblemStringTooLong, "certificate"},
		{"certificate too long for OAEP", func(in *model.QRInput) {
			in.Certificate = strings.Repeat("A", 130)
			in.Encryption = model.QREncryptionOAEPSHA256
		}, model.ProblemStringTooLong, "certificate"},
		{"no key", func(in *model.QRInput) { in.PublicKey = nil }, model.ProblemMissing, "public_key"},
		{"unknown encryption", func(in *model.QRInput) { in.Encryption = "RSA-OAEP-SHA1" }, model.ProblemEnum, "encryption"},
		{"1024-bit key", func(in *model.QRInput) { in.PublicKey = &small.PublicKey }, model.ProblemValueError, "public_key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := good
			tt.change(&in)
			p, err := a.QRPayload(in)
			if p != "" || err == nil {
				t.Fatalf("QRPayload = %q, %v; want an error", p, err)
			}
			if tt.loc != "" {
				problemAt(t, err, tt.typ, tt.loc)
			}
		})
	}
	// Every problem at once.
	_, err = a.QRPayload(model.QRInput{Timestamp: -5})
	if e := model.AsError(err); e == nil || len(e.Fields) != 4 {
		t.Fatalf("want irn, timestamp, certificate and public_key problems, got %v", err)
	}
}

func TestDecryptQRRejects(t *testing.T) {
	keys := loadTestKeys(t)
	other, err := GenerateSandboxKeys(nil)
	if err != nil {
		t.Fatal(err)
	}
	a := newAuthority(t)
	p, err := a.QRPayload(model.QRInput{IRN: "INV001-94ND90NR-20240611", Timestamp: 1731618237,
		PublicKey: keys.public, Certificate: keys.certificate})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		priv *rsa.PrivateKey
		in   string
		enc  model.QREncryption
		loc  string
	}{
		{"not base64", keys.private, "***", model.QREncryptionPKCS1v15, "qr_payload"},
		{"wrong key", other.PrivateKey, p, model.QREncryptionPKCS1v15, "qr_payload"},
		{"wrong scheme", keys.private, p, model.QREncryptionOAEPSHA256, "qr_payload"},
		{"unknown scheme", keys.private, p, "RSA-RAW", "encryption"},
		{"no key", nil, p, model.QREncryptionPKCS1v15, "private_key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := DecryptQR(tt.priv, tt.in, tt.enc)
			if e := model.AsError(err); e == nil || e.Code != model.CodeInvalid || !sameLoc(e.Fields[0].Loc, []any{tt.loc}) {
				t.Fatalf("err = %v, want invalid at %s", err, tt.loc)
			}
		})
	}
}

func TestParsePublicKey(t *testing.T) {
	keys := loadTestKeys(t)
	pkixPEM := string(readFile(t, filepath.Join(keysDir, "public.pem")))
	pkcs1PEM := string(readFile(t, filepath.Join(keysDir, "public-pkcs1.pem")))
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	want := KeyFingerprint(keys.public)
	forms := map[string]string{
		"crypto_keys.txt form (base64 of PKIX PEM)": keys.cryptoKeys.PublicKey,
		"PKIX PEM":                   pkixPEM,
		"PKCS#1 PEM":                 pkcs1PEM,
		"base64 of PKCS#1 PEM":       b64(pkcs1PEM),
		"PEM with escaped newlines":  strings.ReplaceAll(pkixPEM, "\n", `\n`),
		"base64 wrapped at 76":       wrap(keys.cryptoKeys.PublicKey, 76),
		"surrounding blanks":         "\n  " + pkixPEM + "  \n",
		"unpadded base64 of the PEM": strings.TrimRight(keys.cryptoKeys.PublicKey, "="),
	}
	for name, s := range forms {
		t.Run(name, func(t *testing.T) {
			pub, err := ParsePublicKey(s)
			if err != nil {
				t.Fatalf("ParsePublicKey: %v", err)
			}
			if got := KeyFingerprint(pub); got != want {
				t.Errorf("fingerprint %s, want %s", got, want)
			}
		})
	}

	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ecDER, _ := x509.MarshalPKIXPublicKey(&ecKey.PublicKey)
	small, _ := rsa.GenerateKey(rand.Reader, 1024)
	smallDER, _ := x509.MarshalPKIXPublicKey(&small.PublicKey)
	privPEM := string(readFile(t, filepath.Join(keysDir, "private.pem")))
	bad := map[string]string{
		"empty":             "",
		"not a key":         "hello",
		"base64 of garbage": b64("hello"),
		"EC key":            string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: ecDER})),
		"1024-bit key":      string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: smallDER})),
		"private key":       privPEM,
		"corrupt DER":       string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: []byte{1, 2, 3}})),
		"corrupt PKCS#1":    string(pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: []byte{1, 2, 3}})),
	}
	for name, s := range bad {
		t.Run("rejects "+name, func(t *testing.T) {
			pub, err := ParsePublicKey(s)
			if pub != nil {
				t.Fatal("accepted")
			}
			e := model.AsError(err)
			if e == nil || e.Code != model.CodeInvalid || !sameLoc(e.Fields[0].Loc, []any{"public_key"}) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func wrap(s string, n int) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + "\n")
		s = s[n:]
	}
	b.WriteString(s)
	return b.String()
}

func TestKeyFingerprint(t *testing.T) {
	keys := loadTestKeys(t)
	// Committed value: a fingerprint that changes breaks every stored reference.
	const want = "SHA256:5wi45svm4fOeLFkCYinzuQTec6OYwTYyeRz2tJvnzVQ"
	if got := KeyFingerprint(keys.public); got != want {
		t.Fatalf("KeyFingerprint = %s, want %s", got, want)
	}
	if got := KeyFingerprint(&keys.private.PublicKey); got != want {
		t.Fatalf("fingerprint from the private key = %s", got)
	}
	if KeyFingerprint(nil) != "" {
		t.Error("fingerprint of nil")
	}
}

func TestParsePrivateKey(t *testing.T) {
	keys := loadTestKeys(t)
	pkcs1 := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(keys.private)}))
	for name, s := range map[string]string{
		"PKCS#1":           pkcs1,
		"base64 of PKCS#1": base64.StdEncoding.EncodeToString([]byte(pkcs1)),
	} {
		k, err := ParsePrivateKey(s)
		if err != nil || !k.Equal(keys.private) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := ParsePrivateKey(string(readFile(t, filepath.Join(keysDir, "public.pem")))); err == nil {
		t.Error("public key accepted as private")
	}
}

func TestGenerateSandboxKeys(t *testing.T) {
	k, err := GenerateSandboxKeys(nil)
	if err != nil {
		t.Fatal(err)
	}
	if k.PrivateKey.N.BitLen() != 2048 {
		t.Errorf("key has %d bits", k.PrivateKey.N.BitLen())
	}
	if len(k.Certificate) != 60 {
		t.Errorf("certificate has %d characters", len(k.Certificate))
	}
	if _, err := base64.StdEncoding.DecodeString(k.Certificate); err != nil {
		t.Errorf("certificate is not base64: %v", err)
	}
	raw, err := base64.StdEncoding.DecodeString(k.PublicKey)
	if err != nil || !bytes.HasPrefix(raw, []byte("-----BEGIN PUBLIC KEY-----\n")) {
		t.Fatalf("public key is not base64 of a PEM: %v %q", err, raw)
	}
	pub, err := ParsePublicKey(k.PublicKey)
	if err != nil || !pub.Equal(&k.PrivateKey.PublicKey) {
		t.Fatalf("public key does not parse back: %v", err)
	}
	priv, err := ParsePrivateKey(k.PrivateKeyPEM)
	if err != nil || !priv.Equal(k.PrivateKey) {
		t.Fatalf("private key does not parse back: %v", err)
	}
	if k.Fingerprint != KeyFingerprint(pub) {
		t.Error("fingerprint mismatch")
	}
	ck, _ := json.Marshal(k.CryptoKeys())
	var back CryptoKeys
	if err := json.Unmarshal(ck, &back); err != nil || back.PublicKey != k.PublicKey || back.Certificate != k.Certificate {
		t.Errorf("crypto keys round trip: %s", ck)
	}

	// The payload a sandbox project builds decrypts in the sandbox stand-in.
	a := newAuthority(t)
	p, err := a.QRPayload(model.QRInput{IRN: "POS000981-7XQ4LM2P-20260316", Timestamp: 1773686530, PublicKey: pub, Certificate: k.Certificate})
	if err != nil {
		t.Fatal(err)
	}
	irnTS, cert, err := DecryptQR(k.PrivateKey, p, "")
	if err != nil || irnTS != "POS000981-7XQ4LM2P-20260316.1773686530" || cert != k.Certificate {
		t.Fatalf("DecryptQR = %q %q %v", irnTS, cert, err)
	}

	other, _ := GenerateSandboxKeys(nil)
	if other.Certificate == k.Certificate || other.Fingerprint == k.Fingerprint {
		t.Error("two key sets are equal")
	}
	if _, err := GenerateSandboxKeys(strings.NewReader("short")); err == nil {
		t.Error("a failing random source must fail")
	}
}

// TestQRVectors decrypts the published vectors of docs/nrs-test-vectors.md
// with the committed private key.
func TestQRVectors(t *testing.T) {
	keys := loadTestKeys(t)
	var vectors []struct {
		Name        string             `json:"name"`
		IRN         string             `json:"irn"`
		Timestamp   int64              `json:"timestamp"`
		Certificate string             `json:"certificate"`
		Encryption  model.QREncryption `json:"encryption"`
		Plaintext   string             `json:"plaintext"`
		QRPayload   string             `json:"qr_payload"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(keysDir, "qr-vectors.json")), &vectors); err != nil {
		t.Fatal(err)
	}
	if len(vectors) != 2 {
		t.Fatalf("%d vectors", len(vectors))
	}
	docs := string(readFile(t, "../../docs/nrs-test-vectors.md"))
	for _, v := range vectors {
		t.Run(v.Name, func(t *testing.T) {
			if len(v.QRPayload) != 344 {
				t.Errorf("payload has %d characters", len(v.QRPayload))
			}
			if want := string(qrJSON(v.IRN, v.Timestamp, v.Certificate)); v.Plaintext != want {
				t.Fatalf("plaintext %s, want %s", v.Plaintext, want)
			}
			irnTS, cert, err := DecryptQR(keys.private, v.QRPayload, v.Encryption)
			if err != nil {
				t.Fatal(err)
			}
			if irnTS != "INV001-94ND90NR-20240611.1731618237" || cert != keys.certificate {
				t.Fatalf("decrypted %q %q", irnTS, cert)
			}
			if !strings.Contains(docs, v.QRPayload) {
				t.Error("payload is not published in docs/nrs-test-vectors.md")
			}
		})
	}
}
