package render

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
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

// fontFace is DejaVu Sans cut down to glyphRanges once per process: the
// full face is 760 kB. A document whose text has a rune outside
// singleByte adds a copy of these bytes as a UTF-8 font (gofpdf parses
// it, embeds the subset of the runes the document uses, and writes into
// it).
var fontFace = sync.OnceValue(func() []byte {
	return gofpdf.UTF8CutFont(bytes.Clone(dejaVuSans), runesOf(glyphRanges))
})

// singleByte is the encoding of the single-byte font most documents use:
// printable ASCII and Latin-1 at their own codes, and in the codes 0x80 to
// 0x9F the signs and punctuation of baseRanges and Windows-1252's. Code
// 0x85 stays unused: gofpdf wraps lines at runes it takes for spaces, and
// U+0085 is one.
var singleByte = func() (enc [256]rune) {
	for c := 0x20; c < 0x7F; c++ {
		enc[c] = rune(c)
	}
	for c := 0xA0; c < 0x100; c++ {
		enc[c] = rune(c)
	}
	extra := "\u20A6\u20AC\u2013\u2014\u2018\u2019\u201C\u201D\u2022\u2026\u2212\u201A\u201E\u2020\u2021\u2030" +
		"\u2039\u203A\u2122\u0152\u0153\u0160\u0161\u017D\u017E\u0178\u0192\u02C6\u02DC"
	c := 0x80
	for _, r := range extra {
		if c == 0x85 {
			c++
		}
		enc[c] = r
		c++
	}
	return enc
}()

// singleByteCode is the code of each rune of singleByte.
var singleByteCode = func() map[rune]byte {
	m := make(map[rune]byte, len(singleByte))
	for c, r := range singleByte {
		if r != 0 {
			m[r] = byte(c)
		}
	}
	return m
}()

// singleByteFont is the definition (JSON) and the compressed font file of
// DejaVu Sans cut down to the runes of singleByte, as a TrueType font of
// that encoding, made once per process with gofpdf.MakeFont. A document
// adds them with AddFontFromBytes: nothing is parsed, cut or compressed
// for it, and it embeds the same 20-odd kB of font.
var singleByteFont = sync.OnceValues(func() (fontBytes, error) {
	dir, err := os.MkdirTemp("", "einvoice-font-")
	if err != nil {
		return fontBytes{}, err
	}
	defer os.RemoveAll(dir)
	var runes, mapping, ref strings.Builder
	for c, r := range singleByte {
		if r == 0 {
			continue
		}
		runes.WriteRune(r)
		name := fmt.Sprintf("uni%04X", r)
		fmt.Fprintf(&mapping, "!%02X U+%04X %s\n", c, r, name)
		if c < 0x80 {
			// The reference encoding shares the ASCII names, so that
			// only the codes from 0x80 on are listed as differences
			// from WinAnsiEncoding.
			fmt.Fprintf(&ref, "!%02X U+%04X %s\n", c, r, name)
		}
	}
	ttf := filepath.Join(dir, "einvoice.ttf")
	files := map[string][]byte{
		ttf:                                gofpdf.UTF8CutFont(bytes.Clone(dejaVuSans), runes.String()),
		filepath.Join(dir, "einvoice.map"): []byte(mapping.String()),
		filepath.Join(dir, "cp1252.map"):   []byte(ref.String()),
	}
	for name, b := range files {
		if err := os.WriteFile(name, b, 0o600); err != nil {
			return fontBytes{}, err
		}
	}
	if err := gofpdf.MakeFont(ttf, filepath.Join(dir, "einvoice.map"), dir, io.Discard, true); err != nil {
		return fontBytes{}, fmt.Errorf("render: font: %w", err)
	}
	var fb fontBytes
	if fb.json, err = os.ReadFile(filepath.Join(dir, "einvoice.json")); err != nil {
		return fontBytes{}, err
	}
	if fb.z, err = os.ReadFile(filepath.Join(dir, "einvoice.z")); err != nil {
		return fontBytes{}, err
	}
	return fb, nil
})

type fontBytes struct{ json, z []byte }

// inSingleByte reports whether s prints with the single-byte font: every
// rune is in singleByte, or is one clean replaces or drops.
func inSingleByte(s string) bool {
	for _, r := range s {
		if r < 0x7F || unprintable(r) {
			continue
		}
		if _, ok := singleByteCode[r]; !ok {
			return false
		}
	}
	return true
}

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

// viewInSingleByte reports whether every string of v prints with the
// single-byte font (the layouts' own words and signs all do).
func viewInSingleByte(v *View) bool {
	return stringsIn(reflect.ValueOf(v).Elem())
}

// stringsIn walks v and reports whether every string in it is
// inSingleByte.
func stringsIn(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return inSingleByte(v.String())
	case reflect.Pointer, reflect.Interface:
		return v.IsNil() || stringsIn(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if !stringsIn(v.Field(i)) {
				return false
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if !stringsIn(v.Index(i)) {
				return false
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if !stringsIn(it.Key()) || !stringsIn(it.Value()) {
				return false
			}
		}
	}
	return true
}
