package codes

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// sharedReference is the shared copy of NRS's lists the snapshot was taken
// from, beside the repository.
const sharedReference = "../../../../shared/nrs/reference"

// TestSnapshotEqualsShared checks that the embedded lists are byte for byte
// the shared copy, when the shared folder is there.
func TestSnapshotEqualsShared(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(sharedReference, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no shared copy of NRS's lists beside the repository")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := SnapshotJSON(name)
		if !ok {
			t.Errorf("%s: not in the snapshot", name)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the snapshot differs from %s", name, f)
		}
	}
	entries, err := reference.ReadDir("reference")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(files) {
		t.Errorf("snapshot has %d lists, the shared copy %d", len(entries), len(files))
	}
}

func TestSnapshotSizes(t *testing.T) {
	tests := []struct {
		name string
		n    int
		code *regexp.Regexp
	}{
		{ResourceInvoiceTypes, 20, regexp.MustCompile(`^[0-9]{3}$`)},
		{ResourcePaymentMeans, 12, regexp.MustCompile(`^([0-9]{2}|ZZZ)$`)},
		{ResourceTaxCategories, 24, regexp.MustCompile(`^[A-Z_]+$`)},
		{ResourceCurrencies, 118, regexp.MustCompile(`^[A-Z]{3}$`)},
		{ResourceCountries, 249, regexp.MustCompile(`^[A-Z]{2}$`)},
		{ResourceStates, 37, regexp.MustCompile(`^NG-[A-Z]{2}$`)},
		{ResourceLGAs, 774, regexp.MustCompile(`^NG-[A-Z]{2}-[A-Z0-9]{3}$`)},
		{ResourceServicesCodes, 419, regexp.MustCompile(`^[0-9]{4}$`)},
		{ResourceVATExemptions, 236, regexp.MustCompile(`^[0-9][0-9.-]+$`)},
	}
	s := Snapshot()
	if s.Date() != SnapshotDate || s.Source() != SourceSnapshot {
		t.Errorf("snapshot is %s %s", s.Date(), s.Source())
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := s.List(tt.name)
			if l == nil || l.Len() != tt.n || l.Name() != tt.name {
				t.Fatalf("list %v", l)
			}
			for _, e := range l.Entries() {
				// NRS leaves some VAT exemptions' tariff empty.
				if !tt.code.MatchString(e.Code) || e.Value == "" && tt.name != ResourceVATExemptions {
					t.Errorf("bad entry %+v", e)
				}
			}
			if r, ok := Resource(tt.name); !ok || r != l {
				t.Error("Resource does not return the snapshot's list")
			}
		})
	}
	for _, name := range []string{ResourceHSCodes, ResourceQuantityCodes} {
		if s.List(name) != nil {
			t.Errorf("%s in the snapshot", name)
		}
		if _, ok := SnapshotJSON(name); ok {
			t.Errorf("%s: snapshot JSON", name)
		}
	}
}

// TestNRSValues pins the NRS facts the rules rely on.
func TestNRSValues(t *testing.T) {
	for _, c := range []string{"10", "20", "30", "31", "42", "43", "48", "49", "50", "58", "97", "ZZZ"} {
		if !PaymentMeans.Contains(c) {
			t.Errorf("payment means %s missing", c)
		}
	}
	for _, c := range []string{"21", "54", "1", ""} {
		if PaymentMeans.Contains(c) {
			t.Errorf("payment means %q present", c)
		}
	}
	for _, c := range []string{"EXEMPTED", "WITHHOLDING_TAX", "STAMP_DUTY"} {
		if TaxCategories.Contains(c) {
			t.Errorf("tax category %s present", c)
		}
	}
	for code, want := range map[string]string{"STANDARD_VAT": "7.5", "ZERO_VAT": "0.0", "FUEL_EXCISE_TAX": "", "LOCAL_SALES_TAX": "Not Available"} {
		if e, ok := TaxCategories.Lookup(code); !ok || e.Percent != want {
			t.Errorf("%s = %+v, want percent %q", code, e, want)
		}
	}
	// NRS's own currency list, not ISO 4217 today.
	for c, want := range map[string]bool{"NGN": true, "USD": true, "HRK": true, "VEF": true, "ZMK": true, "ZMW": false, "VES": false, "SLE": false, "ngn": false} {
		if Currencies.Contains(c) != want {
			t.Errorf("currency %s present = %v", c, !want)
		}
	}
	// NRS swaps 380 and 381 relative to UNTDID 1001.
	for code, want := range map[string]string{"380": "Credit Note", "381": "Commercial Invoice", "384": "Debit Note", "393": "Self-billed Credit Note"} {
		if e, ok := InvoiceTypes.Lookup(code); !ok || e.Value != want {
			t.Errorf("%s = %+v", code, e)
		}
	}
	if e, ok := LGAs.Lookup("NG-LA-IKE"); !ok || e.State != "NG-LA" || e.Value != "Ikeja" {
		t.Errorf("NG-LA-IKE = %+v", e)
	}
	if LGAs.Contains("NG-LA-IKJ") {
		t.Error("NG-LA-IKJ (NRS-DOC-1.1's example) is not in NRS's LGA list")
	}
	for _, e := range LGAs.Entries() {
		if e.State != e.Code[:5] || !States.Contains(e.State) {
			t.Errorf("LGA %+v: state", e)
		}
	}
	// Repeated and space-padded codes of the VAT exemptions.
	if !VATExemptions.Contains("8708.3900") || VATExemptions.Len() != 236 || len(VATExemptions.index) != 228 {
		t.Errorf("VAT exemptions: %d entries, %d codes", VATExemptions.Len(), len(VATExemptions.index))
	}
	if !Countries.Contains("NG") || Countries.Contains("XK") {
		t.Error("country lookup")
	}
	if !NRSPaymentStatus(PaymentCanceled) || NRSPaymentStatus(PaymentRejected) || !PaymentStatuses.Contains(PaymentRejected) ||
		PaymentStatuses.Contains("CANCELLED") || NRSPaymentStatus("CANCELLED") {
		t.Error("payment statuses")
	}
	// Entries and Codes are copies.
	e := InvoiceTypes.Entries()
	e[0].Code = "XXX"
	c := InvoiceTypes.Codes()
	c[0] = "YYY"
	if !slices.Contains(InvoiceTypes.Codes(), "380") {
		t.Error("list mutated through a copy")
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, list, data string
		want             []Entry
		err              string
	}{
		{"data array", ResourcePaymentMeans, `[{"code":"10","value":"Cash"},{"code":"ZZZ","value":"Mutually Defined"}]`,
			[]Entry{{Code: "10", Value: "Cash"}, {Code: "ZZZ", Value: "Mutually Defined"}}, ""},
		{"whole answer", ResourceStates, `{"code":200,"data":[{"name":"Lagos","code":"NG-LA"}]}`,
			[]Entry{{Code: "NG-LA", Value: "Lagos"}}, ""},
		{"numeric code", ResourcePaymentMeans, `[{"code":10,"value":"Cash"}]`, []Entry{{Code: "10", Value: "Cash"}}, ""},
		{"hs codes", ResourceHSCodes, `[{"hscode":"0101.21","description":"Horses; live, pure-bred breeding animals"}]`,
			[]Entry{{Code: "0101.21", Value: "Horses; live, pure-bred breeding animals"}}, ""},
		{"padded code", ResourceVATExemptions, `[{"harmonized_system_code":"8708.3900 ","tariff":"Brakes"}]`,
			[]Entry{{Code: "8708.3900", Value: "Brakes"}}, ""},
		{"empty", ResourceStates, `[]`, nil, "empty"},
		{"not json", ResourceStates, `<Code>200</Code>`, nil, "not a JSON array"},
		{"entry not object", ResourceStates, `["NG-LA"]`, nil, "entry 0 is not an object"},
		{"no code", ResourceCountries, `[{"name":"Nigeria","code":"NG"}]`, nil, "entry 0 has no alpha_2"},
		{"unknown resource", "vat-rates", `[]`, nil, "unknown resource"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Parse(tt.list, []byte(tt.data))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(l.Entries(), tt.want) {
				t.Errorf("entries = %+v", l.Entries())
			}
		})
	}
}

func TestCompile(t *testing.T) {
	at := time.Date(2026, 12, 2, 23, 30, 0, 0, time.FixedZone("WAT", 3600))
	l, err := Compile("production", []Served{
		{Name: ResourcePaymentMeans, Data: []byte(`[{"code":"10","value":"Cash"}]`), FetchedAt: at.Add(-48 * time.Hour)},
		{Name: ResourceHSCodes, Data: []byte(`[{"hscode":"2523.29","description":"Portland cement"}]`), FetchedAt: at},
	})
	if err != nil {
		t.Fatal(err)
	}
	if l.Source() != "production" || l.Date() != "2026-12-02" {
		t.Errorf("lists %s %s", l.Source(), l.Date())
	}
	if l.List(ResourcePaymentMeans).Contains("43") || !l.List(ResourcePaymentMeans).Contains("10") {
		t.Error("payment means not replaced")
	}
	if !l.List(ResourceHSCodes).Contains("2523.29") || l.List(ResourceCurrencies) != Currencies {
		t.Error("hs codes or snapshot lists")
	}
	if Snapshot().List(ResourcePaymentMeans).Len() != 12 {
		t.Error("compiling changed the snapshot")
	}
	if _, err := Compile("sandbox", []Served{{Name: ResourceStates, Data: []byte(`{}`)}}); err == nil {
		t.Error("an empty answer compiled")
	}
	if _, err := Compile(SourceSnapshot, nil); err == nil {
		t.Error("compiled under the snapshot's name")
	}
}
