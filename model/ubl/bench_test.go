package ubl_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-ng/einvoice/model/ubl"
	"github.com/einvoice-ng/einvoice/model/ubl/ubltest"
)

// BenchmarkToNRS converts the Nigerian Peppol invoice (two lines) with its
// report.
func BenchmarkToNRS(b *testing.B) {
	doc, err := os.ReadFile(filepath.Join(ubltest.Testdata(), "ng-invoice.xml"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if _, err := ubl.ToNRS(doc, ubl.InOptions{ServiceID: "7XQ4LM2P"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFromNRS writes the same invoice as UBL.
func BenchmarkFromNRS(b *testing.B) {
	doc, err := os.ReadFile(filepath.Join(ubltest.Testdata(), "ng-invoice.xml"))
	if err != nil {
		b.Fatal(err)
	}
	res, err := ubl.ToNRS(doc, ubl.InOptions{ServiceID: "7XQ4LM2P"})
	if err != nil {
		b.Fatal(err)
	}
	res.Payload["irn"] = "SGN2026000123-7XQ4LM2P-20260315"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ubl.FromNRS(res.Payload, ubl.OutOptions{Carried: res.Carried, QRPayload: "cXItcGF5bG9hZA=="}); err != nil {
			b.Fatal(err)
		}
	}
}
