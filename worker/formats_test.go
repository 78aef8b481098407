package worker_test

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/ubl"
	"github.com/einvoice-ng/einvoice/model/ubl/ubltest"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// raw makes a request with a body of its own content type and answers
// the recorded response.
func (r *rig) raw(method, path string, tn certtest.Tenant, contentType, accept, body string) *httptest.ResponseRecorder {
	r.t.Helper()
	hr := httptest.NewRequest(method, path, strings.NewReader(body))
	if contentType != "" {
		hr.Header.Set("Content-Type", contentType)
	}
	if accept != "" {
		hr.Header.Set("Accept", accept)
	}
	hr.Header.Set("X-Client-Id", tn.ClientID)
	hr.Header.Set("X-Client-Secret", tn.ClientSecret)
	rec := httptest.NewRecorder()
	r.e.Handler.ServeHTTP(rec, hr)
	return rec
}

func ublTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ubltest.Testdata(), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestUBLInConfirmedUBLOut is the whole round: a Peppol BIS 3 invoice
// posted as XML is converted, submitted and confirmed by the stand-in; its
// UBL comes back with IRN and QR, passes the UBL 2.1 schema and the Peppol
// BIS 3 Schematron, and converts back to the payload that was cleared,
// field by field. A credit note and a debit note built from it are
// confirmed referencing its IRN, and their UBL (a CreditNote, an Invoice
// of type 383) passes the same checks.
func TestUBLInConfirmedUBLOut(t *testing.T) {
	ubltest.Need(t, "xmllint", "saxon")
	r := newInvoiceRig(t, certtest.Options{Open: storetest.SQLite})
	r.startInvoiceWorker()
	tn := r.e.Tenant
	doc := ublTestdata(t, "ng-invoice.xml")

	// Convert only: the payload and the report, nothing stored.
	rec := r.raw("POST", "/api/v2/invoices/convert", tn, "application/xml", "", string(doc))
	if rec.Code != 200 {
		t.Fatalf("convert: %d %s", rec.Code, rec.Body)
	}
	var conv struct {
		Payload    map[string]any `json:"payload"`
		Mapping    ubl.Report     `json:"mapping"`
		Validation struct {
			Valid  bool  `json:"valid"`
			Errors []any `json:"errors"`
		} `json:"validation"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &conv); err != nil {
		t.Fatal(err)
	}
	if !conv.Validation.Valid || len(conv.Mapping.Problems) != 0 || len(conv.Mapping.Dropped) == 0 {
		t.Fatalf("convert: valid %v errors %v problems %v", conv.Validation.Valid, conv.Validation.Errors, conv.Mapping.Problems)
	}

	// Submit as XML.
	rec = r.raw("POST", "/api/v2/invoices?invoice_type=B2B", tn, "application/xml", "", string(doc))
	if rec.Code != 202 {
		t.Fatalf("submit XML: %d %s", rec.Code, rec.Body)
	}
	var sub map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &sub); err != nil {
		t.Fatal(err)
	}
	id, irn := sub["id"].(string), sub["irn"].(string)
	if !strings.HasPrefix(irn, "SGN2026000123-") || sub["mapping"] == nil {
		t.Fatalf("submitted: %v", sub)
	}
	// The same document again answers the same invoice.
	if rec := r.raw("POST", "/api/v2/invoices?invoice_type=B2B", tn, "application/xml", "", string(doc)); rec.Code != 202 || !strings.Contains(rec.Body.String(), id) {
		t.Fatalf("resubmit: %d %s", rec.Code, rec.Body)
	}
	// Its UBL is refused until NRS confirms it... (it may already have been
	// confirmed on a fast machine, so only a 409 or a 200 is right).
	if rec := r.raw("GET", "/api/v2/invoices/"+id+"/ubl", tn, "", "", ""); rec.Code != 409 && rec.Code != 200 {
		t.Fatalf("ubl before confirmation: %d %s", rec.Code, rec.Body)
	}
	inv := r.waitInvoice(tn, id, 60*time.Second, status("confirmed"))
	qr, _ := inv["qr_code_data"].(string)

	// The mapping report is kept with the invoice.
	if rec := r.raw("GET", "/api/v2/invoices/"+id+"/mapping", tn, "", "", ""); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"format":"ubl"`) {
		t.Fatalf("mapping: %d %s", rec.Code, rec.Body)
	}

	// UBL out, by Accept and by link.
	rec = r.raw("GET", "/api/v2/invoices/"+id, tn, "", "application/xml", "")
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/xml") {
		t.Fatalf("UBL by Accept: %d %s %s", rec.Code, rec.Header(), rec.Body)
	}
	out := rec.Body.Bytes()
	if link := r.raw("GET", "/api/v2/invoices/"+id+"/ubl", tn, "", "", ""); link.Code != 200 || link.Body.String() != string(out) {
		t.Fatalf("UBL by link: %d, same as by Accept: %v", link.Code, link.Body.String() == string(out))
	}
	if !strings.Contains(string(out), "<cbc:ID>"+irn+"</cbc:ID>") || !strings.Contains(string(out), qr) {
		t.Fatalf("the UBL lacks the IRN or the QR payload:\n%s", out)
	}

	// Round trip: the UBL converts back to the payload NRS cleared.
	back := r.raw("POST", "/api/v2/invoices/convert", tn, "application/xml", "", string(out))
	if back.Code != 200 {
		t.Fatalf("convert back: %d %s", back.Code, back.Body)
	}
	var again struct {
		Payload map[string]any `json:"payload"`
	}
	if err := json.Unmarshal(back.Body.Bytes(), &again); err != nil {
		t.Fatal(err)
	}
	cleared := conv.Payload
	cleared["irn"] = irn
	for k, v := range cleared {
		if !reflect.DeepEqual(numbers(v), numbers(again.Payload[k])) {
			t.Errorf("round trip: %s was %v, came back %v", k, v, again.Payload[k])
		}
	}
	for k, v := range again.Payload {
		if _, ok := cleared[k]; !ok {
			t.Errorf("round trip: %s appeared: %v", k, v)
		}
	}

	// A credit note of two bags of cement, and a debit note of an extra
	// installation charge, built from the confirmed invoice.
	rec = r.raw("POST", "/api/v2/invoices/"+id+"/credit-notes", tn, "application/json", "",
		`{"invoice_reference":"CN2026000001","issue_date":"2026-03-20","note":"Two bags returned","lines":[{"line":0,"quantity":2}]}`)
	if rec.Code != 202 {
		t.Fatalf("credit note: %d %s", rec.Code, rec.Body)
	}
	var cn map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &cn)
	rec = r.raw("POST", "/api/v2/invoices/"+id+"/debit-notes", tn, "application/json", "",
		`{"invoice_reference":"DN2026000001","issue_date":"2026-03-21","lines":[{"line":1,"amount":"5000.00"}]}`)
	if rec.Code != 202 {
		t.Fatalf("debit note: %d %s", rec.Code, rec.Body)
	}
	var dn map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &dn)
	docs := map[string][]byte{"invoice": out}
	for name, note := range map[string]map[string]any{"credit-note": cn, "debit-note": dn} {
		got := r.waitInvoice(tn, note["id"].(string), 60*time.Second, status("confirmed"))
		if got["billing_reference"] != irn {
			t.Errorf("%s references %v, want %s", name, got["billing_reference"], irn)
		}
		rec := r.raw("GET", "/api/v2/invoices/"+note["id"].(string)+"/ubl", tn, "", "", "")
		if rec.Code != 200 {
			t.Fatalf("%s UBL: %d %s", name, rec.Code, rec.Body)
		}
		docs[name] = rec.Body.Bytes()
	}
	if cn["invoice_type_code"] != "380" || dn["invoice_type_code"] != "384" {
		t.Errorf("note types: credit %v, debit %v (NRS's 380 Credit Note and 384 Debit Note)", cn["invoice_type_code"], dn["invoice_type_code"])
	}
	if !strings.Contains(string(docs["credit-note"]), "<CreditNote ") || !strings.Contains(string(docs["credit-note"]), "<cbc:CreditNoteTypeCode>381<") ||
		!strings.Contains(string(docs["debit-note"]), "<cbc:InvoiceTypeCode>383<") {
		t.Errorf("notes written with the wrong UBL types")
	}
	for name, d := range docs {
		if msg := ubltest.ValidateXSD(t, d); msg != "" {
			t.Errorf("%s: not valid UBL 2.1: %s\n%s", name, msg, d)
		}
	}
	for name, found := range ubltest.Schematron(t, docs) {
		if len(found) != 0 {
			t.Errorf("%s fails Peppol BIS 3: %v\n%s", name, found, docs[name])
		}
	}
}

// numbers re-reads a value with numbers as float64 (70000.00 == 70000).
func numbers(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}
