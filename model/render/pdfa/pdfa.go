// Package pdfa turns a PDF written by gofpdf into a PDF/A-3b document that
// carries files: it appends an incremental update (PDF/A-3 allows them)
// with the XMP metadata stream (pdfaid part 3, conformance B), an sRGB
// output intent, the files as embedded file streams associated with the
// document (/AF, /AFRelationship), the EmbeddedFiles name tree, a new
// Catalog on the old one's object number, and a trailer with /ID and /Prev.
// The only bytes of the original it changes are its header (%PDF-1.7 and
// the binary comment line PDF/A asks for) and, shifted by that comment's
// length, the offsets of its cross-reference table.
package pdfa

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
)

// Relationship is a file's /AFRelationship to the document.
type Relationship string

// The relationships PDF/A-3 names.
const (
	Source      Relationship = "Source"
	Data        Relationship = "Data"
	Alternative Relationship = "Alternative"
	Supplement  Relationship = "Supplement"
)

// File is a file to embed.
type File struct {
	Name        string // file name, ASCII
	MediaType   string // e.g. application/json
	Description string
	Relation    Relationship
	Content     []byte
}

// Meta is the document information the XMP metadata repeats: it must be
// what the Info dictionary says (PDF/A-3 6.6.2.3.1). Dates are written as
// gofpdf writes them, wall clock with no offset, so the caller passes the
// time it gave gofpdf (UTC).
type Meta struct {
	Title, Author, Creator, Producer string
	Created, Modified                time.Time
}

const binaryComment = "%\xe2\xe3\xcf\xd3\n"

var (
	reStartXref = regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF\s*$`)
	reTrailer   = regexp.MustCompile(`(?s)trailer\s*<<(.*?)>>\s*startxref`)
	reRef       = func(key string) *regexp.Regexp { return regexp.MustCompile(`/` + key + `\s+(\d+)\s+0\s+R`) }
	reRoot      = reRef("Root")
	reInfo      = reRef("Info")
	reNoFiles   = regexp.MustCompile(`/Names\s*<<\s*/EmbeddedFiles\s*<<\s*/Names\s*\[\s*\]\s*>>\s*>>`)
	reSize      = regexp.MustCompile(`/Size\s+(\d+)`)
	icc         = sync.OnceValue(srgbProfile)
)

// Convert returns pdf, as gofpdf wrote it (uncompressed cross-reference
// table, one revision), with the update appended.
func Convert(pdf []byte, meta Meta, files []File) ([]byte, error) {
	m := reStartXref.FindSubmatch(pdf[max(0, len(pdf)-64):])
	if m == nil || !bytes.HasPrefix(pdf, []byte("%PDF-1.")) {
		return nil, errors.New("pdfa: not a PDF ending in startxref")
	}
	xrefAt, _ := strconv.Atoi(string(m[1]))
	if xrefAt <= 0 || xrefAt >= len(pdf) || !bytes.HasPrefix(pdf[xrefAt:], []byte("xref")) {
		return nil, errors.New("pdfa: startxref does not point at a cross-reference table")
	}
	t := reTrailer.FindSubmatch(pdf[xrefAt:])
	if t == nil {
		return nil, errors.New("pdfa: no trailer")
	}
	root, info, size := refOf(reRoot, t[1]), refOf(reInfo, t[1]), refOf(reSize, t[1])
	if root <= 0 || size <= 0 {
		return nil, errors.New("pdfa: trailer has no /Root or /Size")
	}
	catalog, err := objectBody(pdf, root)
	if err != nil {
		return nil, err
	}
	// gofpdf writes an empty EmbeddedFiles name tree; ours replaces it.
	catalog = reNoFiles.ReplaceAll(catalog, nil)
	if bytes.Contains(catalog, []byte("/Names")) || bytes.Contains(catalog, []byte("/Metadata")) || bytes.Contains(catalog, []byte("/AF")) {
		return nil, errors.New("pdfa: the catalog already has /Names, /Metadata or /AF")
	}
	eol := bytes.IndexByte(pdf, '\n')
	if eol < 0 || eol > 16 {
		return nil, errors.New("pdfa: no header line")
	}
	shift := len(binaryComment)

	out := bytes.NewBuffer(make([]byte, 0, len(pdf)+32<<10))
	out.WriteString("%PDF-1.7\n")
	out.WriteString(binaryComment)
	out.Write(pdf[eol+1 : xrefAt])
	xref, err := shiftXref(pdf[xrefAt:], shift)
	if err != nil {
		return nil, err
	}
	out.Write(xref)
	prev := xrefAt + shift

	// New objects.
	offsets := map[int]int{}
	next := size
	obj := func(body string, stream []byte) int {
		n := next
		next++
		offsets[n] = out.Len()
		fmt.Fprintf(out, "%d 0 obj\n%s", n, body)
		if stream != nil {
			out.WriteString("\nstream\n")
			out.Write(stream)
			out.WriteString("\nendstream")
		}
		out.WriteString("\nendobj\n")
		return n
	}
	xmp := xmpPacket(meta)
	metaN := obj(fmt.Sprintf("<< /Type /Metadata /Subtype /XML /Length %d >>", len(xmp)), xmp)
	profile := icc()
	iccN := obj(fmt.Sprintf("<< /N 3 /Alternate /DeviceRGB /Length %d >>", len(profile)), profile)
	intentN := obj(fmt.Sprintf("<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier (sRGB IEC61966-2.1) /Info (sRGB IEC61966-2.1) /RegistryName (http://www.color.org) /DestOutputProfile %d 0 R >>", iccN), nil)
	mod := pdfDate(meta.Modified)
	var specs []int
	var names strings.Builder
	for _, f := range files {
		ef := obj(fmt.Sprintf("<< /Type /EmbeddedFile /Subtype %s /Params << /ModDate %s /Size %d >> /Length %d >>",
			name(f.MediaType), mod, len(f.Content), len(f.Content)), f.Content)
		spec := obj(fmt.Sprintf("<< /Type /Filespec /F %s /UF %s /EF << /F %d 0 R /UF %d 0 R >> /AFRelationship /%s /Desc %s >>",
			literal(f.Name), textString(f.Name), ef, ef, f.Relation, textString(f.Description)), nil)
		specs = append(specs, spec)
	}
	// Name tree keys must be sorted.
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && files[order[j]].Name < files[order[j-1]].Name; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, i := range order {
		fmt.Fprintf(&names, "%s %d 0 R ", literal(files[i].Name), specs[i])
	}
	var af strings.Builder
	for _, s := range specs {
		fmt.Fprintf(&af, "%d 0 R ", s)
	}
	extra := fmt.Sprintf(" /Metadata %d 0 R /OutputIntents [%d 0 R] /AF [%s] /Names << /EmbeddedFiles << /Names [%s] >> >> /PageMode /UseAttachments",
		metaN, intentN, strings.TrimSpace(af.String()), strings.TrimSpace(names.String()))
	body := bytes.TrimSpace(catalog)
	if !bytes.HasPrefix(body, []byte("<<")) || !bytes.HasSuffix(body, []byte(">>")) {
		return nil, errors.New("pdfa: catalog is not a dictionary")
	}
	body = bytes.ReplaceAll(body[:len(body)-2], []byte("/PageMode /UseNone"), nil)
	offsets[root] = out.Len()
	fmt.Fprintf(out, "%d 0 obj\n%s%s >>\nendobj\n", root, body, extra)

	// Cross-reference section of the update.
	xrefNew := out.Len()
	out.WriteString("xref\n")
	fmt.Fprintf(out, "%d 1\n%010d 00000 n \n", root, offsets[root])
	fmt.Fprintf(out, "%d %d\n", size, next-size)
	for n := size; n < next; n++ {
		fmt.Fprintf(out, "%010d 00000 n \n", offsets[n])
	}
	sum := sha256.Sum256(pdf)
	id := hex.EncodeToString(sum[:16])
	fmt.Fprintf(out, "trailer\n<< /Size %d /Root %d 0 R", next, root)
	if info > 0 {
		fmt.Fprintf(out, " /Info %d 0 R", info)
	}
	fmt.Fprintf(out, " /Prev %d /ID [<%s> <%s>] >>\nstartxref\n%d\n%%%%EOF\n", prev, id, id, xrefNew)
	return out.Bytes(), nil
}

func refOf(re *regexp.Regexp, b []byte) int {
	m := re.FindSubmatch(b)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// objectBody is the text between "n 0 obj" and "endobj" of object n.
func objectBody(pdf []byte, n int) ([]byte, error) {
	head := []byte(fmt.Sprintf("\n%d 0 obj", n))
	i := bytes.LastIndex(pdf, head)
	if i < 0 {
		return nil, fmt.Errorf("pdfa: object %d not found", n)
	}
	rest := pdf[i+len(head):]
	j := bytes.Index(rest, []byte("endobj"))
	if j < 0 {
		return nil, fmt.Errorf("pdfa: object %d has no endobj", n)
	}
	return rest[:j], nil
}

// shiftXref rewrites a cross-reference table (and the trailer after it)
// with every in-use offset moved by shift; entries keep their 20 bytes.
func shiftXref(x []byte, shift int) ([]byte, error) {
	out := bytes.Clone(x)
	i := len("xref")
	for {
		for i < len(out) && (out[i] == '\n' || out[i] == '\r' || out[i] == ' ') {
			i++
		}
		if bytes.HasPrefix(out[i:], []byte("trailer")) {
			return out, nil
		}
		eol := bytes.IndexByte(out[i:], '\n')
		if eol < 0 {
			return nil, errors.New("pdfa: truncated cross-reference table")
		}
		var first, count int
		if _, err := fmt.Sscanf(string(out[i:i+eol]), "%d %d", &first, &count); err != nil {
			return nil, fmt.Errorf("pdfa: cross-reference subsection: %w", err)
		}
		i += eol + 1
		for k := 0; k < count; k++ {
			if i+20 > len(out) {
				return nil, errors.New("pdfa: truncated cross-reference table")
			}
			e := out[i : i+20]
			if e[17] == 'n' {
				off, err := strconv.Atoi(string(e[:10]))
				if err != nil {
					return nil, fmt.Errorf("pdfa: cross-reference entry: %w", err)
				}
				copy(e[:10], fmt.Sprintf("%010d", off+shift))
			}
			i += 20
		}
	}
}

func pdfDate(t time.Time) string { return "(D:" + t.Format("20060102150405") + ")" }

// name writes s as a PDF name (application/json is /application#2Fjson).
func name(s string) string {
	var b strings.Builder
	b.WriteByte('/')
	for _, c := range []byte(s) {
		if c < 0x21 || c > 0x7e || strings.IndexByte("#()<>[]{}/%", c) >= 0 {
			fmt.Fprintf(&b, "#%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// literal writes an ASCII string as a PDF literal string.
func literal(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`, "\r", `\r`, "\n", `\n`)
	return "(" + r.Replace(s) + ")"
}

// textString writes s as a PDF text string: literal when ASCII, else
// UTF-16BE with its byte order mark, in hex.
func textString(s string) string {
	ascii := true
	for _, c := range []byte(s) {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return literal(s)
	}
	var b strings.Builder
	b.WriteString("<FEFF")
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, "%04X", u)
	}
	b.WriteString(">")
	return b.String()
}
