package rest_test

import (
	"bytes"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

func sqlite() storetest.Dialect { return storetest.Dialect{Name: "sqlite", Open: storetest.SQLite} }

// projectServiceID reads the sandbox project's service id.
func (s *server) projectServiceID(tn tenant) string {
	s.t.Helper()
	for _, it := range s.must(200, req{method: "GET", path: "/api/v2/projects", token: tn.Token})["items"].([]any) {
		p := it.(map[string]any)
		if p["id"] == tn.ProjectID {
			return p["authority"].(map[string]any)["service_id"].(string)
		}
	}
	s.t.Fatalf("project %s not listed", tn.ProjectID)
	return ""
}

func (s *server) projectBusinessID(tn tenant) string {
	s.t.Helper()
	for _, it := range s.must(200, req{method: "GET", path: "/api/v2/projects", token: tn.Token})["items"].([]any) {
		p := it.(map[string]any)
		if p["id"] == tn.ProjectID {
			return p["authority"].(map[string]any)["business_id"].(string)
		}
	}
	return ""
}

func irnReq(tn tenant, body map[string]any) req {
	return req{method: "POST", path: "/api/v2/invoices/irn/generate", clientID: tn.ClientID, secret: tn.Secret, body: body}
}

func TestGenerateIRN(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := newServer(t, d)
			tn := s.tenant("acme")
			sid := s.projectServiceID(tn)
			body := map[string]any{"invoice_reference": "INV001", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}
			got := s.must(200, irnReq(tn, body))
			want := "INV001-" + sid + "-20260315"
			if got["irn"] != want || got["service_id"] != sid || got["business_id"] != s.projectBusinessID(tn) ||
				got["issue_date"] != "2026-03-15" || got["invoice_type_code"] != "381" || got["tax_authority_code"] != "NRS" || got["invoice_reference"] != "INV001" {
				t.Fatalf("irn answer: %v (want irn %s)", got, want)
			}
			if !regexp.MustCompile(`^[A-Z0-9]+-[A-Z0-9]{8}-\d{8}$`).MatchString(got["irn"].(string)) {
				t.Fatalf("irn shape: %s", got["irn"])
			}
			// Idempotent, also with a lower-case reference and the FIRS alias.
			again := s.must(200, irnReq(tn, map[string]any{"invoice_reference": "inv001", "invoice_type_code": "B2B", "tax_authority_code": "firs", "issue_date": "2026-03-15"}))
			if again["irn"] != want {
				t.Fatalf("same reference and date gave %v", again["irn"])
			}
			// Same reference, another date: conflict, and nothing changes.
			c := s.do(irnReq(tn, map[string]any{"invoice_reference": "INV001", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-16"}))
			if c.Status != 409 || c.json(t)["code"] != "conflict" {
				t.Fatalf("another date: %d %s", c.Status, c.Body)
			}
			if again := s.must(200, irnReq(tn, body)); again["irn"] != want {
				t.Fatalf("after conflict: %v", again)
			}
			// Another tenant may use the same reference: IRNs are per project.
			other := s.tenant("other")
			if o := s.must(200, irnReq(other, body)); o["irn"] == want {
				t.Fatalf("two projects share a service id: %v", o)
			}
		})
	}
}

func TestGenerateIRNRejects(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	base := map[string]any{"invoice_reference": "INV001", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}
	with := func(k string, v any) map[string]any {
		b := map[string]any{}
		for kk, vv := range base {
			b[kk] = vv
		}
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	for _, c := range []struct {
		name string
		body map[string]any
		want []string
	}{
		{"hyphen in reference", with("invoice_reference", "INV-001"), []string{"string_pattern_mismatch@body/invoice_reference"}},
		{"space in reference", with("invoice_reference", "INV 001"), []string{"string_pattern_mismatch@body/invoice_reference"}},
		{"empty reference", with("invoice_reference", ""), []string{"missing@body/invoice_reference"}},
		{"long reference", with("invoice_reference", strings.Repeat("A", 51)), []string{"string_too_long@body/invoice_reference"}},
		{"non-ASCII reference", with("invoice_reference", "INVÉ01"), []string{"string_pattern_mismatch@body/invoice_reference"}},
		{"30 February", with("issue_date", "2026-02-30"), []string{"date_from_datetime_parsing@body/issue_date"}},
		{"month 13", with("issue_date", "2026-13-01"), []string{"date_from_datetime_parsing@body/issue_date"}},
		{"compact date", with("issue_date", "20260315"), []string{"date_from_datetime_parsing@body/issue_date"}},
		{"datetime", with("issue_date", "2026-03-15T10:00:00Z"), []string{"date_from_datetime_parsing@body/issue_date"}},
		{"unknown authority", with("tax_authority_code", "ZATCA"), []string{"enum@body/tax_authority_code"}},
		{"unknown type", with("invoice_type_code", "999"), []string{"enum@body/invoice_type_code"}},
		{"wrong types", with("issue_date", 20260315), []string{"string_type@body/issue_date"}},
		{"missing fields", map[string]any{}, []string{"missing@body/invoice_reference", "missing@body/invoice_type_code",
			"missing@body/tax_authority_code", "missing@body/issue_date"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := locs(detail(t, s.do(irnReq(tn, c.body))))
			if !slices.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
	// None of those recorded an IRN: the first valid request claims INV001 freely.
	s.must(200, irnReq(tn, base))
}

func TestGenerateIRNConcurrently(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := newServer(t, d)
			tn := s.tenant("acme")
			const n = 24
			var wg sync.WaitGroup
			results := make([]response, n)
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					// Half ask for one date, half for another: one date wins.
					date := "2026-03-15"
					if i%2 == 1 {
						date = "2026-03-16"
					}
					results[i] = s.do(irnReq(tn, map[string]any{"invoice_reference": "RACE1", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": date}))
				}(i)
			}
			wg.Wait()
			irns := map[string]bool{}
			conflicts := 0
			for _, r := range results {
				switch r.Status {
				case 200:
					irns[r.json(t)["irn"].(string)] = true
				case 409:
					conflicts++
				default:
					t.Fatalf("status %d: %s", r.Status, r.Body)
				}
			}
			if len(irns) != 1 || conflicts != n/2 {
				t.Fatalf("concurrent generation: %d distinct IRNs, %d conflicts (want 1 and %d)", len(irns), conflicts, n/2)
			}
		})
	}
}

func TestValidateIRN(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	sid, bid := s.projectServiceID(tn), s.projectBusinessID(tn)
	irn := s.must(200, irnReq(tn, map[string]any{"invoice_reference": "INV7", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2024-02-29"}))["irn"].(string)
	for _, c := range []struct {
		name       string
		ref, biz   string
		irn        string
		valid      bool
		failedWant []string
	}{
		{"valid", "INV7", bid, irn, true, nil},
		{"lower-case reference", "inv7", bid, irn, true, nil},
		{"other reference", "INV8", bid, irn, false, []string{"invoice_reference"}},
		{"other business", "INV7", "3f6c2a9e-8b41-4d7a-9c55-1e2f7a0b6d34", irn, false, []string{"business_id", "service_id"}},
		{"other service id", "INV7", bid, "INV7-ZZZZZZZZ-20240229", false, []string{"service_id"}},
		{"impossible date", "INV7", bid, "INV7-" + sid + "-20230229", false, []string{"date"}},
		{"no date", "INV7", bid, "INV7-" + sid, false, []string{"format"}},
		{"garbage", "INV7", bid, "???", false, []string{"format"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := s.must(200, req{method: "POST", path: "/api/v2/invoices/irn/validate", clientID: tn.ClientID, secret: tn.Secret,
				body: map[string]any{"invoice_reference": c.ref, "business_id": c.biz, "irn": c.irn}})
			if got["valid"] != c.valid || got["irn"] != c.irn {
				t.Fatalf("valid=%v: %v", got["valid"], got)
			}
			var failed, names []string
			for _, ch := range got["checks"].([]any) {
				m := ch.(map[string]any)
				names = append(names, m["name"].(string))
				if m["passed"] != true {
					failed = append(failed, m["name"].(string))
				}
				if m["message"] == "" {
					t.Fatalf("check without message: %v", m)
				}
			}
			for _, want := range []string{"business_id", "format", "invoice_reference", "service_id", "date"} {
				if !slices.Contains(names, want) {
					t.Fatalf("checks %v lack %s", names, want)
				}
			}
			for _, f := range c.failedWant {
				if !slices.Contains(failed, f) {
					t.Fatalf("failed checks %v lack %s", failed, f)
				}
			}
			if c.valid && len(failed) > 0 {
				t.Fatalf("valid IRN with failed checks %v", failed)
			}
		})
	}
	got := locs(detail(t, s.do(req{method: "POST", path: "/api/v2/invoices/irn/validate", clientID: tn.ClientID, secret: tn.Secret,
		body: map[string]any{"invoice_reference": "INV7", "business_id": "nope", "irn": 5}})))
	if !slices.Equal(got, []string{"string_type@body/irn"}) {
		t.Fatalf("bad body: %v", got)
	}
	got = locs(detail(t, s.do(req{method: "POST", path: "/api/v2/invoices/irn/validate", clientID: tn.ClientID, secret: tn.Secret,
		body: map[string]any{"invoice_reference": "INV7", "business_id": "nope", "irn": irn}})))
	if !slices.Equal(got, []string{"uuid_parsing@body/business_id"}) {
		t.Fatalf("bad business id: %v", got)
	}
}

func qrReq(tn tenant, path string, body map[string]any) req {
	return req{method: "POST", path: path, clientID: tn.ClientID, secret: tn.Secret, body: body}
}

func TestQRPayloadSandbox(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	irn := s.must(200, irnReq(tn, map[string]any{"invoice_reference": "INV001", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}))["irn"].(string)
	keys, _ := testSandboxKeys()
	priv, err := nrs.ParsePrivateKey(keys.PrivateKeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now().Unix()
	got := s.must(200, qrReq(tn, "/api/v2/invoices/qr/generate", map[string]any{"irn": irn}))
	ts := int64(got["timestamp"].(float64))
	if ts < before || ts > time.Now().Unix() {
		t.Fatalf("default timestamp %d is not now", ts)
	}
	payload := got["qr_payload"].(string)
	if len(payload) != 344 || got["encryption"] != "RSA-PKCS1-v1_5" || got["irn"] != irn {
		t.Fatalf("qr answer: %v", got)
	}
	if _, ok := got["qr_png_base64"]; ok {
		t.Fatalf("png without include=png")
	}
	irnTS, cert, err := nrs.DecryptQR(priv, payload, model.QREncryptionPKCS1v15)
	if err != nil || irnTS != irn+"."+strconv.FormatInt(ts, 10) || cert != keys.Certificate {
		t.Fatalf("decrypted %q %q %v", irnTS, cert, err)
	}
	raw := decryptRaw(t, priv, payload)
	if want := fmt.Sprintf(`{"irn":"%s.%d","certificate":"%s"}`, irn, ts, keys.Certificate); raw != want {
		t.Fatalf("plaintext:\n got  %s\n want %s", raw, want)
	}
	var fp string
	for _, it := range s.must(200, req{method: "GET", path: "/api/v2/projects", token: tn.Token})["items"].([]any) {
		fp = it.(map[string]any)["authority"].(map[string]any)["public_key_fingerprint"].(string)
	}
	if got["key_fingerprint"] != fp || !strings.HasPrefix(fp, "SHA256:") {
		t.Fatalf("fingerprint %v, project's %v", got["key_fingerprint"], fp)
	}

	fixed := s.must(200, qrReq(tn, "/api/v2/invoices/qr/generate?include=png", map[string]any{"irn": irn, "timestamp": 1731618237}))
	if fixed["timestamp"].(float64) != 1731618237 {
		t.Fatalf("timestamp: %v", fixed["timestamp"])
	}
	png, err := base64.StdEncoding.DecodeString(fixed["qr_png_base64"].(string))
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("png: %v", err)
	}
	if fixed["qr_payload"] == payload {
		t.Fatalf("two payloads alike: encryption must be randomized")
	}

	for _, c := range []struct {
		name, path string
		body       map[string]any
		want       []string
	}{
		{"milliseconds", "/api/v2/invoices/qr/generate", map[string]any{"irn": irn, "timestamp": 1731618237000}, []string{"value_error@body/timestamp"}},
		{"negative", "/api/v2/invoices/qr/generate", map[string]any{"irn": irn, "timestamp": -1}, []string{"value_error@body/timestamp"}},
		{"not a number", "/api/v2/invoices/qr/generate", map[string]any{"irn": irn, "timestamp": "now"}, []string{"int_type@body/timestamp"}},
		{"fraction", "/api/v2/invoices/qr/generate", map[string]any{"irn": irn, "timestamp": 1.5}, []string{"int_type@body/timestamp"}},
		{"foreign irn", "/api/v2/invoices/qr/generate", map[string]any{"irn": "INV001-7XQ4LM2P-20260315"}, []string{"value_error@body/irn"}},
		{"not an irn", "/api/v2/invoices/qr/generate", map[string]any{"irn": "hello"}, []string{"value_error@body/irn"}},
		{"missing irn", "/api/v2/invoices/qr/generate", map[string]any{}, []string{"missing@body/irn"}},
		{"bad include", "/api/v2/invoices/qr/generate?include=jpeg", map[string]any{"irn": irn}, []string{"enum@query/include"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := locs(detail(t, s.do(qrReq(tn, c.path, c.body)))); !slices.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

// decryptRaw decrypts a PKCS#1 v1.5 payload to its plaintext.
func decryptRaw(t testing.TB, priv *rsa.PrivateKey, payload string) string {
	t.Helper()
	ct, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := rsa.DecryptPKCS1v15(nil, priv, ct)
	if err != nil {
		t.Fatalf("decrypt: %v", err)
	}
	return string(pt)
}

func TestQRPayloadOwnKeysOAEP(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	var keysFile struct{ PublicKey, Certificate string }
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "keys", "crypto_keys.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var ck map[string]string
	if err := json.Unmarshal(raw, &ck); err != nil {
		t.Fatal(err)
	}
	keysFile.PublicKey, keysFile.Certificate = ck["public_key"], ck["certificate"]
	privPEM, err := os.ReadFile(filepath.Join("..", "testdata", "keys", "private.pem"))
	if err != nil {
		t.Fatal(err)
	}
	priv, err := nrs.ParsePrivateKey(string(privPEM))
	if err != nil {
		t.Fatal(err)
	}
	pr := s.must(200, req{method: "POST", path: "/api/v2/projects", token: tn.Token, body: map[string]any{"organization_id": tn.OrgID, "name": "Production ERP", "environment": "production"}})
	pid := pr["id"].(string)
	k := s.must(200, req{method: "POST", path: "/api/v2/projects/" + pid + "/keys", token: tn.Token, body: map[string]any{"key_name": "erp"}})
	prod := tenant{Token: tn.Token, ProjectID: pid, ClientID: k["client_id"].(string), Secret: k["client_secret"].(string)}

	// Unconfigured production project: 409 authority_not_configured.
	for _, r := range []req{
		irnReq(prod, map[string]any{"invoice_reference": "INV1", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}),
		qrReq(prod, "/api/v2/invoices/qr/generate", map[string]any{"irn": "INV1-94ND90NR-20260315"}),
	} {
		res := s.do(r)
		if res.Status != 409 || res.json(t)["code"] != "authority_not_configured" {
			t.Fatalf("unconfigured: %d %s", res.Status, res.Body)
		}
	}

	s.must(200, req{method: "PUT", path: "/api/v2/projects/" + pid + "/authority", token: tn.Token, body: map[string]any{
		"tax_authority_code": "NRS", "business_id": "3f6c2a9e-8b41-4d7a-9c55-1e2f7a0b6d34", "service_id": "94ND90NR",
		"public_key": keysFile.PublicKey, "certificate": keysFile.Certificate, "qr_encryption": "RSA-OAEP-SHA256"}})
	irn := s.must(200, irnReq(prod, map[string]any{"invoice_reference": "INV001", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2024-06-11"}))["irn"]
	if irn != "INV001-94ND90NR-20240611" {
		t.Fatalf("irn with own settings: %v", irn)
	}
	got := s.must(200, qrReq(prod, "/api/v2/invoices/qr/generate", map[string]any{"irn": irn, "timestamp": 1731618237}))
	if got["encryption"] != "RSA-OAEP-SHA256" || len(got["qr_payload"].(string)) != 344 {
		t.Fatalf("oaep answer: %v", got)
	}
	irnTS, cert, err := nrs.DecryptQR(priv, got["qr_payload"].(string), model.QREncryptionOAEPSHA256)
	if err != nil || irnTS != "INV001-94ND90NR-20240611.1731618237" || cert != keysFile.Certificate {
		t.Fatalf("decrypted %q %q %v", irnTS, cert, err)
	}
}

func fixture(t testing.TB, name string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", name))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func validateReq(tn tenant, body map[string]any) req {
	return req{method: "POST", path: "/api/v2/invoices/schema/validate", clientID: tn.ClientID, secret: tn.Secret, body: body}
}

func TestValidateInvoice(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	type issue struct{ rule, path string }
	for _, c := range []struct {
		file    string
		profile string
		valid   bool
		errors  []string // paths
	}{
		{"invoice-b2b-1.1.json", "", true, nil},
		{"invoice-b2c-1.1.json", "strict", true, nil},
		{"invoice-b2g-1.1.json", "", true, nil},
		{"invalid-missing-supplier-tin.json", "", false, []string{"/accounting_supplier_party/tin"}},
		{"invalid-payable-mismatch.json", "nrs", true, nil}, // a warning: NRS publishes no arithmetic rule
		{"invalid-payable-mismatch.json", "strict", false, []string{"/legal_monetary_total/payable_amount"}},
		{"invalid-type-code-and-date.json", "strict", false, []string{"/invoice_type_code", "/issue_date"}},
	} {
		t.Run(c.file+"/"+c.profile, func(t *testing.T) {
			p := fixture(t, c.file)
			body := map[string]any{"invoice_type_code": p["invoice_kind"], "tax_authority_code": "NRS", "schema_version": "1.1", "payload": p}
			wantProfile := "nrs"
			if c.profile != "" {
				body["profile"], wantProfile = c.profile, c.profile
			}
			got := s.must(200, validateReq(tn, body))
			if got["valid"] != c.valid || got["tax_authority_code"] != "NRS" || got["schema_version"] != "1.1" || got["profile"] != wantProfile ||
				!strings.HasPrefix(got["ruleset"].(string), "NRS-1.1/") || !strings.Contains(got["ruleset"].(string), "profile "+wantProfile+"; lists ") {
				t.Fatalf("report: %v", got)
			}
			var paths []string
			for _, e := range got["errors"].([]any) {
				m := e.(map[string]any)
				paths = append(paths, m["path"].(string))
				loc := m["loc"].([]any)
				if m["severity"] != "error" || m["rule"] == "" || loc[0] != "body" || loc[1] != "payload" {
					t.Fatalf("issue shape: %v", m)
				}
				if want := "/" + joinLoc(loc[2:]); want != m["path"] {
					t.Fatalf("loc %v does not match path %v", loc, m["path"])
				}
			}
			slices.Sort(paths)
			if !slices.Equal(paths, c.errors) {
				t.Fatalf("error paths %v, want %v", paths, c.errors)
			}
			if _, ok := got["warnings"].([]any); !ok {
				t.Fatalf("warnings must be a list: %v", got)
			}
		})
	}
	// Invalid invoices of our own, each reported at the right path.
	mutate := func(f func(p map[string]any)) map[string]any {
		p := fixture(t, "invoice-b2b-1.1.json")
		f(p)
		return p
	}
	// einvoice's consistency checks are errors under strict only.
	for _, c := range []struct {
		name    string
		profile string // the profile the case is an error under
		p       map[string]any
		path    string
		rule    string
		extra   bool
	}{
		{"b2b without customer", "strict", mutate(func(p map[string]any) { delete(p, "accounting_customer_party") }), "/accounting_customer_party", "NRS-PARTY-CUSTOMER-REQUIRED", false},
		{"due before issue", "strict", mutate(func(p map[string]any) { p["due_date"] = "2026-03-01" }), "/due_date", "NRS-DATE-DUE-BEFORE-ISSUE", false},
		{"bad currency", "nrs", mutate(func(p map[string]any) { p["document_currency_code"] = "NAI" }), "/document_currency_code", "NRS-CODE-CURRENCY", false},
		{"payment means 21, not NRS's", "nrs", mutate(func(p map[string]any) {
			p["payment_means"].([]any)[0].(map[string]any)["payment_means_code"] = "21"
		}), "/payment_means/0/payment_means_code", "NRS-CODE-PAYMENT-MEANS", false},
		{"bad customer tin", "strict", mutate(func(p map[string]any) {
			p["accounting_customer_party"].(map[string]any)["tin"] = "2098331500"
		}), "/accounting_customer_party/tin", "NRS-PARTY-TIN-FORMAT", false},
		{"line arithmetic", "strict", mutate(func(p map[string]any) {
			p["invoice_line"].([]any)[1].(map[string]any)["invoiced_quantity"] = json.Number("2")
		}), "/invoice_line/1/line_extension_amount", "NRS-ARITH-LINE", true},
		{"credit note without billing reference", "strict", mutate(func(p map[string]any) { p["invoice_type_code"] = "380" }), "/billing_reference", "NRS-BILLING-REFERENCE-REQUIRED", false},
		{"telephone without plus", "nrs", mutate(func(p map[string]any) {
			p["accounting_supplier_party"].(map[string]any)["telephone"] = "08031234567"
		}), "/accounting_supplier_party/telephone", "NRS-PARTY-TELEPHONE-FORMAT", false},
		{"service line without isic", "nrs", mutate(func(p map[string]any) {
			delete(p["invoice_line"].([]any)[1].(map[string]any), "isic_code")
		}), "/invoice_line/1", "NRS-LINE-CLASSIFICATION-REQUIRED", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.profile == "strict" {
				// Under nrs the same finding is a warning: the invoice is valid.
				got := s.must(200, validateReq(tn, map[string]any{"invoice_type_code": "B2B", "tax_authority_code": "NRS", "payload": c.p}))
				if got["valid"] != true {
					t.Fatalf("valid under nrs: %v", got)
				}
				found := false
				for _, w := range got["warnings"].([]any) {
					m := w.(map[string]any)
					found = found || m["rule"] == c.rule && m["path"] == c.path
				}
				if !found {
					t.Fatalf("no warning %s at %s: %v", c.rule, c.path, got["warnings"])
				}
			}
			got := s.must(200, validateReq(tn, map[string]any{"invoice_type_code": "B2B", "tax_authority_code": "NRS", "profile": c.profile, "payload": c.p}))
			if got["valid"] != false {
				t.Fatalf("valid: %v", got)
			}
			var found []issue
			for _, e := range got["errors"].([]any) {
				m := e.(map[string]any)
				found = append(found, issue{m["rule"].(string), m["path"].(string)})
			}
			if !slices.Contains(found, issue{c.rule, c.path}) {
				t.Fatalf("errors %v lack %s at %s", found, c.rule, c.path)
			}
			if !c.extra && len(found) != 1 {
				t.Fatalf("errors %v: want only %s", found, c.rule)
			}
		})
	}
	// Unusable requests are 422.
	p := fixture(t, "invoice-b2b-1.1.json")
	for _, c := range []struct {
		name string
		body map[string]any
		want []string
	}{
		{"unknown authority", map[string]any{"invoice_type_code": "B2B", "tax_authority_code": "ZATCA", "payload": p}, []string{"enum@body/tax_authority_code"}},
		{"unknown version", map[string]any{"invoice_type_code": "B2B", "tax_authority_code": "NRS", "schema_version": "2.0", "payload": p}, []string{"enum@body/schema_version"}},
		{"payload a string", map[string]any{"invoice_type_code": "B2B", "tax_authority_code": "NRS", "payload": "{}"}, []string{"dict_type@body/payload"}},
		{"payload a list", map[string]any{"invoice_type_code": "B2B", "tax_authority_code": "NRS", "payload": []any{p}}, []string{"dict_type@body/payload"}},
		{"no payload", map[string]any{"invoice_type_code": "B2B", "tax_authority_code": "NRS"}, []string{"missing@body/payload"}},
		{"bad type code", map[string]any{"invoice_type_code": "777", "tax_authority_code": "NRS", "payload": p}, []string{"enum@body/invoice_type_code"}},
		{"bad profile", map[string]any{"invoice_type_code": "B2B", "tax_authority_code": "NRS", "profile": "lenient", "payload": p}, []string{"enum@body/profile"}},
		{"profile not a string", map[string]any{"invoice_type_code": "B2B", "tax_authority_code": "NRS", "profile": true, "payload": p}, []string{"string_type@body/profile"}},
		{"nothing", map[string]any{}, []string{"missing@body/invoice_type_code", "missing@body/tax_authority_code", "missing@body/payload"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := locs(detail(t, s.do(validateReq(tn, c.body)))); !slices.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

func joinLoc(loc []any) string {
	parts := make([]string, len(loc))
	for i, l := range loc {
		switch v := l.(type) {
		case string:
			parts[i] = v
		case float64:
			parts[i] = strconv.Itoa(int(v))
		}
	}
	return strings.Join(parts, "/")
}

func TestInvoiceSchemas(t *testing.T) {
	s := newServer(t, sqlite())
	for _, path := range []string{"/api/v2/invoices/schemas/NRS/1.1", "/api/v2/invoices/schemas/firs/1.0"} {
		r := s.do(req{method: "GET", path: path})
		if r.Status != 200 || r.json(t)["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Fatalf("%s: %d %.200s", path, r.Status, r.Body)
		}
	}
	if got := locs(detail(t, s.do(req{method: "GET", path: "/api/v2/invoices/schemas/NRS/9.9"}))); !slices.Equal(got, []string{"enum@path/version"}) {
		t.Fatalf("unknown version: %v", got)
	}
	if got := locs(detail(t, s.do(req{method: "GET", path: "/api/v2/invoices/schemas/XYZ/1.1"}))); !slices.Equal(got, []string{"enum@path/authority"}) {
		t.Fatalf("unknown authority: %v", got)
	}
}

func TestInvoiceScopes(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	k := s.must(200, req{method: "POST", path: "/api/v2/projects/" + tn.ProjectID + "/keys", token: tn.Token,
		body: map[string]any{"key_name": "irn only", "scopes": []string{"irn:generate"}}})
	only := tenant{ClientID: k["client_id"].(string), Secret: k["client_secret"].(string)}
	s.must(200, irnReq(only, map[string]any{"invoice_reference": "A1", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}))
	for _, path := range []string{"/api/v2/invoices/qr/generate", "/api/v2/invoices/irn/validate", "/api/v2/invoices/schema/validate"} {
		r := s.do(req{method: "POST", path: path, clientID: only.ClientID, secret: only.Secret, body: map[string]any{}})
		if r.Status != 403 || r.json(t)["code"] != "forbidden" {
			t.Fatalf("%s without scope: %d %s", path, r.Status, r.Body)
		}
	}
	use := s.must(200, req{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret})
	if use["total"].(float64) < 1 {
		t.Fatalf("usage: %v", use)
	}
}
