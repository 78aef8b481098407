package rest

import (
	"os"
	"testing"
)

// BenchmarkParseJSON measures reading a schema-validation body (the B2B
// fixture) and its share spent looking for duplicate names:
//
//	go test -run '^$' -bench ParseJSON -benchmem -cpu 1 ./rest/
func BenchmarkParseJSON(b *testing.B) {
	fixture, err := os.ReadFile("../testdata/fixtures/invoice-b2b-1.1.json")
	if err != nil {
		b.Fatal(err)
	}
	raw := append(append([]byte(`{"invoice_type_code":"B2B","tax_authority_code":"NRS","payload":`), fixture...), '}')
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parseJSON(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	v, err := parseJSON(raw)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("duplicates only", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			if err := duplicateName(raw, v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
