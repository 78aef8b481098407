package graph_test

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/ubl/ubltest"
)

// TestFormatsGraphQL converts a UBL document and reads a spreadsheet over
// GraphQL, with the REST routes' answers and limits.
func TestFormatsGraphQL(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite}, graph.Options{})
	a := s.tenant("formats-gql")
	doc, err := os.ReadFile(filepath.Join(ubltest.Testdata(), "ng-invoice.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var conv struct {
		ConvertUblInvoice struct {
			InvoiceType      string
			InvoiceReference string
			Payload          map[string]any
			Mapping          map[string]any
			Validation       struct{ Valid bool }
		}
	}
	s.must(a.Token, `query($input: UblInvoiceInput!) { convertUblInvoice(input: $input) { invoiceType invoiceReference payload mapping validation { valid } } }`,
		map[string]any{"input": map[string]any{"projectId": a.ProjectID, "document": string(doc)}}, &conv)
	c := conv.ConvertUblInvoice
	if c.InvoiceType != "B2B" || c.InvoiceReference != "SGN2026000123" || !c.Validation.Valid || c.Payload["invoice_type_code"] != "381" ||
		len(c.Mapping["dropped"].([]any)) == 0 {
		t.Fatalf("convert: %+v", c)
	}
	// Not UBL: invalid at the document, nothing else.
	r := s.do(a.Token, `query($input: UblInvoiceInput!) { convertUblInvoice(input: $input) { invoiceType } }`,
		map[string]any{"input": map[string]any{"projectId": a.ProjectID, "document": "{}"}})
	if r.code(t) != "invalid" {
		t.Fatalf("convert of JSON: %s", r.Raw)
	}

	xlsx, err := os.ReadFile(filepath.Join(ubltest.Testdata(), "..", "sheets", "invoices-200.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	var prev struct {
		PreviewInvoiceSheet struct {
			RowCount int
			Counts   map[string]any
			Errors   []struct {
				Row     int
				Column  *string
				Message string
			}
			Invoices []struct {
				InvoiceReference string
				Valid            bool
				Payload          map[string]any
			}
		}
	}
	s.must(a.Token, `query($p: ID!, $f: String!, $c: String!) { previewInvoiceSheet(projectId: $p, fileName: $f, contentBase64: $c) {
		rowCount counts errors { row column message } invoices { invoiceReference valid payload } } }`,
		map[string]any{"p": a.ProjectID, "f": "invoices.xlsx", "c": base64.StdEncoding.EncodeToString(xlsx)}, &prev)
	p := prev.PreviewInvoiceSheet
	rows := map[int]string{}
	for _, e := range p.Errors {
		if e.Column != nil {
			rows[e.Row] = *e.Column
		}
	}
	if p.RowCount != 200 || len(p.Invoices) != 80 || rows[7] != "quantity" || rows[57] != "issue_date" || rows[120] != "supplier_lga" {
		t.Fatalf("preview: %d rows, %d invoices, errors %v", p.RowCount, len(p.Invoices), p.Errors[:min(len(p.Errors), 6)])
	}
	valid := 0
	for _, inv := range p.Invoices {
		if inv.Valid {
			valid++
			if inv.Payload["business_id"] == nil || inv.Payload["irn"] != nil {
				t.Fatalf("a valid invoice's payload: %v", inv.Payload)
			}
		} else if inv.Payload != nil {
			t.Fatalf("an invalid invoice has a payload: %s", inv.InvoiceReference)
		}
	}
	if valid != 77 {
		t.Fatalf("%d valid invoices, want 77", valid)
	}
	// A file that is not the template: invalid at the argument.
	r = s.do(a.Token, `query($p: ID!, $c: String!) { previewInvoiceSheet(projectId: $p, fileName: "x.csv", contentBase64: $c) { rowCount } }`,
		map[string]any{"p": a.ProjectID, "c": base64.StdEncoding.EncodeToString([]byte("colour\nred\n"))})
	if r.code(t) != "invalid" || !strings.Contains(string(r.Raw), "contentBase64") {
		t.Fatalf("preview of a file that is not the template: %s", r.Raw)
	}
}
