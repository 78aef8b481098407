package qrcode

import (
	"bytes"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode/decoder"
	"rsc.io/qr/coding"
)

// The codewords DecodeRows reads are those gozxing's BitMatrixParser reads
// from the same grid, for every version and mask: symbols of two contents
// each (the data and error correction modules of the two differ almost
// everywhere, so a module read out of place shows).
func TestReadPlanMatchesGozxing(t *testing.T) {
	for v := coding.Version(coding.MinVersion); v <= coding.MaxVersion; v++ {
		for mask := range coding.Mask(8) {
			p, err := coding.NewPlan(v, coding.H, mask)
			if err != nil {
				t.Fatal(err)
			}
			capacity := v.DataBytes(coding.H) - 3
			for k, seed := range []string{"Vg3q+/=9xZ", "kd82Lq0/+P"} {
				content := strings.Repeat(seed, capacity/len(seed)+1)[:capacity-k]
				c, err := p.Encode(coding.String(content))
				if err != nil {
					t.Fatal(err)
				}
				n, stride := c.Size, (c.Size+7)/8
				rows := make([]byte, 0, n*stride)
				for y := range n {
					rows = append(rows, c.Bitmap[y*c.Stride:y*c.Stride+stride]...)
				}
				want := gozxingCodewords(t, n, rows)
				g := grid{n: n, stride: stride, rows: rows}
				version, err := g.version()
				if err != nil {
					t.Fatalf("version %d mask %d: %v", v, mask, err)
				}
				format := g.format()
				if format == nil || format.GetDataMask() != byte(mask) {
					t.Fatalf("version %d mask %d: format information %v", v, mask, format)
				}
				rp, err := readPlanOf(version)
				if err != nil {
					t.Fatal(err)
				}
				if got := rp.read(rows, format.GetDataMask()); !bytes.Equal(got, want) {
					t.Fatalf("version %d mask %d: the codewords differ from gozxing's", v, mask)
				}
				if got, err := DecodeRows(n, rows); err != nil || got != content {
					t.Fatalf("version %d mask %d: decoded %.20q..., %v", v, mask, got, err)
				}
			}
		}
	}
}

// gozxingCodewords reads the codewords of a grid with gozxing's parser.
func gozxingCodewords(t *testing.T, n int, rows []byte) []byte {
	t.Helper()
	stride := (n + 7) / 8
	bits, err := gozxing.NewSquareBitMatrix(n)
	if err != nil {
		t.Fatal(err)
	}
	for y := range n {
		for x := range n {
			if rows[y*stride+x/8]&(0x80>>uint(x%8)) != 0 {
				bits.Set(x, y)
			}
		}
	}
	p, err := decoder.NewBitMatrixParser(bits)
	if err != nil {
		t.Fatal(err)
	}
	cw, err := p.ReadCodewords()
	if err != nil {
		t.Fatal(err)
	}
	return cw
}
