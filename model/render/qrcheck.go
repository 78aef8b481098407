package render

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/einvoice-ng/einvoice/model/qrcode"
)

// ErrQRMismatch is returned, wrapped, by RenderWith when the QR code the
// finished PDF carries does not decode back to the view's QR payload (or
// the PDF carries no QR code, or more than one): the document must not be
// handed out. It is an internal integrity failure, never the caller's.
var ErrQRMismatch = errors.New("the QR code in the PDF does not decode to the QR payload")

// qrChecks counts the checks of this process, for metrics.
var qrChecks struct{ checked, decoded, failed atomic.Uint64 }

// QRCheckCounts reports how many PDFs had their QR code checked, how many
// of those checks ran the decoder (the others found the samples a decoder
// had already read back to the same payload), and how many failed.
func QRCheckCounts() (checked, decoded, failed uint64) {
	return qrChecks.checked.Load(), qrChecks.decoded.Load(), qrChecks.failed.Load()
}

// verifiedQR remembers, per QR payload, the samples that decoded to it, so
// that a document drawn again with the same payload (a confirmed invoice's
// PDF asked for twice) is checked by comparing its samples with them.
var verifiedQR = newRunCache(16)

// qrMaskHead is what modules writes between an inline image's size and
// its samples: no other inline image of the document has it.
const qrMaskHead = " /IM true /BPC 1 /D [1 0] /F /AHx ID\n"

// checkQR reads the QR code back from the finished PDF: it finds the
// inline image mask modules drew (the samples as written, one per module),
// decodes that module grid and compares the content with payload. A view
// without a payload draws no code and has nothing to check.
func checkQR(pdf []byte, payload string) error {
	if payload == "" {
		return nil
	}
	qrChecks.checked.Add(1)
	n, samples, count := findQRMask(pdf)
	if count != 1 {
		return qrFailed(fmt.Errorf("%w: the PDF carries %d QR codes, want 1", ErrQRMismatch, count))
	}
	if v, ok := verifiedQR.get(payload); ok && v.modules == n && v.hex == string(samples) {
		return nil
	}
	qrChecks.decoded.Add(1)
	rows := make([]byte, hex.DecodedLen(len(samples)-1))
	if _, err := hex.Decode(rows, samples[:len(samples)-1]); err != nil {
		return qrFailed(fmt.Errorf("%w: its samples: %v", ErrQRMismatch, err))
	}
	got, err := qrcode.DecodeRows(n, rows)
	if err != nil {
		return qrFailed(fmt.Errorf("%w: %v", ErrQRMismatch, err))
	}
	if got != payload {
		return qrFailed(fmt.Errorf("%w: it decodes to %d characters that differ from the payload's %d", ErrQRMismatch, len(got), len(payload)))
	}
	verifiedQR.put(payload, qrImage{modules: n, hex: string(samples)})
	return nil
}

func qrFailed(err error) error {
	qrChecks.failed.Add(1)
	return err
}

// findQRMask returns the side in modules and the ASCII hex samples (with
// their closing '>') of the first QR image mask in pdf, and how many there
// are; a mask whose size or samples cannot be read counts but is not
// returned.
func findQRMask(pdf []byte) (n int, samples []byte, count int) {
	head := []byte(qrMaskHead)
	// Searched from its '/': a PDF has far fewer of those than spaces,
	// the byte bytes.Index would look for first.
	for at := 0; ; {
		j := bytes.Index(pdf[at:], head[1:])
		if j < 0 {
			return n, samples, count
		}
		start, end := at+j-1, at+j+len(head)-1
		at = end
		if start < 0 || pdf[start] != head[0] {
			continue
		}
		count++
		if count == 1 {
			n, samples = readQRMask(pdf[:start], pdf[end:])
		}
	}
}

// readQRMask parses "BI /W n /H n" at the end of before and the samples at
// the start of after; 0 and nil when they are not as modules writes them.
func readQRMask(before, after []byte) (int, []byte) {
	bi := bytes.LastIndex(before, []byte("BI /W "))
	if bi < 0 {
		return 0, nil
	}
	w, h, ok := bytes.Cut(before[bi+len("BI /W "):], []byte(" /H "))
	if !ok {
		return 0, nil
	}
	n, err := strconv.Atoi(string(w))
	if err != nil || string(h) != string(w) {
		return 0, nil
	}
	end := bytes.IndexByte(after, '>')
	if end < 0 || end != n*((n+7)/8)*2 {
		return 0, nil
	}
	return n, after[:end+1]
}
