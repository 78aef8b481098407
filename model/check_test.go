package model_test

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
)

func TestChecks(t *testing.T) {
	slug := regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
	for _, c := range []struct {
		name  string
		check func(p *model.Problems)
		want  []model.ProblemType // nil: no problem
	}{
		{"length ok", func(p *model.Problems) { p.CheckLength("abc", 3, 5, "f") }, nil},
		{"length counts characters, not bytes", func(p *model.Problems) { p.CheckLength("ẹ̀ọ", 1, 3, "f") }, nil},
		{"too short", func(p *model.Problems) { p.CheckLength("ab", 3, 5, "f") }, []model.ProblemType{model.ProblemStringTooShort}},
		{"too long", func(p *model.Problems) { p.CheckLength("abcdef", 3, 5, "f") }, []model.ProblemType{model.ProblemStringTooLong}},
		{"pattern ok", func(p *model.Problems) { p.CheckPattern("acme-ng", slug, "f") }, nil},
		{"pattern bad", func(p *model.Problems) { p.CheckPattern("Acme NG", slug, "f") }, []model.ProblemType{model.ProblemStringPatternMismatch}},
		{"enum ok", func(p *model.Problems) { p.CheckEnum("sandbox", model.Environments, "f") }, nil},
		{"enum bad", func(p *model.Problems) { p.CheckEnum("staging", model.Environments, "f") }, []model.ProblemType{model.ProblemEnum}},
		{"uuid ok", func(p *model.Problems) { p.CheckUUID("3f6c2a9e-8b41-4d7a-9c55-1e2f7a0b6d34", "f") }, nil},
		{"uuid braces", func(p *model.Problems) { p.CheckUUID("{3f6c2a9e-8b41-4d7a-9c55-1e2f7a0b6d34}", "f") }, []model.ProblemType{model.ProblemUUIDParsing}},
		{"uuid urn", func(p *model.Problems) { p.CheckUUID("urn:uuid:3f6c2a9e-8b41-4d7a-9c55-1e2f7a0b6d34", "f") }, []model.ProblemType{model.ProblemUUIDParsing}},
		{"date ok", func(p *model.Problems) { p.CheckDate("2024-02-29", "f") }, nil},
		{"date not leap", func(p *model.Problems) { p.CheckDate("2023-02-29", "f") }, []model.ProblemType{model.ProblemDateFromDatetimeParse}},
		{"date with time", func(p *model.Problems) { p.CheckDate("2024-02-29T00:00:00Z", "f") }, []model.ProblemType{model.ProblemDateFromDatetimeParse}},
		{"email ok", func(p *model.Problems) { p.CheckEmail("ada@example.com", "f") }, nil},
		{"email with name", func(p *model.Problems) { p.CheckEmail("Ada <ada@example.com>", "f") }, []model.ProblemType{model.ProblemValueError}},
		{"email single-label domain", func(p *model.Problems) { p.CheckEmail("ada@localhost", "f") }, nil},
		{"email shortest", func(p *model.Problems) { p.CheckEmail("a@b", "f") }, nil},
		{"email 255 characters", func(p *model.Problems) { p.CheckEmail(email255, "f") }, nil},
		{"email 256 characters", func(p *model.Problems) { p.CheckEmail("a"+email255, "f") }, []model.ProblemType{model.ProblemValueError}},
		{"email with NUL", func(p *model.Problems) { p.CheckEmail("a\x00b@example.com", "f") }, []model.ProblemType{model.ProblemValueError}},
		{"email dot domain", func(p *model.Problems) { p.CheckEmail("ada@example.", "f") }, []model.ProblemType{model.ProblemValueError}},
		{"text ok", func(p *model.Problems) {
			p.CheckText("Àdá Ọ̀kọ́ & Sons (Lagos) — 'ok'", model.NameLength, "f")
		}, nil},
		{"text NUL", func(p *model.Problems) { p.CheckText("Acme\x00Corp", model.NameLength, "f") }, []model.ProblemType{model.ProblemValueError}},
		{"text newline", func(p *model.Problems) { p.CheckText("Acme\nCorp", model.NameLength, "f") }, []model.ProblemType{model.ProblemValueError}},
		{"text DEL", func(p *model.Problems) { p.CheckText("Acme\x7fCorp", model.NameLength, "f") }, []model.ProblemType{model.ProblemValueError}},
		{"text C1", func(p *model.Problems) { p.CheckText("Acme\u0085Corp", model.NameLength, "f") }, []model.ProblemType{model.ProblemValueError}},
		{"text RLO", func(p *model.Problems) { p.CheckText("Acme\u202eproC", model.NameLength, "f") }, []model.ProblemType{model.ProblemValueError}},
		{"text LRE", func(p *model.Problems) { p.CheckText("\u202aAcme", model.NameLength, "f") }, []model.ProblemType{model.ProblemValueError}},
		{"text FSI", func(p *model.Problems) { p.CheckText("Acme\u2068x", model.NameLength, "f") }, []model.ProblemType{model.ProblemValueError}},
		{"text PDI", func(p *model.Problems) { p.CheckText("Acme\u2069x", model.NameLength, "f") }, []model.ProblemType{model.ProblemValueError}},
		{"text LRM", func(p *model.Problems) { p.CheckText("Acme\u200ex", model.NameLength, "f") }, []model.ProblemType{model.ProblemValueError}},
		{"text RLM", func(p *model.Problems) { p.CheckText("Acme\u200fx", model.NameLength, "f") }, []model.ProblemType{model.ProblemValueError}},
		{"text ALM", func(p *model.Problems) { p.CheckText("Acme\u061cx", model.NameLength, "f") }, []model.ProblemType{model.ProblemValueError}},
		{"text invalid UTF-8", func(p *model.Problems) { p.CheckText("Acme\xffx", model.NameLength, "f") }, []model.ProblemType{model.ProblemValueError}},
		{"text Arabic and Hebrew letters", func(p *model.Problems) { p.CheckText("شركة שלום", model.NameLength, "f") }, nil},
		{"text too long counts characters", func(p *model.Problems) { p.CheckText(strings.Repeat("é", 256), model.NameLength, "f") }, []model.ProblemType{model.ProblemStringTooLong}},
		{"text at max counts characters", func(p *model.Problems) { p.CheckText(strings.Repeat("é", 255), model.NameLength, "f") }, nil},
		{"payload without NUL", func(p *model.Problems) { p.CheckJSONNoNUL(map[string]any{"a": []any{"x", 1.0}}, "f") }, nil},
		{"email two ats", func(p *model.Problems) { p.CheckEmail("a@b@example.com", "f") }, []model.ProblemType{model.ProblemValueError}},
		{"email empty", func(p *model.Problems) { p.CheckEmail("", "f") }, []model.ProblemType{model.ProblemValueError}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var p model.Problems
			c.check(&p)
			var got []model.ProblemType
			for _, f := range p.List() {
				got = append(got, f.Type)
				if !slices.Equal(f.Loc, []any{"f"}) {
					t.Fatalf("loc %v", f.Loc)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			if (p.Err() == nil) != (c.want == nil) {
				t.Fatalf("Err() = %v", p.Err())
			}
		})
	}
}

// email255 is a valid address of 255 characters: a 64-character local part
// and a domain of three labels.
var email255 = strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 62)

func TestCheckJSONNoNUL(t *testing.T) {
	for _, c := range []struct {
		name string
		v    any
		want []any
	}{
		{"string in a list", map[string]any{"lines": []any{map[string]any{"note": "a\x00b"}}}, []any{"p", "lines", 0, "note"}},
		{"object name", map[string]any{"x": map[string]any{"k\x00": "v"}}, []any{"p", "x", "k\x00"}},
		{"top string", "\x00", []any{"p"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var p model.Problems
			if p.CheckJSONNoNUL(c.v, "p") {
				t.Fatal("NUL not found")
			}
			if got := p.List()[0]; got.Type != model.ProblemValueError || !slices.Equal(got.Loc, c.want) {
				t.Fatalf("problem %+v, want value_error at %v", got, c.want)
			}
		})
	}
}

func TestParseInvoiceKind(t *testing.T) {
	for in, want := range map[string]model.InvoiceKind{
		"B2B": model.InvoiceKindB2B, "b2b": model.InvoiceKindB2B, "B2c": model.InvoiceKindB2C, " b2g ": model.InvoiceKindB2G,
		"B2X": "", "": "", "B2BB": "", "381": "", "ｂ2b": "",
	} {
		got, ok := model.ParseInvoiceKind(in)
		if got != want || ok != (want != "") {
			t.Errorf("ParseInvoiceKind(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if len(model.AllInvoiceKinds) != len(model.InvoiceKinds) {
		t.Fatal("the two lists of kinds differ")
	}
	for i, k := range model.AllInvoiceKinds {
		if string(k) != model.InvoiceKinds[i] || !slices.Contains(model.InvoiceKinds, string(k)) {
			t.Fatalf("kind %d: %q vs %q", i, k, model.InvoiceKinds[i])
		}
	}
}

func TestProblemsCollectEverythingAtOnce(t *testing.T) {
	var p model.Problems
	p.Add(model.ProblemMissing, "Field required", "email")
	p.AddAll([]any{"body"}, []model.FieldError{{Loc: []any{"scopes", 1}, Msg: "bad", Type: model.ProblemEnum}})
	err := p.Err()
	var e *model.Error
	if !errors.As(err, &e) || e.Code != model.CodeInvalid || len(e.Fields) != 2 {
		t.Fatalf("error: %#v", err)
	}
	if !slices.Equal(e.Fields[1].Loc, []any{"body", "scopes", 1}) || !p.Has("body", "scopes") || p.Has("body", "email") {
		t.Fatalf("locations: %v", e.Fields)
	}
	if model.ErrorCodeOf(errors.New("boom")) != model.CodeInternal || model.ErrorCodeOf(nil) != "" {
		t.Fatal("foreign errors are internal")
	}
}

func TestAuthoritiesRegistry(t *testing.T) {
	r := model.NewAuthorities([]model.Authority{fake{"NRS"}}, map[string]string{"FIRS": "NRS", "X": "MISSING"})
	for _, code := range []string{"NRS", "nrs", " firs "} {
		if a, ok := r.Lookup(code); !ok || a.Code() != "NRS" {
			t.Fatalf("lookup %q: %v %v", code, a, ok)
		}
	}
	if _, ok := r.Lookup("X"); ok {
		t.Fatal("an alias of an unknown authority resolved")
	}
	if !slices.Equal(r.Codes(), []string{"FIRS", "NRS"}) {
		t.Fatalf("codes %v", r.Codes())
	}
}

type fake struct{ code string }

func (f fake) Code() string                                                { return f.code }
func (fake) SchemaVersions() []string                                      { return nil }
func (fake) DefaultSchemaVersion() string                                  { return "" }
func (fake) ValidInvoiceType(string) bool                                  { return false }
func (fake) Schema(string) ([]byte, bool)                                  { return nil, false }
func (fake) Validate(model.ValidateInput) (*model.ValidationReport, error) { return nil, nil }
func (fake) GenerateIRN(string, string, string) (string, error)            { return "", nil }
func (fake) ValidateIRN(string, string, string) model.IRNValidation        { return model.IRNValidation{} }
func (fake) QRPayload(model.QRInput) (string, error)                       { return "", nil }
func (fake) Facts(map[string]any) model.InvoiceFacts                       { return model.InvoiceFacts{} }
func (fake) SetIRN(map[string]any, string)                                 {}
