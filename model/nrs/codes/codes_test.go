package codes

import (
	"regexp"
	"slices"
	"testing"
)

func TestListSizes(t *testing.T) {
	tests := []struct {
		list *List
		n    int
		code *regexp.Regexp
	}{
		{InvoiceTypes, 20, regexp.MustCompile(`^[0-9]{3}$`)},
		{InvoiceKinds, 3, regexp.MustCompile(`^B2[BGC]$`)},
		{PaymentStatuses, 4, regexp.MustCompile(`^[A-Z]+$`)},
		{TaxCategories, 27, regexp.MustCompile(`^[A-Z_]+$`)},
		{PaymentMeans, 10, regexp.MustCompile(`^[0-9]{2}$`)},
		{Currencies, 178, regexp.MustCompile(`^[A-Z]{3}$`)},
		{Countries, 249, regexp.MustCompile(`^[A-Z]{2}$`)},
		{States, 37, regexp.MustCompile(`^NG-[A-Z]{2}$`)},
	}
	for _, tt := range tests {
		t.Run(tt.list.Name(), func(t *testing.T) {
			if tt.list.Len() != tt.n {
				t.Errorf("%d codes, want %d", tt.list.Len(), tt.n)
			}
			for _, e := range tt.list.Entries() {
				if !tt.code.MatchString(e.Code) || e.Value == "" {
					t.Errorf("bad entry %+v", e)
				}
			}
			if l, ok := Resource(tt.list.Name()); !ok || l != tt.list {
				t.Errorf("Resource(%q) does not return the list", tt.list.Name())
			}
		})
	}
	if len(ResourceNames()) != len(tests) {
		t.Errorf("ResourceNames = %v", ResourceNames())
	}
}

func TestNRSNumbering(t *testing.T) {
	// NRS swaps 380 and 381 relative to UNTDID 1001.
	for code, want := range map[string]string{
		"380": "Credit Note", "381": "Commercial Invoice", "384": "Debit Note", "393": "Self-billed Credit Note",
	} {
		if e, ok := InvoiceTypes.Lookup(code); !ok || e.Value != want {
			t.Errorf("%s = %+v", code, e)
		}
	}
	if e, _ := TaxCategories.Lookup("STANDARD_VAT"); e.Percent != "7.5" {
		t.Errorf("STANDARD_VAT percent = %q", e.Percent)
	}
}

func TestLookups(t *testing.T) {
	for _, c := range []string{"NGN", "USD", "EUR", "XOF", "GHS", "XCG", "ZWG"} {
		if !Currencies.Contains(c) {
			t.Errorf("currency %s missing", c)
		}
	}
	for _, c := range []string{"HRK", "ZWL", "ngn", "NGX", ""} {
		if Currencies.Contains(c) {
			t.Errorf("currency %q present", c)
		}
	}
	for _, c := range []string{"NG", "GH", "GB", "US", "SS", "XK"} {
		if got := Countries.Contains(c); got != (c != "XK") {
			t.Errorf("country %s present = %v", c, got)
		}
	}
	if !States.Contains("NG-FC") || States.Contains("NG-AJ") {
		t.Error("state lookup")
	}
	// Entries and Codes are copies.
	e := InvoiceTypes.Entries()
	e[0].Code = "XXX"
	c := InvoiceTypes.Codes()
	c[0] = "YYY"
	if !slices.Contains(InvoiceTypes.Codes(), "380") {
		t.Error("list mutated through a copy")
	}
	if _, ok := InvoiceTypes.Lookup("999"); ok {
		t.Error("999 found")
	}
}
