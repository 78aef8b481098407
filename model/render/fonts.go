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

// baseRanges are in every document's font subset: printable ASCII and the
// signs and punctuation the layouts and amounts use (no-break space, pound,
// middle dot, multiplication sign, dashes, quotes, bullet, ellipsis, naira,
// euro, minus). A document using others (a Yoruba, Igbo or Hausa name, an
// accented letter) embeds the blocks of fontBlock runes holding them too.
var baseRanges = [][2]rune{
	{0x0020, 0x007E},
	{0x00A0, 0x00A0},
	{0x00A3, 0x00A3},
	{0x00B7, 0x00B7},
	{0x00D7, 0x00D7},
	{0x2013, 0x2014},
	{0x2018, 0x2019},
	{0x201C, 0x201D},
	{0x2022, 0x2022},
	{0x2026, 0x2026},
	{0x20A6, 0x20A6},
	{0x20AC, 0x20AC},
	{0x2212, 0x2212},
}

// fontBlock is the size of the blocks runes outside the base are embedded
// by: documents using different letters of one block share a subset.
const fontBlock = 32

// fontSubsets is how many font subsets (the base runes plus some blocks)
// the process keeps: about 22 kB with the base runes only, 105 kB with
// every block of glyphRanges, so at most about 7 MB in all.
const fontSubsets = 64

// fontFace is DejaVu Sans cut down to glyphRanges and parsed once per
// process: the full face is 760 kB. Documents share its finished subsets
// (see gofpdf.PreparedUTF8Font): most of them use base runes only, and
// none parses, cuts or compresses the face again.
var fontFace = sync.OnceValues(func() (*gofpdf.PreparedUTF8Font, error) {
	cut := gofpdf.UTF8CutFont(bytes.Clone(dejaVuSans), runesOf(glyphRanges))
	return gofpdf.NewPreparedUTF8Font(cut, runesOf(baseRanges), fontBlock, fontSubsets)
})

// runesOf spells out ranges of runes.
func runesOf(ranges [][2]rune) string {
	var set strings.Builder
	for _, r := range ranges {
		for c := r[0]; c <= r[1]; c++ {
			set.WriteRune(c)
		}
	}
	return set.String()
}
