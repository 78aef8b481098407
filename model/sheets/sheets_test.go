package sheets_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/sheets"
)

var update = flag.Bool("update", false, "rewrite testdata/sheets/invoices-200.xlsx")

func testdata(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "sheets", name)
}

var header = strings.Split(strings.TrimSpace(sheets.Template()), ",")

// row is one line row of the fixture: invoice i's line j.
func row(i, j int) map[string]string {
	r := map[string]string{
		"invoice_reference": fmt.Sprintf("SHEET%04d", i), "invoice_type": "B2B", "issue_date": "2026-03-15",
		"due_date": "2026-04-14", "payment_means_code": "30", "order_reference": fmt.Sprintf("PO-%d", i),
		"supplier_name": "Sango Building Supplies Ltd", "supplier_tin": "31447720-0001", "supplier_email": "billing@sango.example",
		"supplier_telephone": "+2348031234567", "supplier_street": "12 Ring Road", "supplier_city": "Ibadan",
		"supplier_postal_zone": "200211", "supplier_lga": "NG-OY-INO", "supplier_state": "NG-OY",
		"customer_name": "Ekiti Homes Development Co", "customer_tin": "20983315-0001", "customer_email": "ap@ekitihomes.example",
		"customer_street": "4 Fajuyi Road", "customer_city": "Ado-Ekiti", "customer_postal_zone": "360101",
		"customer_lga": "NG-EK-ADO", "customer_state": "NG-EK",
		"item_name": fmt.Sprintf("Cement 50kg lot %d", j), "hsn_code": "2523.29", "product_category": "Portland cement",
		"quantity": fmt.Sprint(1 + j), "unit_price": "5000.00", "price_unit": "XBG",
	}
	if j%2 == 1 {
		delete(r, "hsn_code")
		delete(r, "product_category")
		r["item_name"], r["isic_code"], r["service_category"], r["unit_price"], r["price_unit"] = "Installation", "4330", "Building completion and finishing", "20000", "H87"
	}
	if j > 0 { // invoice-level cells on the first row only
		for _, c := range sheets.Columns {
			if c.Level == "invoice" && c.Name != "invoice_reference" {
				delete(r, c.Name)
			}
		}
	}
	return r
}

// brokenRows are the fixture's rows with an error, and the column blamed.
var brokenRows = map[int]string{
	7:   "quantity",     // not a number
	57:  "issue_date",   // a first row with a date that is not one
	120: "supplier_lga", // not in NRS's list: found by validation
}

// fixtureRows is 200 line rows: 80 invoices of 2 or 3 lines.
func fixtureRows() []map[string]string {
	var out []map[string]string
	for i := 1; len(out) < 200; i++ {
		n := 2 + i%2
		for j := 0; j < n && len(out) < 200; j++ {
			out = append(out, row(i, j))
		}
	}
	for n, col := range brokenRows {
		r := out[n-2]
		switch col {
		case "quantity":
			r["quantity"] = "ten"
		case "issue_date":
			r["issue_date"] = "2026-02-30"
		case "supplier_lga":
			r["supplier_lga"] = "NG-XX-NOPE"
		}
	}
	return out
}

func writeXLSX(t *testing.T, rows []map[string]string) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer func() { _ = f.Close() }()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	cells := make([]any, len(header))
	for i, h := range header {
		cells[i] = h
	}
	if err := sw.SetRow("A1", cells); err != nil {
		t.Fatal(err)
	}
	for n, r := range rows {
		cells := make([]any, len(header))
		for i, h := range header {
			cells[i] = r[h]
		}
		cell, _ := excelize.CoordinatesToCellName(1, n+2)
		if err := sw.SetRow(cell, cells); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestFixtureXLSX reads the 200-row workbook the portal's browser test
// uploads: 200 rows, grouped into their invoices, the broken rows named.
func TestFixtureXLSX(t *testing.T) {
	path := testdata("invoices-200.xlsx")
	if *update {
		if err := os.WriteFile(path, writeXLSX(t, fixtureRows()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := sheets.Read(data, sheets.MediaXLSX)
	if err != nil {
		t.Fatal(err)
	}
	if sh.RowCount != 200 || len(sh.Invoices) != 80 {
		t.Fatalf("%d rows, %d invoices; want 200 and 80", sh.RowCount, len(sh.Invoices))
	}
	blamed := map[int]string{}
	for _, e := range sh.Errors {
		blamed[e.Row] = e.Column
	}
	// Rows 7 and 57 are wrong in the file itself; row 120's LGA only
	// validation finds.
	if blamed[7] != "quantity" || blamed[57] != "issue_date" || len(sh.Errors) != 2 {
		t.Fatalf("errors: %+v", sh.Errors)
	}
	withPayload := 0
	for _, inv := range sh.Invoices {
		if inv.Payload != nil {
			withPayload++
		}
	}
	if withPayload != 78 {
		t.Fatalf("%d invoices built, want 78 (two have a broken row)", withPayload)
	}
	// The first invoice: three lines (1 % 2 + 2), amounts computed.
	first := sh.Invoices[0]
	lmt := first.Payload["legal_monetary_total"].(map[string]any)
	// 1 × 5000 + 2 × 20000 + 3 × 5000 = 60000; VAT 7.5 % = 4500.
	if len(first.Rows) != 3 || fmt.Sprint(lmt["line_extension_amount"]) != "60000" || fmt.Sprint(lmt["payable_amount"]) != "64500" {
		t.Fatalf("first invoice: rows %v, totals %v", first.Rows, lmt)
	}
}

// TestCSV reads the same rows as CSV, and refuses what is not the
// template.
func TestCSV(t *testing.T) {
	var b strings.Builder
	b.WriteString("\xef\xbb\xbf" + sheets.Template())
	for _, r := range fixtureRows()[:5] {
		cells := make([]string, len(header))
		for i, h := range header {
			cells[i] = `"` + strings.ReplaceAll(r[h], `"`, `""`) + `"`
		}
		b.WriteString(strings.Join(cells, ",") + "\n")
	}
	sh, err := sheets.Read([]byte(b.String()), sheets.MediaCSV)
	if err != nil {
		t.Fatal(err)
	}
	if sh.RowCount != 5 || len(sh.Invoices) != 2 {
		t.Fatalf("%d rows, %d invoices", sh.RowCount, len(sh.Invoices))
	}
	for name, doc := range map[string]string{
		"empty":          "",
		"unknown column": "invoice_reference,colour\nA,red\n",
		"no lines":       sheets.Template(),
		"missing column": "invoice_reference,item_name\nA,x\n",
	} {
		if _, err := sheets.Read([]byte(doc), sheets.MediaCSV); model.ErrorCodeOf(err) != model.CodeInvalid {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := sheets.Read([]byte("PK\x03\x04 not a zip"), ""); model.ErrorCodeOf(err) != model.CodeInvalid {
		t.Errorf("a broken XLSX: %v", err)
	}
	// A differing invoice-level cell on a later row is that row's error.
	rows := fixtureRows()[:2]
	rows[1]["currency"] = "USD"
	var c strings.Builder
	c.WriteString(sheets.Template())
	for _, r := range rows {
		cells := make([]string, len(header))
		for i, h := range header {
			cells[i] = r[h]
		}
		c.WriteString(strings.Join(cells, ",") + "\n")
	}
	sh, err = sheets.Read([]byte(c.String()), sheets.MediaCSV)
	if err != nil || len(sh.Errors) != 1 || sh.Errors[0].Row != 3 || sh.Errors[0].Column != "currency" {
		t.Fatalf("differing cell: %v %+v", err, sh)
	}
}
