package nrs

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
)

// TestFixtures checks the shared fixtures give exactly the outcomes their
// README states, under both profiles. The valid fixtures carry the discount
// and fee fields NRS's 1.1 table marks mandatory on every line and validate
// with no warning; the invalid ones leave them out, which is a warning.
func TestFixtures(t *testing.T) {
	a := newAuthority(t)
	noDiscount := func(lines int) []string {
		out := []string{}
		for i := range lines {
			out = append(out, "NRS-LINE-DISCOUNT-FEE-MISSING@/invoice_line/"+strconv.Itoa(i))
		}
		return out
	}
	type outcome struct {
		errors, warnings []string // rule@path, in report order
	}
	tests := []struct {
		file        string
		nrs, strict outcome
	}{
		{file: "invoice-b2b-1.1.json", nrs: outcome{nil, []string{}}, strict: outcome{nil, []string{}}},
		{file: "invoice-b2c-1.1.json", nrs: outcome{nil, []string{}}, strict: outcome{nil, []string{}}},
		{file: "invoice-b2g-1.1.json", nrs: outcome{nil, []string{}}, strict: outcome{nil, []string{}}},
		{file: "invalid-missing-supplier-tin.json",
			nrs:    outcome{[]string{"NRS-PARTY-TIN-REQUIRED@/accounting_supplier_party/tin"}, noDiscount(2)},
			strict: outcome{[]string{"NRS-PARTY-TIN-REQUIRED@/accounting_supplier_party/tin"}, noDiscount(2)}},
		{file: "invalid-payable-mismatch.json",
			nrs:    outcome{nil, append(noDiscount(2), "NRS-ARITH-PAYABLE@/legal_monetary_total/payable_amount")},
			strict: outcome{[]string{"NRS-ARITH-PAYABLE@/legal_monetary_total/payable_amount"}, noDiscount(2)}},
		{file: "invalid-type-code-and-date.json",
			nrs:    outcome{[]string{"NRS-CODE-INVOICE-TYPE@/invoice_type_code", "NRS-DATE-INVALID@/issue_date"}, noDiscount(2)},
			strict: outcome{[]string{"NRS-CODE-INVOICE-TYPE@/invoice_type_code", "NRS-DATE-INVALID@/issue_date"}, noDiscount(2)}},
	}
	list := func(issues []model.Issue) []string {
		out := []string{}
		for _, is := range issues {
			out = append(out, is.Rule+"@"+is.Path)
		}
		return out
	}
	for _, tt := range tests {
		for _, profile := range []model.ValidationProfile{model.ProfileNRS, model.ProfileStrict} {
			t.Run(tt.file+"/"+string(profile), func(t *testing.T) {
				want := tt.nrs
				if profile == model.ProfileStrict {
					want = tt.strict
				}
				if want.errors == nil {
					want.errors = []string{}
				}
				r := validate(t, a, model.ValidateInput{SchemaVersion: "1.1", Payload: loadFixture(t, tt.file), Profile: profile})
				for _, is := range allIssues(r) {
					if !sameLoc(is.Loc, locOf(is.Path)) {
						t.Errorf("%s: loc %#v does not match path %s", is.Rule, is.Loc, is.Path)
					}
					if is.Message == "" {
						t.Errorf("%s: empty message", is.Rule)
					}
				}
				if got := list(r.Errors); !slices.Equal(got, want.errors) {
					t.Errorf("errors = %v, want %v;%s", got, want.errors, dump(r))
				}
				got := list(r.Warnings)
				slices.Sort(got)
				slices.Sort(want.warnings)
				if !slices.Equal(got, want.warnings) {
					t.Errorf("warnings = %v, want %v", got, want.warnings)
				}
				if r.Valid != (len(want.errors) == 0) {
					t.Errorf("valid = %v with %d errors", r.Valid, len(r.Errors))
				}
				wantRuleset := "NRS-1.1/" + RulesetRevision + "; profile " + string(profile) + "; lists " + codes.SnapshotDate + " snapshot"
				if r.TaxAuthorityCode != "NRS" || r.SchemaVersion != "1.1" || r.Profile != profile || r.Ruleset != wantRuleset {
					t.Errorf("report header = %q %q %q %q", r.TaxAuthorityCode, r.SchemaVersion, r.Profile, r.Ruleset)
				}
			})
		}
	}
}

func TestValidateReportShape(t *testing.T) {
	a := newAuthority(t)
	r := validate(t, a, model.ValidateInput{Payload: loadFixture(t, "invoice-b2b-1.1.json")})
	if r.Errors == nil || r.Warnings == nil {
		t.Fatalf("errors/warnings must be empty slices, not nil: %#v %#v", r.Errors, r.Warnings)
	}
	if r.SchemaVersion != "1.1" {
		t.Errorf("default schema version = %q, want 1.1", r.SchemaVersion)
	}

	// Many problems at once come back sorted by path.
	doc := loadFixture(t, "invoice-b2b-1.1.json")
	applyEdits(t, doc, []edit{
		{"/tax_currency_code", "ZZZ"},
		{"/accounting_supplier_party/telephone", "08031234567"},
		{"/invoice_line/1/isic_code", "12"},
		{"/business_id", "x"},
		{"/issue_time", "25:00:00"},
	})
	r = validate(t, a, model.ValidateInput{Payload: doc})
	if len(r.Errors) != 5 {
		t.Fatalf("want 5 errors:%s", dump(r))
	}
	if !slices.IsSortedFunc(r.Errors, func(x, y model.Issue) int {
		if x.Path < y.Path {
			return -1
		}
		if x.Path > y.Path {
			return 1
		}
		return 0
	}) {
		t.Errorf("errors not sorted by path:%s", dump(r))
	}
}

func TestValidateUnusableRequest(t *testing.T) {
	a := newAuthority(t)
	good := loadFixture(t, "invoice-b2b-1.1.json")
	tests := []struct {
		name string
		in   model.ValidateInput
		typ  model.ProblemType
		loc  []any
	}{
		{"unknown schema version", model.ValidateInput{SchemaVersion: "2.0", Payload: good}, model.ProblemEnum, []any{"schema_version"}},
		{"payload is an array", model.ValidateInput{Payload: []any{}}, model.ProblemDictType, []any{"payload"}},
		{"payload is a string", model.ValidateInput{Payload: "{}"}, model.ProblemDictType, []any{"payload"}},
		{"payload is nil", model.ValidateInput{Payload: nil}, model.ProblemDictType, []any{"payload"}},
		{"request type unknown", model.ValidateInput{InvoiceTypeCode: "INVOICE", Payload: good}, model.ProblemEnum, []any{"invoice_type_code"}},
		{"request type code not in list", model.ValidateInput{InvoiceTypeCode: "999", Payload: good}, model.ProblemEnum, []any{"invoice_type_code"}},
		{"unknown profile", model.ValidateInput{Profile: "lenient", Payload: good}, model.ProblemEnum, []any{"profile"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := a.Validate(tt.in)
			if r != nil {
				t.Errorf("report = %+v, want nil", r)
			}
			problemAt(t, err, tt.typ, tt.loc...)
		})
	}
}

func TestValidateEmptyObject(t *testing.T) {
	a := newAuthority(t)
	r := validate(t, a, model.ValidateInput{Payload: map[string]any{}})
	if r.Valid {
		t.Fatal("empty payload is valid")
	}
	for _, path := range []string{"/business_id", "/irn", "/issue_date", "/invoice_type_code", "/document_currency_code",
		"/tax_currency_code", "/accounting_supplier_party", "/tax_total", "/legal_monetary_total", "/invoice_line"} {
		if _, ok := findIssue(t, r, RuleSchemaRequired, path); !ok {
			t.Errorf("no %s at %s:%s", RuleSchemaRequired, path, dump(r))
		}
	}
	// Only the schema speaks: no rule fires on absent data (but the notice
	// that no kind is known).
	for _, is := range allIssues(r) {
		if is.Rule != RuleSchemaRequired && is.Rule != RuleKindUnknown {
			t.Errorf("unexpected %s at %s", is.Rule, is.Path)
		}
	}
}

// TestNoDoubleOrFollowOnReports covers the merge of schema and rule findings.
func TestNoDoubleOrFollowOnReports(t *testing.T) {
	a := newAuthority(t)
	tests := []struct {
		name  string
		edits []edit
		want  []string // every issue, rule@path
	}{
		{
			name:  "pattern and rule on one field report once, with the rule's id",
			edits: []edit{{"/accounting_supplier_party/tin", "123"}},
			want:  []string{"NRS-PARTY-TIN-FORMAT@/accounting_supplier_party/tin"},
		},
		{
			name:  "pattern and rule on one id report once, with the rule's id",
			edits: []edit{{"/business_id", "{{BUSINESS_ID}}"}},
			want:  []string{"NRS-BUSINESS-ID-FORMAT@/business_id"},
		},
		{
			name:  "required in the schema and in a rule report once at the missing field",
			edits: []edit{{"/accounting_supplier_party/email", del}},
			want:  []string{"NRS-PARTY-EMAIL-REQUIRED@/accounting_supplier_party/email"},
		},
		{
			name:  "malformed date reports once",
			edits: []edit{{"/issue_date", "15/03/2026"}},
			want:  []string{"NRS-DATE-INVALID@/issue_date"},
		},
		{
			name:  "broken issue date silences due-date and IRN-date checks",
			edits: []edit{{"/issue_date", "2026-02-30"}, {"/due_date", "2026-01-01"}, {"/payment_means/0/payment_due_date", "2026-01-01"}},
			want:  []string{"NRS-DATE-INVALID@/issue_date"},
		},
		{
			name:  "wrong type silences the rule on the same field",
			edits: []edit{{"/accounting_supplier_party/tin", num("3144772000001")}},
			want:  []string{"NRS-SCHEMA-TYPE@/accounting_supplier_party/tin"},
		},
		{
			name:  "wrong type of a party silences every party rule below it",
			edits: []edit{{"/accounting_customer_party", "Ekiti Homes"}},
			want:  []string{"NRS-SCHEMA-TYPE@/accounting_customer_party"},
		},
		{
			name:  "wrong type of a price silences the line arithmetic",
			edits: []edit{{"/invoice_line/0/price/price_amount", "5000"}},
			want:  []string{"NRS-SCHEMA-TYPE@/invoice_line/0/price/price_amount"},
		},
		{
			name:  "wrong type of a line silences line rules and totals",
			edits: []edit{{"/invoice_line/1", "installation"}},
			want:  []string{"NRS-SCHEMA-TYPE@/invoice_line/1"},
		},
		{
			name:  "allowance_charge of the wrong type does not read as no allowances",
			edits: []edit{{"/allowance_charge", map[string]any{"charge_indicator": true, "amount": num("5")}}},
			want:  []string{"NRS-SCHEMA-TYPE@/allowance_charge"},
		},
		{
			name:  "tax_total of the wrong type does not read as no tax",
			edits: []edit{{"/tax_total", num("5250")}},
			want:  []string{"NRS-SCHEMA-TYPE@/tax_total"},
		},
		{
			name:  "billing_reference of the wrong type on a credit note",
			edits: []edit{{"/invoice_type_code", "380"}, {"/billing_reference", "INV1-7XQ4LM2P-20260101"}},
			want:  []string{"NRS-SCHEMA-TYPE@/billing_reference"},
		},
		{
			name:  "number out of range silences arithmetic on it",
			edits: []edit{{"/legal_monetary_total/payable_amount", num("1e400")}},
			want:  []string{"NRS-NUMBER-RANGE@/legal_monetary_total/payable_amount"},
		},
		{
			name:  "one wrong line amount is one finding",
			edits: []edit{{"/invoice_line/0/price/price_amount", num("4900")}},
			want:  []string{"NRS-ARITH-LINE@/invoice_line/0/line_extension_amount"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := nrsFixture(t, "invoice-b2b-1.1.json")
			applyEdits(t, doc, tt.edits)
			r := validate(t, a, model.ValidateInput{Payload: doc})
			got := []string{}
			for _, is := range allIssues(r) {
				got = append(got, is.Rule+"@"+is.Path)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("issues = %v, want %v;%s", got, tt.want, dump(r))
			}
		})
	}
}

// nrsFixture is a fixture whose lines carry the four discount and fee
// fields as NRS writes them (0 when unused), so that it validates without
// warnings.
func nrsFixture(t testing.TB, name string) map[string]any {
	t.Helper()
	doc := loadFixture(t, name)
	for i := range doc["invoice_line"].([]any) {
		applyEdits(t, doc, zeroDiscountFee(i))
	}
	return doc
}

func TestProfiles(t *testing.T) {
	a := newAuthority(t)
	payable := []edit{{"/legal_monetary_total/payable_amount", num("75350")}}
	tests := []struct {
		profile model.ValidationProfile
		version string
		want    model.Severity
	}{
		{"", "1.1", model.SeverityWarning},
		{model.ProfileNRS, "1.1", model.SeverityWarning},
		{model.ProfileNRS, "1.0", model.SeverityWarning},
		{model.ProfileStrict, "1.1", model.SeverityError},
		{model.ProfileStrict, "1.0", model.SeverityError},
	}
	for _, tt := range tests {
		t.Run(string(tt.profile)+"/"+tt.version, func(t *testing.T) {
			doc := nrsFixture(t, "invoice-b2b-1.1.json")
			applyEdits(t, doc, payable)
			if tt.version == "1.0" {
				applyEdits(t, doc, []edit{{"/invoice_line/1/hsn_code", "9954.00"}, {"/invoice_line/1/product_category", "Installation"}})
			}
			r := validate(t, a, model.ValidateInput{SchemaVersion: tt.version, Payload: doc, Profile: tt.profile})
			is, ok := findIssue(t, r, RuleArithPayable, "/legal_monetary_total/payable_amount")
			if !ok {
				t.Fatalf("no %s:%s", RuleArithPayable, dump(r))
			}
			if is.Severity != tt.want {
				t.Errorf("severity = %s, want %s", is.Severity, tt.want)
			}
			inErrors := slices.ContainsFunc(r.Errors, func(i model.Issue) bool { return i.Rule == RuleArithPayable })
			if inErrors != (tt.want == model.SeverityError) || r.Valid == inErrors {
				t.Errorf("issue filed in the wrong list:%s", dump(r))
			}
			if want := model.ProfileNRS; tt.profile == model.ProfileStrict && r.Profile != model.ProfileStrict ||
				tt.profile != model.ProfileStrict && r.Profile != want {
				t.Errorf("report profile %q", r.Profile)
			}
		})
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	_, err := New(Options{DefaultSchemaVersion: "1.2"})
	problemAt(t, err, model.ProblemEnum, "default_schema_version")
}

// TestCodeListsPerEnvironment checks that refreshed lists replace the
// snapshot in their environment only, and that the ruleset names them.
func TestCodeListsPerEnvironment(t *testing.T) {
	a := newAuthority(t)
	fetched := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	// NRS drops 30 from its payment means in production.
	err := a.UseCodeLists(model.EnvironmentProduction, []model.CodeList{
		{Name: "payment-means", Data: []byte(`[{"code":"10","value":"Cash"},{"code":"43","value":"ACH Debit"}]`), FetchedAt: fetched},
	})
	if err != nil {
		t.Fatal(err)
	}
	doc := nrsFixture(t, "invoice-b2b-1.1.json")
	prod := validate(t, a, model.ValidateInput{Payload: doc, Environment: model.EnvironmentProduction})
	if _, ok := findIssue(t, prod, RuleCodePaymentMeans, "/payment_means/0/payment_means_code"); !ok {
		t.Errorf("production lists not used:%s", dump(prod))
	}
	if want := "NRS-1.1/" + RulesetRevision + "; profile nrs; lists 2026-12-01 production"; prod.Ruleset != want {
		t.Errorf("ruleset = %q, want %q", prod.Ruleset, want)
	}
	for _, env := range []model.Environment{model.EnvironmentSandbox, ""} {
		r := validate(t, a, model.ValidateInput{Payload: doc, Environment: env})
		if !r.Valid || len(r.Warnings) != 0 || !strings.HasSuffix(r.Ruleset, "lists "+codes.SnapshotDate+" snapshot") {
			t.Errorf("environment %q:%s %s", env, dump(r), r.Ruleset)
		}
	}
	// An unusable list changes nothing; none goes back to the snapshot.
	if err := a.UseCodeLists(model.EnvironmentProduction, []model.CodeList{{Name: "states", Data: []byte(`[]`)}}); err == nil {
		t.Error("an empty list was used")
	}
	if a.CodeLists(model.EnvironmentProduction).Date() != "2026-12-01" {
		t.Error("a failed refresh replaced the lists")
	}
	if err := a.UseCodeLists("staging", nil); err == nil {
		t.Error("unknown environment accepted")
	}
	if err := a.UseCodeLists(model.EnvironmentProduction, nil); err != nil || a.CodeLists(model.EnvironmentProduction) != codes.Snapshot() {
		t.Errorf("reset: %v", err)
	}
	if n, err := a.CheckCodeList("lgas", []byte(`[{"name":"Ikeja","code":"NG-LA-IKE","state_code":"NG-LA"}]`)); n != 1 || err != nil {
		t.Errorf("CheckCodeList = %d, %v", n, err)
	}
	if _, err := a.CheckCodeList("lgas", []byte(`{"code":400,"data":null}`)); err == nil {
		t.Error("an error answer passed as a list")
	}
	if names := a.CodeListNames(); len(names) != 11 || names[0] != "invoice-types" {
		t.Errorf("CodeListNames = %v", names)
	}
}

func TestDefaultSchemaVersionOption(t *testing.T) {
	a, err := New(Options{DefaultSchemaVersion: "1.0"})
	if err != nil {
		t.Fatal(err)
	}
	if a.DefaultSchemaVersion() != "1.0" {
		t.Fatalf("DefaultSchemaVersion = %q", a.DefaultSchemaVersion())
	}
	r := validate(t, a, model.ValidateInput{Payload: loadFixture(t, "invoice-b2c-1.1.json")})
	if r.SchemaVersion != "1.0" || !strings.HasPrefix(r.Ruleset, "NRS-1.0/"+RulesetRevision+"; profile nrs; lists ") {
		t.Errorf("report version %q ruleset %q", r.SchemaVersion, r.Ruleset)
	}
}

func TestValidateSchema10(t *testing.T) {
	a := newAuthority(t)
	// The B2C fixture under 1.0: the 1.1 fields are unknown there.
	r := validate(t, a, model.ValidateInput{SchemaVersion: "1.0", Payload: loadFixture(t, "invoice-b2c-1.1.json")})
	if !r.Valid {
		t.Fatalf("want valid under 1.0:%s", dump(r))
	}
	for _, path := range []string{
		"/accounting_supplier_party/postal_address/lga",
		"/accounting_supplier_party/postal_address/state",
	} {
		is, ok := findIssue(t, r, RuleUnknownField, path)
		if !ok || is.Severity != model.SeverityWarning {
			t.Errorf("no warning %s at %s:%s", RuleUnknownField, path, dump(r))
		}
	}
	// A 1.0 line needs an HS code: the B2B service line fails.
	r = validate(t, a, model.ValidateInput{SchemaVersion: "1.0", Payload: loadFixture(t, "invoice-b2b-1.1.json")})
	if _, ok := findIssue(t, r, RuleLineClassificationRequired, "/invoice_line/1"); !ok {
		t.Errorf("service line accepted in 1.0:%s", dump(r))
	}
	// 1.0 does not require invoice_kind.
	doc := loadFixture(t, "invoice-b2c-1.1.json")
	applyEdits(t, doc, []edit{{"/invoice_kind", del}})
	r = validate(t, a, model.ValidateInput{SchemaVersion: "1.0", InvoiceTypeCode: "B2C", Payload: doc})
	if !r.Valid || hasRule(r, RuleSchemaRequired) {
		t.Errorf("1.0 without invoice_kind:%s", dump(r))
	}
}

func TestValidateAcceptsPlainNumbers(t *testing.T) {
	// Callers that decode without UseNumber pass float64; Go callers may pass ints.
	a := newAuthority(t)
	doc := nrsFixture(t, "invoice-b2g-1.1.json")
	var convert func(v any) any
	convert = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				x[k] = convert(e)
			}
		case []any:
			for i, e := range x {
				x[i] = convert(e)
			}
		case interface{ Float64() (float64, error) }:
			f, _ := x.Float64()
			if f == float64(int(f)) && f < 100 {
				return int(f)
			}
			return f
		}
		return v
	}
	r := validate(t, a, model.ValidateInput{Payload: convert(doc)})
	if !r.Valid || len(r.Warnings) != 0 {
		t.Fatalf("float64/int payload:%s", dump(r))
	}
}

var update = flag.Bool("update", false, "rewrite the rule table of docs/validation-rules.md")

const (
	rulesDoc   = "../../docs/validation-rules.md"
	tableBegin = "<!-- rules:begin (generated from nrs.Rules by go test ./model/nrs -run TestRulesAreDocumented -update) -->\n"
	tableEnd   = "<!-- rules:end -->\n"
)

// ruleTable renders the rule table of docs/validation-rules.md.
func ruleTable() string {
	var b strings.Builder
	b.WriteString("| rule | nrs | strict | source | checks | example path |\n|---|---|---|---|---|---|\n")
	for _, r := range Rules() {
		nrs := string(r.NRS)
		if r.NRS10 != "" {
			nrs += " (" + string(r.NRS10) + " in 1.0)"
		}
		b.WriteString("| `" + r.ID + "` | " + nrs + " | " + string(r.Strict) + " | " + r.Source + " | " + r.Checks + " | `" + r.ExamplePath + "` |\n")
	}
	return b.String()
}

// TestRulesAreDocumented keeps the table of docs/validation-rules.md equal
// to nrs.Rules: each rule's source and its severity per profile.
func TestRulesAreDocumented(t *testing.T) {
	doc := string(readFile(t, rulesDoc))
	i, j := strings.Index(doc, tableBegin), strings.Index(doc, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the rule table markers", rulesDoc)
	}
	want := ruleTable()
	if got := doc[i+len(tableBegin) : j]; got != want {
		if !*update {
			t.Fatalf("the rule table of %s is out of date: run go test ./model/nrs -run TestRulesAreDocumented -update", rulesDoc)
		}
		doc = doc[:i+len(tableBegin)] + want + doc[j:]
		if err := os.WriteFile(rulesDoc, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range Rules() {
		valid := func(s model.Severity) bool { return s == model.SeverityError || s == model.SeverityWarning }
		if r.Checks == "" || r.ExamplePath == "" || !valid(r.NRS) || !valid(r.Strict) {
			t.Errorf("rule %s is incompletely described: %+v", r.ID, r)
		}
	}
}

func TestValidateConcurrently(t *testing.T) {
	a := newAuthority(t)
	payloads := []map[string]any{
		loadFixture(t, b2b), loadFixture(t, b2c), loadFixture(t, b2g),
		loadFixture(t, "invalid-payable-mismatch.json"),
	}
	done := make(chan *model.ValidationReport)
	for i := range 16 {
		go func() {
			r, err := a.Validate(model.ValidateInput{Payload: payloads[i%len(payloads)], Profile: model.ProfileStrict})
			if err != nil {
				t.Error(err)
			}
			done <- r
		}()
	}
	invalid := 0
	for range 16 {
		if r := <-done; r != nil && !r.Valid {
			invalid++
		}
	}
	if invalid != 4 {
		t.Errorf("%d invalid reports, want 4", invalid)
	}
}

// TestFixturesEqualShared checks that testdata/fixtures are the shared
// fixtures, when the shared folder is beside the repository.
func TestFixturesEqualShared(t *testing.T) {
	shared, _ := filepath.Glob("../../../shared/fixtures/*")
	if len(shared) == 0 {
		t.Skip("no shared fixtures beside the repository")
	}
	for _, f := range shared {
		want := readFile(t, f)
		got, err := os.ReadFile(filepath.Join(fixtureDir, filepath.Base(f)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("testdata/fixtures/%s differs from the shared copy (%v)", filepath.Base(f), err)
		}
	}
}
