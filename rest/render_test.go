package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

const renderPath = "/api/v2/invoices/render"

// loadFixture returns a shared fixture decoded as a generic value.
func loadFixture(t testing.TB, name string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("../testdata/fixtures", name))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// nrsShaped gives a payload's lines the discount and fee fields as NRS
// writes them (0 when unused), so that it renders without warnings.
func nrsShaped(p map[string]any) map[string]any {
	for _, l := range p["invoice_line"].([]any) {
		for _, k := range []string{"dicount_rate", "dicount_amount", "fee_rate", "fee_amount"} {
			l.(map[string]any)[k] = 0
		}
	}
	return p
}

// renderReq is a render request with the tenant's key.
func renderReq(tn tenant, path string, body any, header map[string]string) req {
	return req{method: "POST", path: path, clientID: tn.ClientID, secret: tn.Secret, body: body, header: header}
}

// decryptSandboxQR opens a QR payload with the sandbox private key every
// test project shares.
func decryptSandboxQR(t testing.TB, payload string) (irnWithTS, certificate string) {
	t.Helper()
	k, err := testSandboxKeys()
	if err != nil {
		t.Fatal(err)
	}
	priv, err := nrs.ParsePrivateKey(k.PrivateKeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	irnWithTS, certificate, err = nrs.DecryptQR(priv, payload, model.QREncryptionPKCS1v15)
	if err != nil {
		t.Fatalf("decrypt QR payload: %v", err)
	}
	if certificate != k.Certificate {
		t.Errorf("QR certificate %q, want the project's %q", certificate, k.Certificate)
	}
	return irnWithTS, certificate
}

var irnPattern = regexp.MustCompile(`^([A-Z0-9]+)-([A-Z0-9]{8})-(\d{8})$`)

func TestRenderInvoiceJSON(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	tn := s.tenant("sango")
	cases := []struct {
		file, kind, ref, date, payable string
	}{
		{"invoice-b2b-1.1.json", "B2B", "SGN2026000123", "20260315", "75250.00"},
		{"invoice-b2c-1.1.json", "B2C", "POS000981", "20260316", "3225.00"},
		{"invoice-b2g-1.1.json", "B2G", "GOV2026004", "20260320", "419250.00"},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			res := s.do(renderReq(tn, renderPath, map[string]any{"invoice_type": c.kind, "payload": loadFixture(t, c.file)}, nil))
			if res.Status != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
				t.Fatalf("status %d %s: %s", res.Status, res.Header.Get("Content-Type"), res.Body)
			}
			v := res.json(t)
			irn, _ := v["irn"].(string)
			m := irnPattern.FindStringSubmatch(irn)
			if m == nil || m[1] != c.ref || m[3] != c.date || m[2] == "7XQ4LM2P" {
				t.Fatalf("irn %q: want %s with this project's service id and %s", irn, c.ref, c.date)
			}
			if v["invoice_type"] != c.kind || v["validation"].(map[string]any)["valid"] != true ||
				v["totals"].(map[string]any)["payable_amount"] != c.payable {
				t.Errorf("view: %s", res.Body)
			}
			// The fixtures carry another business's placeholders: both are
			// replaced, and the view says so.
			var warned []string
			for _, w := range v["warnings"].([]any) {
				w := w.(map[string]any)
				warned = append(warned, w["rule"].(string)+"@"+fmt.Sprint(w["loc"]))
			}
			if want := []string{"RENDER-BUSINESS-ID-REPLACED@[body payload business_id]", "RENDER-IRN-REBUILT@[body payload irn]"}; fmt.Sprint(warned) != fmt.Sprint(want) {
				t.Errorf("warnings %v, want %v", warned, want)
			}
			qr := v["qr"].(map[string]any)
			payload := qr["payload"].(string)
			if len(payload) != 344 {
				t.Fatalf("qr payload of %d characters", len(payload))
			}
			irnTS, _ := decryptSandboxQR(t, payload)
			if want := irn + "." + strconv.FormatInt(int64(qr["timestamp"].(float64)), 10); irnTS != want {
				t.Errorf("QR holds %q, want %q", irnTS, want)
			}
			if party := v["supplier"].(map[string]any); party["tin"] != "31447720-0001" {
				t.Errorf("supplier: %v", party)
			}
		})
	}
}

func TestRenderInvoicePDF(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	tn := s.tenant("sango")
	body := map[string]any{"invoice_type": "B2B", "payload": nrsShaped(loadFixture(t, "invoice-b2b-1.1.json"))}
	cases := []struct {
		name   string
		path   string
		accept string
		pdf    bool
	}{
		{"accept pdf", renderPath, "application/pdf", true},
		{"accept pdf preferred", renderPath, "application/json;q=0.5, application/pdf", true},
		{"accept json preferred", renderPath, "application/pdf;q=0.5, application/json", false},
		{"accept anything", renderPath, "*/*", false},
		{"format pdf", renderPath + "?format=pdf", "", true},
		{"format wins over accept", renderPath + "?format=json", "application/pdf", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := s.do(renderReq(tn, c.path, body, map[string]string{"Accept": c.accept}))
			if res.Status != 200 {
				t.Fatalf("status %d: %s", res.Status, res.Body)
			}
			isPDF := res.Header.Get("Content-Type") == "application/pdf"
			if isPDF != c.pdf || isPDF != bytes.HasPrefix(res.Body, []byte("%PDF-")) {
				t.Fatalf("content type %q, PDF wanted %v", res.Header.Get("Content-Type"), c.pdf)
			}
			if !strings.Contains(res.Header.Get("Vary"), "Accept") {
				t.Errorf("Vary: %q", res.Header.Get("Vary"))
			}
		})
	}

	res := s.do(renderReq(tn, renderPath, body, map[string]string{"Accept": "application/pdf"}))
	cd := res.Header.Get("Content-Disposition")
	m := regexp.MustCompile(`^inline; filename="([A-Z0-9]+-[A-Z0-9]{8}-\d{8})\.pdf"$`).FindStringSubmatch(cd)
	if m == nil {
		t.Fatalf("Content-Disposition %q", cd)
	}
	irn := m[1]
	if res.Header.Get("Content-Length") != strconv.Itoa(len(res.Body)) {
		t.Errorf("Content-Length %q for %d bytes", res.Header.Get("Content-Length"), len(res.Body))
	}

	text := pdfText(t, res.Body)
	for _, want := range []string{irn, "₦75,250.00", "Ekiti Homes Development Co", "Page 1 of 1"} {
		if !strings.Contains(text, want) {
			t.Errorf("PDF text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "NOT VALID FOR SUBMISSION") {
		t.Error("valid invoice carries the banner")
	}

	// The QR code on page 1 scans back to a payload that decrypts, with the
	// sandbox key, to this IRN.
	payload := scanQR(t, res.Body)
	if len(payload) != 344 {
		t.Fatalf("scanned %d characters: %q", len(payload), payload)
	}
	irnTS, _ := decryptSandboxQR(t, payload)
	if !strings.HasPrefix(irnTS, irn+".") || len(irnTS) != len(irn)+11 {
		t.Errorf("QR holds %q, want %s.<unix seconds>", irnTS, irn)
	}
}

func TestRenderInvoiceInvalid(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	tn := s.tenant("sango")
	cases := []struct {
		file    string
		profile string   // the project's validation profile
		want    []string // error paths
	}{
		{"invalid-missing-supplier-tin.json", "nrs", []string{"/accounting_supplier_party/tin"}},
		{"invalid-type-code-and-date.json", "nrs", []string{"/invoice_type_code", "/issue_date"}},
		// A warning under nrs (NRS publishes no arithmetic rule): rendering
		// follows the project's profile, here strict.
		{"invalid-payable-mismatch.json", "strict", []string{"/legal_monetary_total/payable_amount"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			s.must(200, req{method: "PATCH", path: "/api/v2/projects/" + tn.ProjectID, token: tn.Token, body: map[string]any{"validation_profile": c.profile}})
			body := map[string]any{"invoice_type": "B2B", "payload": loadFixture(t, c.file)}
			v := s.must(200, renderReq(tn, renderPath, body, nil))
			val := v["validation"].(map[string]any)
			var paths []string
			for _, e := range val["errors"].([]any) {
				e := e.(map[string]any)
				paths = append(paths, e["path"].(string))
				if loc := e["loc"].([]any); loc[0] != "body" || loc[1] != "payload" {
					t.Errorf("issue loc %v", loc)
				}
			}
			if val["valid"] != false || fmt.Sprint(paths) != fmt.Sprint(c.want) {
				t.Errorf("validation: valid %v errors at %v, want %v", val["valid"], paths, c.want)
			}

			res := s.do(renderReq(tn, renderPath+"?format=pdf", body, nil))
			if res.Status != 200 {
				t.Fatalf("PDF status %d: %s", res.Status, res.Body)
			}
			if text := pdfText(t, res.Body); !strings.Contains(text, "NOT VALID FOR SUBMISSION") {
				t.Errorf("invalid invoice without the banner:\n%s", text)
			}
		})
	}
}

func TestRenderInvoiceRejects(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	tn := s.tenant("sango")
	valid := loadFixture(t, "invoice-b2b-1.1.json")
	wrongTypes := loadFixture(t, "invoice-b2b-1.1.json")
	wrongTypes["invoice_line"].([]any)[1].(map[string]any)["invoiced_quantity"] = "one"
	wrongTypes["legal_monetary_total"] = []any{75250}
	wrongTypes["accounting_customer_party"] = "Ekiti Homes"
	cases := []struct {
		name string
		path string
		body any
		want []string
	}{
		{"kind outside B2B, B2C, B2G", renderPath, map[string]any{"invoice_type": "B2X", "payload": valid}, []string{"enum@body/invoice_type"}},
		{"type code is not a kind", renderPath, map[string]any{"invoice_type": "381", "payload": valid}, []string{"enum@body/invoice_type"}},
		{"kind of the wrong type", renderPath, map[string]any{"invoice_type": 2, "payload": valid}, []string{"string_type@body/invoice_type"}},
		{"missing fields", renderPath, map[string]any{}, []string{"missing@body/invoice_type", "missing@body/payload"}},
		{"payload not an object", renderPath, map[string]any{"invoice_type": "B2B", "payload": []any{1}}, []string{"dict_type@body/payload"}},
		{"payload with wrong types", renderPath, map[string]any{"invoice_type": "B2B", "payload": wrongTypes}, []string{
			"dict_type@body/payload/accounting_customer_party",
			"value_error@body/payload/invoice_line/1/invoiced_quantity",
			"dict_type@body/payload/legal_monetary_total",
		}},
		{"unknown format", renderPath + "?format=xml", map[string]any{"invoice_type": "B2B", "payload": valid}, []string{"enum@query/format"}},
		{"unknown format and bad body", renderPath + "?format=png", map[string]any{"payload": valid}, []string{"enum@query/format", "missing@body/invoice_type"}},
		{"malformed JSON", renderPath, `{"invoice_type": "B2B",`, []string{"json_invalid@body/23"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := locs(detail(t, s.do(renderReq(tn, c.path, c.body, map[string]string{"Accept": "application/pdf"}))))
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestRenderInvoiceAccess(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	tn := s.tenant("sango")
	body := map[string]any{"invoice_type": "B2B", "payload": loadFixture(t, "invoice-b2b-1.1.json")}

	if res := s.do(req{method: "POST", path: renderPath, body: body}); res.Status != 401 {
		t.Errorf("no key: %d", res.Status)
	}

	narrow := s.must(200, req{method: "POST", path: "/api/v2/projects/" + tn.ProjectID + "/keys", token: tn.Token,
		body: map[string]any{"key_name": "qr only", "scopes": []string{"qr:generate"}}})
	res := s.do(req{method: "POST", path: renderPath, body: body, clientID: narrow["client_id"].(string), secret: narrow["client_secret"].(string)})
	if res.Status != 403 || res.json(t)["code"] != "forbidden" {
		t.Errorf("key without invoices:render: %d %s", res.Status, res.Body)
	}

	prod := s.must(200, req{method: "POST", path: "/api/v2/projects", token: tn.Token, body: map[string]any{
		"organization_id": tn.OrgID, "name": "ERP", "environment": "production"}})
	pk := s.must(200, req{method: "POST", path: "/api/v2/projects/" + prod["id"].(string) + "/keys", token: tn.Token, body: map[string]any{"key_name": "erp"}})
	for _, accept := range []string{"", "application/pdf"} {
		res := s.do(req{method: "POST", path: renderPath, body: body, clientID: pk["client_id"].(string), secret: pk["client_secret"].(string),
			header: map[string]string{"Accept": accept}})
		if res.Status != 409 || res.json(t)["code"] != string(model.CodeAuthorityNotConfigured) {
			t.Errorf("unconfigured production project (Accept %q): %d %s", accept, res.Status, res.Body)
		}
	}
}

// requireTools skips the test when a command-line tool is missing, or
// fails it when CI is set: CI must run these checks.
func requireTools(t testing.TB, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			msg := name + " not found: install poppler-utils and zbar-tools (apt-get install -y poppler-utils zbar-tools)"
			if os.Getenv("CI") != "" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
}

// pdfText extracts a PDF's text with pdftotext, keeping the layout.
func pdfText(t testing.TB, pdf []byte) string {
	t.Helper()
	requireTools(t, "pdftotext")
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", "-enc", "UTF-8", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return string(out)
}

// scanQR rasterises page 1 of a PDF at 150 dpi and decodes its QR code.
func scanQR(t testing.TB, pdf []byte) string {
	t.Helper()
	requireTools(t, "pdftoppm", "zbarimg")
	dir := t.TempDir()
	src := filepath.Join(dir, "doc.pdf")
	if err := os.WriteFile(src, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "page")
	if out, err := exec.Command("pdftoppm", "-r", "150", "-f", "1", "-l", "1", "-png", "-singlefile", src, page).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, out)
	}
	cmd := exec.Command("zbarimg", "-q", "--raw", "-Sdisable", "-Sqrcode.enable", page+".png")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("zbarimg found no QR code: %v: %s", err, stderr.String())
	}
	return strings.TrimRight(string(out), "\r\n")
}
