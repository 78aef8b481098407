package qrcode

import (
	"errors"
	"fmt"
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

// Modules encodes content as a QR code at error correction level H, in the
// smallest version and mode that hold it and with the mask of lowest
// penalty (ISO/IEC 18004 §7.8.3), like PNG and Image, but as a matrix of
// modules for vector drawing. The layout of each version and mask is
// computed once per process, so an encoding costs its Reed-Solomon blocks,
// eight placements and their penalties: about a twentieth of Image's.
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
	var best Matrix
	bestScore := -1
	for mask := range coding.Mask(8) {
		p, err := plan(v, mask)
		if err != nil {
			return Matrix{}, fmt.Errorf("qrcode: %w", err)
		}
		c, err := p.Encode(enc)
		if err != nil {
			return Matrix{}, fmt.Errorf("qrcode: %w", err)
		}
		m := Matrix{Size: c.Size, stride: c.Stride, bits: c.Bitmap}
		if s := m.penalty(); bestScore < 0 || s < bestScore {
			best, bestScore = m, s
		}
	}
	return best, nil
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

// penalty scores a masked symbol by the four rules of ISO/IEC 18004
// §7.8.3.1: runs of five or more modules of one colour in a row or column,
// 2×2 blocks of one colour, finder-like 1:1:3:1:1 patterns with four light
// modules on one side, and the imbalance of dark and light.
func (m *Matrix) penalty() int {
	n := m.Size
	// rows[y*n+x] and cols[x*n+y] are 1 for a dark module.
	rows, cols := make([]byte, n*n), make([]byte, n*n)
	total := 0
	for y := range n {
		for x := range n {
			if m.Dark(x, y) {
				rows[y*n+x], cols[x*n+y] = 1, 1
				total++
			}
		}
	}
	score := lineScore(rows, n) + lineScore(cols, n)
	for y := 0; y+1 < n; y++ {
		r0, r1 := rows[y*n:(y+1)*n], rows[(y+1)*n:(y+2)*n]
		for x := 0; x+1 < n; x++ {
			if d := r0[x]; r0[x+1] == d && r1[x] == d && r1[x+1] == d {
				score += 3
			}
		}
	}
	percent := total * 100 / (n * n)
	dev := percent - 50
	if dev < 0 {
		dev = -dev
	}
	return score + dev/5*10
}

// lineScore is the penalty of rules 1 and 3 along the lines of grid (n
// lines of n modules).
func lineScore(grid []byte, n int) int {
	score := 0
	for y := range n {
		line := grid[y*n : (y+1)*n]
		run := 1
		var bits uint16 // the last 11 modules, newest lowest
		for x, d := range line {
			if x > 0 {
				if d == line[x-1] {
					run++
				} else {
					if run >= 5 {
						score += run - 2
					}
					run = 1
				}
			}
			bits = (bits<<1 | uint16(d)) & 0x7FF
			// 1011101 0000 or 0000 1011101 within the symbol.
			if x >= 10 && (bits == 0x5D0 || bits == 0x05D) {
				score += 40
			}
		}
		if run >= 5 {
			score += run - 2
		}
	}
	return score
}
