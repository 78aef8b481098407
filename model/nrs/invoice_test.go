package nrs

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/einvoice-ng/einvoice/model"
)

func modelInput(doc map[string]any) model.ValidateInput {
	return model.ValidateInput{Payload: doc}
}

// TestDecodeNRSShapes reads fields the way NRS's samples write them.
func TestDecodeNRSShapes(t *testing.T) {
	doc := loadFixture(t, b2b)
	applyEdits(t, doc, []edit{
		{"/invoice_line/0/dicount_rate", num("2.01")}, {"/invoice_line/0/dicount_amount", num("3500")},
		{"/invoice_line/1/dicount_rate", del}, {"/invoice_line/1/dicount_amount", del},
		{"/invoice_line/1/discount_rate", num("5")}, {"/invoice_line/1/discount_amount", num("100")},
		{"/accounting_customer_party/id", "2e41e692-0d43-4462-8317-92621e778721"},
		{"/accounting_supplier_party/postal_address_id", "5c1b1a9e-0d43-4462-8317-92621e778721"},
		{"/bill_party", map[string]any{"party_name": "Bill Ltd"}},
		{"/ship_party", map[string]any{"party_name": "Ship Ltd"}},
		{"/billing_reference", map[string]any{"irn": "A1-7XQ4LM2P-20260301", "issue_date": "2026-03-01"}},
		{"/contract_document_reference", []any{map[string]any{"irn": "C1-7XQ4LM2P-20260101"}, map[string]any{"irn": "C2-7XQ4LM2P-20260102"}}},
	})
	inv, err := Decode(doc)
	if err != nil {
		t.Fatal(err)
	}
	if l := inv.Lines[0]; l.DiscountAmount.Decimal.String() != "3500" || l.DiscountRate.Decimal.String() != "2.01" {
		t.Errorf("dicount_* not read: %+v", l)
	}
	if l := inv.Lines[1]; l.DiscountAmount.Decimal.String() != "100" || l.DiscountRate.Decimal.String() != "5" {
		t.Errorf("discount_* not read as the same field: %+v", l)
	}
	if inv.Customer.ID == "" || inv.Supplier.PostalAddressID == "" || inv.Bill.Name != "Bill Ltd" || inv.Ship.Name != "Ship Ltd" {
		t.Errorf("parties = %+v %+v %+v %+v", inv.Customer, inv.Supplier, inv.Bill, inv.Ship)
	}
	if len(inv.BillingReferences) != 1 || inv.BillingReferences[0].IRN != "A1-7XQ4LM2P-20260301" {
		t.Errorf("billing reference object = %+v", inv.BillingReferences)
	}
	if r := inv.ContractDocumentReference; r == nil || r.IRN != "C1-7XQ4LM2P-20260101" {
		t.Errorf("contract reference array = %+v", r)
	}
	// dicount_* wins over discount_* when both are there.
	applyEdits(t, doc, []edit{{"/invoice_line/0/discount_amount", num("1")}})
	inv, _ = Decode(doc)
	if inv.Lines[0].DiscountAmount.Decimal.String() != "3500" {
		t.Errorf("discount_amount replaced dicount_amount")
	}
	data, _ := json.Marshal(inv.Lines[0])
	if !strings.Contains(string(data), `"dicount_amount"`) {
		t.Errorf("the typed line does not use NRS's name: %s", data)
	}
}

func TestDecode(t *testing.T) {
	inv, err := Decode(loadFixture(t, b2b))
	if err != nil {
		t.Fatal(err)
	}
	if inv.IRN != "SGN2026000123-7XQ4LM2P-20260315" || inv.InvoiceKind != "B2B" || inv.IssueDate != "2026-03-15" {
		t.Errorf("header = %+v", inv)
	}
	if inv.Supplier == nil || inv.Supplier.TIN != "31447720-0001" || inv.Supplier.PostalAddress.LGA != "NG-OY-INO" {
		t.Errorf("supplier = %+v", inv.Supplier)
	}
	if inv.Customer == nil || inv.Customer.Name != "Ekiti Homes Development Co" {
		t.Errorf("customer = %+v", inv.Customer)
	}
	if len(inv.Lines) != 2 || inv.Lines[0].IsService() || !inv.Lines[1].IsService() {
		t.Fatalf("lines = %+v", inv.Lines)
	}
	l := inv.Lines[0]
	if !l.InvoicedQuantity.Valid || l.InvoicedQuantity.Decimal.String() != "10" ||
		l.Price.PriceAmount.Decimal.String() != "5000" || l.Price.PriceUnit != "XBG" || l.Item.Name != "Cement 50kg" {
		t.Errorf("line 0 = %+v", l)
	}
	if !l.DiscountAmount.Valid || !l.DiscountAmount.Decimal.IsZero() || !l.FeeRate.Valid {
		t.Errorf("discount and fee = %+v %+v", l.DiscountAmount, l.FeeRate)
	}
	st := inv.TaxTotals[0].TaxSubtotals[0]
	if st.Category.ID != "STANDARD_VAT" || st.Category.Percent.Decimal.String() != "7.5" {
		t.Errorf("subtotal = %+v", st)
	}
	if inv.LegalMonetaryTotal.PayableAmount.Decimal.StringFixed(2) != "75250.00" {
		t.Errorf("payable = %v", inv.LegalMonetaryTotal.PayableAmount)
	}
	// The typed view marshals with the payload's field names.
	data, err := json.Marshal(inv)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	_ = json.Unmarshal(data, &back)
	if _, ok := back["accounting_supplier_party"]; !ok {
		t.Errorf("marshalled view lacks accounting_supplier_party: %s", data)
	}

	if _, err := Decode([]any{}); err == nil {
		t.Error("array decoded")
	} else {
		problemAt(t, err, model.ProblemDictType, "payload")
	}
}

func TestDecodeIsLenient(t *testing.T) {
	doc := loadFixture(t, b2g)
	applyEdits(t, doc, []edit{
		{"/accounting_customer_party", "ministry"},
		{"/invoice_line/0/invoiced_quantity", "forty"},
		{"/issue_date", num("20260320")},
		{"/allowance_charge/0", "ten thousand"},
	})
	inv, err := Decode(doc)
	if err != nil {
		t.Fatal(err)
	}
	if inv.Customer != nil || inv.IssueDate != "" || inv.Lines[0].InvoicedQuantity.Valid ||
		len(inv.AllowanceCharges) != 1 || inv.AllowanceCharges[0].Amount.Valid {
		t.Errorf("lenient decode = %+v", inv)
	}
}

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in      any
		want    string
		present bool
		ok      bool
	}{
		{json.Number("5250.00"), "5250", true, true},
		{json.Number("-0.5"), "-0.5", true, true},
		{json.Number("1e3"), "1000", true, true},
		{json.Number("0e999999999"), "0", true, true},
		{json.Number("999999999999999999"), "999999999999999999", true, true},
		{json.Number("1000000000000000000"), "", true, false},
		{json.Number("1e18"), "", true, false},
		{json.Number("1e-31"), "", true, false},
		{json.Number("1e-999999999"), "", true, false},
		{json.Number("1e99999999999"), "", true, false},
		{json.Number("abc"), "", true, false},
		{json.Number("1" + string(make([]byte, 100))), "", true, false},
		{75250.0, "75250", true, true},
		{0.1, "0.1", true, true},
		{math.NaN(), "", true, false},
		{math.Inf(1), "", true, false},
		{1e300, "", true, false},
		{5e-324, "", true, false},
		{float32(7.5), "7.5", true, true},
		{10, "10", true, true},
		{int64(-3), "-3", true, true},
		{int32(2), "2", true, true},
		{uint64(math.MaxUint64), "", true, false},
		{"10", "", false, false},
		{nil, "", false, false},
		{true, "", false, false},
	}
	for _, tt := range tests {
		d, present, ok := parseNumber(tt.in)
		if present != tt.present || ok != tt.ok {
			t.Errorf("parseNumber(%#v) present=%v ok=%v", tt.in, present, ok)
			continue
		}
		if ok && d.String() != tt.want {
			t.Errorf("parseNumber(%#v) = %s, want %s", tt.in, d, tt.want)
		}
	}
}

func TestComputeTotals(t *testing.T) {
	dec := func(s string) decimal.Decimal { return decimal.RequireFromString(s) }
	t.Run("b2g fixture", func(t *testing.T) {
		inv, _ := Decode(loadFixture(t, b2g))
		tot := ComputeTotals(inv)
		checks := map[string][2]decimal.Decimal{
			"line net":      {tot.Lines[0].Net, dec("400000")},
			"line gross":    {tot.Lines[0].Gross, dec("400000")},
			"lines":         {tot.LineExtensionAmount, dec("400000")},
			"allowances":    {tot.AllowanceTotal, dec("10000")},
			"charges":       {tot.ChargeTotal, dec("0")},
			"tax exclusive": {tot.TaxExclusiveAmount, dec("390000")},
			"tax":           {tot.TaxAmount, dec("29250")},
			"tax inclusive": {tot.TaxInclusiveAmount, dec("419250")},
			"payable":       {tot.PayableAmount, dec("419250")},
		}
		for name, c := range checks {
			if !c[0].Equal(c[1]) {
				t.Errorf("%s = %s, want %s", name, c[0], c[1])
			}
		}
		if len(tot.Taxes) != 1 || tot.Taxes[0].CategoryID != "STANDARD_VAT" || !tot.Taxes[0].TaxableAmount.Equal(dec("390000")) {
			t.Errorf("taxes = %+v", tot.Taxes)
		}
		if !tot.Lines[0].Complete {
			t.Error("line incomplete")
		}
	})
	t.Run("discount, fee, base quantity, two categories", func(t *testing.T) {
		doc := loadFixture(t, b2b)
		applyEdits(t, doc, []edit{
			{"/invoice_line/0/invoiced_quantity", num("3")},
			{"/invoice_line/0/price/price_amount", num("100")},
			{"/invoice_line/0/price/base_quantity", num("7")},
			{"/invoice_line/0/dicount_amount", num("1.005")},
			{"/invoice_line/0/fee_amount", num("2")},
			{"/invoice_line/1/price/price_amount", "n/a"},
			{"/tax_total", []any{map[string]any{"tax_amount": num("0"), "tax_subtotal": []any{
				map[string]any{"taxable_amount": num("33.33"), "tax_amount": num("2.5"), "tax_category": map[string]any{"id": "STANDARD_VAT", "percent": num("7.5")}},
				map[string]any{"taxable_amount": num("10"), "tax_amount": num("0"), "tax_category": map[string]any{"id": "ZERO_VAT", "percent": num("0")}},
				map[string]any{"taxable_amount": num("0.01"), "tax_amount": num("0"), "tax_category": map[string]any{"id": "STANDARD_VAT", "percent": num("7.5")}},
			}}}},
		})
		inv, _ := Decode(doc)
		tot := ComputeTotals(inv)
		// 3 × 100 / 7 = 42.857142… → gross 42.86; net 42.857142… − 1.005 + 2 = 43.852… → 43.85
		if !tot.Lines[0].Gross.Equal(dec("42.86")) || !tot.Lines[0].Net.Equal(dec("43.85")) {
			t.Errorf("line 0 = %+v", tot.Lines[0])
		}
		if tot.Lines[1].Complete || !tot.Lines[1].Net.IsZero() {
			t.Errorf("line 1 = %+v", tot.Lines[1])
		}
		if len(tot.Taxes) != 2 || !tot.Taxes[0].TaxableAmount.Equal(dec("33.34")) || !tot.Taxes[0].TaxAmount.Equal(dec("2.5")) {
			t.Errorf("taxes = %+v", tot.Taxes)
		}
		if !tot.TaxInclusiveAmount.Equal(dec("46.35")) {
			t.Errorf("tax inclusive = %s", tot.TaxInclusiveAmount)
		}
	})
}
