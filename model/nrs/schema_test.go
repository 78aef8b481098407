package nrs

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestSchemaDocuments(t *testing.T) {
	a := newAuthority(t)
	if a.Code() != "NRS" {
		t.Errorf("Code = %q", a.Code())
	}
	if got := a.SchemaVersions(); !slices.Equal(got, []string{"1.0", "1.1"}) {
		t.Errorf("SchemaVersions = %v", got)
	}
	if a.DefaultSchemaVersion() != "1.1" {
		t.Errorf("DefaultSchemaVersion = %q", a.DefaultSchemaVersion())
	}
	if _, ok := a.Schema("2.0"); ok {
		t.Error("Schema(2.0) found")
	}
	for _, v := range a.SchemaVersions() {
		t.Run(v, func(t *testing.T) {
			data, ok := a.Schema(v)
			if !ok {
				t.Fatal("not found")
			}
			var doc struct {
				Schema     string         `json:"$schema"`
				ID         string         `json:"$id"`
				Required   []string       `json:"required"`
				Properties map[string]any `json:"properties"`
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Schema != "https://json-schema.org/draft/2020-12/schema" {
				t.Errorf("$schema = %q", doc.Schema)
			}
			if doc.ID != "https://einvoice.ng/schemas/nrs/invoice-"+v+".json" || doc.ID != SchemaID(v) {
				t.Errorf("$id = %q", doc.ID)
			}
			// NRS's mandatory fields: 1.1 adds tax_currency_code, the supplier
			// and tax_total, and leaves invoice_kind optional.
			want := []string{"business_id", "irn", "issue_date", "invoice_type_code", "document_currency_code"}
			if v == "1.1" {
				want = append(want, "tax_currency_code", "accounting_supplier_party", "tax_total")
			}
			want = append(want, "legal_monetary_total", "invoice_line")
			if !slices.Equal(doc.Required, want) {
				t.Errorf("required = %v, want %v", doc.Required, want)
			}
			// Code lists are NRS's refreshable resources, never enums frozen
			// in the schema.
			if strings.Contains(string(data), `"enum"`) {
				t.Error("the schema holds an enum")
			}
			// A caller cannot change the served document.
			data[0] = 'X'
			again, _ := a.Schema(v)
			if again[0] != '{' {
				t.Error("Schema returns shared bytes")
			}
		})
	}
}

func TestSchemaShapes(t *testing.T) {
	a := newAuthority(t)
	v10, v11 := a.versions["1.0"].shape, a.versions["1.1"].shape
	line11 := v11.fields["invoice_line"].elem
	line10 := v10.fields["invoice_line"].elem
	for _, f := range []string{"isic_code", "service_category", "hsn_code", "price"} {
		if line11.fields[f] == nil {
			t.Errorf("1.1 line lacks %s", f)
		}
	}
	for _, f := range []string{"isic_code", "service_category"} {
		if line10.fields[f] != nil {
			t.Errorf("1.0 line has %s", f)
		}
	}
	for _, line := range []*shape{line10, line11} {
		if line.fields["price"].fields["price_unit"] == nil {
			t.Error("price_unit must exist in 1.0 and 1.1")
		}
		for _, f := range []string{"dicount_rate", "dicount_amount", "discount_rate", "discount_amount", "fee_rate", "fee_amount"} {
			if line.fields[f] == nil {
				t.Errorf("line lacks %s", f)
			}
		}
	}
	for _, f := range []string{"bill_party", "ship_party"} {
		if v11.fields[f] == nil || v10.fields[f] != nil {
			t.Errorf("%s must exist in 1.1 only", f)
		}
	}
	party := v11.fields["accounting_customer_party"]
	if party.fields["id"] == nil || party.fields["postal_address_id"] == nil {
		t.Error("party lacks id or postal_address_id")
	}
	ref := v11.fields["contract_document_reference"]
	if ref.fields["irn"] == nil || ref.elem == nil || ref.elem.fields["irn"] == nil {
		t.Error("document references must read as an object or an array")
	}
	addr := v11.fields["accounting_supplier_party"].fields["postal_address"]
	if addr.fields["lga"] == nil || addr.fields["state"] == nil {
		t.Error("1.1 address lacks lga/state")
	}
	sub := v11.fields["tax_total"].elem.fields["tax_subtotal"].elem
	if sub.fields["tax_category"].fields["percent"] == nil {
		t.Error("tax subtotal shape incomplete")
	}
}

func TestPointer(t *testing.T) {
	tests := []struct {
		loc  []any
		want string
	}{
		{[]any{}, ""},
		{[]any{"a"}, "/a"},
		{[]any{"invoice_line", 10, "price"}, "/invoice_line/10/price"},
		{[]any{"a/b", "c~d"}, "/a~1b/c~0d"},
	}
	for _, tt := range tests {
		if got := pointer(tt.loc); got != tt.want {
			t.Errorf("pointer(%v) = %q, want %q", tt.loc, got, tt.want)
		}
	}
	// Escaped keys round-trip through a report.
	a := newAuthority(t)
	doc := loadFixture(t, b2b)
	applyEdits(t, doc, []edit{{"/x~y", "1"}})
	r := validate(t, a, modelInput(doc))
	if _, ok := findIssue(t, r, RuleUnknownField, "/x~0y"); !ok {
		t.Errorf("escaped path missing:%s", dump(r))
	}
}
