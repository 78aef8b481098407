package render

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/render/pdfa"
)

// Options tunes RenderWith.
type Options struct {
	// Now is the creation date written into the PDF; zero means the time
	// of the call. With a fixed Now the same view gives the same bytes.
	Now time.Time
	// Attach, when not empty, makes the document PDF/A-3b carrying these
	// files as associated files (see package pdfa); without it the PDF is
	// gofpdf's as is.
	Attach []pdfa.File
}

// Render draws the view as an A4 PDF: the layout of its invoice type (B2B:
// both parties with TIN and address, tax breakdown, payment terms and
// means; B2C: a receipt, buyer optional; B2G: contract reference and the
// government buyer's ministry, department or agency), the IRN in full, the
// QR code of the QR payload at error correction level H, amounts with
// thousands separators, "Page x of y" on every page, table headers repeated
// after page breaks and, when validation failed, a "NOT VALID FOR
// SUBMISSION" banner on every page.
//
// Before it returns, the QR code is read back from the finished document:
// its module grid, as the PDF carries it, is decoded and compared with the
// QR payload; a difference is an error wrapping ErrQRMismatch and no PDF.
func Render(view View) ([]byte, error) { return RenderWith(view, Options{}) }

// RenderWith is Render with options.
func RenderWith(view View, opts Options) ([]byte, error) {
	var p model.Problems
	kind, ok := p.CheckInvoiceKind(string(view.InvoiceType), "invoice_type")
	if !ok {
		return nil, p.Err()
	}
	view.InvoiceType = kind
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	now = now.UTC()
	var out pdfBytes
	d, err := draw(&view, now, true, &out)
	if errors.Is(err, errMorePages) {
		out = nil
		d, err = draw(&view, now, false, &out)
	}
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	if len(opts.Attach) > 0 {
		if out, err = pdfa.Convert(out, d.meta, opts.Attach); err != nil {
			return nil, fmt.Errorf("render: %w", err)
		}
	}
	if err := checkQR(out, view.QR.Payload); err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	return out, nil
}

// pdfBytes collects what gofpdf writes: the whole document in one Write,
// copied once into a slice of its size.
type pdfBytes []byte

func (b *pdfBytes) Write(p []byte) (int, error) {
	*b = append(*b, p...)
	return len(p), nil
}

// draw lays the view out and writes the PDF to buf; onePage as newDoc
// takes it.
func draw(view *View, now time.Time, onePage bool, buf io.Writer) (*doc, error) {
	d := newDoc(view, now, onePage)
	switch view.InvoiceType {
	case model.InvoiceKindB2C:
		d.receipt()
	default:
		d.business()
	}
	return d, d.f.Output(buf)
}
