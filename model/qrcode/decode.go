package qrcode

import (
	"errors"
	"fmt"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode/decoder"
)

// DecodeRows reads a QR code back from its modules, one sample per module
// and no quiet zone, as Matrix.Row lays them out: n rows of (n+7)/8 bytes,
// module 0 of a row in the high bit, 1 for dark. It runs gozxing's QR
// decoder on the exact module grid (no image, no finder-pattern search):
// version and format information, the codewords unmasked and
// de-interleaved, and the data codewords decoded as they are. No error is
// corrected: a grid generated for a payload must read back exactly, so a
// single wrong data module is an error (a scanner would correct it; this
// check does not forgive it), and the Reed-Solomon decoding, two thirds of
// a full decode's CPU, is not run (the error-correction codewords are the
// encoder's, not read back). Byte-mode content is read as UTF-8.
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
	p, err := decoder.NewBitMatrixParser(bits)
	if err != nil {
		return "", fmt.Errorf("qrcode: %w", err)
	}
	version, err := p.ReadVersion()
	if err != nil {
		return "", fmt.Errorf("qrcode: version: %w", err)
	}
	format, err := p.ReadFormatInformation()
	if err != nil {
		return "", fmt.Errorf("qrcode: format information: %w", err)
	}
	codewords, err := p.ReadCodewords()
	if err != nil {
		return "", fmt.Errorf("qrcode: codewords: %w", err)
	}
	blocks, err := decoder.DataBlock_GetDataBlocks(codewords, version, format.GetErrorCorrectionLevel())
	if err != nil {
		return "", fmt.Errorf("qrcode: blocks: %w", err)
	}
	var data []byte
	for _, b := range blocks {
		data = append(data, b.GetCodewords()[:b.GetNumDataCodewords()]...)
	}
	res, err := decoder.DecodedBitStreamParser_Decode(data, version, format.GetErrorCorrectionLevel(), decodeHints)
	if err != nil {
		return "", fmt.Errorf("qrcode: decoding: %w", err)
	}
	if res == nil {
		return "", errors.New("qrcode: decoding gave no result")
	}
	return res.GetText(), nil
}

var decodeHints = map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_CHARACTER_SET: "UTF-8"}
