package render_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/render"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

const (
	fixtureDir = "../../testdata/fixtures"
	keysDir    = "../../testdata/keys"
	goldenDir  = "../../testdata/golden"
)

// issuer is the project the test documents are rendered for: another
// service id than the fixtures' placeholders, as in real use.
var issuer = render.Issuer{BusinessID: "0b7c6a52-3f1e-4c9a-8d2b-5e6f7a8b9c0d", ServiceID: "94ND90NR"}

// clock is the fixed creation date of test documents.
var clock = time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)

var (
	authOnce sync.Once
	auth     *nrs.Authority
)

func authority(t testing.TB) *nrs.Authority {
	t.Helper()
	authOnce.Do(func() {
		a, err := nrs.New(nrs.Options{})
		if err != nil {
			panic(err)
		}
		auth = a
	})
	return auth
}

// decodeJSON decodes like the transports do: numbers as json.Number.
func decodeJSON(t testing.TB, data []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return v
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// loadFixture returns a fresh decoded copy of a shared fixture, its lines
// carrying the discount and fee fields as NRS writes them (0 when unused),
// so that its view has no warnings the layout does not care about.
func loadFixture(t testing.TB, name string) map[string]any {
	t.Helper()
	m, ok := decodeJSON(t, readFile(t, filepath.Join(fixtureDir, name))).(map[string]any)
	if !ok {
		t.Fatalf("%s is not an object", name)
	}
	lines, _ := m["invoice_line"].([]any)
	for _, l := range lines {
		nrsLine(l.(map[string]any))
	}
	return m
}

// nrsLine adds the four discount and fee fields a line lacks, at 0.
func nrsLine(l map[string]any) map[string]any {
	for _, k := range []string{"dicount_rate", "dicount_amount", "fee_rate", "fee_amount"} {
		if _, ok := l[k]; !ok {
			l[k] = json.Number("0")
		}
	}
	return l
}

// viewOf builds the view of a payload the way the service does; qr makes
// the QR payload for the IRN chosen.
func viewOf(t testing.TB, payload map[string]any, kind model.InvoiceKind, qr func(irn string) render.QR) render.View {
	t.Helper()
	return viewWith(t, payload, kind, model.ProfileNRS, qr)
}

// viewWith is viewOf under a validation profile.
func viewWith(t testing.TB, payload map[string]any, kind model.InvoiceKind, profile model.ValidationProfile, qr func(irn string) render.QR) render.View {
	t.Helper()
	a := authority(t)
	rep, err := a.Validate(model.ValidateInput{InvoiceTypeCode: string(kind), Payload: payload, Profile: profile})
	if err != nil {
		t.Fatal(err)
	}
	inv, err := nrs.Decode(payload)
	if err != nil {
		t.Fatal(err)
	}
	irn, businessID, warnings := render.Identify(a, inv, issuer)
	var q render.QR
	if irn != "" {
		q = qr(irn)
	}
	return render.NewView(render.Input{
		InvoiceType: kind, Invoice: inv, Totals: nrs.ComputeTotals(inv), Report: rep,
		IRN: irn, BusinessID: businessID, QR: q, Warnings: warnings,
	})
}

// fixedQR stands in for the random QR payload where the bytes must not
// change between runs: 344 base64 characters, like an RSA-2048 payload.
func fixedQR(string) render.QR {
	return render.QR{
		Payload:        strings.Repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo", 10)[:342] + "==",
		Timestamp:      clock.Unix(),
		Encryption:     model.QREncryptionPKCS1v15,
		KeyFingerprint: "SHA256:fixed",
	}
}

// testKeys are the throwaway RSA-2048 keys and certificate of testdata/keys.
type testKeys struct {
	crypto nrs.CryptoKeys
	priv   any
}

// realQR builds a real, decryptable QR payload for irn with the test keys.
func realQR(t testing.TB) func(irn string) render.QR {
	t.Helper()
	var ck nrs.CryptoKeys
	if err := json.Unmarshal(readFile(t, filepath.Join(keysDir, "crypto_keys.txt")), &ck); err != nil {
		t.Fatal(err)
	}
	pub, err := nrs.ParsePublicKey(ck.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return func(irn string) render.QR {
		payload, err := authority(t).QRPayload(model.QRInput{IRN: irn, Timestamp: clock.Unix(), PublicKey: pub, Certificate: ck.Certificate})
		if err != nil {
			t.Fatal(err)
		}
		return render.QR{Payload: payload, Timestamp: clock.Unix(), Encryption: model.QREncryptionPKCS1v15, KeyFingerprint: nrs.KeyFingerprint(pub)}
	}
}

// decryptQR opens a QR payload with the test private key.
func decryptQR(t testing.TB, payload string) (irnWithTS, certificate string) {
	t.Helper()
	priv, err := nrs.ParsePrivateKey(string(readFile(t, filepath.Join(keysDir, "private.pem"))))
	if err != nil {
		t.Fatal(err)
	}
	irnWithTS, certificate, err = nrs.DecryptQR(priv, payload, model.QREncryptionPKCS1v15)
	if err != nil {
		t.Fatalf("decrypt QR payload: %v", err)
	}
	return irnWithTS, certificate
}

// requireTools skips the test when a command-line tool is missing, or
// fails it when CI is set: CI must run these checks.
func requireTools(t testing.TB, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			msg := fmt.Sprintf("%s not found: install poppler-utils and zbar-tools (apt-get install -y poppler-utils zbar-tools)", name)
			if os.Getenv("CI") != "" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
}

// writeTemp writes b to a file in the test's temporary directory.
func writeTemp(t testing.TB, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// pdfText extracts the text of pages first..last (0 means to the end) with
// pdftotext, keeping the layout so that table rows stay on one line.
func pdfText(t testing.TB, pdf []byte, first, last int) string {
	t.Helper()
	requireTools(t, "pdftotext")
	path := writeTemp(t, "doc.pdf", pdf)
	args := []string{"-layout", "-enc", "UTF-8"}
	if first > 0 {
		args = append(args, "-f", fmt.Sprint(first))
	}
	if last > 0 {
		args = append(args, "-l", fmt.Sprint(last))
	}
	out, err := exec.Command("pdftotext", append(args, path, "-")...).CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return string(out)
}

// pageCount reads the number of pages with pdfinfo.
func pageCount(t testing.TB, pdf []byte) int {
	t.Helper()
	requireTools(t, "pdfinfo")
	out, err := exec.Command("pdfinfo", writeTemp(t, "doc.pdf", pdf)).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo: %v: %s", err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if n, ok := strings.CutPrefix(l, "Pages:"); ok {
			var pages int
			if _, err := fmt.Sscan(strings.TrimSpace(n), &pages); err == nil {
				return pages
			}
		}
	}
	t.Fatalf("pdfinfo gave no page count: %s", out)
	return 0
}
