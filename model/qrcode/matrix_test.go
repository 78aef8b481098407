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
