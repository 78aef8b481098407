package formats_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/formats"
	"github.com/einvoice-ng/einvoice/model/sheets"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

func testdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A UBL 2.1 invoice converts to NRS's payload with the project's IRN, a
// mapping report and its validation; storing nothing. A document that is
// no UBL, or of an unknown invoice type, is refused.
func TestConvertUBL(t *testing.T) {
	ctx := context.Background()
	svc := apptest.New(t, storetest.SQLite(t), nil)
	tn := apptest.NewTenant(t, svc, "sandbox")
	doc := testdata(t, "ubl/ng-invoice.xml")

	c, err := svc.Formats.Convert(ctx, tn.Key, formats.ConvertInput{Document: doc})
	if err != nil {
		t.Fatal(err)
	}
	if c.InvoiceType != model.InvoiceKindB2B {
		t.Errorf("invoice type = %q, want B2B (the document has a customer party)", c.InvoiceType)
	}
	irn, _ := c.Payload["irn"].(string)
	if c.InvoiceReference == nil || !strings.HasPrefix(irn, *c.InvoiceReference+"-") {
		t.Fatalf("irn %q does not derive from the reference %v", irn, c.InvoiceReference)
	}
	if c.Validation == nil || !c.Validation.Valid {
		t.Fatalf("the converted fixture does not validate: %+v", c.Validation)
	}
	if len(c.Mapping.Filled) == 0 || c.Mapping.Format != "ubl-2.1-invoice" {
		t.Fatalf("mapping report empty: %+v", c.Mapping)
	}

	ref, err := svc.Formats.Convert(ctx, tn.Key, formats.ConvertInput{Document: doc, InvoiceReference: "REF2026A1"})
	if err != nil {
		t.Fatal(err)
	}
	if irn2, _ := ref.Payload["irn"].(string); !strings.HasPrefix(irn2, "REF2026A1-") {
		t.Fatalf("irn %q ignores the request's reference", irn2)
	}

	for name, in := range map[string]formats.ConvertInput{
		"not XML":      {Document: []byte("hello")},
		"unknown type": {Document: doc, InvoiceType: "B2X"},
	} {
		if _, err := svc.Formats.Convert(ctx, tn.Key, in); model.ErrorCodeOf(err) != model.CodeInvalid {
			t.Errorf("%s: %v, want invalid", name, err)
		}
	}
}

// A spreadsheet of the template previews every row, validated, storing
// nothing.
func TestPreviewSheet(t *testing.T) {
	ctx := context.Background()
	svc := apptest.New(t, storetest.SQLite(t), nil)
	tn := apptest.NewTenant(t, svc, "sandbox")
	p, err := svc.Formats.PreviewSheet(ctx, tn.Key, testdata(t, "sheets/invoices-200.xlsx"), sheets.MediaXLSX)
	if err != nil {
		t.Fatal(err)
	}
	if p.RowCount == 0 || len(p.Invoices) == 0 || len(p.Columns) == 0 {
		t.Fatalf("preview: %d rows, %d invoices, %d columns", p.RowCount, len(p.Invoices), len(p.Columns))
	}
	if _, err := svc.Formats.PreviewSheet(ctx, tn.Key, []byte("not,a\nsheet"), sheets.MediaXLSX); model.ErrorCodeOf(err) != model.CodeInvalid {
		t.Fatalf("garbage as XLSX: %v, want invalid", err)
	}
}
