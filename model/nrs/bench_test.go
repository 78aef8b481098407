package nrs

import (
	"testing"

	"github.com/einvoice-ng/einvoice/model"
)

func BenchmarkValidateB2B(b *testing.B) {
	a := newAuthority(b)
	payload := loadFixture(b, "invoice-b2b-1.1.json")
	in := model.ValidateInput{SchemaVersion: "1.1", Payload: payload}
	b.ReportAllocs()
	for b.Loop() {
		r, err := a.Validate(in)
		if err != nil || !r.Valid {
			b.Fatalf("Validate = %+v, %v", r, err)
		}
	}
}

// BenchmarkValidateNRSExample validates FIRS's own ValidateInvoice example
// (schema 1.0, with its placeholders and its 15 findings).
func BenchmarkValidateNRSExample(b *testing.B) {
	a := newAuthority(b)
	payload := loadExample(b, "firs-doc-1.0-validate-invoice.jsonc")
	in := model.ValidateInput{SchemaVersion: "1.0", Payload: payload}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Validate(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGenerateIRN(b *testing.B) {
	a := newAuthority(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.GenerateIRN("inv001", "94nd90nr", "2024-06-11"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkQRPayload(b *testing.B) {
	a := newAuthority(b)
	keys := loadTestKeys(b)
	in := model.QRInput{
		IRN:         "INV001-94ND90NR-20240611",
		Timestamp:   1731618237,
		PublicKey:   keys.public,
		Certificate: keys.certificate,
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.QRPayload(in); err != nil {
			b.Fatal(err)
		}
	}
}
