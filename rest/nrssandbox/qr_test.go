package nrssandbox_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
)

// qrVector is one entry of testdata/keys/qr-vectors.json.
type qrVector struct {
	Name       string `json:"name"`
	IRN        string `json:"irn"`
	Timestamp  int64  `json:"timestamp"`
	Encryption string `json:"encryption"`
	QRPayload  string `json:"qr_payload"`
}

func readTestdata(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "keys", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestQRVerify(t *testing.T) {
	var ck nrs.CryptoKeys
	if err := json.Unmarshal(readTestdata(t, "crypto_keys.txt"), &ck); err != nil {
		t.Fatal(err)
	}
	var vectors []qrVector
	if err := json.Unmarshal(readTestdata(t, "qr-vectors.json"), &vectors); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, nrssandbox.Options{})
	// The business of the published vectors: service ID 94ND90NR, the
	// testdata key pair and certificate.
	biz := nrssandbox.Business{
		Owner: "qr", BusinessID: uuid.NewString(), ServiceID: "94ND90NR", Certificate: ck.Certificate,
		PrivateKeyPEM: string(readTestdata(t, "private.pem")), PublicKey: ck.PublicKey,
		APIKey: uuid.NewString(), APISecret: "qr-secret",
	}
	if _, err := e.h.Register(context.Background(), biz); err != nil {
		t.Fatal(err)
	}
	pub, err := nrs.ParsePublicKey(ck.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := nrs.New(nrs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	build := func(irn, cert string) string {
		t.Helper()
		p, err := rules.QRPayload(model.QRInput{IRN: irn, Timestamp: time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC).Unix(),
			PublicKey: pub, Certificate: cert})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	vector := func(name string) qrVector {
		for _, v := range vectors {
			if v.Name == name {
				return v
			}
		}
		t.Fatalf("no vector %s", name)
		return qrVector{}
	}
	pkcs, oaep := vector("RSA-PKCS1-v1_5"), vector("RSA-OAEP-SHA256")
	const irn = "SGN2026000123-94ND90NR-20260315"

	for _, tc := range []struct {
		name   string
		body   map[string]string
		valid  bool
		failed string // the first failed check
	}{
		{"published PKCS#1 vector", map[string]string{"irn": pkcs.IRN, "qr_payload": pkcs.QRPayload}, true, ""},
		{"published OAEP vector", map[string]string{"irn": oaep.IRN, "qr_payload": oaep.QRPayload, "encryption": oaep.Encryption}, true, ""},
		{"OAEP payload read as PKCS#1", map[string]string{"irn": oaep.IRN, "qr_payload": oaep.QRPayload}, false, nrssandbox.QRCheckDecrypt},
		{"payload built by model/nrs", map[string]string{"irn": irn, "qr_payload": build(irn, ck.Certificate)}, true, ""},
		{"payload of another IRN", map[string]string{"irn": irn, "qr_payload": build("OTHER1-94ND90NR-20260315", ck.Certificate)}, false, nrssandbox.QRCheckIRN},
		{"payload with another certificate", map[string]string{"irn": irn, "qr_payload": build(irn, "bm90LXRoZS1jZXJ0aWZpY2F0ZQ==")}, false, nrssandbox.QRCheckCertificate},
		{"not base64", map[string]string{"irn": irn, "qr_payload": "%%%"}, false, nrssandbox.QRCheckDecrypt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := e.call(&biz, "POST", "/api/v1/invoice/qr/verify", tc.body)
			if a.Status != 200 {
				t.Fatalf("got %d %s", a.Status, a.Raw)
			}
			d := a.data(t)
			if d["valid"] != tc.valid {
				t.Fatalf("valid: want %v: %s", tc.valid, a.Raw)
			}
			failed := ""
			for _, c := range d["checks"].([]any) {
				if c := c.(map[string]any); c["passed"] != true && failed == "" {
					failed = c["name"].(string)
				}
			}
			if failed != tc.failed {
				t.Fatalf("first failed check: want %q, got %q: %s", tc.failed, failed, a.Raw)
			}
			if tc.valid && d["irn"] != tc.body["irn"] {
				t.Fatalf("irn: %s", a.Raw)
			}
		})
	}

	t.Run("vector timestamp", func(t *testing.T) {
		d := e.call(&biz, "POST", "/api/v1/invoice/qr/verify", map[string]string{"irn": pkcs.IRN, "qr_payload": pkcs.QRPayload}).data(t)
		if d["timestamp"] != float64(pkcs.Timestamp) {
			t.Fatalf("timestamp: %v", d)
		}
	})
	t.Run("missing payload", func(t *testing.T) {
		a := e.call(&biz, "POST", "/api/v1/invoice/qr/verify", map[string]string{"irn": irn})
		refusedWith(t, a, 400, "invoice_actions", "validation failed", "irn and qr_payload are required")
	})
	t.Run("business without private key", func(t *testing.T) {
		nokey := biz
		nokey.Owner, nokey.BusinessID, nokey.APIKey, nokey.PrivateKeyPEM, nokey.PublicKey = "nokey", uuid.NewString(), uuid.NewString(), "", ""
		if _, err := e.h.Register(context.Background(), nokey); err != nil {
			t.Fatal(err)
		}
		a := e.call(&nokey, "POST", "/api/v1/invoice/qr/verify", map[string]string{"irn": pkcs.IRN, "qr_payload": pkcs.QRPayload})
		refusedWith(t, a, 400, "invoice_actions", "validation failed", "")
	})
}
