package nrssandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb/sandboxdbtest"
)

// TestAttackPrivateKeyInClear: the stand-in kept businesses' QR private
// keys as clear PEM in its database, unlike einvoice's own store, which
// seals every secret. They are now sealed (AES-256-GCM under the
// stand-in's key, bound to the business); keys kept in clear before are
// sealed when the stand-in starts; QR payloads still verify.
func TestAttackPrivateKeyInClear(t *testing.T) {
	ctx := context.Background()
	db := sandboxdbtest.SQLite(t)
	key := bytes.Repeat([]byte("k"), 32)
	h, err := nrssandbox.New(nrssandbox.Options{DB: db, Logger: quietLog, SealKey: key})
	if err != nil {
		t.Fatal(err)
	}
	var ck nrs.CryptoKeys
	if err := json.Unmarshal(readTestdata(t, "crypto_keys.txt"), &ck); err != nil {
		t.Fatal(err)
	}
	privPEM := string(readTestdata(t, "private.pem"))
	body := func(pem string) string { // the key's base64 body, whatever its header
		lines := strings.Split(strings.TrimSpace(pem), "\n")
		return strings.Join(lines[1:len(lines)-1], "")
	}
	info, err := h.Register(ctx, nrssandbox.Business{Owner: "sealed", BusinessID: uuid.NewString(), ServiceID: "94ND90NR",
		Certificate: ck.Certificate, PrivateKeyPEM: privPEM, APIKey: uuid.NewString(), APISecret: "sealed-secret"})
	if err != nil {
		t.Fatal(err)
	}
	row, err := db.Businesses().ByID(ctx, info.BusinessID)
	if err != nil {
		t.Fatal(err)
	}
	opened, err := h.PrivateKeyOf(row)
	if err != nil || !strings.Contains(opened, "PRIVATE KEY") {
		t.Fatalf("the sealed key does not open: %v", err)
	}
	for _, clear := range []string{"PRIVATE KEY", body(privPEM)[:40], body(opened)[:40]} {
		if strings.Contains(row.PrivateKey, clear) {
			t.Fatalf("the database holds the private key in clear: %.80s", row.PrivateKey)
		}
	}
	// A row kept in clear before is sealed at the next start.
	if err := db.Businesses().SetPrivateKey(ctx, row.BusinessID, row.PrivateKey, opened); err != nil {
		t.Fatal(err)
	}
	h2, err := nrssandbox.New(nrssandbox.Options{DB: db, Logger: quietLog, SealKey: key})
	if err != nil {
		t.Fatal(err)
	}
	row, _ = db.Businesses().ByID(ctx, info.BusinessID)
	if strings.Contains(row.PrivateKey, "PRIVATE KEY") {
		t.Fatal("a key kept in clear was not sealed at start")
	}
	if again, err := h2.PrivateKeyOf(row); err != nil || again != opened {
		t.Fatalf("the key sealed at start does not open: %v", err)
	}
	// Another key cannot open it.
	other, err := nrssandbox.New(nrssandbox.Options{DB: db, Logger: quietLog, SealKey: bytes.Repeat([]byte("o"), 32)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.PrivateKeyOf(row); err == nil {
		t.Fatal("a stand-in with another key opened the private key")
	}
}
