package qrcode

import (
	"errors"
	"fmt"
	"sync"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode/decoder"
)

// DecodeRows reads a QR code back from its modules, one sample per module
// and no quiet zone, as Matrix.Row lays them out: n rows of (n+7)/8 bytes,
// module 0 of a row in the high bit, 1 for dark. It reads the exact module
// grid (no image, no finder-pattern search): version and format
// information, the codewords unmasked and de-interleaved, and the data
// codewords decoded as they are. No error is corrected: a grid generated
// for a payload must read back exactly, so a single wrong data module is an
// error (a scanner would correct it; this check does not forgive it), and
// the Reed-Solomon decoding, two thirds of a full decode's CPU, is not run
// (the error-correction codewords are the encoder's, not read back).
// Byte-mode content is read as UTF-8.
//
// The format and version information are decoded, the blocks
// de-interleaved and the bit stream parsed by gozxing's QR decoder; the
// codewords are read from the rows here, in the order of ISO/IEC 18004
// §7.7.3 (the module positions and each mask's pattern at them computed
// once per version), and match what gozxing's BitMatrixParser reads from
// the same grid (decode_internal_test.go), at a tenth of its CPU.
func DecodeRows(n int, rows []byte) (string, error) {
	stride := (n + 7) / 8
	if n < 21 || n > 177 || n%4 != 1 {
		return "", fmt.Errorf("qrcode: %d modules a side is no QR code size", n)
	}
	if len(rows) != n*stride {
		return "", fmt.Errorf("qrcode: %d bytes of modules for a side of %d, want %d", len(rows), n, n*stride)
	}
	g := grid{n: n, stride: stride, rows: rows}
	version, err := g.version()
	if err != nil {
		return "", fmt.Errorf("qrcode: version: %w", err)
	}
	format := g.format()
	if format == nil {
		return "", errors.New("qrcode: format information: unreadable")
	}
	p, err := readPlanOf(version)
	if err != nil {
		return "", fmt.Errorf("qrcode: codewords: %w", err)
	}
	codewords := p.read(rows, format.GetDataMask())
	level := format.GetErrorCorrectionLevel()
	blocks, err := decoder.DataBlock_GetDataBlocks(codewords, version, level)
	if err != nil {
		return "", fmt.Errorf("qrcode: blocks: %w", err)
	}
	data := codewords[:0] // the blocks hold copies: reuse the space
	for _, b := range blocks {
		data = append(data, b.GetCodewords()[:b.GetNumDataCodewords()]...)
	}
	res, err := decoder.DecodedBitStreamParser_Decode(data, version, level, decodeHints)
	if err != nil {
		return "", fmt.Errorf("qrcode: decoding: %w", err)
	}
	if res == nil {
		return "", errors.New("qrcode: decoding gave no result")
	}
	return res.GetText(), nil
}

var decodeHints = map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_CHARACTER_SET: "UTF-8"}

// grid is a symbol's rows as DecodeRows takes them.
type grid struct {
	n, stride int
	rows      []byte
}

func (g *grid) dark(x, y int) bool {
	return g.rows[y*g.stride+x>>3]&(0x80>>uint(x&7)) != 0
}

// bits appends the modules at the positions xy (x, y pairs), first the
// most significant, to v.
func (g *grid) bits(v uint, xy ...int) uint {
	for i := 0; i+1 < len(xy); i += 2 {
		v <<= 1
		if g.dark(xy[i], xy[i+1]) {
			v |= 1
		}
	}
	return v
}

// format decodes the format information (level and mask), from both of
// its copies (ISO/IEC 18004 §7.9); nil when neither is close to a valid
// one.
func (g *grid) format() *decoder.FormatInformation {
	n := g.n
	// Around the top-left finder: row 8 from the left (skipping the
	// timing column), then column 8 upwards (skipping the timing row).
	a := g.bits(0, 0, 8, 1, 8, 2, 8, 3, 8, 4, 8, 5, 8, 7, 8, 8, 8, 8, 7, 8, 5, 8, 4, 8, 3, 8, 2, 8, 1, 8, 0)
	// Split between the other two finders: column 8 from the bottom, then
	// row 8 from the right-hand finder's left edge.
	var b uint
	for y := n - 1; y >= n-7; y-- {
		b = g.bits(b, 8, y)
	}
	for x := n - 8; x < n; x++ {
		b = g.bits(b, x, 8)
	}
	return decoder.FormatInformation_DecodeFormatInformation(a, b)
}

// version is the symbol's version: from its size up to version 6, from
// the version information (ISO/IEC 18004 §7.10) from 7 on, the top-right
// copy first; the version must match the size.
func (g *grid) version() (*decoder.Version, error) {
	n := g.n
	if v := (n - 17) / 4; v <= 6 {
		return decoder.Version_GetVersionForNumber(v)
	}
	var err error
	for _, corner := range []bool{true, false} {
		var bits uint
		for i := 5; i >= 0; i-- {
			for j := n - 9; j >= n-11; j-- {
				if corner {
					bits = g.bits(bits, j, i) // above the top-right finder
				} else {
					bits = g.bits(bits, i, j) // left of the bottom-left one
				}
			}
		}
		var v *decoder.Version
		if v, err = decoder.Version_decodeVersionInformation(int(bits)); err == nil && v != nil && v.GetDimensionForVersion() == n {
			return v, nil
		}
	}
	if err == nil {
		err = errors.New("the version information does not match the size")
	}
	return nil, err
}

// readPlan is where one version's codewords are: for each codeword bit,
// in reading order, the byte of the rows holding its module and the shift
// of the module in it (pos[i] = byte<<3 | shift), and for each mask the
// codewords of the mask's pattern alone, which the modules are XORed with.
type readPlan struct {
	total int
	pos   []uint32
	mask  [8][]byte
}

// readPlans holds the readPlan of each version met.
var readPlans [41]struct {
	once sync.Once
	p    *readPlan
	err  error
}

func readPlanOf(v *decoder.Version) (*readPlan, error) {
	e := &readPlans[v.GetVersionNumber()]
	e.once.Do(func() { e.p, e.err = newReadPlan(v) })
	return e.p, e.err
}

// read returns the codewords of rows, unmasked with mask.
func (p *readPlan) read(rows []byte, mask byte) []byte {
	out := make([]byte, p.total)
	m := p.mask[mask&7]
	pos := p.pos[:8*p.total]
	for c := range out {
		q := pos[8*c : 8*c+8]
		var b byte
		for _, at := range q {
			b = b<<1 | rows[at>>3]>>(at&7)&1
		}
		out[c] = b ^ m[c]
	}
	return out
}

// masked reports whether mask m inverts the module at row i, column j
// (ISO/IEC 18004 §7.8.2, table 10).
func masked(m, i, j int) bool {
	switch m {
	case 0:
		return (i+j)%2 == 0
	case 1:
		return i%2 == 0
	case 2:
		return j%3 == 0
	case 3:
		return (i+j)%3 == 0
	case 4:
		return (i/2+j/3)%2 == 0
	case 5:
		return i*j%2+i*j%3 == 0
	case 6:
		return (i*j%2+i*j%3)%2 == 0
	default:
		return ((i+j)%2+i*j%3)%2 == 0
	}
}

// newReadPlan lays out version v: the function patterns (finders with
// their separators and the format information beside them, timing
// patterns, alignment patterns, version information) are skipped, and the
// rest is read in pairs of columns from the right, upwards and downwards
// in turn, the right-hand module of a pair first, column 6 (the vertical
// timing pattern) left out.
func newReadPlan(v *decoder.Version) (*readPlan, error) {
	n := v.GetDimensionForVersion()
	stride := (n + 7) / 8
	fixed := make([]bool, n*n)
	region := func(left, top, w, h int) {
		for y := top; y < top+h; y++ {
			for x := left; x < left+w; x++ {
				fixed[y*n+x] = true
			}
		}
	}
	region(0, 0, 9, 9)
	region(n-8, 0, 8, 9)
	region(0, n-8, 9, 8)
	centers := v.GetAlignmentPatternCenters()
	last := len(centers) - 1
	for a, cy := range centers {
		for b, cx := range centers {
			if (a == 0 && (b == 0 || b == last)) || (a == last && b == 0) {
				continue // on a finder
			}
			region(cx-2, cy-2, 5, 5)
		}
	}
	region(6, 9, 1, n-17)
	region(9, 6, n-17, 1)
	if v.GetVersionNumber() >= 7 {
		region(n-11, 0, 3, 6)
		region(0, n-11, 6, 3)
	}
	total := v.GetTotalCodewords()
	p := &readPlan{total: total, pos: make([]uint32, 0, 8*total+7)}
	var xy [][2]int
	up := true
	for right := n - 1; right > 0; right -= 2 {
		if right == 6 {
			right--
		}
		for k := range n {
			y := k
			if up {
				y = n - 1 - k
			}
			for x := right; x > right-2; x-- {
				if !fixed[y*n+x] {
					p.pos = append(p.pos, uint32(y*stride+x>>3)<<3|uint32(7-x&7))
					xy = append(xy, [2]int{x, y})
				}
			}
		}
		up = !up
	}
	if len(p.pos) < 8*total {
		return nil, fmt.Errorf("version %d has %d data modules, want %d", v.GetVersionNumber(), len(p.pos), 8*total)
	}
	for m := range p.mask {
		cw := make([]byte, total)
		for i, at := range xy[:8*total] {
			if masked(m, at[1], at[0]) {
				cw[i/8] |= 0x80 >> uint(i%8)
			}
		}
		p.mask[m] = cw
	}
	return p, nil
}
