package qrcode

import (
	"errors"
	"fmt"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode/decoder"
)

// DecodeRows reads a QR code back from its modules, one sample per module
// and no quiet zone, as Matrix.Row lays them out: n rows of (n+7)/8 bytes,
// module 0 of a row in the high bit, 1 for dark. It runs the decoder on the
// exact module grid (no image, no finder-pattern search), so it costs one
// read of the codewords and their Reed-Solomon check; a grid that is not
// a QR code, or whose errors pass what level H corrects, is an error.
// Byte-mode content is read as UTF-8.
func DecodeRows(n int, rows []byte) (string, error) {
	stride := (n + 7) / 8
	if n < 21 || n > 177 || n%4 != 1 {
		return "", fmt.Errorf("qrcode: %d modules a side is no QR code size", n)
	}
	if len(rows) != n*stride {
		return "", fmt.Errorf("qrcode: %d bytes of modules for a side of %d, want %d", len(rows), n, n*stride)
	}
	bits, err := gozxing.NewSquareBitMatrix(n)
	if err != nil {
		return "", fmt.Errorf("qrcode: %w", err)
	}
	for y := range n {
		row := rows[y*stride : (y+1)*stride]
		for x := range n {
			if row[x>>3]&(0x80>>uint(x&7)) != 0 {
				bits.Set(x, y)
			}
		}
	}
	res, err := decoder.NewDecoder().Decode(bits, decodeHints)
	if err != nil {
		return "", fmt.Errorf("qrcode: decoding: %w", err)
	}
	if res == nil {
		return "", errors.New("qrcode: decoding gave no result")
	}
	return res.GetText(), nil
}

var decodeHints = map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_CHARACTER_SET: "UTF-8"}
