package qrcode

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sync"

	"rsc.io/qr/coding"
)

// Matrix is a QR code as modules, without quiet zone: Dark(x, y) for x and
// y in [0, Size).
type Matrix struct {
	Size   int
	stride int
	bits   []byte
}

// Dark reports whether the module at column x, row y is dark.
func (m *Matrix) Dark(x, y int) bool {
	return m.bits[y*m.stride+x/8]&(1<<uint(7-x&7)) != 0
}

// Row returns row y of the modules, module 0 in the high bit of the first
// byte, 1 for dark: (Size+7)/8 bytes, the bits past Size meaning nothing.
// It is the matrix's memory: the caller must not change it.
func (m *Matrix) Row(y int) []byte {
	return m.bits[y*m.stride : y*m.stride+(m.Size+7)/8]
}

// Modules encodes content as a QR code at error correction level H, in the
// smallest version and mode that hold it and with the mask of lowest
// penalty (ISO/IEC 18004 §7.8.3), like PNG and Image, but as a matrix of
// modules for drawing in documents. The content is encoded once, with mask 0:
// the other seven symbols differ from it by a pattern that depends on the
// version and mask only (the mask over the data modules and the format
// bits), computed once per process, so an encoding costs one set of
// Reed-Solomon blocks, one placement and eight penalties.
func Modules(content string) (Matrix, error) {
	var enc coding.Encoding
	switch {
	case coding.Num(content).Check() == nil:
		enc = coding.Num(content)
	case coding.Alpha(content).Check() == nil:
		enc = coding.Alpha(content)
	default:
		enc = coding.String(content)
	}
	v := coding.Version(coding.MinVersion)
	for ; enc.Bits(v) > v.DataBytes(coding.H)*8; v++ {
		if v == coding.MaxVersion {
			return Matrix{}, errors.New("qrcode: content too long for a QR code at level H")
		}
	}
	vm, err := masksOf(v, enc)
	if err != nil {
		return Matrix{}, err
	}
	p, err := plan(v, 0)
	if err != nil {
		return Matrix{}, fmt.Errorf("qrcode: %w", err)
	}
	c, err := p.Encode(enc)
	if err != nil {
		return Matrix{}, fmt.Errorf("qrcode: %w", err)
	}
	// Each mask's rows and columns are those of mask 0 XOR the version's
	// difference: the symbol is unpacked and transposed once. A mask's
	// score only grows as its lines are counted, so counting stops once it
	// reaches the best so far (the first mask of lowest penalty wins, as
	// in a full count).
	n := c.Size
	base := toLines(c.Bitmap, c.Stride, n)
	bestMask, bestScore := 0, scoreLines(&base, n)
	for mask := 1; mask < 8; mask++ {
		if s, ok := scoreMasked(&base, &vm.lines[mask], n, bestScore); ok {
			bestMask, bestScore = mask, s
		}
	}
	best := Matrix{Size: n, stride: c.Stride, bits: c.Bitmap}
	if bestMask != 0 {
		for i, d := range vm.diff[bestMask] {
			best.bits[i] ^= d
		}
	}
	return best, nil
}

// versionMasks holds, for one version at level H, what turns the symbol
// of some content under mask 0 into its symbol under each mask: diff[m] is
// symbol(m) XOR symbol(0), the same for every content (Reed-Solomon coding
// and placement are linear; masking and the format bits depend on the
// mask alone).
type versionMasks struct {
	diff  [8][]byte
	lines [8]lines // diff as rows and columns
}

// masks holds the versionMasks of each version met.
var masks sync.Map // coding.Version -> *versionMasks

// masksOf returns version v's versionMasks, computing them from enc (any
// content that fits v) the first time.
func masksOf(v coding.Version, enc coding.Encoding) (*versionMasks, error) {
	if vm, ok := masks.Load(v); ok {
		return vm.(*versionMasks), nil
	}
	vm := new(versionMasks)
	var base []byte
	for mask := range coding.Mask(8) {
		p, err := plan(v, mask)
		if err != nil {
			return nil, fmt.Errorf("qrcode: %w", err)
		}
		c, err := p.Encode(enc)
		if err != nil {
			return nil, fmt.Errorf("qrcode: %w", err)
		}
		if mask == 0 {
			base = c.Bitmap
		}
		d := make([]byte, len(base))
		for i := range d {
			d[i] = c.Bitmap[i] ^ base[i]
		}
		vm.diff[mask] = d
		vm.lines[mask] = toLines(d, c.Stride, c.Size)
	}
	masks.Store(v, vm)
	return vm, nil
}

type planKey struct {
	v    coding.Version
	mask coding.Mask
}

// plans holds the layout of each version and mask at level H.
var plans sync.Map // planKey -> *coding.Plan

func plan(v coding.Version, mask coding.Mask) (*coding.Plan, error) {
	if p, ok := plans.Load(planKey{v, mask}); ok {
		return p.(*coding.Plan), nil
	}
	p, err := coding.NewPlan(v, coding.H, mask)
	if err != nil {
		return nil, err
	}
	plans.Store(planKey{v, mask}, p)
	return p, nil
}

// line is one row or column of a symbol as bits, module x at bit x&63 of
// word x>>6: the largest symbol (version 40) is 177 modules wide. Its
// words are fields, not an array, so that the compiler keeps them in
// registers.
type line struct{ w0, w1, w2 uint64 }

// word returns word w of l.
func (l *line) word(w int) uint64 {
	switch w {
	case 0:
		return l.w0
	case 1:
		return l.w1
	}
	return l.w2
}

// setWord sets word w of l to v.
func (l *line) setWord(w int, v uint64) {
	switch w {
	case 0:
		l.w0 = v
	case 1:
		l.w1 = v
	default:
		l.w2 = v
	}
}

// shr returns l moved k modules towards 0 (0 < k < 64): bit x of the
// result is module x+k.
func (l line) shr(k uint) line {
	return line{l.w0>>k | l.w1<<(64-k), l.w1>>k | l.w2<<(64-k), l.w2 >> k}
}

// shl1 returns l moved one module away from 0: bit x of the result is
// module x-1.
func (l line) shl1() line {
	return line{l.w0 << 1, l.w1<<1 | l.w0>>63, l.w2<<1 | l.w1>>63}
}

// ones returns a line whose first n modules are set.
func ones(n int) line {
	word := func(w int) uint64 {
		switch {
		case n >= 64*(w+1):
			return ^uint64(0)
		case n > 64*w:
			return 1<<uint(n-64*w) - 1
		}
		return 0
	}
	return line{word(0), word(1), word(2)}
}

func (l line) count() int {
	return bits.OnesCount64(l.w0) + bits.OnesCount64(l.w1) + bits.OnesCount64(l.w2)
}

func xor(a, b line) line    { return line{a.w0 ^ b.w0, a.w1 ^ b.w1, a.w2 ^ b.w2} }
func and(a, b line) line    { return line{a.w0 & b.w0, a.w1 & b.w1, a.w2 & b.w2} }
func andNot(a, b line) line { return line{a.w0 &^ b.w0, a.w1 &^ b.w1, a.w2 &^ b.w2} }
func or(a, b line) line     { return line{a.w0 | b.w0, a.w1 | b.w1, a.w2 | b.w2} }
func not(a line) line       { return line{^a.w0, ^a.w1, ^a.w2} }

// same returns the modules where a and b agree.
func same(a, b line) line { return not(xor(a, b)) }

// lines is a symbol as bits: its rows and its columns.
type lines struct{ rows, cols []line }

// toLines unpacks a bitmap of n×n modules (stride bytes a row, module 0 in
// a byte's high bit) into rows and columns, the columns transposed from
// the rows 64×64 modules at a time.
func toLines(bitmap []byte, stride, n int) lines {
	ls := lines{rows: make([]line, n), cols: make([]line, n)}
	all := ones(n)
	for y := range n {
		var words [3]uint64
		for i, b := range bitmap[y*stride : y*stride+(n+7)/8] {
			words[i>>3] |= uint64(bits.Reverse8(b)) << (8 * uint(i&7))
		}
		ls.rows[y] = and(line{words[0], words[1], words[2]}, all)
	}
	var block [64]uint64
	for by := 0; 64*by < n; by++ {
		for bx := 0; 64*bx < n; bx++ {
			for k := range block {
				block[k] = 0
				if y := 64*by + k; y < n {
					block[k] = ls.rows[y].word(bx)
				}
			}
			transpose64(&block)
			for k := 0; k < 64 && 64*bx+k < n; k++ {
				ls.cols[64*bx+k].setWord(by, block[k])
			}
		}
	}
	return ls
}

// transpose64 transposes a 64×64 matrix of bits, bit x of a[y] being
// the module at (x, y): it swaps the off-diagonal halves, then quarters,
// down to single bits.
func transpose64(a *[64]uint64) {
	m := uint64(0x00000000FFFFFFFF)
	for j := uint(32); j != 0; j, m = j>>1, m^(m<<(j>>1)) {
		for k := uint(0); k < 64; k = (k + j + 1) &^ j {
			t := (a[k]>>j ^ a[k+j]) & m
			a[k] ^= t << j
			a[k+j] ^= t
		}
	}
}

// penalty scores a masked symbol by the four rules of ISO/IEC 18004
// §7.8.3.1: runs of five or more modules of one colour in a row or column,
// 2×2 blocks of one colour, finder-like 1:1:3:1:1 patterns with four light
// modules on one side, and the imbalance of dark and light.
func (m *Matrix) penalty() int {
	ls := toLines(m.bits, m.stride, m.Size)
	return scoreLines(&ls, m.Size)
}

// scoreLines is penalty of a symbol of n×n modules as lines. Each line is
// scored as bits, all of its positions at once.
func scoreLines(ls *lines, n int) int {
	s, _ := scoreMasked(ls, nil, n, math.MaxInt)
	return s
}

// scoreMasked is scoreLines of base XOR d (base itself when d is nil),
// counted line by line and given up (false) as soon as it reaches limit:
// a score only grows as lines are counted.
func scoreMasked(base, d *lines, n, limit int) (int, bool) {
	rows, cols := base.rows[:n], base.cols[:n]
	var drows, dcols []line
	if d != nil {
		drows, dcols = d.rows[:n], d.cols[:n]
	}
	m := newMasks(n)
	total, score := 0, 0
	var prev, prevNext line
	for i := range n {
		r, c := rows[i], cols[i]
		if d != nil {
			r, c = xor(r, drows[i]), xor(c, dcols[i])
		}
		total += r.count()
		score += m.lineScore(r) + m.lineScore(c)
		// Rule 2: each 2×2 block of one colour, between this row and the
		// one above.
		next := r.shr(1)
		if i > 0 {
			score += 3 * and(and(same(prev, r), same(prev, prevNext)), and(same(r, next), m.pairs)).count()
		}
		if score >= limit {
			return 0, false
		}
		prev, prevNext = r, next
	}
	// Rule 4: the imbalance of dark and light.
	percent := total * 100 / (n * n)
	dev := percent - 50
	if dev < 0 {
		dev = -dev
	}
	score += dev / 5 * 10
	return score, score < limit
}

// lineMasks are the positions of a line of n modules where a pattern
// starting there fits: pairs (2 modules) and finder-like patterns (11).
type lineMasks struct {
	n             int
	pairs, finder line
}

func newMasks(n int) lineMasks {
	return lineMasks{n: n, pairs: ones(n - 1), finder: ones(n - 10)}
}

// lineScore is the penalty of rules 1 and 3 along l, a line of n modules.
func (m *lineMasks) lineScore(l line) int {
	// Rule 1: runs of five or more, run-2 each. eq has bit x where modules
	// x and x+1 are of one colour, run where modules x to x+4 are: L-4
	// bits for a run of L, in one group per run, so a run's penalty is its
	// bits plus 2 for its group.
	s1 := l.shr(1)
	eq := and(same(l, s1), m.pairs)
	run := and(and(eq, eq.shr(1)), and(eq.shr(2), eq.shr(3)))
	first := andNot(run, run.shl1())
	score := run.count() + 2*first.count()
	// Rule 3: the finder-like sequences, at every start they fit from:
	// core has bit x where dark, light, three dark, light, dark begin at x,
	// light4 where four light modules do.
	if m.n >= 11 {
		s2, s3, s4, s5, s6 := l.shr(2), l.shr(3), l.shr(4), l.shr(5), l.shr(6)
		core := and(andNot(and(andNot(l, s1), and(s2, s3)), s5), and(s4, s6))
		light4 := not(or(or(l, s1), or(s2, s3)))
		a := and(and(core, light4.shr(7)), m.finder)
		b := and(and(light4, core.shr(4)), m.finder)
		score += 40 * (a.count() + b.count())
	}
	return score
}
