package nrs

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/einvoice-ng/einvoice/model/nrs/codes"
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
			if got := slices.Contains(doc.Required, "invoice_kind"); got != (v == "1.1") {
				t.Errorf("invoice_kind required = %v", got)
			}
			// The schema's enums are the shipped code lists.
			enums := map[string]*codes.List{
				"invoice_type_code": codes.InvoiceTypes,
				"invoice_kind":      codes.InvoiceKinds,
				"payment_status":    codes.PaymentStatuses,
			}
			for field, list := range enums {
				p, _ := doc.Properties[field].(map[string]any)
				var got []string
				for _, e := range p["enum"].([]any) {
					got = append(got, e.(string))
				}
				if !slices.Equal(got, list.Codes()) {
					t.Errorf("%s enum = %v, want %v", field, got, list.Codes())
				}
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
	if line11.fields["price"].fields["price_unit"] == nil || line10.fields["price"].fields["price_unit"] != nil {
		t.Error("price_unit must exist in 1.1 only")
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

func TestSchemaEnumsMatchCodeLists(t *testing.T) {
	a := newAuthority(t)
	for _, v := range a.SchemaVersions() {
		data, _ := a.Schema(v)
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		get := func(path ...string) []string {
			var cur any = doc
			for _, p := range path {
				cur = cur.(map[string]any)[p]
			}
			var out []string
			for _, e := range cur.([]any) {
				out = append(out, e.(string))
			}
			return out
		}
		pm := get("properties", "payment_means", "items", "properties", "payment_means_code", "enum")
		if !slices.Equal(pm, codes.PaymentMeans.Codes()) {
			t.Errorf("%s payment means enum = %v", v, pm)
		}
		tc := get("properties", "tax_total", "items", "properties", "tax_subtotal", "items", "properties", "tax_category", "properties", "id", "enum")
		if !slices.Equal(tc, codes.TaxCategories.Codes()) {
			t.Errorf("%s tax category enum = %v", v, tc)
		}
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
