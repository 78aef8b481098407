package rest

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/einvoice-ng/einvoice/model/invoices"
)

// TestWriteJSONPlainMatchesEncoder: the IRN answer written without
// reflection is byte for byte what json.Encoder writes, for plain strings
// and for strings it must escape (which go to encoding/json).
func TestWriteJSONPlainMatchesEncoder(t *testing.T) {
	fill := func(s string) *invoices.IRNResult {
		r := new(invoices.IRNResult)
		v := reflect.ValueOf(r).Elem()
		for i := 0; i < v.NumField(); i++ {
			v.Field(i).SetString(s + v.Type().Field(i).Name) // every field, new ones too
		}
		return r
	}
	cases := map[string]bool{ // value -> written by appendPlain
		"INV-001/2026 ~!@#$%^*()_+=[]{}|;:',.?`": true,
		"":                                       true,
		`a"b`:                                    false, `a\b`: false, "a<b": false, "a>b": false, "a&b": false,
		"a\nb": false, "a\x00b": false, "a\x7fb": false, "é": false, "\u2028": false, "\xff": false,
	}
	for s, plain := range cases {
		r := fill(s)
		if r.IRN == "" && s != "" {
			t.Fatal("IRNResult has no string fields")
		}
		var want bytes.Buffer
		if err := json.NewEncoder(&want).Encode(r); err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		writeJSON(rec, 200, r)
		if got := rec.Body.String(); got != want.String() {
			t.Errorf("%q:\n got %s\nwant %s", s, got, want.String())
		}
		if _, ok := appendPlain(nil, r); ok != plain {
			t.Errorf("appendPlain(%q) took it: %v, want %v", s, ok, plain)
		}
	}
	var nilResult *invoices.IRNResult
	rec := httptest.NewRecorder()
	writeJSON(rec, 200, nilResult)
	if rec.Body.String() != "null\n" {
		t.Errorf("nil result: %q", rec.Body.String())
	}
}
