package rest

import (
	"reflect"
	"testing"

	"github.com/einvoice-ng/einvoice/model/invoices"
)

// TestDecodeFlatMatchesGeneralPath checks decodeJSON's fast path against
// its general path: where the fast path takes a body, the general path
// accepts it too and stores the same values; every body the general path
// refuses (or that the fast path leaves to it) the fast path declines,
// leaving dst untouched.
func TestDecodeFlatMatchesGeneralPath(t *testing.T) {
	bodies := []struct {
		body string
		fast bool // the fast path takes it
	}{
		{`{"invoice_reference":"INV001","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`, true},
		{` { "issue_date" : "2026-03-15", "tax_authority_code":"NRS", "invoice_type_code":"b2b", "invoice_reference":"a\u00e9\"b" } `, true},
		{`{"invoice_reference":"","invoice_type_code":"","tax_authority_code":"","issue_date":""}`, true},
		{`{"invoice_reference":"INV\u0000","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`, true},
		// Left to the general path: it accepts these...
		{`{"invoice\u005freference":"INV001","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`, false},
		// ...and refuses these.
		{`{"invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`, false},
		{`{"invoice_reference":null,"invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`, false},
		{`{"invoice_reference":1,"invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`, false},
		{`{"invoice_reference":["a"],"invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`, false},
		{`{"invoice_reference":"A","invoice_reference":"B","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`, false},
		{`{"invoice_reference":"A","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15","extra":"x"}`, false},
		{`{"invoice_reference":"A","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"} {}`, false},
		{`{"invoice_reference":"A","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"`, false},
		{"{\"invoice_reference\":\"\xff\",\"invoice_type_code\":\"381\",\"tax_authority_code\":\"NRS\",\"issue_date\":\"2026-03-15\"}", false},
		{`["invoice_reference"]`, false},
		{`"x"`, false},
		{``, false},
	}
	for _, c := range bodies {
		var fast, general invoices.IRNInput
		took := decodeFlat([]byte(c.body), &fast)
		if took != c.fast {
			t.Errorf("%s: fast path took it: %v, want %v", c.body, took, c.fast)
		}
		err := decodeBody([]byte(c.body), &general, nil)
		if took {
			if err != nil {
				t.Errorf("%s: the fast path took a body the general path refuses: %v", c.body, err)
			}
			if fast != general {
				t.Errorf("%s: fast path stored %+v, general path %+v", c.body, fast, general)
			}
		} else if fast != (invoices.IRNInput{}) {
			t.Errorf("%s: the fast path declined but changed dst: %+v", c.body, fast)
		}
	}
}

// TestDecodeFlatTypes checks which request types take the fast path: flat
// string fields only.
func TestDecodeFlatTypes(t *testing.T) {
	for _, c := range []struct {
		v    any
		flat bool
	}{
		{invoices.IRNInput{}, true},
		{invoices.ValidateIRNInput{}, true},
		{invoices.QRInput{}, false},       // an *int64 field
		{invoices.ValidateInput{}, false}, // an any field
	} {
		if _, ok := flatFieldsOf(reflect.TypeOf(c.v)); ok != c.flat {
			t.Errorf("%T: flat %v, want %v", c.v, ok, c.flat)
		}
	}
}
