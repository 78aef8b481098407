package render

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/qrcode"
)

// qrView is the smallest document with a QR code: the checks below need
// no more.
func qrView(kind model.InvoiceKind, payload string) View {
	return View{InvoiceType: kind, IRN: "INV001-94ND90NR-20260315", QR: QR{Payload: payload}}
}

// imageOf is the QR image modules would draw for payload, without the
// renderer's cache.
func imageOf(t *testing.T, payload string) qrImage {
	t.Helper()
	m, err := qrcode.Modules(payload)
	if err != nil {
		t.Fatal(err)
	}
	return maskImage(&m)
}

func TestRenderDecodesItsQRCode(t *testing.T) {
	for _, kind := range []model.InvoiceKind{model.InvoiceKindB2B, model.InvoiceKindB2C} {
		payload := "decoded back " + string(kind) + strings.Repeat(" q8P+/x=", 40)
		checked, decoded, failed := QRCheckCounts()
		pdf, err := Render(qrView(kind, payload))
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		c, d, f := QRCheckCounts()
		if c != checked+1 || d != decoded+1 || f != failed {
			t.Errorf("%s: counts went %d/%d/%d → %d/%d/%d, want one check, one decode, no failure", kind, checked, decoded, failed, c, d, f)
		}
		if n, samples, count := findQRMask(pdf); count != 1 || n == 0 || string(samples) != imageOf(t, payload).hex {
			t.Errorf("%s: the PDF carries %d QR masks (side %d) or not the payload's samples", kind, count, n)
		}
		// The same payload again: the samples are compared with those
		// decoded the first time, and not decoded again.
		if _, err := Render(qrView(kind, payload)); err != nil {
			t.Fatal(err)
		}
		if c2, d2, _ := QRCheckCounts(); c2 != c+1 || d2 != d {
			t.Errorf("%s: the second document was decoded again (%d → %d decodes)", kind, d, d2)
		}
	}
}

func TestRenderRefusesATamperedQRCode(t *testing.T) {
	// The renderer's image cache is what the document draws from: an image
	// of another payload under this one's key is a QR code that no longer
	// says what the view does.
	payload := "tampered " + strings.Repeat("A1b2C3d4", 40)
	other := "tampered " + strings.Repeat("A1b2C3d5", 40)
	qrCache.put(payload, imageOf(t, other))
	_, _, failed := QRCheckCounts()
	pdf, err := Render(qrView(model.InvoiceKindB2B, payload))
	if !errors.Is(err, ErrQRMismatch) || pdf != nil {
		t.Fatalf("a QR code of another payload rendered: %v (%d bytes)", err, len(pdf))
	}
	if _, _, f := QRCheckCounts(); f != failed+1 {
		t.Errorf("failures went %d → %d, want one more", failed, f)
	}

	// Samples that are no QR code at all: blank modules.
	blank := "blank " + strings.Repeat("x", 300)
	img := imageOf(t, blank)
	img.hex = strings.Repeat("0", len(img.hex)-1) + ">"
	qrCache.put(blank, img)
	if _, err := Render(qrView(model.InvoiceKindB2C, blank)); !errors.Is(err, ErrQRMismatch) {
		t.Errorf("a blank QR code rendered: %v", err)
	}
}

func TestCheckQRReadsWhatThePDFCarries(t *testing.T) {
	payload := "carried " + strings.Repeat("Zz9", 100)
	pdf, err := Render(qrView(model.InvoiceKindB2B, payload))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkQR(pdf, payload); err != nil {
		t.Fatalf("the rendered PDF fails its check: %v", err)
	}
	good := imageOf(t, payload).hex

	// The samples swapped for those of another payload of the same
	// length, after rendering: decoded, they say something else.
	swapped := bytes.Replace(pdf, []byte(good), []byte(imageOf(t, "carried "+strings.Repeat("Zz8", 100)).hex), 1)
	if bytes.Equal(swapped, pdf) {
		t.Fatal("the samples were not found in the PDF")
	}
	if err := checkQR(swapped, payload); !errors.Is(err, ErrQRMismatch) {
		t.Errorf("swapped samples pass: %v", err)
	}
	// A third of the rows inverted: past what level H corrects.
	n, _, _ := findQRMask(pdf)
	row := ((n + 7) / 8) * 2
	damaged := []byte(good)
	for i := n / 3 * row; i < 2*n/3*row; i++ {
		damaged[i] = "fedcba9876543210"[strings.IndexByte("0123456789abcdef", damaged[i])]
	}
	if err := checkQR(bytes.Replace(pdf, []byte(good), damaged, 1), payload); !errors.Is(err, ErrQRMismatch) {
		t.Errorf("damaged samples pass: %v", err)
	}
	// No QR code, or two.
	if err := checkQR(bytes.Replace(pdf, []byte(qrMaskHead), []byte(" /IM true /BPC 1 /D [0 1] /F /AHx ID\n"), 1), payload); !errors.Is(err, ErrQRMismatch) {
		t.Errorf("a PDF without its QR code passes: %v", err)
	}
	at := bytes.Index(pdf, []byte("BI /W "))
	end := at + bytes.Index(pdf[at:], []byte("EI"))
	twice := append(append(bytes.Clone(pdf[:end+2]), '\n'), pdf[at:]...)
	if err := checkQR(twice, payload); !errors.Is(err, ErrQRMismatch) {
		t.Errorf("a PDF with two QR codes passes: %v", err)
	}
	// A view without a payload draws no code and has nothing to check.
	if _, err := Render(qrView(model.InvoiceKindB2B, "")); err != nil {
		t.Errorf("a view without a QR payload: %v", err)
	}
}
