package ubl_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
	"github.com/einvoice-ng/einvoice/model/ubl"
	"github.com/einvoice-ng/einvoice/model/ubl/ubltest"
)

func read(t *testing.T, parts ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{ubltest.Testdata()}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func peppolExamples(t *testing.T) map[string][]byte {
	t.Helper()
	dir := filepath.Join(ubltest.Testdata(), "peppol", "examples")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		out[strings.TrimSuffix(e.Name(), ".xml")] = read(t, "peppol", "examples", e.Name())
	}
	if len(out) < 9 {
		t.Fatalf("expected OpenPeppol's 9 examples, found %d", len(out))
	}
	return out
}

// TestPeppolExamplesLoseNothingNRSHas converts every OpenPeppol BIS 3
// example: each element with a value is either used (feeding NRS fields)
// or dropped for a stated reason that names why NRS has no place for it;
// none is dropped for want of a mapping.
func TestPeppolExamplesLoseNothingNRSHas(t *testing.T) {
	for name, doc := range peppolExamples(t) {
		res, err := ubl.ToNRS(doc, ubl.InOptions{BusinessID: "3f6c2a9e-8b41-4d7a-9c55-1e2f7a0b6d34", ServiceID: "94ND90NR"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r := res.Report
		if len(r.Used) == 0 || len(r.Filled) == 0 {
			t.Fatalf("%s: nothing used or filled", name)
		}
		for _, d := range r.Dropped {
			if d.Reason == "NRS's invoice has no field for it" {
				t.Errorf("%s: %s dropped without a specific reason (value %q)", name, d.Element, d.Value)
			}
		}
		// Every field NRS has that these examples carry is filled.
		for _, f := range []string{"/issue_date", "/invoice_type_code", "/document_currency_code", "/tax_currency_code",
			"/accounting_supplier_party/party_name", "/accounting_supplier_party/postal_address/country",
			"/legal_monetary_total/payable_amount", "/invoice_line/0/line_extension_amount", "/invoice_line/0/item/name",
			"/invoice_line/0/price/price_amount", "/tax_total/0/tax_amount"} {
			if !filled(r, f) {
				t.Errorf("%s: %s not filled", name, f)
			}
		}
		if res.Carried.Supplier == nil || res.Carried.Supplier.ID == "" {
			t.Errorf("%s: the supplier's endpoint is not kept", name)
		}
	}
}

func filled(r ubl.Report, field string) bool {
	for _, f := range r.Filled {
		if f.Field == field {
			return true
		}
	}
	return false
}

// TestBaseExampleMapping checks OpenPeppol's base example field by field.
func TestBaseExampleMapping(t *testing.T) {
	res, err := ubl.ToNRS(read(t, "peppol", "examples", "base-example.xml"), ubl.InOptions{ServiceID: "94ND90NR"})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Payload
	want := map[string]any{
		"/issue_date": "2017-11-13", "/due_date": "2017-12-01", "/invoice_type_code": "381",
		"/document_currency_code": "EUR", "/tax_currency_code": "EUR", "/accounting_cost": "4025:123:4343",
		"/buyer_reference": "0150abc", "/invoice_kind": "B2B", "/actual_delivery_date": "2017-11-01",
		"/payment_terms_note":                                   "Payment within 10 days, 2% discount",
		"/accounting_supplier_party/party_name":                 "SupplierOfficialName Ltd",
		"/accounting_supplier_party/tin":                        "GB1232434",
		"/accounting_supplier_party/postal_address/street_name": "Main street 1, Postbox 123",
		"/accounting_supplier_party/postal_address/postal_zone": "GB 123 EW",
		"/accounting_customer_party/email":                      "lj@buyer.se",
		"/accounting_customer_party/telephone":                  "23434234",
		"/ship_party/party_name":                                "Delivery party Name",
		"/ship_party/postal_address/city_name":                  "Stockholm",
		"/payment_means/0/payment_means_code":                   "30",
		"/allowance_charge/0/charge_indicator":                  true,
		"/allowance_charge/0/amount":                            json.Number("25"),
		"/tax_total/0/tax_subtotal/0/tax_category/id":           "STANDARD_VAT",
		"/tax_total/0/tax_subtotal/0/tax_category/percent":      json.Number("25.0"),
		"/legal_monetary_total/tax_inclusive_amount":            json.Number("1656.25"),
		"/invoice_line/1/invoiced_quantity":                     json.Number("-3"),
		"/invoice_line/1/line_extension_amount":                 json.Number("-1500"),
		"/invoice_line/0/price/price_unit":                      "DAY",
		"/invoice_line/0/price/base_quantity":                   json.Number("1"),
		"/invoice_line/0/dicount_amount":                        json.Number("0"),
		"/invoice_line/0/item/description":                      "Description of item",
	}
	for ptr, v := range want {
		if got := pointer(p, ptr); !reflect.DeepEqual(got, v) {
			t.Errorf("%s = %#v, want %#v", ptr, got, v)
		}
	}
	if res.Reference != "Snippet1" || p["irn"] != nil {
		t.Errorf("reference %q, irn %v: the ID is not an IRN, so it is the reference", res.Reference, p["irn"])
	}
	if len(res.Report.Problems) != 0 {
		t.Errorf("problems: %+v", res.Report.Problems)
	}
	if res.Carried.Customer == nil || res.Carried.Customer.SchemeID != "0002" || res.Carried.Customer.ID != "FR23342" {
		t.Errorf("customer endpoint %+v", res.Carried.Customer)
	}
}

func pointer(v any, ptr string) any {
	for _, seg := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		switch x := v.(type) {
		case map[string]any:
			v = x[seg]
		case []any:
			i := 0
			for _, c := range seg {
				i = i*10 + int(c-'0')
			}
			if i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// TestNigerianInvoiceIsTheB2BFixture converts the Nigerian Peppol invoice
// and finds the B2B fixture's payload, every field NRS has in UBL.
func TestNigerianInvoiceIsTheB2BFixture(t *testing.T) {
	res, err := ubl.ToNRS(read(t, "ng-invoice.xml"), ubl.InOptions{BusinessID: "3f6c2a9e-8b41-4d7a-9c55-1e2f7a0b6d34", ServiceID: "7XQ4LM2P"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Report.Problems) != 0 {
		t.Fatalf("problems: %+v", res.Report.Problems)
	}
	var fixture map[string]any
	b, err := os.ReadFile(filepath.Join(ubltest.Testdata(), "..", "fixtures", "invoice-b2b-1.1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := decodeNumbers(b, &fixture); err != nil {
		t.Fatal(err)
	}
	// What the UBL document does not say: the IRN (generated from the
	// reference on submission), the payment status (NRS's default), the
	// supplier's business description (UBL's party has none), and the
	// payment due date the fixture repeats in payment_means.
	delete(fixture, "irn")
	delete(fixture, "payment_status")
	delete(fixture["accounting_supplier_party"].(map[string]any), "business_description")
	fixture["payment_means"] = []any{map[string]any{"payment_means_code": "30"}}
	fixture["buyer_reference"] = "EKH-PROC-17"
	fixture["payment_terms_note"] = "Net 30 days"
	for _, l := range fixture["invoice_line"].([]any) {
		for _, k := range []string{"dicount_rate", "dicount_amount", "fee_rate", "fee_amount"} {
			l.(map[string]any)[k] = json.Number("0")
		}
	}
	if res.Reference != "SGN2026000123" {
		t.Errorf("reference %q", res.Reference)
	}
	got := normalize(t, res.Payload)
	want := normalize(t, fixture)
	if !reflect.DeepEqual(got, want) {
		gj, _ := json.MarshalIndent(got, "", " ")
		wj, _ := json.MarshalIndent(want, "", " ")
		t.Fatalf("converted payload differs from the fixture\n got: %s\nwant: %s", gj, wj)
	}
}

func decodeNumbers(b []byte, v any) error {
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	return d.Decode(v)
}

// normalize re-reads a payload with numbers as float64, so that 70000.00
// and 70000 compare equal.
func normalize(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRoundTripPure writes the converted payload as UBL and converts it
// back: the same NRS payload, field by field.
func TestRoundTripPure(t *testing.T) {
	docs := peppolExamples(t)
	docs["ng-invoice"] = read(t, "ng-invoice.xml")
	for name, doc := range docs {
		opt := ubl.InOptions{BusinessID: "3f6c2a9e-8b41-4d7a-9c55-1e2f7a0b6d34", ServiceID: "7XQ4LM2P"}
		first, err := ubl.ToNRS(doc, opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := first.Payload["invoice_type_code"]; !ok {
			continue
		}
		first.Payload["irn"] = "INV1-7XQ4LM2P-20260315"
		out, err := ubl.FromNRS(first.Payload, ubl.OutOptions{Carried: first.Carried})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		second, err := ubl.ToNRS(out, opt)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		a, b := normalize(t, first.Payload).(map[string]any), normalize(t, second.Payload).(map[string]any)
		for _, p := range first.Report.Problems {
			// A field the conversion could not fill is reported, not
			// compared (a UBL tax category NRS has none for).
			top := strings.Split(strings.TrimPrefix(p.Field, "/"), "/")[0]
			delete(a, top)
			delete(b, top)
		}
		for k := range a {
			if !reflect.DeepEqual(a[k], b[k]) {
				t.Errorf("%s: %s changed in the round trip:\n %v\n %v", name, k, a[k], b[k])
			}
		}
		for k := range b {
			if _, ok := a[k]; !ok {
				t.Errorf("%s: %s appeared in the round trip: %v", name, k, b[k])
			}
		}
		if !reflect.DeepEqual(first.Carried, second.Carried) {
			t.Errorf("%s: carried %+v became %+v", name, first.Carried, second.Carried)
		}
	}
}

// TestUBLOutValidates writes the B2B, B2G and B2C fixtures and the
// converted Peppol invoices as UBL: each passes the UBL 2.1 schema; those
// whose content allows it (a Nigerian invoice with both parties'
// electronic addresses) pass the Peppol BIS 3 rules.
func TestUBLOutValidates(t *testing.T) {
	ubltest.Need(t, "xmllint", "saxon")
	docs := map[string][]byte{}
	for _, f := range []string{"invoice-b2b-1.1", "invoice-b2g-1.1", "invoice-b2c-1.1"} {
		var p map[string]any
		b, err := os.ReadFile(filepath.Join(ubltest.Testdata(), "..", "fixtures", f+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := decodeNumbers(b, &p); err != nil {
			t.Fatal(err)
		}
		out, err := ubl.FromNRS(p, ubl.OutOptions{QRPayload: "cXItcGF5bG9hZA==", QRPNG: []byte("\x89PNG\r\n\x1a\n")})
		if err != nil {
			t.Fatal(err)
		}
		docs[f] = out
	}
	res, err := ubl.ToNRS(read(t, "ng-invoice.xml"), ubl.InOptions{ServiceID: "7XQ4LM2P"})
	if err != nil {
		t.Fatal(err)
	}
	res.Payload["irn"] = "SGN2026000123-7XQ4LM2P-20260315"
	out, err := ubl.FromNRS(res.Payload, ubl.OutOptions{Carried: res.Carried, QRPayload: "cXItcGF5bG9hZA==", QRPNG: []byte("\x89PNG\r\n\x1a\n")})
	if err != nil {
		t.Fatal(err)
	}
	docs["ng-invoice"] = out
	// The validators' own check: a wrong total fails the rules (BR-CO-16),
	// an unknown element the schema.
	docs["wrong-total"] = []byte(strings.Replace(string(read(t, "ng-invoice.xml")),
		`<cbc:PayableAmount currencyID="NGN">75250.00`, `<cbc:PayableAmount currencyID="NGN">75251.00`, 1))
	if msg := ubltest.ValidateXSD(t, []byte(strings.Replace(string(out), "<cbc:IssueDate>", "<cbc:IssueDay>2026-03-15</cbc:IssueDay><cbc:IssueDate>", 1))); msg == "" {
		t.Error("the schema accepts an unknown element")
	}
	for name, doc := range docs {
		if msg := ubltest.ValidateXSD(t, doc); msg != "" {
			t.Errorf("%s does not validate against UBL 2.1: %s\n%s", name, msg, doc)
		}
	}
	found := ubltest.Schematron(t, docs)
	caught := false
	for _, f := range found["wrong-total"] {
		caught = caught || f.ID == "BR-CO-16"
	}
	if !caught {
		t.Errorf("BR-CO-16 not reported for a wrong payable amount: %v", found["wrong-total"])
	}
	if f := found["ng-invoice"]; len(f) != 0 {
		t.Errorf("the Nigerian invoice fails Peppol BIS 3: %v\n%s", f, docs["ng-invoice"])
	}
	// NRS's JSON has no electronic address and no bank account: Peppol's
	// R010/R020 (electronic addresses) and BR-61 (the account of a credit
	// transfer), and nothing else, stop the fixtures.
	for _, name := range []string{"invoice-b2b-1.1", "invoice-b2g-1.1"} {
		for _, f := range found[name] {
			switch f.ID {
			case "PEPPOL-EN16931-R010", "PEPPOL-EN16931-R020", "PEPPOL-EN16931-R003", "BR-61":
			default:
				t.Errorf("%s: unexpected Peppol finding %s", name, f)
			}
		}
	}
}

func TestTypeCodesByName(t *testing.T) {
	list := codes.Snapshot().List(codes.ResourceInvoiceTypes)
	names := map[string]string{"381": "Commercial Invoice", "380": "Credit Note", "384": "Debit Note", "385": "Self Billed Invoice",
		"386": "Factored Invoice", "393": "Self-billed Credit Note", "390": "Proforma Invoice"}
	for _, pair := range ubl.TypeCodePairs() {
		e, ok := list.Lookup(pair[1])
		if !ok || e.Value != names[pair[1]] {
			t.Errorf("NRS %s is %q in NRS's list, want %q", pair[1], e.Value, names[pair[1]])
		}
	}
}

func TestRefusesWhatIsNotUBL(t *testing.T) {
	for name, doc := range map[string]string{
		"not xml":    "{}",
		"other root": `<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>`,
		"doctype":    `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>`,
		"deep":       `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">` + strings.Repeat("<a>", 100) + strings.Repeat("</a>", 100) + `</Invoice>`,
		"unclosed":   `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">`,
	} {
		_, err := ubl.ToNRS([]byte(doc), ubl.InOptions{})
		if model.ErrorCodeOf(err) != model.CodeInvalid {
			t.Errorf("%s: %v, want invalid", name, err)
		}
	}
}

func TestCreditNote(t *testing.T) {
	res, err := ubl.ToNRS(read(t, "peppol", "examples", "base-creditnote-correction.xml"), ubl.InOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.Format != ubl.FormatCreditNote || res.Payload["invoice_type_code"] != "380" {
		t.Fatalf("format %s, type %v", res.Report.Format, res.Payload["invoice_type_code"])
	}
	if pointer(res.Payload, "/billing_reference/0/irn") == nil {
		t.Errorf("billing reference not mapped: %v", res.Payload["billing_reference"])
	}
	out, err := ubl.FromNRS(res.Payload, ubl.OutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "<CreditNote ") || !strings.Contains(string(out), "<cbc:CreditNoteTypeCode>381<") {
		t.Errorf("not written as a UBL credit note:\n%s", out)
	}
}
