package render_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/render"
)

// validFixtures are the shared fixtures that pass validation, one per kind.
var validFixtures = []struct {
	file    string
	kind    model.InvoiceKind
	payable string // formatted as printed
}{
	{"invoice-b2b-1.1.json", model.InvoiceKindB2B, "₦75,250.00"},
	{"invoice-b2c-1.1.json", model.InvoiceKindB2C, "₦3,225.00"},
	{"invoice-b2g-1.1.json", model.InvoiceKindB2G, "₦419,250.00"},
}

// golden compares got with a file under testdata/golden, or rewrites the
// file with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./model/render -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; check the change and run go test ./model/render -update\n--- got ---\n%s", name, clip(got))
	}
}

func clip(b []byte) string {
	if len(b) > 4000 || !json.Valid(b) {
		return "(" + strconv.Itoa(len(b)) + " bytes)"
	}
	return string(b)
}

func TestViewGolden(t *testing.T) {
	for _, fx := range validFixtures {
		t.Run(string(fx.kind), func(t *testing.T) {
			v := viewOf(t, loadFixture(t, fx.file), fx.kind, fixedQR)
			got, err := json.MarshalIndent(v, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "render-view-"+strings.ToLower(string(fx.kind))+".json", append(got, '\n'))
		})
	}
}

func TestViewContent(t *testing.T) {
	v := viewOf(t, loadFixture(t, "invoice-b2g-1.1.json"), model.InvoiceKindB2G, fixedQR)
	checks := []struct {
		name      string
		got, want any
	}{
		{"valid", v.Valid(), true},
		{"irn rebuilt with the project's service id", v.IRN, "GOV2026004-94ND90NR-20260320"},
		{"business id is the project's", v.BusinessID, issuer.BusinessID},
		{"filename", v.Filename(), "GOV2026004-94ND90NR-20260320.pdf"},
		{"title", v.Document.Title, "COMMERCIAL INVOICE"},
		{"contract", v.References.Contract.IRN, "CTR2025117-7XQ4LM2P-20251101"},
		{"customer", v.Customer.Name, "Oyo State Ministry of Works"},
		{"state named", v.Customer.Address.StateName, "Oyo"},
		{"line amount", v.Lines[0].Amount, "400000.00"},
		{"allowance", v.AllowanceCharges[0], render.AllowanceCharge{Charge: false, Label: "Allowance", Amount: "10000.00"}},
		{"tax", v.Taxes[0], render.Tax{CategoryID: "STANDARD_VAT", CategoryName: "Standard Value-Added Tax", Percent: "7.5", TaxableAmount: "390000.00", TaxAmount: "29250.00"}},
		{"payable", v.Totals.PayableAmount, "419250.00"},
		{"stated payable", *v.StatedTotals.PayableAmount, "419250.00"},
		{"payment means named", v.Payment.Means[0].Name, "Credit Transfer"},
		{"warnings", rules(v.Warnings), []string{render.RuleBusinessIDReplaced, render.RuleIRNRebuilt}},
	}
	for _, c := range checks {
		if !equalJSON(c.got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}

	c := viewOf(t, loadFixture(t, "invoice-b2c-1.1.json"), model.InvoiceKindB2C, fixedQR)
	if c.Customer != nil || c.Document.Title != "RECEIPT" {
		t.Errorf("B2C walk-in: customer %v, title %q", c.Customer, c.Document.Title)
	}
}

func rules(list []model.Issue) []string {
	out := []string{}
	for _, i := range list {
		out = append(out, i.Rule)
	}
	return out
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestIdentify(t *testing.T) {
	a := authority(t)
	cases := []struct {
		name       string
		businessID string
		irn        string
		issueDate  string
		want       string
		warnings   []string
	}{
		{"own IRN kept, upper case", issuer.BusinessID, "inv001-94nd90nr-20260315", "2026-03-15", "INV001-94ND90NR-20260315", []string{}},
		{"business id compared ignoring case", strings.ToUpper(issuer.BusinessID), "INV001-94ND90NR-20260315", "2026-03-15", "INV001-94ND90NR-20260315", []string{}},
		{"another business's IRN rebuilt", "3f6c2a9e-8b41-4d7a-9c55-1e2f7a0b6d34", "SGN2026000123-7XQ4LM2P-20260315", "2026-03-15",
			"SGN2026000123-94ND90NR-20260315", []string{render.RuleBusinessIDReplaced, render.RuleIRNRebuilt}},
		{"rebuilt with the issue date", issuer.BusinessID, "INV9-7XQ4LM2P-20260101", "2026-03-15", "INV9-94ND90NR-20260315", []string{render.RuleIRNRebuilt}},
		{"malformed service id rebuilt", issuer.BusinessID, "INV9-XX-20260315", "2026-03-15", "INV9-94ND90NR-20260315", []string{render.RuleIRNRebuilt}},
		{"bad issue date falls back to the IRN's", issuer.BusinessID, "INV9-7XQ4LM2P-20260228", "2026-02-30", "INV9-94ND90NR-20260228", []string{render.RuleIRNRebuilt}},
		{"no IRN", "", "", "2026-03-15", "", []string{render.RuleBusinessIDReplaced, render.RuleIRNUnavailable}},
		{"reference with a hyphen", issuer.BusinessID, "INV-9-7XQ4LM2P-20260315", "2026-03-15", "", []string{render.RuleIRNUnavailable}},
		{"no date anywhere", issuer.BusinessID, "INV9-7XQ4LM2P-2026", "", "", []string{render.RuleIRNUnavailable}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inv := &nrs.Invoice{BusinessID: c.businessID, IRN: c.irn, IssueDate: c.issueDate}
			irn, businessID, warnings := render.Identify(a, inv, issuer)
			if irn != c.want || businessID != issuer.BusinessID {
				t.Errorf("got %q, %q; want %q, %q", irn, businessID, c.want, issuer.BusinessID)
			}
			if got := rules(warnings); !slices.Equal(got, c.warnings) {
				t.Errorf("warnings %v, want %v", got, c.warnings)
			}
			for _, w := range warnings {
				if w.Severity != model.SeverityWarning || len(w.Loc) != 1 || w.Path != "/"+w.Loc[0].(string) {
					t.Errorf("warning shape: %+v", w)
				}
			}
		})
	}
}

func TestCheckPayload(t *testing.T) {
	cases := []struct {
		name    string
		payload any
		want    []string // type@loc
	}{
		{"not an object", []any{1}, []string{"dict_type@payload"}},
		{"null", nil, []string{"dict_type@payload"}},
		{"valid fixture", "invoice-b2b-1.1.json", nil},
		{"invalid fixture still renders", "invalid-type-code-and-date.json", nil},
		{"empty object renders", map[string]any{}, nil},
		{"nulls are absent", map[string]any{"invoice_line": nil, "legal_monetary_total": nil, "tax_total": []any{nil}}, nil},
		{"wrong containers", map[string]any{
			"accounting_supplier_party": "Sango",
			"invoice_line":              map[string]any{},
			"tax_total":                 []any{"x"},
			"legal_monetary_total":      []any{},
		}, []string{
			"dict_type@payload/accounting_supplier_party",
			"list_type@payload/invoice_line",
			"dict_type@payload/legal_monetary_total",
			"dict_type@payload/tax_total/0",
		}},
		{"wrong scalars deep down", map[string]any{
			"invoice_line": []any{
				map[string]any{"invoiced_quantity": json.Number("1"), "price": map[string]any{"price_amount": "5000"}},
				map[string]any{"invoiced_quantity": "ten", "item": []any{}},
			},
			"allowance_charge":     []any{map[string]any{"charge_indicator": "no", "amount": true}},
			"legal_monetary_total": map[string]any{"payable_amount": "75250.00", "tax_inclusive_amount": 75250.0},
			"tax_total": []any{map[string]any{"tax_subtotal": []any{
				map[string]any{"tax_category": map[string]any{"percent": "7.5"}},
			}}},
			"accounting_customer_party": map[string]any{"postal_address": "Ibadan"},
		}, []string{
			"dict_type@payload/accounting_customer_party/postal_address",
			"bool_type@payload/allowance_charge/0/charge_indicator",
			"value_error@payload/allowance_charge/0/amount",
			"value_error@payload/invoice_line/0/price/price_amount",
			"value_error@payload/invoice_line/1/invoiced_quantity",
			"dict_type@payload/invoice_line/1/item",
			"value_error@payload/legal_monetary_total/payable_amount",
			"value_error@payload/tax_total/0/tax_subtotal/0/tax_category/percent",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			payload := c.payload
			if file, ok := payload.(string); ok {
				payload = loadFixture(t, file)
			}
			var p model.Problems
			render.CheckPayload(&p, payload)
			got := []string{}
			for _, f := range p.List() {
				parts := []string{}
				for _, l := range f.Loc {
					switch v := l.(type) {
					case string:
						parts = append(parts, v)
					case int:
						parts = append(parts, strconv.Itoa(v))
					}
				}
				got = append(got, string(f.Type)+"@"+strings.Join(parts, "/"))
			}
			want := c.want
			if want == nil {
				want = []string{}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got %v\nwant %v", got, want)
			}
		})
	}
}

func TestFormatMoney(t *testing.T) {
	cases := []struct{ currency, amount, want string }{
		{"NGN", "75250.00", "₦75,250.00"},
		{"NGN", "0.00", "₦0.00"},
		{"NGN", "999.5", "₦999.50"},
		{"NGN", "1000", "₦1,000.00"},
		{"NGN", "-1234567.89", "-₦1,234,567.89"},
		{"NGN", "123456789012.00", "₦123,456,789,012.00"},
		{"NGN", "0.125", "₦0.125"},
		{"USD", "12.00", "$12.00"},
		{"XOF", "5000.00", "XOF 5,000.00"},
		{"", "100.00", "100.00"},
		{"NGN", "", ""},
	}
	for _, c := range cases {
		if got := render.FormatMoney(c.currency, c.amount); got != c.want {
			t.Errorf("FormatMoney(%q, %q) = %q, want %q", c.currency, c.amount, got, c.want)
		}
	}
	for in, want := range map[string]string{"1500": "1,500", "2.5": "2.5", "100": "100", "-12345.678": "-12,345.678"} {
		if got := render.FormatNumber(in); got != want {
			t.Errorf("FormatNumber(%q) = %q, want %q", in, got, want)
		}
	}
}
