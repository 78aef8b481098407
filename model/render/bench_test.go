package render_test

import (
	"encoding/json"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/render"
	"github.com/einvoice-ng/einvoice/model/render/pdfa"
	"github.com/einvoice-ng/einvoice/model/ubl"
)

// The rendering benchmarks draw the shared B2B fixture; the goal is 50
// times headless Chromium per core (bench/render), about 2 ms of CPU per
// document with a QR code of its own:
//
//	go test -run '^$' -bench RenderPDF -cpu 1 -benchmem ./model/render/
//
// pdfs/s is wall-clock; pdfs/cpu-s counts CPU time only, which stays
// meaningful on a busy machine.

// BenchmarkRenderPDFB2B renders one view again and again, as a client
// fetching the same document does: the QR code is encoded once.
func BenchmarkRenderPDFB2B(b *testing.B) {
	v := viewOf(b, loadFixture(b, "invoice-b2b-1.1.json"), model.InvoiceKindB2B, realQR(b))
	benchRender(b, func(int) render.View { return v })
}

// BenchmarkRenderPDFB2BNewQR gives every document a QR payload of its own,
// as every render request does (the payload is encrypted afresh each time):
// the QR code is encoded for each document.
func BenchmarkRenderPDFB2BNewQR(b *testing.B) {
	v := viewOf(b, loadFixture(b, "invoice-b2b-1.1.json"), model.InvoiceKindB2B, realQR(b))
	qr := realQR(b)
	payloads := make([]render.QR, 64) // more than the renderer keeps
	for i := range payloads {
		payloads[i] = qr(v.IRN)
	}
	benchRender(b, func(i int) render.View {
		v.QR = payloads[i%len(payloads)]
		return v
	})
}

// BenchmarkRenderPDFAB2B is BenchmarkRenderPDFB2B as PDF/A-3b carrying
// the payload and its UBL document, as the invoice PDF route answers.
func BenchmarkRenderPDFAB2B(b *testing.B) {
	payload := loadFixture(b, "invoice-b2b-1.1.json")
	v := viewOf(b, payload, model.InvoiceKindB2B, realQR(b))
	js, err := json.Marshal(payload)
	if err != nil {
		b.Fatal(err)
	}
	x, err := ubl.FromNRS(payload, ubl.OutOptions{QRPayload: v.QR.Payload})
	if err != nil {
		b.Fatal(err)
	}
	benchRenderWith(b, func(int) render.View { return v }, []pdfa.File{
		{Name: "invoice.json", MediaType: "application/json", Relation: pdfa.Source, Content: js},
		{Name: "invoice.xml", MediaType: "application/xml", Relation: pdfa.Alternative, Content: x},
	})
}

func benchRender(b *testing.B, view func(i int) render.View) { benchRenderWith(b, view, nil) }

func benchRenderWith(b *testing.B, view func(i int) render.View, attach []pdfa.File) {
	b.Helper()
	if _, err := render.Render(view(0)); err != nil { // cut the font face outside the loop
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	i := 0
	for b.Loop() {
		i++
		if _, err := render.RenderWith(view(i), render.Options{Now: clock, Attach: attach}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pdfs/s")
	if used := cpuTime() - start; used > 0 {
		b.ReportMetric(float64(b.N)/used.Seconds(), "pdfs/cpu-s")
	}
}
