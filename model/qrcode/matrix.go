package qrcode

import (
	"errors"
	"fmt"
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
	// difference: the symbol is unpacked and transposed once.
	n := c.Size
	base := toLines(c.Bitmap, c.Stride, n)
	bestMask, bestScore := 0, scoreLines(&base, n)
	cand := lines{rows: make([]line, n), cols: make([]line, n)}
	for mask := 1; mask < 8; mask++ {
		d := &vm.lines[mask]
		for i := range n {
			cand.rows[i] = xor(base.rows[i], d.rows[i])
			cand.cols[i] = xor(base.cols[i], d.cols[i])
		}
		if s := scoreLines(&cand, n); s < bestScore {
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
// word x>>6: the largest symbol (version 40) is 177 modules wide.
type line [3]uint64

// shr returns l moved k modules towards 0 (0 < k < 64): bit x of the
// result is module x+k.
func (l *line) shr(k uint) line {
	return line{l[0]>>k | l[1]<<(64-k), l[1]>>k | l[2]<<(64-k), l[2] >> k}
}

// shl1 returns l moved one module away from 0: bit x of the result is
// module x-1.
func (l *line) shl1() line {
	return line{l[0] << 1, l[1]<<1 | l[0]>>63, l[2]<<1 | l[1]>>63}
}

// ones returns a line whose first n modules are set.
func ones(n int) line {
	var l line
	for w := range l {
		switch {
		case n >= 64*(w+1):
			l[w] = ^uint64(0)
		case n > 64*w:
			l[w] = 1<<uint(n-64*w) - 1
		}
	}
	return l
}

func (l *line) count() int {
	return bits.OnesCount64(l[0]) + bits.OnesCount64(l[1]) + bits.OnesCount64(l[2])
}

// lines is a symbol as bits: its rows and its columns.
type lines struct{ rows, cols []line }

// toLines unpacks a bitmap of n×n modules (stride bytes a row, module 0 in
// a byte's high bit) into rows and columns.
func toLines(bitmap []byte, stride, n int) lines {
	ls := lines{rows: make([]line, n), cols: make([]line, n)}
	for y := range n {
		var r line
		for i, b := range bitmap[y*stride : y*stride+(n+7)/8] {
			r[i>>3] |= uint64(bits.Reverse8(b)) << (8 * uint(i&7))
		}
		r = and(r, ones(n))
		ls.rows[y] = r
		for w, word := range r {
			for word != 0 {
				x := 64*w + bits.TrailingZeros64(word)
				word &= word - 1
				ls.cols[x][y>>6] |= 1 << uint(y&63)
			}
		}
	}
	return ls
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
	rows, cols := ls.rows[:n], ls.cols[:n]
	total := 0
	score := 0
	for i := range n {
		total += rows[i].count()
		score += lineScore(&rows[i], n) + lineScore(&cols[i], n)
	}
	// Rule 2: each 2×2 block of one colour.
	pairs := ones(n - 1)
	for y := 0; y+1 < n; y++ {
		r0, r1 := &rows[y], &rows[y+1]
		s0, s1 := r0.shr(1), r1.shr(1)
		var same line
		for w := range same {
			same[w] = ^(r0[w] ^ r1[w]) & ^(r0[w] ^ s0[w]) & ^(r1[w] ^ s1[w]) & pairs[w]
		}
		score += 3 * same.count()
	}
	percent := total * 100 / (n * n)
	dev := percent - 50
	if dev < 0 {
		dev = -dev
	}
	return score + dev/5*10
}

func xor(a, b line) line { return line{a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2]} }

func and(a, b line) line { return line{a[0] & b[0], a[1] & b[1], a[2] & b[2]} }

// lineScore is the penalty of rules 1 and 3 along l, a line of n modules.
func lineScore(l *line, n int) int {
	score := 0
	// Rule 1: runs of five or more, run-2 each. same has bit x where
	// modules x to x+4 are of one colour: L-4 bits for a run of L, in one
	// group per run, so a run's penalty is its bits plus 2 for its group.
	next := l.shr(1)
	eq := ones(n - 1)
	for w := range eq {
		eq[w] &^= l[w] ^ next[w]
	}
	e1, e2, e3 := eq.shr(1), eq.shr(2), eq.shr(3)
	var same, first line
	for w := range same {
		same[w] = eq[w] & e1[w] & e2[w] & e3[w]
	}
	prev := same.shl1()
	for w := range first {
		first[w] = same[w] &^ prev[w]
	}
	score += same.count() + 2*first.count()
	// Rule 3: the finder-like sequences, at every start they fit from:
	// core has bit x where dark, light, three dark, light, dark begin at x,
	// light4 where four light modules do.
	if n >= 11 {
		s1, s2, s3 := l.shr(1), l.shr(2), l.shr(3)
		s4, s5, s6 := l.shr(4), l.shr(5), l.shr(6)
		var core, light4 line
		for w := range core {
			core[w] = l[w] &^ s1[w] & s2[w] & s3[w] & s4[w] &^ s5[w] & s6[w]
			light4[w] = ^(l[w] | s1[w] | s2[w] | s3[w])
		}
		fit := ones(n - 10)
		after, before := light4.shr(7), core.shr(4)
		var a, b line
		for w := range a {
			a[w] = core[w] & after[w] & fit[w]
			b[w] = light4[w] & before[w] & fit[w]
		}
		score += 40 * (a.count() + b.count())
	}
	return score
}
