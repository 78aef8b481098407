package nrs

import (
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
)

func TestGenerateIRN(t *testing.T) {
	a := newAuthority(t)
	tests := []struct {
		ref, sid, date string
		want           string
	}{
		{"INV001", "94ND90NR", "2024-06-11", "INV001-94ND90NR-20240611"},
		{"inv001", "94nd90nr", "2024-06-11", "INV001-94ND90NR-20240611"},
		{"SGN2026000123", "7XQ4LM2P", "2026-03-15", "SGN2026000123-7XQ4LM2P-20260315"},
		{"1", "F3A3A0CF", "2028-02-29", "1-F3A3A0CF-20280229"},
		{strings.Repeat("a", 50), "00000000", "9999-12-31", strings.Repeat("A", 50) + "-00000000-99991231"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got, err := a.GenerateIRN(tt.ref, tt.sid, tt.date)
			if err != nil {
				t.Fatalf("GenerateIRN: %v", err)
			}
			if got != tt.want {
				t.Fatalf("GenerateIRN = %q, want %q", got, tt.want)
			}
			again, _ := a.GenerateIRN(tt.ref, tt.sid, tt.date)
			if again != got {
				t.Errorf("not idempotent: %q then %q", got, again)
			}
			// Formatting is a fixed point: regenerating from the parsed IRN
			// gives the same IRN.
			p, err := ParseIRN(got)
			if err != nil {
				t.Fatalf("ParseIRN(%q): %v", got, err)
			}
			if re, _ := a.GenerateIRN(p.InvoiceReference, p.ServiceID, p.IssueDate()); re != got {
				t.Errorf("regenerated %q, want %q", re, got)
			}
			if v := a.ValidateIRN(got, tt.ref, tt.sid); !v.Valid {
				t.Errorf("generated IRN does not validate: %+v", v)
			}
		})
	}
}

func TestGenerateIRNRejects(t *testing.T) {
	a := newAuthority(t)
	type problem struct {
		loc string
		typ model.ProblemType
	}
	tests := []struct {
		name           string
		ref, sid, date string
		want           []problem
	}{
		{"empty reference", "", "94ND90NR", "2024-06-11", []problem{{"invoice_reference", model.ProblemMissing}}},
		{"hyphen in reference", "INV-001", "94ND90NR", "2024-06-11", []problem{{"invoice_reference", model.ProblemStringPatternMismatch}}},
		{"slash in reference", "2019-20/KA/1", "94ND90NR", "2024-06-11", []problem{{"invoice_reference", model.ProblemStringPatternMismatch}}},
		{"space in reference", "INV 001", "94ND90NR", "2024-06-11", []problem{{"invoice_reference", model.ProblemStringPatternMismatch}}},
		{"non-ASCII letter", "FACTURÉ1", "94ND90NR", "2024-06-11", []problem{{"invoice_reference", model.ProblemStringPatternMismatch}}},
		{"reference of 51", strings.Repeat("A", 51), "94ND90NR", "2024-06-11", []problem{{"invoice_reference", model.ProblemStringTooLong}}},
		{"empty service id", "INV001", "", "2024-06-11", []problem{{"service_id", model.ProblemMissing}}},
		{"service id of 7", "INV001", "94ND90N", "2024-06-11", []problem{{"service_id", model.ProblemStringTooShort}}},
		{"service id of 9", "INV001", "94ND90NRX", "2024-06-11", []problem{{"service_id", model.ProblemStringTooLong}}},
		{"service id with hyphen", "INV001", "94ND-0NR", "2024-06-11", []problem{{"service_id", model.ProblemStringPatternMismatch}}},
		{"empty date", "INV001", "94ND90NR", "", []problem{{"issue_date", model.ProblemMissing}}},
		{"30 February", "INV001", "94ND90NR", "2026-02-30", []problem{{"issue_date", model.ProblemDateFromDatetimeParse}}},
		{"29 February 2100", "INV001", "94ND90NR", "2100-02-29", []problem{{"issue_date", model.ProblemDateFromDatetimeParse}}},
		{"compact date", "INV001", "94ND90NR", "20240611", []problem{{"issue_date", model.ProblemDateFromDatetimeParse}}},
		{"date time", "INV001", "94ND90NR", "2024-06-11T00:00:00Z", []problem{{"issue_date", model.ProblemDateFromDatetimeParse}}},
		{"month 13", "INV001", "94ND90NR", "2024-13-01", []problem{{"issue_date", model.ProblemDateFromDatetimeParse}}},
		{"signed digits", "INV001", "94ND90NR", "+024-06-11", []problem{{"issue_date", model.ProblemDateFromDatetimeParse}}},
		{"everything wrong at once", "INV/1", "94ND", "2024-02-30", []problem{
			{"invoice_reference", model.ProblemStringPatternMismatch},
			{"service_id", model.ProblemStringTooShort},
			{"issue_date", model.ProblemDateFromDatetimeParse},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			irn, err := a.GenerateIRN(tt.ref, tt.sid, tt.date)
			if irn != "" {
				t.Errorf("irn = %q, want empty", irn)
			}
			e := model.AsError(err)
			if e == nil || e.Code != model.CodeInvalid {
				t.Fatalf("err = %v, want invalid", err)
			}
			if len(e.Fields) != len(tt.want) {
				t.Fatalf("fields = %+v, want %+v", e.Fields, tt.want)
			}
			for i, w := range tt.want {
				f := e.Fields[i]
				if !sameLoc(f.Loc, []any{w.loc}) || f.Type != w.typ {
					t.Errorf("field %d = %v %s, want [%s] %s", i, f.Loc, f.Type, w.loc, w.typ)
				}
			}
		})
	}
}

func TestParseIRN(t *testing.T) {
	tests := []struct {
		in      string
		want    IRN
		wantErr model.ProblemType
	}{
		{in: "INV001-94ND90NR-20240611", want: IRN{"INV001", "94ND90NR", "20240611"}},
		{in: "inv001-94nd90nr-20240611", want: IRN{"inv001", "94nd90nr", "20240611"}},
		{in: "1-00000000-20000229", want: IRN{"1", "00000000", "20000229"}},
		{in: "", wantErr: model.ProblemMissing},
		{in: "INV001", wantErr: model.ProblemStringPatternMismatch},
		{in: "INV001-94ND90NR", wantErr: model.ProblemStringPatternMismatch},
		// Split on the last two hyphens: the extra hyphen lands in the
		// reference, which must be alphanumeric.
		{in: "INV-001-94ND90NR-20240611", wantErr: model.ProblemStringPatternMismatch},
		{in: "-94ND90NR-20240611", wantErr: model.ProblemStringPatternMismatch},
		{in: "--", wantErr: model.ProblemStringPatternMismatch},
		{in: "INV001--20240611", wantErr: model.ProblemStringPatternMismatch},
		{in: "INV001-94ND90NR-", wantErr: model.ProblemDateFromDatetimeParse},
		{in: "INV001-94ND90N-20240611", wantErr: model.ProblemStringPatternMismatch},
		{in: "INV001-94ND90NR-2024061", wantErr: model.ProblemDateFromDatetimeParse},
		{in: "INV001-94ND90NR-20240631", wantErr: model.ProblemDateFromDatetimeParse},
		{in: "INV001-94ND90NR-2024-06-11", wantErr: model.ProblemDateFromDatetimeParse},
		{in: "INV001-94ND90NR-20240611.1731618237", wantErr: model.ProblemDateFromDatetimeParse},
		{in: strings.Repeat("A", 51) + "-94ND90NR-20240611", wantErr: model.ProblemStringTooLong},
		{in: "INV 001-94ND90NR-20240611", wantErr: model.ProblemStringPatternMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseIRN(tt.in)
			if tt.wantErr != "" {
				problemAt(t, err, tt.wantErr, "irn")
				if got != (IRN{}) {
					t.Errorf("got %+v on error", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseIRN: %v", err)
			}
			if got != tt.want {
				t.Fatalf("ParseIRN = %+v, want %+v", got, tt.want)
			}
			if got.String() != tt.in {
				t.Errorf("String = %q, want %q", got.String(), tt.in)
			}
		})
	}
	if d := (IRN{Date: "20240611"}).IssueDate(); d != "2024-06-11" {
		t.Errorf("IssueDate = %q", d)
	}
	if d := (IRN{Date: "2024"}).IssueDate(); d != "" {
		t.Errorf("IssueDate of a short date = %q", d)
	}
}

func TestValidateIRN(t *testing.T) {
	a := newAuthority(t)
	tests := []struct {
		name      string
		irn       string
		ref, sid  string
		wantValid bool
		failed    []string // names of failed checks
	}{
		{"matching", "INV001-94ND90NR-20240611", "INV001", "94ND90NR", true, nil},
		{"reference in another case", "INV001-94ND90NR-20240611", "inv001", "94ND90NR", true, nil},
		{"service id in another case", "INV001-94ND90NR-20240611", "INV001", "94nd90nr", true, nil},
		{"other reference", "INV001-94ND90NR-20240611", "INV002", "94ND90NR", false, []string{IRNCheckInvoiceReference}},
		{"other service id", "INV001-94ND90NR-20240611", "INV001", "F3A3A0CF", false, []string{IRNCheckServiceID}},
		{"impossible date", "INV001-94ND90NR-20240230", "INV001", "94ND90NR", false, []string{IRNCheckDate}},
		{"date not digits", "INV001-94ND90NR-2024061X", "INV001", "94ND90NR", false, []string{IRNCheckFormat, IRNCheckDate}},
		{"hyphen in reference", "INV-001-94ND90NR-20240611", "INV-001", "94ND90NR", false, []string{IRNCheckFormat}},
		{"no hyphens", "INV00194ND90NR20240611", "INV001", "94ND90NR", false,
			[]string{IRNCheckFormat, IRNCheckInvoiceReference, IRNCheckServiceID, IRNCheckDate}},
		{"empty", "", "INV001", "94ND90NR", false,
			[]string{IRNCheckFormat, IRNCheckInvoiceReference, IRNCheckServiceID, IRNCheckDate}},
		{"no reference to compare", "INV001-94ND90NR-20240611", "", "94ND90NR", false, []string{IRNCheckInvoiceReference}},
		{"no service id to compare", "INV001-94ND90NR-20240611", "INV001", "", false, []string{IRNCheckServiceID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := a.ValidateIRN(tt.irn, tt.ref, tt.sid)
			if v.Valid != tt.wantValid || v.IRN != tt.irn {
				t.Fatalf("ValidateIRN = %+v", v)
			}
			names := []string{IRNCheckFormat, IRNCheckInvoiceReference, IRNCheckServiceID, IRNCheckDate}
			if len(v.Checks) != len(names) {
				t.Fatalf("checks = %+v", v.Checks)
			}
			failed := map[string]bool{}
			for _, f := range tt.failed {
				failed[f] = true
			}
			for i, c := range v.Checks {
				if c.Name != names[i] {
					t.Errorf("check %d named %q, want %q", i, c.Name, names[i])
				}
				if c.Passed == failed[c.Name] {
					t.Errorf("check %s passed = %v (%s)", c.Name, c.Passed, c.Message)
				}
				if c.Message == "" {
					t.Errorf("check %s has no message", c.Name)
				}
			}
		})
	}
}

func TestIRNCheckMessagesAreBounded(t *testing.T) {
	a := newAuthority(t)
	long := strings.Repeat("A", 10_000) + "-94ND90NR-20240611"
	v := a.ValidateIRN(long, "B", "94ND90NR")
	for _, c := range v.Checks {
		if len(c.Message) > 300 {
			t.Errorf("check %s message has %d bytes", c.Name, len(c.Message))
		}
	}
}

func TestDates(t *testing.T) {
	valid := []string{"2024-02-29", "2000-02-29", "0001-01-01", "9999-12-31", "2026-04-30", "2026-12-31"}
	invalid := []string{"1900-02-29", "2100-02-29", "2026-02-29", "0000-01-01", "2026-00-10", "2026-01-00",
		"2026-06-31", "2026-1-01", "2026/01/01", "20260101", "2026-01-01 ", " 2026-01-01", "２０２６-01-01", "2026-0a-01"}
	for _, s := range valid {
		if _, ok := parseDate(s); !ok {
			t.Errorf("parseDate(%q) rejected", s)
		}
	}
	for _, s := range invalid {
		if _, ok := parseDate(s); ok {
			t.Errorf("parseDate(%q) accepted", s)
		}
	}
	times := map[string]bool{"00:00:00": true, "23:59:59": true, "24:00:00": false, "12:60:00": false,
		"12:00:60": false, "1:00:00": false, "12:00": false, "12-00-00": false}
	for s, want := range times {
		if validTime(s) != want {
			t.Errorf("validTime(%q) = %v", s, !want)
		}
	}
}
