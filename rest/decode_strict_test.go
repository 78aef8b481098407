package rest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// decodeStd is what parseJSON's slow path reads: encoding/json into an any
// with UseNumber.
func decodeStd(t testing.TB, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return v
}

// TestParseStrictMatchesEncodingJSON: on well-formed bodies the fast path
// gives exactly the value encoding/json gives.
func TestParseStrictMatchesEncodingJSON(t *testing.T) {
	inputs := []string{
		`{}`, `[]`, `null`, `true`, `false`, `0`, `-1.5e+10`, `"x"`, ` {"a" : [ ] } `,
		`{"a":{},"b":[],"c":null,"d":[1,"2",true,false,null,{"e":[[]]}],"f":1.0,"g":-0,"h":12345678901234567890123}`,
		`{"s":"\u00e9\n\t\"\\\/ \ud83d\ude00 é 中"}`,
		`{"invoice_reference":"INV001","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`,
		`{"a":{"x":1},"b":{"x":1}}`, // the same name in different objects is fine
		`{"a\u0062":1,"\"q\\":2,"invoice_reference":"x","z":{"invoice_reference":[]}}`,
	}
	files, err := filepath.Glob("../testdata/fixtures/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("fixtures: %v %d", err, len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, string(b))
	}
	fieldsOf(reflect.TypeOf(struct {
		Ref string `json:"invoice_reference"`
	}{})) // a declared name, read without a copy
	inputs = append(inputs, `{"big":"`+strings.Repeat("x", maxPooledBuffer)+`"}`)
	for _, in := range inputs {
		got, ok := parseStrict([]byte(in))
		if !ok {
			t.Errorf("parseStrict(%.60q) refused a well-formed value", in)
			continue
		}
		if want := decodeStd(t, []byte(in)); !reflect.DeepEqual(got, want) {
			t.Errorf("parseStrict(%.60q) = %#v, encoding/json gives %#v", in, got, want)
		}
		if v, err := parseJSON([]byte(in)); err != nil || !reflect.DeepEqual(v, got) {
			t.Errorf("parseJSON(%.60q) = %v, %v", in, v, err)
		}
	}
}

// TestParseStrictRefuses: everything that is not one well-formed value in
// valid UTF-8 without duplicate names goes to the slow path, which words
// the error (or replaces invalid UTF-8 as encoding/json does).
func TestParseStrictRefuses(t *testing.T) {
	for _, in := range []string{
		``, ` `, `{`, `}`, `]`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{"a":1}{}`, `{"a":1} x`, `1 2`,
		`{"a":1,"a":2}`, `{"x":{"a":1,"a":1}}`, `[{"a":1,"a":1}]`, `{"ab":1,"a\u0062":2}`,
		"{\"a\":\"\xff\"}", "{\"\xff\":1}", `{"a":"\ud800"}`, `{"a":01}`, `{"a":tru}`, `{"a":NaN}`,
		`{"a":"` + "\x01" + `"}`, strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	} {
		if v, ok := parseStrict([]byte(in)); ok {
			t.Errorf("parseStrict(%.40q) = %#v, want a refusal", in, v)
		}
	}
	// The slow path still answers them as before.
	for in, want := range map[string]string{
		`{"a":1,"a":2}`:           "appears more than once",
		`{"a":1}{}`:               "unexpected data after the JSON value",
		` `:                       "Field required",
		`{"a":1,}`:                "JSON decode error",
		"{\"a\":\"\xff\"}":        "",
		`{"a":"\ud800"}`:          "",
		`[{"a":1},{"b":2,"b":3}]`: "appears more than once",
	} {
		_, err := parseJSON([]byte(in))
		if want == "" {
			if err != nil {
				t.Errorf("parseJSON(%q): %v, want the value read as encoding/json reads it", in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(fmtErr(err), want) {
			t.Errorf("parseJSON(%q) = %v, want %q", in, err, want)
		}
	}
}

func fmtErr(err error) string {
	b, _ := json.Marshal(err)
	return err.Error() + string(b)
}
