package nrs

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
)

func FuzzParseIRN(f *testing.F) {
	for _, s := range []string{
		"INV001-94ND90NR-20240611", "inv001-94nd90nr-20240611", "A-B-C", "--", "-", "",
		"INV-001-94ND90NR-20240611", "INV001-94ND90NR-20240230", "INV001-94ND90NR-20240611.1731618237",
		strings.Repeat("A", 50) + "-00000000-99991231", "SGN2026000123-7XQ4LM2P-20260315",
	} {
		f.Add(s)
	}
	a, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		irn, err := ParseIRN(s)
		v := a.ValidateIRN(s, irn.InvoiceReference, irn.ServiceID)
		formatAndDate := v.Checks[0].Passed && v.Checks[3].Passed
		if (err == nil) != formatAndDate {
			t.Fatalf("ParseIRN(%q) err=%v but ValidateIRN checks %+v", s, err, v.Checks)
		}
		if err != nil {
			if e := model.AsError(err); e == nil || e.Code != model.CodeInvalid || len(e.Fields) == 0 {
				t.Fatalf("ParseIRN(%q) error %v is not an invalid *model.Error", s, err)
			}
			return
		}
		if irn.String() != s || !v.Valid {
			t.Fatalf("ParseIRN(%q) = %+v, validation %+v", s, irn, v)
		}
		gen, err := a.GenerateIRN(irn.InvoiceReference, irn.ServiceID, irn.IssueDate())
		if err != nil || gen != strings.ToUpper(s) {
			t.Fatalf("GenerateIRN from %+v = %q, %v", irn, gen, err)
		}
	})
}

func FuzzValidate(f *testing.F) {
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no fixtures: %v", err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, "")
		f.Add(data, "B2C")
	}
	f.Add([]byte(`{"invoice_line":[{"price":{"base_quantity":0}}],"tax_total":7}`), "380")
	f.Add([]byte(`{"legal_monetary_total":{"payable_amount":1e999999}}`), "")
	a, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, request string) {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var payload any
		if d.Decode(&payload) != nil {
			return
		}
		for _, v := range []string{"1.0", "1.1"} {
			r, err := a.Validate(model.ValidateInput{SchemaVersion: v, InvoiceTypeCode: request, Payload: payload})
			if err != nil {
				if e := model.AsError(err); e == nil || e.Code != model.CodeInvalid {
					t.Fatalf("Validate error %v is not invalid", err)
				}
				continue
			}
			checkReport(t, r)
		}
		if inv, err := Decode(payload); err == nil {
			ComputeTotals(inv)
		}
	})
}

// checkReport asserts the invariants every report keeps.
func checkReport(t *testing.T, r *model.ValidationReport) {
	t.Helper()
	if r.Errors == nil || r.Warnings == nil {
		t.Fatal("nil issue list")
	}
	if r.Valid != (len(r.Errors) == 0) {
		t.Fatalf("valid = %v with %d errors", r.Valid, len(r.Errors))
	}
	for _, list := range [][]model.Issue{r.Errors, r.Warnings} {
		if !slices.IsSortedFunc(list, func(a, b model.Issue) int { return strings.Compare(a.Path, b.Path) }) {
			t.Fatal("issues not sorted by path")
		}
		seen := map[string]bool{}
		for _, is := range list {
			if pointer(is.Loc) != is.Path {
				t.Fatalf("loc %#v does not match path %q", is.Loc, is.Path)
			}
			if _, ok := ruleIndex[is.Rule]; !ok || is.Message == "" {
				t.Fatalf("bad issue %+v", is)
			}
			if k := is.Rule + " " + is.Path; seen[k] {
				t.Fatalf("duplicate issue %s", k)
			} else {
				seen[k] = true
			}
		}
	}
}
