package nrs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
)

// The conformance suite takes NRS's own published material through the
// validator: its example requests (testdata/nrs/examples, sources in
// sources.json) must validate under the nrs profile with no error other
// than what their template placeholders cause, and every rule NRS publishes
// (a mandatory field, a code list, a format) has a case showing that
// einvoice refuses what NRS refuses. docs/nrs-conformance.md explains it.

const examplesDir = "../../testdata/nrs/examples"

// exampleSource is one entry of sources.json.
type exampleSource struct {
	File      string         `json:"file"`
	Key       string         `json:"key"`
	Authority string         `json:"authority"`
	Schema    string         `json:"schema"`
	What      string         `json:"what"`
	Location  map[string]any `json:"location"`
	Retrieved string         `json:"retrieved"`
}

func exampleSources(t testing.TB) []exampleSource {
	t.Helper()
	var out []exampleSource
	if err := json.Unmarshal(readFile(t, filepath.Join(examplesDir, "sources.json")), &out); err != nil {
		t.Fatalf("sources.json: %v", err)
	}
	return out
}

// loadExample reads an example as NRS publishes it, // comments removed.
func loadExample(t testing.TB, file string) map[string]any {
	t.Helper()
	doc, ok := decodeJSON(t, stripComments(readFile(t, filepath.Join(examplesDir, file)))).(map[string]any)
	if !ok {
		t.Fatalf("%s is not a JSON object", file)
	}
	return doc
}

// TestExampleSources checks that every example names its source and every
// named source is there.
func TestExampleSources(t *testing.T) {
	sources := exampleSources(t)
	named := map[string]bool{}
	for _, s := range sources {
		named[s.File] = true
		if s.Key == "" || s.Authority == "" || s.What == "" || s.Retrieved == "" || len(s.Location) == 0 {
			t.Errorf("%s: incomplete source %+v", s.File, s)
		}
		if s.Location["repo"] != nil && (s.Location["commit"] == nil || s.Location["path"] == nil) {
			t.Errorf("%s: a repository source needs its path and commit", s.File)
		}
		if s.Location["repo"] == nil && s.Location["url"] == nil {
			t.Errorf("%s: no repository or URL", s.File)
		}
	}
	entries, err := os.ReadDir(examplesDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		switch name := e.Name(); {
		case name == "sources.json" || name == "SOURCES.md":
		case !named[name]:
			t.Errorf("%s has no entry in sources.json", name)
		default:
			delete(named, name)
		}
	}
	for name := range named {
		t.Errorf("sources.json names %s, which is missing", name)
	}
}

// allowed is a finding an example may cause, with the reason. A finding
// caused by a template placeholder names it: the test checks that the
// placeholder is the value at the finding's path. Any other finding comes
// from NRS's own content and must be a warning.
type allowed struct {
	finding     string // rule@path
	placeholder string
	why         string
}

// Reasons shared by NRS's samples.
const (
	whyAmounts   = "NRS's sample amounts do not add up (schema-1.1.md, Arithmetic): a consistency warning"
	whyIRNDate   = "the sample's IRN date is not its issue_date"
	whyNoKind    = "schema 1.0 has no invoice_kind, and the request names none"
	whySpelling  = "FIRS-COLL spells the discount discount_*, read as NRS's dicount_*"
	whyMangled   = "FIRS-COLL's copy mangles additional_document_reference into _document_reference"
	whyPlaceID   = "template placeholder where NRS expects a UUID"
	whyPlaceTIN  = "placeholder TIN: NRS publishes no TIN pattern, so a form it does not show is a warning"
	whyPlaceHS10 = "placeholder HS code of FIRS's 1.0 samples: a warning under schema 1.0"
)

// sampleAmounts are the arithmetic warnings of FIRS's sample amounts, with
// their number of lines.
func sampleAmounts(lines int) []allowed {
	out := []allowed{}
	for i := range lines {
		out = append(out, allowed{"NRS-ARITH-LINE@/invoice_line/" + strconv.Itoa(i) + "/line_extension_amount", "", whyAmounts})
	}
	for _, f := range []string{
		"NRS-ARITH-LINE-TOTAL@/legal_monetary_total/line_extension_amount",
		"NRS-ARITH-TAX-EXCLUSIVE@/legal_monetary_total/tax_exclusive_amount",
		"NRS-ARITH-TAX-INCLUSIVE@/legal_monetary_total/tax_inclusive_amount",
		"NRS-ARITH-TAX-TOTAL@/tax_total/0/tax_amount",
		"NRS-ARITH-TAX-SUBTOTAL@/tax_total/0/tax_subtotal/0/tax_amount",
	} {
		out = append(out, allowed{f, "", whyAmounts})
	}
	return out
}

func joinAllowed(lists ...[]allowed) []allowed {
	var out []allowed
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

var exampleCases = []struct {
	file    string
	version string
	allowed []allowed
}{
	{"firs-doc-1.0-validate-invoice.jsonc", "1.0", joinAllowed([]allowed{
		{"NRS-BUSINESS-ID-FORMAT@/business_id", "{{BUSINESS_ID}}", whyPlaceID},
		{"NRS-PARTY-ID-FORMAT@/accounting_customer_party/id", "{{PARTY_ID}}", whyPlaceID},
		{"NRS-PARTY-ID-FORMAT@/accounting_supplier_party/postal_address_id", "{{TEST_ADDRESS_ID}}", whyPlaceID},
		{"NRS-PARTY-TIN-FORMAT@/accounting_supplier_party/tin", "TIN-0099990001", whyPlaceTIN},
		{"NRS-PARTY-TIN-FORMAT@/accounting_customer_party/tin", "TIN-000001", whyPlaceTIN},
		{"NRS-LINE-HSN-FORMAT@/invoice_line/0/hsn_code", "CC-001", whyPlaceHS10},
		{"NRS-LINE-HSN-FORMAT@/invoice_line/1/hsn_code", "VV-AX-001", whyPlaceHS10},
		{"NRS-IRN-DATE-MISMATCH@/irn", "", whyIRNDate},
		{"NRS-KIND-UNKNOWN@/invoice_kind", "", whyNoKind},
	}, sampleAmounts(2))},
	{"firs-doc-1.0-sign-invoice.jsonc", "1.0", joinAllowed([]allowed{
		{"NRS-BUSINESS-ID-FORMAT@/business_id", "{{BUSINESS_ID}}", whyPlaceID},
		{"NRS-PARTY-ID-FORMAT@/accounting_customer_party/id", "{{PARTY_ID}}", whyPlaceID},
		{"NRS-PARTY-TIN-FORMAT@/accounting_supplier_party/tin", "TIN-000001", whyPlaceTIN},
		{"NRS-PARTY-TIN-FORMAT@/accounting_customer_party/tin", "TIN-000002", whyPlaceTIN},
		{"NRS-LINE-HSN-FORMAT@/invoice_line/0/hsn_code", "CC-001", whyPlaceHS10},
		{"NRS-LINE-HSN-FORMAT@/invoice_line/1/hsn_code", "VV-AX-001", whyPlaceHS10},
		{"NRS-IRN-DATE-MISMATCH@/irn", "", whyIRNDate},
		{"NRS-KIND-UNKNOWN@/invoice_kind", "", whyNoKind},
	}, sampleAmounts(2))},
	{"firs-coll-validate-invoice.jsonc", "1.0", collAllowed},
	{"firs-coll-sign-invoice.jsonc", "1.0", collAllowed},
	{"portal-sample-1.1.json", "1.0", joinAllowed([]allowed{
		{"NRS-PARTY-TIN-FORMAT@/accounting_supplier_party/tin", "TIN-000001", whyPlaceTIN},
		{"NRS-PARTY-TIN-FORMAT@/accounting_customer_party/tin", "TIN-000002", whyPlaceTIN},
		{"NRS-LINE-HSN-FORMAT@/invoice_line/0/hsn_code", "CC-001", whyPlaceHS10},
		{"NRS-IRN-DATE-MISMATCH@/irn", "", whyIRNDate},
		{"NRS-KIND-UNKNOWN@/invoice_kind", "", whyNoKind},
	}, sampleAmounts(1))},
}

// collAllowed is what FIRS's Postman bodies may cause (validate and sign
// differ in comments only).
var collAllowed = joinAllowed([]allowed{
	{"NRS-BUSINESS-ID-FORMAT@/business_id", "{{TEST_BUSINESS_ID}}", whyPlaceID},
	{"NRS-PARTY-TIN-FORMAT@/accounting_supplier_party/tin", "TIN-0099990001", whyPlaceTIN},
	{"NRS-PARTY-TIN-FORMAT@/accounting_customer_party/tin", "TIN-000001", whyPlaceTIN},
	{"NRS-LINE-HSN-FORMAT@/invoice_line/0/hsn_code", "CC-001", whyPlaceHS10},
	{"NRS-LINE-HSN-FORMAT@/invoice_line/1/hsn_code", "CC-001", whyPlaceHS10},
	{"NRS-LINE-DISCOUNT-SPELLING@/invoice_line/0/discount_rate", "", whySpelling},
	{"NRS-LINE-DISCOUNT-SPELLING@/invoice_line/0/discount_amount", "", whySpelling},
	{"NRS-LINE-DISCOUNT-SPELLING@/invoice_line/1/discount_rate", "", whySpelling},
	{"NRS-LINE-DISCOUNT-SPELLING@/invoice_line/1/discount_amount", "", whySpelling},
	{"NRS-UNKNOWN-FIELD@/_document_reference", "", whyMangled},
	{"NRS-IRN-DATE-MISMATCH@/irn", "", whyIRNDate},
	{"NRS-KIND-UNKNOWN@/invoice_kind", "", whyNoKind},
}, sampleAmounts(2))

// valueAt reads the string at a JSON Pointer.
func valueAt(doc map[string]any, path string) string {
	var cur any = doc
	for _, seg := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[seg]
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i >= len(c) {
				return ""
			}
			cur = c[i]
		default:
			return ""
		}
	}
	s, _ := cur.(string)
	return s
}

// TestNRSExamples validates NRS's example requests under the nrs profile:
// the findings are exactly those the table allows, and every error comes
// from a template placeholder.
func TestNRSExamples(t *testing.T) {
	a := newAuthority(t)
	versions := map[string]string{}
	for _, s := range exampleSources(t) {
		versions[s.File] = s.Schema
	}
	covered := map[string]bool{}
	for _, tc := range exampleCases {
		covered[tc.file] = true
		t.Run(tc.file, func(t *testing.T) {
			if versions[tc.file] != tc.version {
				t.Fatalf("sources.json gives schema %q, the table %q", versions[tc.file], tc.version)
			}
			doc := loadExample(t, tc.file)
			r := validate(t, a, model.ValidateInput{SchemaVersion: tc.version, Payload: doc})
			byFinding := map[string]allowed{}
			for _, al := range tc.allowed {
				byFinding[al.finding] = al
				if al.placeholder != "" {
					path := al.finding[strings.IndexByte(al.finding, '@')+1:]
					if got := valueAt(doc, path); got != al.placeholder {
						t.Errorf("%s: the value at %s is %q, not the placeholder %q", al.finding, path, got, al.placeholder)
					}
				}
			}
			seen := map[string]bool{}
			for _, is := range allIssues(r) {
				f := is.Rule + "@" + is.Path
				seen[f] = true
				al, ok := byFinding[f]
				switch {
				case !ok:
					t.Errorf("unexpected %s %s: %s", is.Severity, f, is.Message)
				case is.Severity == model.SeverityError && al.placeholder == "":
					t.Errorf("%s is an error, but only placeholders may cause errors (%s)", f, al.why)
				}
			}
			for _, al := range tc.allowed {
				if !seen[al.finding] {
					t.Errorf("expected %s (%s) did not appear", al.finding, al.why)
				}
			}
		})
	}
	// Every whole invoice among the examples is in the table.
	for _, s := range exampleSources(t) {
		if s.Schema == "" || strings.HasPrefix(s.File, "nrs-doc-1.1-") {
			continue // a non-invoice body or a fragment (TestNRSFragments)
		}
		if !covered[s.File] {
			t.Errorf("%s is not in the conformance table", s.File)
		}
	}
}

// TestPortalSampleUnder11 pins the one disagreement inside NRS's own v1.1
// material: the portal sample leaves out the supplier's lga and state,
// which NRS-DOC-1.1's table marks mandatory. einvoice follows the table
// (docs/nrs-conformance.md), so under 1.1 the sample gets exactly those two
// errors besides its HS placeholder, which 1.1 refuses.
func TestPortalSampleUnder11(t *testing.T) {
	a := newAuthority(t)
	r := validate(t, a, model.ValidateInput{SchemaVersion: "1.1", Payload: loadExample(t, "portal-sample-1.1.json")})
	got := []string{}
	for _, is := range r.Errors {
		got = append(got, is.Rule+"@"+is.Path)
	}
	want := []string{
		"NRS-PARTY-ADDRESS-FIELD-REQUIRED@/accounting_supplier_party/postal_address/lga",
		"NRS-PARTY-ADDRESS-FIELD-REQUIRED@/accounting_supplier_party/postal_address/state",
		"NRS-LINE-HSN-FORMAT@/invoice_line/0/hsn_code",
	}
	if !slices.Equal(got, want) {
		t.Errorf("errors = %v, want %v", got, want)
	}
}

// nrsBase is a complete 1.1 invoice written as NRS writes one (payment
// means 43, dicount_*, "NGN per 1"), without any finding: the base of the
// rule cases.
func nrsBase(t testing.TB) map[string]any {
	t.Helper()
	doc := nrsFixture(t, "invoice-b2b-1.1.json")
	applyEdits(t, doc, []edit{
		{"/payment_means/0/payment_means_code", "43"},
		{"/invoice_line/0/price/price_unit", "NGN per 1"},
		{"/invoice_line/1/price/price_unit", "NGN per 1"},
	})
	return doc
}

// loadFragment reads an NRS-DOC-1.1 fragment.
func loadFragment(t testing.TB, part string) any {
	t.Helper()
	return decodeJSON(t, readFile(t, filepath.Join(examplesDir, "nrs-doc-1.1-"+part+".json")))
}

// TestNRSFragments puts NRS-DOC-1.1's JSON examples into a complete
// invoice: they bring no error, only the arithmetic warnings of their
// amounts (which belong to other invoices).
func TestNRSFragments(t *testing.T) {
	a := newAuthority(t)
	tests := []struct {
		name     string
		edits    func(t testing.TB) []edit
		warnings []string
	}{
		{"party as the customer (TIN RN-847789; no lga or state)", func(t testing.TB) []edit {
			return []edit{{"/accounting_customer_party", loadFragment(t, "party")}}
		}, nil},
		{"party as the payee", func(t testing.TB) []edit {
			return []edit{{"/payee_party", loadFragment(t, "party")}}
		}, nil},
		{"item", func(t testing.TB) []edit {
			return []edit{{"/invoice_line/0/item", loadFragment(t, "item")}}
		}, nil},
		{"price, NGN per 1", func(t testing.TB) []edit {
			return []edit{{"/invoice_line/0/price", loadFragment(t, "price")}, {"/invoice_line/0/invoiced_quantity", num("10")},
				{"/invoice_line/0/line_extension_amount", num("50000")}}
		}, nil},
		{"tax total, LOCAL_SALES_TAX 2.3", func(t testing.TB) []edit {
			return []edit{{"/tax_total", []any{loadFragment(t, "tax-total")}}}
		}, []string{"NRS-ARITH-TAX-INCLUSIVE@/legal_monetary_total/tax_inclusive_amount", "NRS-ARITH-TAX-SUBTOTAL@/tax_total/0/tax_subtotal/0/tax_amount", "NRS-ARITH-TAX-TOTAL@/tax_total/0/tax_amount"}},
		{"legal monetary total", func(t testing.TB) []edit {
			return []edit{{"/legal_monetary_total", loadFragment(t, "legal-monetary-total")}}
		}, []string{"NRS-ARITH-LINE-TOTAL@/legal_monetary_total/line_extension_amount", "NRS-ARITH-TAX-INCLUSIVE@/legal_monetary_total/tax_inclusive_amount"}},
		{"allowance charge", func(t testing.TB) []edit {
			return []edit{{"/allowance_charge", []any{loadFragment(t, "allowance-charge")}}}
		}, []string{"NRS-ARITH-TAX-EXCLUSIVE@/legal_monetary_total/tax_exclusive_amount"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := nrsBase(t)
			applyEdits(t, doc, tt.edits(t))
			r := validate(t, a, model.ValidateInput{Payload: doc})
			if !r.Valid {
				t.Errorf("errors:%s", dump(r))
			}
			got := []string{}
			for _, is := range r.Warnings {
				got = append(got, is.Rule+"@"+is.Path)
			}
			want := tt.warnings
			if want == nil {
				want = []string{}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("warnings = %v, want %v", got, want)
			}
		})
	}
	// As the supplier, NRS-DOC-1.1's party example lacks the lga and state
	// its own table marks mandatory: the documented disagreement.
	doc := nrsBase(t)
	applyEdits(t, doc, []edit{{"/accounting_supplier_party", loadFragment(t, "party")}})
	r := validate(t, a, model.ValidateInput{Payload: doc})
	for _, f := range []string{"lga", "state"} {
		if is, ok := findIssue(t, r, RulePartyAddressFieldRequired, "/accounting_supplier_party/postal_address/"+f); !ok || is.Severity != model.SeverityError {
			t.Errorf("no error for the supplier's missing %s:%s", f, dump(r))
		}
	}
}

// nrsRuleCases are NRS's published rules, each with a payload that breaks
// it: einvoice must refuse it (an error under the nrs profile) at the
// field.
var nrsRuleCases = []struct {
	source string
	rule   string
	edits  []edit
	want   string // rule@path of the error
}{
	// NRS-DOC-1.1 mandatory fields (1.1).
	{"NRS-DOC-1.1 1.1", "business_id mandatory", []edit{{"/business_id", del}}, "NRS-SCHEMA-REQUIRED@/business_id"},
	{"NRS-DOC-1.1 1.2", "irn mandatory", []edit{{"/irn", del}}, "NRS-SCHEMA-REQUIRED@/irn"},
	{"NRS-DOC-1.1 1.3", "issue_date mandatory", []edit{{"/issue_date", del}}, "NRS-SCHEMA-REQUIRED@/issue_date"},
	{"NRS-DOC-1.1 1.6", "invoice_type_code mandatory", []edit{{"/invoice_type_code", del}}, "NRS-SCHEMA-REQUIRED@/invoice_type_code"},
	{"NRS-DOC-1.1 1.11", "document_currency_code mandatory", []edit{{"/document_currency_code", del}}, "NRS-SCHEMA-REQUIRED@/document_currency_code"},
	{"NRS-DOC-1.1 1.12", "tax_currency_code mandatory", []edit{{"/tax_currency_code", del}}, "NRS-SCHEMA-REQUIRED@/tax_currency_code"},
	{"NRS-DOC-1.1 1.23", "accounting_supplier_party mandatory", []edit{{"/accounting_supplier_party", del}}, "NRS-SCHEMA-REQUIRED@/accounting_supplier_party"},
	{"NRS-DOC-1.1 1.32", "tax_total mandatory", []edit{{"/tax_total", del}}, "NRS-SCHEMA-REQUIRED@/tax_total"},
	{"NRS-DOC-1.1 1.33", "legal_monetary_total mandatory", []edit{{"/legal_monetary_total", del}}, "NRS-SCHEMA-REQUIRED@/legal_monetary_total"},
	{"NRS-DOC-1.1 1.34", "invoice_line mandatory", []edit{{"/invoice_line", del}}, "NRS-SCHEMA-REQUIRED@/invoice_line"},
	{"NRS-DOC-1.1 1.34", "at least one invoice line", []edit{{"/invoice_line", []any{}}}, "NRS-SCHEMA-MIN-ITEMS@/invoice_line"},
	// Supplier party (1.22.x).
	{"NRS-DOC-1.1 1.22.1", "supplier party_name mandatory", []edit{{supplier + "/party_name", del}}, "NRS-PARTY-NAME-REQUIRED@" + supplier + "/party_name"},
	{"NRS-DOC-1.1 1.22.2", "supplier tin mandatory", []edit{{supplier + "/tin", del}}, "NRS-PARTY-TIN-REQUIRED@" + supplier + "/tin"},
	{"NRS-DOC-1.1 1.22.3", "supplier email mandatory", []edit{{supplier + "/email", del}}, "NRS-PARTY-EMAIL-REQUIRED@" + supplier + "/email"},
	{"NRS-DOC-1.1 1.22.4", "telephone starts with +", []edit{{supplier + "/telephone", "08031234567"}}, "NRS-PARTY-TELEPHONE-FORMAT@" + supplier + "/telephone"},
	{"NRS-DOC-1.1 1.22.6", "supplier postal_address mandatory", []edit{{supplier + "/postal_address", del}}, "NRS-PARTY-ADDRESS-REQUIRED@" + supplier + "/postal_address"},
	{"NRS-DOC-1.1 1.22.7", "street_name mandatory", []edit{{supplier + "/postal_address/street_name", del}}, "NRS-PARTY-ADDRESS-FIELD-REQUIRED@" + supplier + "/postal_address/street_name"},
	{"NRS-DOC-1.1 1.22.8", "city_name mandatory", []edit{{supplier + "/postal_address/city_name", del}}, "NRS-PARTY-ADDRESS-FIELD-REQUIRED@" + supplier + "/postal_address/city_name"},
	{"NRS-DOC-1.1 1.22.9", "postal_zone mandatory", []edit{{supplier + "/postal_address/postal_zone", del}}, "NRS-PARTY-ADDRESS-FIELD-REQUIRED@" + supplier + "/postal_address/postal_zone"},
	{"NRS-DOC-1.1 1.22.10", "lga mandatory", []edit{{supplier + "/postal_address/lga", del}}, "NRS-PARTY-ADDRESS-FIELD-REQUIRED@" + supplier + "/postal_address/lga"},
	{"NRS-DOC-1.1 1.22.11", "state mandatory", []edit{{supplier + "/postal_address/state", del}}, "NRS-PARTY-ADDRESS-FIELD-REQUIRED@" + supplier + "/postal_address/state"},
	{"NRS-DOC-1.1 1.22.12", "country mandatory", []edit{{supplier + "/postal_address/country", del}}, "NRS-PARTY-ADDRESS-FIELD-REQUIRED@" + supplier + "/postal_address/country"},
	{"FIRS-DOC-1.0 customer comments", "customer tin \"now mandatory\"", []edit{{customer + "/tin", del}}, "NRS-PARTY-TIN-REQUIRED@" + customer + "/tin"},
	{"FIRS-DOC-1.0 customer comments", "customer email \"now mandatory\"", []edit{{customer + "/email", del}}, "NRS-PARTY-EMAIL-REQUIRED@" + customer + "/email"},
	// Tax total and totals.
	{"NRS-DOC-1.1 TaxTotal", "tax_amount mandatory", []edit{{"/tax_total/0/tax_amount", del}}, "NRS-SCHEMA-REQUIRED@/tax_total/0/tax_amount"},
	{"NRS-DOC-1.1 TaxTotal", "tax_subtotal mandatory", []edit{{"/tax_total/0/tax_subtotal", del}}, "NRS-SCHEMA-REQUIRED@/tax_total/0/tax_subtotal"},
	{"NRS-DOC-1.1 TaxTotal", "taxable_amount mandatory", []edit{{"/tax_total/0/tax_subtotal/0/taxable_amount", del}}, "NRS-SCHEMA-REQUIRED@/tax_total/0/tax_subtotal/0/taxable_amount"},
	{"NRS-DOC-1.1 TaxTotal", "tax_category.id mandatory", []edit{{"/tax_total/0/tax_subtotal/0/tax_category/id", del}}, "NRS-SCHEMA-REQUIRED@/tax_total/0/tax_subtotal/0/tax_category/id"},
	{"NRS-DOC-1.1 TaxTotal", "tax_category.percent mandatory", []edit{{"/tax_total/0/tax_subtotal/0/tax_category/percent", del}}, "NRS-SCHEMA-REQUIRED@/tax_total/0/tax_subtotal/0/tax_category/percent"},
	{"NRS-DOC-1.1 TaxTotal", "percent is a number", []edit{{"/tax_total/0/tax_subtotal/0/tax_category/percent", "7.5"}}, "NRS-SCHEMA-TYPE@/tax_total/0/tax_subtotal/0/tax_category/percent"},
	{"NRS-DOC-1.1 1.33", "payable_amount mandatory", []edit{{lmt + "/payable_amount", del}}, "NRS-SCHEMA-REQUIRED@" + lmt + "/payable_amount"},
	{"NRS-DOC-1.1 1.33", "amounts are numbers", []edit{{lmt + "/tax_inclusive_amount", "75250.00"}}, "NRS-SCHEMA-TYPE@" + lmt + "/tax_inclusive_amount"},
	// Invoice lines (1.41.x).
	{"NRS-DOC-1.1 1.41.9", "invoiced_quantity mandatory", []edit{{"/invoice_line/0/invoiced_quantity", del}}, "NRS-SCHEMA-REQUIRED@/invoice_line/0/invoiced_quantity"},
	{"NRS-DOC-1.1 1.41.10", "line_extension_amount mandatory", []edit{{"/invoice_line/0/line_extension_amount", del}}, "NRS-SCHEMA-REQUIRED@/invoice_line/0/line_extension_amount"},
	{"NRS-DOC-1.1 1.41.11", "item mandatory", []edit{{"/invoice_line/0/item", del}}, "NRS-SCHEMA-REQUIRED@/invoice_line/0/item"},
	{"NRS-DOC-1.1 1.41.12", "price mandatory", []edit{{"/invoice_line/0/price", del}}, "NRS-SCHEMA-REQUIRED@/invoice_line/0/price"},
	{"NRS-DOC-1.1 1.41.1", "goods or service code", []edit{{"/invoice_line/0/hsn_code", del}}, "NRS-LINE-CLASSIFICATION-REQUIRED@/invoice_line/0"},
	{"NRS-DOC-1.1 1.41.2", "product_category mandatory for goods", []edit{{"/invoice_line/0/product_category", del}}, "NRS-LINE-PRODUCT-CATEGORY-REQUIRED@/invoice_line/0/product_category"},
	{"NRS-DOC-1.1 1.41.4", "service_category mandatory for services", []edit{{"/invoice_line/1/service_category", del}}, "NRS-LINE-SERVICE-CATEGORY-REQUIRED@/invoice_line/1/service_category"},
	{"NRS-DOC-1.1 1.41.1", "hsn_code an HS code", []edit{{"/invoice_line/0/hsn_code", "CC-001"}}, "NRS-LINE-HSN-FORMAT@/invoice_line/0/hsn_code"},
	// Formats.
	{"FIRS-DOC-1.0", "business_id a UUID", []edit{{"/business_id", "31569955-0001"}}, "NRS-BUSINESS-ID-FORMAT@/business_id"},
	{"nrs.md IRN", "irn {InvoiceNumber}-{ServiceID}-{YYYYMMDD}", []edit{{"/irn", "SGN2026000123-7XQ4LM2P"}}, "NRS-IRN-FORMAT@/irn"},
	{"NRS-DOC-1.1 1.3", "dates YYYY-MM-DD", []edit{{"/issue_date", "15/03/2026"}}, "NRS-DATE-INVALID@/issue_date"},
	{"NRS-DOC-1.1 1.5", "time HH:MM:SS", []edit{{"/issue_time", "10:00"}}, "NRS-TIME-INVALID@/issue_time"},
	// Code lists (reference/).
	{"invoice-types", "invoice_type_code in the list", []edit{{"/invoice_type_code", "383"}}, "NRS-CODE-INVOICE-TYPE@/invoice_type_code"},
	{"currencies", "currency in NRS's list (ZMW is ISO, not NRS's)", []edit{{"/document_currency_code", "ZMW"}}, "NRS-CODE-CURRENCY@/document_currency_code"},
	{"payment-means", "payment means in the list (21 is not)", []edit{{"/payment_means/0/payment_means_code", "21"}}, "NRS-CODE-PAYMENT-MEANS@/payment_means/0/payment_means_code"},
	{"payment-means", "payment means in the list (54 is not)", []edit{{"/payment_means/0/payment_means_code", "54"}}, "NRS-CODE-PAYMENT-MEANS@/payment_means/0/payment_means_code"},
	{"tax-categories", "tax category in the list (EXEMPTED is not)", []edit{{"/tax_total/0/tax_subtotal/0/tax_category/id", "EXEMPTED"}}, "NRS-CODE-TAX-CATEGORY@/tax_total/0/tax_subtotal/0/tax_category/id"},
	{"countries", "country in the list", []edit{{customer + "/postal_address/country", "UK"}}, "NRS-CODE-COUNTRY@" + customer + "/postal_address/country"},
	{"states", "state in the list", []edit{{supplier + "/postal_address/state", "NG-LG"}}, "NRS-CODE-STATE@" + supplier + "/postal_address/state"},
	{"lgas", "lga in the list (NG-LA-IKJ is not)", []edit{{supplier + "/postal_address/lga", "NG-LA-IKJ"}, {supplier + "/postal_address/state", "NG-LA"}}, "NRS-CODE-LGA@" + supplier + "/postal_address/lga"},
	{"lgas", "lga in its state", []edit{{supplier + "/postal_address/lga", "NG-LA-IKE"}}, "NRS-PARTY-LGA-STATE-MISMATCH@" + supplier + "/postal_address/lga"},
	{"services-codes", "isic_code in the list", []edit{{"/invoice_line/1/isic_code", "4339"}}, "NRS-CODE-ISIC@/invoice_line/1/isic_code"},
	{"FIRS-COLL", "payment_status PENDING, PAID, CANCELED (PARTIAL)", []edit{{"/payment_status", "UNPAID"}}, "NRS-CODE-PAYMENT-STATUS@/payment_status"},
}

// TestNRSRules checks that einvoice refuses what NRS refuses, on a base
// invoice written the way NRS writes one.
func TestNRSRules(t *testing.T) {
	a := newAuthority(t)
	base := validate(t, a, model.ValidateInput{Payload: nrsBase(t)})
	if !base.Valid || len(base.Warnings) != 0 {
		t.Fatalf("the base invoice has findings:%s", dump(base))
	}
	for _, tc := range nrsRuleCases {
		t.Run(tc.source+"/"+tc.rule, func(t *testing.T) {
			doc := nrsBase(t)
			applyEdits(t, doc, tc.edits)
			r := validate(t, a, model.ValidateInput{Payload: doc})
			got := []string{}
			for _, is := range r.Errors {
				got = append(got, is.Rule+"@"+is.Path)
			}
			if r.Valid || !slices.Contains(got, tc.want) {
				t.Errorf("errors = %v, want %s;%s", got, tc.want, dump(r))
			}
		})
	}
}

// TestNRSAcceptances checks values NRS's own material uses: each must pass
// the nrs profile without an error.
func TestNRSAcceptances(t *testing.T) {
	a := newAuthority(t)
	update := loadExample(t, "firs-coll-update-invoice.jsonc")
	tests := []struct {
		source string
		what   string
		edits  []edit
	}{
		{"FIRS-DOC-1.0, FIRS-COLL", "payment means 43, as every example request", []edit{{"/payment_means/0/payment_means_code", "43"}}},
		{"payment-means", "payment means 50, 58 and ZZZ", []edit{{"/payment_means", []any{
			map[string]any{"payment_means_code": "50"}, map[string]any{"payment_means_code": "58"}, map[string]any{"payment_means_code": "ZZZ"}}}}},
		{"FIRS-COLL update body", "payment status CANCELED", []edit{{"/payment_status", update["payment_status"]}}},
		{"CHANGELOG", "payment status PARTIAL", []edit{{"/payment_status", "PARTIAL"}}},
		{"NRS-DOC-1.1 party", "TIN RN-847789", []edit{{supplier + "/tin", "RN-847789"}}},
		{"FIRS-DOC-1.0 verify-tin", "TIN 20198222-0002", []edit{{customer + "/tin", "20198222-0002"}}},
		{"NRS-DOC-1.1 1.41.12", "price_unit NGN per 1", []edit{{"/invoice_line/0/price/price_unit", "NGN per 1"}}},
		{"NRS-DOC-1.1 mapping", "dicount_rate and dicount_amount", []edit{{"/invoice_line/0/dicount_rate", num("10")},
			{"/invoice_line/0/dicount_amount", num("5000")}, {"/invoice_line/0/line_extension_amount", num("45000")},
			{lmt + "/line_extension_amount", num("65000")}, {lmt + "/tax_exclusive_amount", num("65000")},
			{"/tax_total/0/tax_subtotal/0/taxable_amount", num("65000")}, {"/tax_total/0/tax_subtotal/0/tax_amount", num("4875")},
			{"/tax_total/0/tax_amount", num("4875")}, {lmt + "/tax_inclusive_amount", num("69875")}, {lmt + "/payable_amount", num("69875")}}},
		{"NRS-DOC-1.1 1.7", "no invoice_kind", []edit{{"/invoice_kind", del}}},
		{"NRS-DOC-1.1 1.25, 1.26", "bill_party and ship_party", []edit{
			{"/bill_party", map[string]any{"party_name": "Ekiti Homes Accounts", "tin": "20983315-0001", "email": "ap@ekitihomes.example",
				"postal_address": map[string]any{"street_name": "4 Fajuyi Road", "city_name": "Ado-Ekiti", "postal_zone": "360101", "country": "NG"}}},
			{"/ship_party", map[string]any{"party_name": "Ekiti Homes Site", "tin": "20983315-0001", "email": "site@ekitihomes.example",
				"postal_address_id": "5c1b1a9e-0d43-4462-8317-92621e778721"}}}},
		{"FIRS-DOC-1.0 party comments", "a stored customer party by id, without name or address", []edit{
			{customer + "/party_name", del}, {customer + "/postal_address", del}, {customer + "/id", "2e41e692-0d43-4462-8317-92621e778721"}}},
		{"FIRS-DOC-1.0 party comments", "a stored supplier address by postal_address_id", []edit{
			{supplier + "/postal_address", del}, {supplier + "/postal_address_id", "5c1b1a9e-0d43-4462-8317-92621e778721"}}},
		{"FIRS-SCHEMA", "document references as arrays", []edit{
			{"/contract_document_reference", []any{map[string]any{"irn": "ITW001-E9E0C0D3-20240619", "issue_date": "2024-05-14"}}},
			{"/dispatch_document_reference", []any{map[string]any{"irn": "ITW001-E9E0C0D3-20240619", "issue_date": "2024-05-14"}}}}},
		{"FIRS-DOC-1.0", "document references as objects", []edit{
			{"/contract_document_reference", map[string]any{"irn": "ITW001-E9E0C0D3-20240619", "issue_date": "2024-05-14"}},
			{"/additional_document_reference", map[string]any{"irn": "ITW001-E9E0C0D3-20240619", "issue_date": "2024-05-14"}},
			{"/billing_reference", map[string]any{"irn": "ITW001-E9E0C0D3-20240619", "issue_date": "2024-05-14"}}}},
		{"NRS-DOC-1.1 sample", "LOCAL_SALES_TAX at 2.3 %", []edit{{"/tax_total/0/tax_subtotal/0/tax_category", map[string]any{"id": "LOCAL_SALES_TAX", "percent": num("2.3")}}}},
		{"currencies", "retired HRK, still in NRS's list", []edit{{"/document_currency_code", "HRK"}}},
		{"FIRS-DOC-1.0", "invoice type 396 of FIRS's samples", []edit{{"/invoice_type_code", "396"}}},
	}
	for _, tt := range tests {
		t.Run(tt.source+"/"+tt.what, func(t *testing.T) {
			doc := nrsBase(t)
			applyEdits(t, doc, tt.edits)
			r := validate(t, a, model.ValidateInput{Payload: doc})
			if !r.Valid {
				t.Errorf("refused:%s", dump(r))
			}
		})
	}
}
