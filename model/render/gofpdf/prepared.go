package gofpdf

// einvoice: this file is not part of upstream gofpdf v1.16.2 (see README.md).

import (
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// utf8SubsetType is what a document embeds of a UTF-8 font: the subset font
// file (compressed), its length before compression, the /W entry of the
// CID font and its CIDToGIDMap (compressed).
type utf8SubsetType struct {
	fontFile []byte
	length1  int
	widths   string
	cidToGID []byte
}

// newUTF8Subset cuts the parsed font file down to usedRunes, as upstream's
// putfonts did inline. It changes utf8File, and it deletes rune 0 from
// usedRunes.
func newUTF8Subset(utf8File *utf8FontFile, cw []int, usedRunes map[int]int) *utf8SubsetType {
	delete(usedRunes, 0)
	stream := utf8File.GenerateCutFont(usedRunes)
	sub := &utf8SubsetType{length1: len(stream), fontFile: sliceCompress(stream)}
	codeSignDictionary := utf8File.CodeSymbolDictionary
	delete(codeSignDictionary, 0)
	sub.widths = cidFontWidths(&fontDefType{Cw: cw, usedRunes: usedRunes}, utf8File.LastRune)
	cidToGidMap := make([]byte, 256*256*2)
	for cc, glyph := range codeSignDictionary {
		cidToGidMap[cc*2] = byte(glyph >> 8)
		cidToGidMap[cc*2+1] = byte(glyph & 0xFF)
	}
	sub.cidToGID = sliceCompress(cidToGidMap)
	return sub
}

// PreparedUTF8Font is a UTF-8 (TrueType) font parsed once for any number of
// documents, which may be generated concurrently. A document embeds a
// subset holding the prepared font's base runes plus every rune of each
// block (of consecutive runes, aligned) holding another rune it uses. The
// finished subsets are kept, keyed by those blocks, in a cache of bounded
// size, so that documents using only base runes, or runes of the same few
// blocks, share one subset: nothing is parsed, cut or compressed for them.
type PreparedUTF8Font struct {
	ttf   []byte
	def   fontDefType // metrics and widths, without a name, id or runes
	base  map[int]int
	block int
	max   int

	mu      sync.Mutex
	ids     map[string]string // font key -> font id
	subsets map[string]*utf8SubsetType
	order   []string // keys of subsets, oldest first
}

// NewPreparedUTF8Font parses the UTF-8 (TrueType) font utf8Bytes (which it
// copies). Every subset holds the runes of base, other runes are added by
// blocks of block runes (at least one), and up to cacheSize subsets are
// kept (at least one).
func NewPreparedUTF8Font(utf8Bytes []byte, base string, block, cacheSize int) (*PreparedUTF8Font, error) {
	ttf := append([]byte(nil), utf8Bytes...)
	utf8File, err := parseUTF8FontFile(ttf)
	if err != nil {
		return nil, err
	}
	if cacheSize < 1 {
		cacheSize = 1
	}
	if block < 1 {
		block = 1
	}
	p := &PreparedUTF8Font{
		ttf: ttf,
		def: fontDefType{
			Tp: "UTF8",
			Desc: FontDescType{
				Ascent:       int(utf8File.Ascent),
				Descent:      int(utf8File.Descent),
				CapHeight:    utf8File.CapHeight,
				Flags:        utf8File.Flags,
				FontBBox:     utf8File.Bbox,
				ItalicAngle:  utf8File.ItalicAngle,
				StemV:        utf8File.StemV,
				MissingWidth: round(utf8File.DefaultWidth),
			},
			Up: int(round(utf8File.UnderlinePosition)),
			Ut: round(utf8File.UnderlineThickness),
			Cw: utf8File.CharWidths,
		},
		base:    make(map[int]int),
		block:   block,
		max:     cacheSize,
		ids:     make(map[string]string),
		subsets: make(map[string]*utf8SubsetType),
	}
	for _, r := range base {
		if r > 0 {
			p.base[int(r)] = int(r)
		}
	}
	return p, nil
}

// parseUTF8FontFile parses a copy of ttf: subsetting writes into the bytes
// it reads.
func parseUTF8FontFile(ttf []byte) (*utf8FontFile, error) {
	reader := fileReader{readerPosition: 0, array: append([]byte(nil), ttf...)}
	utf8File := newUTF8Font(&reader)
	if err := utf8File.parseFile(); err != nil {
		return nil, err
	}
	if utf8File.CharWidths == nil {
		return nil, errors.New("gofpdf: not a UTF-8 TrueType font")
	}
	return utf8File, nil
}

// AddPreparedUTF8Font makes the prepared font available as family and
// style, like AddUTF8FontFromBytes but without parsing it again.
func (f *Fpdf) AddPreparedUTF8Font(familyStr, styleStr string, p *PreparedUTF8Font) {
	if f.err != nil {
		return
	}
	fontkey := getFontKey(familyStr, styleStr)
	if _, ok := f.fonts[fontkey]; ok {
		return
	}
	def := p.def
	def.Name = fontkey
	def.i = p.id(def)
	if f.aliasNbPagesStr == "" {
		def.usedRunes = makeSubsetRange(57)
	} else {
		def.usedRunes = makeSubsetRange(32)
	}
	def.prepared = p
	f.fonts[fontkey] = def
}

// id is the font id AddUTF8FontFromBytes would give def.
func (p *PreparedUTF8Font) id(def fontDefType) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	id, ok := p.ids[def.Name]
	if !ok {
		id, _ = generateFontID(def)
		p.ids[def.Name] = id
	}
	return id
}

// subset returns the subset of the base runes and the blocks of the other
// runes of usedRunes, from the cache when it holds it. Runes mapped to 0
// are unused.
func (p *PreparedUTF8Font) subset(usedRunes map[int]int) (*utf8SubsetType, error) {
	var blocks []int // first rune of each block, sorted
	for r, v := range usedRunes {
		if _, ok := p.base[r]; ok || r <= 0 || v == 0 {
			continue
		}
		b := r - r%p.block
		i := sort.SearchInts(blocks, b)
		if i == len(blocks) || blocks[i] != b {
			blocks = append(blocks, 0)
			copy(blocks[i+1:], blocks[i:])
			blocks[i] = b
		}
	}
	var key strings.Builder
	for _, b := range blocks {
		key.WriteString(strconv.Itoa(b))
		key.WriteByte(',')
	}
	k := key.String()
	p.mu.Lock()
	sub, ok := p.subsets[k]
	p.mu.Unlock()
	if ok {
		return sub, nil
	}
	runes := make(map[int]int, len(p.base)+len(blocks)*p.block)
	for r := range p.base {
		runes[r] = r
	}
	for _, b := range blocks {
		for r := b; r < b+p.block; r++ {
			if r > 0 {
				runes[r] = r
			}
		}
	}
	utf8File, err := parseUTF8FontFile(p.ttf)
	if err != nil {
		return nil, err
	}
	sub = newUTF8Subset(utf8File, utf8File.CharWidths, runes)
	p.mu.Lock()
	defer p.mu.Unlock()
	if old, ok := p.subsets[k]; ok {
		return old, nil
	}
	if len(p.order) >= p.max {
		delete(p.subsets, p.order[0])
		p.order = p.order[1:]
	}
	p.subsets[k] = sub
	p.order = append(p.order, k)
	return sub, nil
}
