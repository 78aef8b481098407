// Command gorender renders the shared B2B invoice fixture with model/render
// n times in a row, once with the same view every time (its QR code encoded
// once) and once with a freshly encrypted QR payload per document (as every
// render request has), and prints the rates as JSON. With -view it also
// writes the invoice's view and its QR code (as SVG path data) so that the
// HTML side of bench/render draws the same document. It is the Go half of
// the rendering comparison in bench/render; see README.md there.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/qrcode"
	"github.com/einvoice-ng/einvoice/model/render"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gorender:", err)
		os.Exit(1)
	}
}

// clock is the fixed creation date of the documents.
var clock = time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("gorender", flag.ContinueOnError)
	n := fs.Int("n", 200, "documents to render")
	cpu := fs.Int("cpu", 1, "GOMAXPROCS while rendering")
	root := fs.String("root", ".", "repository root, where testdata/ is")
	viewOut := fs.String("view", "", "write the view and QR code as JSON to this file")
	pdfOut := fs.String("pdf", "", "write one rendered PDF to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 1 {
		return errors.New("-n must be at least 1")
	}
	view, err := b2bView(*root)
	if err != nil {
		return err
	}
	if *viewOut != "" {
		if err := writeView(*viewOut, view); err != nil {
			return err
		}
	}
	// The first document cuts the font face: not part of the steady rate.
	first, err := render.RenderWith(view, render.Options{Now: clock})
	if err != nil {
		return err
	}
	if *pdfOut != "" {
		if err := os.WriteFile(*pdfOut, first, 0o644); err != nil {
			return err
		}
	}
	// Every render request carries a freshly encrypted QR payload; the same
	// view rendered again reuses its QR code. Measure both.
	fresh := make([]render.View, *n)
	for i := range fresh {
		if fresh[i], err = b2bView(*root); err != nil {
			return err
		}
	}
	runtime.GOMAXPROCS(*cpu)
	same, err := measure(*n, func(int) render.View { return view })
	if err != nil {
		return err
	}
	newQR, err := measure(*n, func(i int) render.View { return fresh[i] })
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(map[string]any{
		"renderer":   "einvoice model/render (gofpdf)",
		"n":          *n,
		"gomaxprocs": *cpu,
		"bytes":      len(first),
		"same_view":  same,
		"new_qr":     newQR,
	})
}

// measure renders n documents in a row and reports the rate by wall clock
// and, where known, by CPU time: on a busy machine wall time includes
// waiting for the CPU.
func measure(n int, view func(i int) render.View) (map[string]float64, error) {
	runtime.GC()
	start, startCPU := time.Now(), cpuTime()
	for i := range n {
		if _, err := render.RenderWith(view(i), render.Options{Now: clock}); err != nil {
			return nil, err
		}
	}
	elapsed, cpuUsed := time.Since(start), cpuTime()-startCPU
	out := map[string]float64{"seconds": elapsed.Seconds(), "pdfs_per_sec": float64(n) / elapsed.Seconds()}
	if cpuUsed > 0 {
		out["cpu_seconds"] = cpuUsed.Seconds()
		out["pdfs_per_cpu_sec"] = float64(n) / cpuUsed.Seconds()
	}
	return out, nil
}

// b2bView builds the view of the shared B2B fixture the way the service
// does, for a project with service id 94ND90NR and the test keys.
func b2bView(root string) (render.View, error) {
	raw, err := os.ReadFile(filepath.Join(root, "testdata/fixtures/invoice-b2b-1.1.json"))
	if err != nil {
		return render.View{}, err
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var payload map[string]any
	if err := dec.Decode(&payload); err != nil {
		return render.View{}, err
	}
	var ck nrs.CryptoKeys
	raw, err = os.ReadFile(filepath.Join(root, "testdata/keys/crypto_keys.txt"))
	if err != nil {
		return render.View{}, err
	}
	if err := json.Unmarshal(raw, &ck); err != nil {
		return render.View{}, err
	}
	pub, err := nrs.ParsePublicKey(ck.PublicKey)
	if err != nil {
		return render.View{}, err
	}
	a, err := nrs.New(nrs.Options{})
	if err != nil {
		return render.View{}, err
	}
	rep, err := a.Validate(model.ValidateInput{InvoiceTypeCode: string(model.InvoiceKindB2B), Payload: payload})
	if err != nil {
		return render.View{}, err
	}
	inv, err := nrs.Decode(payload)
	if err != nil {
		return render.View{}, err
	}
	irn, businessID, warnings := render.Identify(a, inv, render.Issuer{BusinessID: "0b7c6a52-3f1e-4c9a-8d2b-5e6f7a8b9c0d", ServiceID: "94ND90NR"})
	qr, err := a.QRPayload(model.QRInput{IRN: irn, Timestamp: clock.Unix(), PublicKey: pub, Certificate: ck.Certificate})
	if err != nil {
		return render.View{}, err
	}
	return render.NewView(render.Input{
		InvoiceType: model.InvoiceKindB2B, Invoice: inv, Totals: nrs.ComputeTotals(inv), Report: rep,
		IRN: irn, BusinessID: businessID, Warnings: warnings,
		QR: render.QR{Payload: qr, Timestamp: clock.Unix(), Encryption: model.QREncryptionPKCS1v15, KeyFingerprint: nrs.KeyFingerprint(pub)},
	}), nil
}

// writeView writes {"view": ..., "qr": {"modules": n, "path": "M…"}}: the
// QR code as SVG path data in module units, quiet zone included.
func writeView(path string, view render.View) error {
	img, err := qrcode.Image(view.QR.Payload, -1)
	if err != nil {
		return err
	}
	b, err := json.Marshal(map[string]any{
		"view": view,
		"qr":   map[string]any{"modules": img.Bounds().Dx(), "path": svgPath(img)},
	})
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// svgPath draws the dark runs of each row of a one-pixel-per-module image.
func svgPath(img image.Image) string {
	b := img.Bounds()
	var s strings.Builder
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; {
			if !dark(img, x, y) {
				x++
				continue
			}
			start := x
			for x < b.Max.X && dark(img, x, y) {
				x++
			}
			s.WriteString("M" + strconv.Itoa(start-b.Min.X) + " " + strconv.Itoa(y-b.Min.Y) + "h" + strconv.Itoa(x-start) + "v1h-" + strconv.Itoa(x-start) + "z")
		}
	}
	return s.String()
}

func dark(img image.Image, x, y int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	return r+g+b < 3*0x8000
}
