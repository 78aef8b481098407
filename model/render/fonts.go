package render

import (
	"bytes"
	_ "embed"
	"strings"
	"sync"

	"github.com/jung-kurt/gofpdf"
)

// The documents use DejaVu Sans from Debian's fonts-dejavu-core (2.37):
// its licence (fonts/LICENSE, the Bitstream Vera terms) allows embedding
// and redistribution, and it has the naira sign. Bold text is drawn from
// the same face (see doc.font).
//
//go:embed fonts/DejaVuSans.ttf
var dejaVuSans []byte

// fontFamily is the name the documents set their font by.
const fontFamily = "dejavu"

// glyphRanges are the characters the documents can show: Latin (with the
// letters of Yoruba, Igbo and Hausa names: Latin Extended-A and -B, IPA
// hooks, combining marks, Latin Extended Additional), general punctuation,
// currency signs and a few letter-like symbols. Others print as a box.
var glyphRanges = [][2]rune{
	{0x0020, 0x007E},
	{0x00A0, 0x036F},
	{0x1E00, 0x1EFF},
	{0x2010, 0x205E},
	{0x20A0, 0x20C0},
	{0x2100, 0x2122},
	{0x2190, 0x2193},
	{0x2212, 0x2212},
	{0x25A0, 0x25CF},
}

// fontFace is DejaVu Sans cut down to glyphRanges, once per process: the
// full face is 760 kB, which every document would otherwise parse and
// subset whole. gofpdf writes into the bytes it subsets, so callers copy
// them.
var fontFace = sync.OnceValue(func() []byte {
	var set strings.Builder
	for _, r := range glyphRanges {
		for c := r[0]; c <= r[1]; c++ {
			set.WriteRune(c)
		}
	}
	return gofpdf.UTF8CutFont(bytes.Clone(dejaVuSans), set.String())
})
