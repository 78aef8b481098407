package render

// The drawing primitives every layout uses: the page geometry, colours,
// text and wrapped spans, and the furniture of every page (the banner of an
// invalid invoice, the running header, the footer). Nothing here knows a
// layout: Render picks one (layout.go), which draws with these.

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/einvoice-ng/einvoice/model/render/pdfa"
	"github.com/jung-kurt/gofpdf"
)

// Page geometry in millimetres.
const (
	pageW    = 210.0
	pageH    = 297.0
	margin   = 15.0
	contentW = pageW - 2*margin
	// bottom is the lowest y content may reach; the footer sits below.
	bottom  = pageH - 20
	footerY = pageH - 13
	// qrSide is the printed side of the QR code, quiet zone included.
	// An RSA-2048 payload (344 characters) needs version 20 at level H:
	// 97 modules plus 8 of quiet zone, so a module is 0.51 mm, three
	// pixels of a 150 dpi scan.
	qrSide = 54.0
	// ptToMM converts a font size to millimetres.
	ptToMM = 25.4 / 72
)

type rgb struct{ r, g, b int }

var (
	ink    = rgb{33, 37, 41}
	muted  = rgb{96, 104, 112}
	accent = rgb{0, 98, 65}
	rule   = rgb{206, 212, 218}
	tint   = rgb{232, 243, 237}
	alert  = rgb{176, 28, 36}
	amber  = rgb{148, 96, 0}
	white  = rgb{255, 255, 255}
)

// doc is one document being drawn.
type doc struct {
	f *gofpdf.Fpdf
	v *View
	// tableHeader redraws the header of the table being drawn after a page
	// break; nil outside tables.
	tableHeader func()
	// bold and textColor are the text rendering state (see font).
	bold      bool
	textColor rgb
	// set is what was last given to gofpdf (it writes a font, a colour or a
	// line width into the page again even when it has not changed, and
	// formats colours anew each time); gofpdf carries them over to a new
	// page itself.
	set drawState
	// single is whether the document draws with the single-byte font
	// (every rune of its text is in singleByte) rather than the UTF-8 one.
	single bool
	// meta is what the Info dictionary says, for the XMP metadata.
	meta pdfa.Meta
	// onePage is whether the document is drawn as one page, the page
	// count written as it is rather than as an alias.
	onePage bool
}

func newDoc(v *View, now time.Time, onePage bool) *doc {
	f := gofpdf.NewCustom(&gofpdf.InitType{OrientationStr: "P", UnitStr: "mm", SizeStr: "A4"})
	single := false
	if fb, err := singleByteFont(); err == nil && viewInSingleByte(v) {
		f.AddFontFromBytes(fontFamily, "", fb.json, fb.z)
		single = true
	} else {
		// gofpdf writes into the bytes it is given (the subset's table
		// checksums): each document gets a copy.
		f.AddUTF8FontFromBytes(fontFamily, "", bytes.Clone(fontFace()))
	}
	// Page content is written as is: gofpdf makes a zlib writer (and
	// clears its tables) for every stream it compresses, which was a third
	// of a document's CPU; the font comes compressed once per process.
	// The B2B document is 52 kB this way (37 kB compressed; Chromium's 66).
	f.SetCompression(false)
	f.SetCatalogSort(true)
	f.SetCreationDate(now)
	f.SetModificationDate(now)
	f.SetProducer("einvoice", false)
	f.SetCreator("einvoice", false)
	title := v.Document.Title
	if v.IRN != "" {
		title += " " + v.IRN
	}
	f.SetTitle(title, true)
	if v.Supplier != nil {
		f.SetAuthor(v.Supplier.Name, true)
	}
	f.SetMargins(margin, margin, margin)
	f.SetAutoPageBreak(false, 0)
	f.SetCellMargin(0)
	d := &doc{f: f, v: v, single: single, meta: pdfa.Meta{
		Title: title, Creator: "einvoice", Producer: "einvoice", Created: now, Modified: now}}
	if v.Supplier != nil {
		d.meta.Author = v.Supplier.Name
	}
	f.SetHeaderFunc(d.header)
	// "Page x of y": gofpdf writes an alias for y and substitutes the page
	// count in every page when the document is finished, copying each
	// page three times. A single-byte document is drawn as one page first,
	// y written out (see footer); a second page ends that attempt, and the
	// document is drawn again with the alias.
	d.onePage = onePage && single
	if !d.onePage {
		f.AliasNbPages(pageCountAlias)
	}
	f.SetFooterFuncLpi(d.footer)
	return d
}

// pageCountAlias stands for the page count until a document is finished.
const pageCountAlias = "{nb}"

// errMorePages ends the drawing of a document drawn as one page when it
// needs another.
var errMorePages = errors.New("render: the document needs more than one page")

// Text helpers.

// font selects the face at size. Bold is the regular face filled and then
// stroked with a hairline of the text colour: a second face would double
// the font bytes every document embeds.
func (d *doc) font(style string, size float64) {
	if !d.set.font || d.set.fontSize != size {
		d.f.SetFont(fontFamily, "", size)
		d.set.font, d.set.fontSize = true, size
	}
	bold := style == "B"
	if bold {
		d.lineWidth(size * 0.02)
		d.stroke(d.textColor)
	}
	if bold != d.bold {
		mode := 0
		if bold {
			mode = 2
		}
		d.f.SetTextRenderingMode(mode)
		d.bold = bold
	}
}

// color sets the text colour (and the outline of bold text).
func (d *doc) color(c rgb) {
	d.textColor = c
	if !d.set.text || d.set.textColor != c {
		d.f.SetTextColor(c.r, c.g, c.b)
		d.set.text, d.set.textColor = true, c
	}
	if d.bold {
		d.stroke(c)
	}
}

func (d *doc) fill(c rgb) {
	if !d.set.fill || d.set.fillColor != c {
		d.f.SetFillColor(c.r, c.g, c.b)
		d.set.fill, d.set.fillColor = true, c
	}
}

func (d *doc) stroke(c rgb) {
	if !d.set.draw || d.set.drawColor != c {
		d.f.SetDrawColor(c.r, c.g, c.b)
		d.set.draw, d.set.drawColor = true, c
	}
}

func (d *doc) lineWidth(w float64) {
	if !d.set.width || d.set.lineWidth != w {
		d.f.SetLineWidth(w)
		d.set.width, d.set.lineWidth = true, w
	}
}

// drawState is the font size, colours and line width last set.
type drawState struct {
	font, text, fill, draw, width   bool
	fontSize, lineWidth             float64
	textColor, fillColor, drawColor rgb
}

// pen sets the colour and width of lines; bold text changes both, so every
// line drawn sets its pen first.
func (d *doc) pen(c rgb, w float64) {
	d.stroke(c)
	d.lineWidth(w)
}

// lh is the line height of a font size.
func lh(size float64) float64 { return size * ptToMM * 1.3 }

// cell writes s in a box of w at (x, y) one line high.
func (d *doc) cell(x, y, w float64, size float64, s, align string) {
	d.f.SetXY(x, y)
	s = clean(s)
	if strings.ContainsRune(s, '\n') {
		s = strings.ReplaceAll(s, "\n", " ")
	}
	d.f.CellFormat(w, lh(size), d.encode(s), "", 0, align, false, 0, "")
}

// span is a run of text in one style; layout wraps spans into lines.
type span struct {
	style string
	size  float64
	color rgb
	text  string
	align string
	// gap is extra space above the span.
	gap float64
}

// layout wraps spans to width w: one span per printed line.
func (d *doc) layout(spans []span, w float64) []span {
	out := make([]span, 0, len(spans)+4)
	for _, s := range spans {
		if s.text == "" {
			continue
		}
		d.font(s.style, s.size)
		for i, l := range d.split(clean(s.text), w) {
			ls := s
			ls.text = l
			if i > 0 {
				ls.gap = 0
			}
			out = append(out, ls)
		}
	}
	return out
}

func height(lines []span) float64 {
	h := 0.0
	for _, l := range lines {
		h += l.gap + lh(l.size)
	}
	return h
}

// draw writes laid-out lines from (x, y) and returns the y below them.
func (d *doc) draw(x, y, w float64, lines []span) float64 {
	for _, l := range lines {
		y += l.gap
		d.font(l.style, l.size)
		d.color(l.color)
		d.cell(x, y, w, l.size, l.text, l.align)
		y += lh(l.size)
	}
	return y
}

// fit returns the largest size up to max at which s fits in w on one line.
func (d *doc) fit(style, s string, max, w float64) float64 {
	d.font(style, max)
	if sw := d.f.GetStringWidth(d.encode(clean(s))); sw > w {
		return max * w / sw
	}
	return max
}

// encode is s as the current font takes it: the bytes of its codes in
// singleByte for the single-byte font, UTF-8 for the other.
func (d *doc) encode(s string) string {
	if !d.single || ascii(s) {
		return s // ASCII is its own code
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r < 0x80 {
			b = append(b, byte(r))
		} else if c, ok := singleByteCode[r]; ok {
			b = append(b, c)
		} else {
			b = append(b, '?')
		}
	}
	return string(b)
}

// split wraps s to width w in the current font. gofpdf's SplitText reads
// runes and measures rune r by the width of code r, so for the
// single-byte font s goes in with each rune replaced by the rune of its
// code, and the lines come back in their own runes.
func (d *doc) split(s string, w float64) []string {
	if !d.single || ascii(s) {
		return d.f.SplitText(s, w) // ASCII runes are their own codes
	}
	coded := []rune(s)
	for i, r := range coded {
		if r < 0x80 {
			continue
		}
		if c, ok := singleByteCode[r]; ok {
			coded[i] = rune(c)
		} else {
			coded[i] = '?'
		}
	}
	lines := d.f.SplitText(string(coded), w)
	for i, l := range lines {
		rs := []rune(l)
		for j, c := range rs {
			if c < 0x100 && singleByte[c] != 0 {
				rs[j] = singleByte[c]
			}
		}
		lines[i] = string(rs)
	}
	return lines
}

// ascii reports whether s is all ASCII.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// clean makes s printable with the embedded faces: tabs become spaces,
// other control characters go, and characters without a glyph become "?"
// (gofpdf measures text only in the Basic Multilingual Plane).
func clean(s string) string {
	if !strings.ContainsFunc(s, unprintable) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r == '\n':
			return r
		case r < 0x20 || r == 0x7F:
			return -1
		case unprintable(r):
			return '?'
		}
		return r
	}, s)
}

// unprintable reports whether r has no glyph in the embedded faces (or is
// a control character other than a newline).
func unprintable(r rune) bool {
	if r == '\n' {
		return false
	}
	for _, g := range glyphRanges {
		if r >= g[0] && r <= g[1] {
			return false
		}
	}
	return true
}

// money formats an amount in the document currency.
func (d *doc) money(amount string) string { return FormatMoney(d.v.Currency, amount) }

// Pages.

// ensure starts a new page unless h more millimetres fit on this one. It
// reports whether it did.
func (d *doc) ensure(h float64) bool {
	if d.f.GetY()+h <= bottom {
		return false
	}
	d.newPage()
	return true
}

func (d *doc) newPage() {
	d.f.AddPage()
	if d.tableHeader != nil {
		d.tableHeader()
	}
}

// header runs at the top of every page: the banner of an invalid invoice,
// and on later pages a line saying whose document continues.
func (d *doc) header() {
	d.bold = false // a page starts with plain text rendering
	y := 10.0
	if !d.v.Valid() {
		d.banner(y)
		y += 13
	} else {
		y = margin
	}
	if d.f.PageNo() > 1 {
		name := ""
		if d.v.Supplier != nil {
			name = d.v.Supplier.Name
		}
		d.font("", 7.5)
		d.color(muted)
		d.cell(margin, y, contentW, 7.5, join(" · ", name, d.v.Document.Title, d.irnText(), "continued"), "L")
		y += 6
	}
	d.f.SetY(y)
}

// banner is the red bar of an invoice that failed validation.
func (d *doc) banner(y float64) {
	d.fill(alert)
	d.f.Rect(margin, y, contentW, 10, "F")
	d.font("B", 12)
	d.color(white)
	d.cell(margin+3, y+2.3, 100, 12, "NOT VALID FOR SUBMISSION", "L")
	n := len(d.v.Validation.Errors)
	msg := strconv.Itoa(n) + " validation error"
	if n != 1 {
		msg += "s"
	}
	d.font("", 8)
	d.cell(margin+100, y+3.2, contentW-103, 8, msg+" · see Validation", "R")
}

func (d *doc) footer(last bool) {
	if d.onePage && !last {
		d.f.SetError(errMorePages)
		return
	}
	d.pen(rule, 0.2)
	d.f.Line(margin, footerY-1.5, pageW-margin, footerY-1.5)
	d.font("", 7.5)
	d.color(muted)
	d.cell(margin, footerY, 130, 7.5, d.irnText(), "L")
	x, w := pageW-margin-45, 45.0
	page := "Page " + strconv.Itoa(d.f.PageNo()) + " of "
	if !d.onePage {
		d.cell(x, footerY, w, 7.5, page+pageCountAlias, "R")
		return
	}
	// Where gofpdf puts the text with the alias, right-aligned by the
	// alias's width: the same bytes as the alias substituted.
	dx := w - d.f.GetStringWidth(d.encode(page+pageCountAlias))
	d.cell(x+dx, footerY, w-dx, 7.5, page+"1", "L")
}

func (d *doc) irnText() string {
	if d.v.IRN == "" {
		return "No IRN"
	}
	return "IRN " + d.v.IRN
}
