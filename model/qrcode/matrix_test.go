package qrcode

import (
	"strings"
	"testing"

	"rsc.io/qr/coding"
)

// Modules picks the version Image picks, draws the finder patterns where
// they belong, and keeps the mask of lowest penalty.
func TestModules(t *testing.T) {
	payload := strings.Repeat("Vg3qwe9YqWdcTRz4S2n1ZgsZ0rX8Ao+u0M3qFq1t", 8) + "Oq7o5dJ0m3jv3u3PPH2Q0xv8=" // 345 characters, like a QR payload
	m, err := Modules(payload)
	if err != nil {
		t.Fatal(err)
	}
	img, err := Image(payload, -1)
	if err != nil {
		t.Fatal(err)
	}
	const quiet = 4
	if want := img.Bounds().Dx() - 2*quiet; m.Size != want {
		t.Fatalf("size %d, want %d (the version Image picks)", m.Size, want)
	}
	// Finder patterns: a dark 7×7 ring, a light ring, a dark 3×3 core.
	for _, c := range [][2]int{{0, 0}, {m.Size - 7, 0}, {0, m.Size - 7}} {
		for dy := range 7 {
			for dx := range 7 {
				ring := dx == 0 || dy == 0 || dx == 6 || dy == 6
				core := dx >= 2 && dx <= 4 && dy >= 2 && dy <= 4
				if want := ring || core; m.Dark(c[0]+dx, c[1]+dy) != want {
					t.Fatalf("finder at %v: module (%d,%d) dark=%v", c, dx, dy, !want)
				}
			}
		}
	}
	best := m.penalty()
	scores := make([]int, 8)
	for mask := range coding.Mask(8) {
		p, err := plan(coding.Version((m.Size-17)/4), mask)
		if err != nil {
			t.Fatal(err)
		}
		c, err := p.Encode(coding.String(payload))
		if err != nil {
			t.Fatal(err)
		}
		other := Matrix{Size: c.Size, stride: c.Stride, bits: c.Bitmap}
		scores[mask] = other.penalty()
		if scores[mask] < best {
			t.Errorf("mask %d scores %d, below the chosen one's %d", mask, scores[mask], best)
		}
	}
	same := true
	for _, s := range scores {
		same = same && s == scores[0]
	}
	if same {
		t.Errorf("every mask scores %d: the penalty does not tell them apart", scores[0])
	}
}

func TestModulesTooLong(t *testing.T) {
	if _, err := Modules(strings.Repeat("x", 1300)); err == nil {
		t.Fatal("1300 bytes at level H: want an error")
	}
}

// BenchmarkModules encodes a QR payload of the usual length.
func BenchmarkModules(b *testing.B) {
	payload := strings.Repeat("Vg3qwe9YqWdcTRz4S2n1ZgsZ0rX8Ao+u0M3qFq1t", 8) + "Oq7o5dJ0m3jv3u3PPH2Q0xv8="
	for b.Loop() {
		if _, err := Modules(payload); err != nil {
			b.Fatal(err)
		}
	}
}

// Modules encodes once and derives the other masks' symbols: each must be
// the symbol a full encoding under that mask gives, for contents of many
// lengths (versions met first by one content and then by others) and
// modes, and the chosen one must be the one of lowest penalty.
func TestModulesMatchFullEncodings(t *testing.T) {
	var contents []string
	for _, n := range []int{1, 7, 30, 31, 90, 200, 344, 345, 346, 500} {
		contents = append(contents,
			strings.Repeat("Vg3q+/=9", n)[:n],   // bytes
			strings.Repeat("0123456789", n)[:n], // numeric
			strings.Repeat("ABC $%*+-./:", n)[:n])
	}
	for _, content := range contents {
		got, err := Modules(content)
		if err != nil {
			t.Fatalf("%q: %v", content, err)
		}
		var enc coding.Encoding = coding.String(content)
		if coding.Num(content).Check() == nil {
			enc = coding.Num(content)
		} else if coding.Alpha(content).Check() == nil {
			enc = coding.Alpha(content)
		}
		v := coding.Version((got.Size - 17) / 4)
		bestScore := -1
		var want Matrix
		for mask := range coding.Mask(8) {
			p, err := coding.NewPlan(v, coding.H, mask)
			if err != nil {
				t.Fatal(err)
			}
			c, err := p.Encode(enc)
			if err != nil {
				t.Fatal(err)
			}
			m := Matrix{Size: c.Size, stride: c.Stride, bits: c.Bitmap}
			if s := m.penalty(); bestScore < 0 || s < bestScore {
				want, bestScore = m, s
			}
		}
		if got.Size != want.Size || string(got.bits) != string(want.bits) {
			t.Fatalf("%d characters %.10q...: the derived symbol differs from the full encoding of lowest penalty", len(content), content)
		}
	}
}

// The penalty, scored on bits, equals the rules counted module by module.
func TestPenaltyMatchesModuleByModule(t *testing.T) {
	for _, n := range []int{1, 30, 120, 345, 700, 1200} {
		content := strings.Repeat("Vg3q+/=9xZ", n)[:n]
		for mask := range coding.Mask(8) {
			v := coding.Version(coding.MinVersion)
			for coding.String(content).Bits(v) > v.DataBytes(coding.H)*8 {
				v++
			}
			p, err := coding.NewPlan(v, coding.H, mask)
			if err != nil {
				t.Fatal(err)
			}
			c, err := p.Encode(coding.String(content))
			if err != nil {
				t.Fatal(err)
			}
			m := Matrix{Size: c.Size, stride: c.Stride, bits: c.Bitmap}
			if got, want := m.penalty(), referencePenalty(&m); got != want {
				t.Errorf("version %d mask %d: penalty %d, counted module by module %d", v, mask, got, want)
			}
		}
	}
}

// referencePenalty counts ISO/IEC 18004 §7.8.3.1's rules module by module.
func referencePenalty(m *Matrix) int {
	n := m.Size
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
	lines := func(grid []byte) int {
		score := 0
		for y := range n {
			line := grid[y*n : (y+1)*n]
			run := 1
			var bits uint16
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
	score := lines(rows) + lines(cols)
	for y := 0; y+1 < n; y++ {
		r0, r1 := rows[y*n:(y+1)*n], rows[(y+1)*n:(y+2)*n]
		for x := 0; x+1 < n; x++ {
			if d := r0[x]; r0[x+1] == d && r1[x] == d && r1[x+1] == d {
				score += 3
			}
		}
	}
	dev := total*100/(n*n) - 50
	if dev < 0 {
		dev = -dev
	}
	return score + dev/5*10
}

// scoreMasked, counted to the end, is the penalty of the symbol under that
// mask, and gives up exactly when the penalty reaches its limit.
func TestScoreMaskedIsThePenalty(t *testing.T) {
	for _, n := range []int{10, 120, 345, 900} {
		content := strings.Repeat("q8P+/x=0Az", n)[:n]
		m, err := Modules(content)
		if err != nil {
			t.Fatal(err)
		}
		v := coding.Version((m.Size - 17) / 4)
		vm, err := masksOf(v, coding.String(content))
		if err != nil {
			t.Fatal(err)
		}
		p, err := plan(v, 0)
		if err != nil {
			t.Fatal(err)
		}
		c, err := p.Encode(coding.String(content))
		if err != nil {
			t.Fatal(err)
		}
		base := toLines(c.Bitmap, c.Stride, c.Size)
		for mask := range 8 {
			bits := make([]byte, len(c.Bitmap))
			for i := range bits {
				bits[i] = c.Bitmap[i] ^ vm.diff[mask][i]
			}
			full := Matrix{Size: c.Size, stride: c.Stride, bits: bits}
			want := full.penalty()
			if got, ok := scoreMasked(&base, &vm.lines[mask], c.Size, want+1); !ok || got != want {
				t.Errorf("%d characters, mask %d: scoreMasked %d (%v), penalty %d", n, mask, got, ok, want)
			}
			if _, ok := scoreMasked(&base, &vm.lines[mask], c.Size, want); ok {
				t.Errorf("%d characters, mask %d: not given up at its own penalty", n, mask)
			}
		}
	}
}
