package render_test

import (
	"testing"

	"github.com/einvoice-ng/einvoice/model/render"
)

// BenchmarkRenderPDFB2B renders the shared B2B fixture with a real QR
// payload: what one PDF response costs, QR encoding included. The target
// is at least 100 documents per second on one core (under 10 ms/op).
func BenchmarkRenderPDFB2B(b *testing.B) {
	v := viewOf(b, loadFixture(b, "invoice-b2b-1.1.json"), render.KindB2B, realQR(b))
	if _, err := render.Render(v); err != nil { // cut the fonts outside the loop
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := render.RenderWith(v, render.Options{Now: clock}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pdfs/s")
}
