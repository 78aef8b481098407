package gofpdf

// einvoice: tests of the changes listed in README.md.

import (
	"bytes"
	"math/rand"
	"testing"
)

func TestAliasReplaceIsBytesReplace(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	alphabet := []byte("\x00\x00\x00{nb}x")
	olds := [][]byte{[]byte("{nb}"), []byte("\x00{\x00n\x00b\x00}"), []byte("\x00\x00"), []byte("\x00\x00{"), []byte("x")}
	news := [][]byte{nil, []byte("1"), []byte("\x001\x002")}
	for i := 0; i < 20000; i++ {
		b := make([]byte, rnd.Intn(40))
		for j := range b {
			b[j] = alphabet[rnd.Intn(len(alphabet))]
		}
		old, new := olds[rnd.Intn(len(olds))], news[rnd.Intn(len(news))]
		got, ok := aliasReplace(b, old, new)
		if want := bytes.Replace(b, old, new, -1); !bytes.Equal(got, want) || ok != bytes.Contains(b, old) {
			t.Fatalf("aliasReplace(%q, %q, %q) = %q, %v; want %q, %v", b, old, new, got, ok, want, bytes.Contains(b, old))
		}
	}
}

func TestRGBColorValueIsSprintf(t *testing.T) {
	for _, c := range [][3]int{{0, 0, 0}, {255, 255, 255}, {33, 37, 41}, {1, 2, 3}, {-5, 300, 128}} {
		for _, gray := range []string{"", "g"} {
			got := rgbColorValue(c[0], c[1], c[2], gray, "rg").str
			clr := colorType{}
			clr.ir, clr.r = colorComp(c[0])
			clr.ig, clr.g = colorComp(c[1])
			clr.ib, clr.b = colorComp(c[2])
			var want string
			switch {
			case gray == "":
				want = sprintf("%.3f %.3f %.3f", clr.r, clr.g, clr.b)
			case clr.ir == clr.ig && clr.r == clr.b:
				want = sprintf("%.3f %s", clr.r, gray)
			default:
				want = sprintf("%.3f %.3f %.3f %s", clr.r, clr.g, clr.b, "rg")
			}
			if got != want {
				t.Errorf("rgbColorValue(%v, %q) = %q, want %q", c, gray, got, want)
			}
		}
	}
}
