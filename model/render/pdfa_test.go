package render_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model/render"
	"github.com/einvoice-ng/einvoice/model/render/pdfa"
	"github.com/einvoice-ng/einvoice/model/ubl"
)

// TestRenderPDFA renders each fixture as PDF/A-3b with the NRS JSON and the
// UBL XML attached, reads the result back with its own small reader and
// with poppler, and checks the PDF/A-3 rules one by one by name.
func TestRenderPDFA(t *testing.T) {
	requireTools(t, "pdfinfo", "pdfdetach", "pdftoppm", "zbarimg", "pdftotext")
	for _, fx := range validFixtures {
		t.Run(string(fx.kind), func(t *testing.T) {
			payload := loadFixture(t, fx.file)
			v := viewOf(t, payload, fx.kind, realQR(t))
			js, err := json.Marshal(payload)
			if err != nil {
				t.Fatal(err)
			}
			x, err := ubl.FromNRS(payload, ubl.OutOptions{QRPayload: v.QR.Payload})
			if err != nil {
				t.Fatal(err)
			}
			b, err := render.RenderWith(v, render.Options{Now: clock, Attach: []pdfa.File{
				{Name: "invoice.json", MediaType: "application/json", Description: "NRS invoice payload", Relation: pdfa.Source, Content: js},
				{Name: "invoice.xml", MediaType: "application/xml", Description: "UBL 2.1 invoice", Relation: pdfa.Alternative, Content: x},
			}})
			if err != nil {
				t.Fatal(err)
			}
			r := readPDF(t, b)

			t.Run("6.1.2 header and binary comment", func(t *testing.T) {
				if !bytes.HasPrefix(b, []byte("%PDF-1.7\n%")) || b[10] < 128 || b[11] < 128 || b[12] < 128 || b[13] < 128 {
					t.Errorf("header %q", b[:16])
				}
			})
			t.Run("6.1.3 trailer ID and xref offsets", func(t *testing.T) {
				if !regexp.MustCompile(`/ID \[<[0-9a-f]{32}> <[0-9a-f]{32}>\]`).Match(r.trailer) {
					t.Errorf("trailer has no /ID: %s", r.trailer)
				}
				if !bytes.HasSuffix(b, []byte("%%EOF\n")) {
					t.Error("does not end in the end-of-file marker")
				}
			})
			cat := r.obj(t, r.ref(t, r.trailer, "Root"))
			t.Run("6.6.2.1 XMP metadata linked from the catalog, pdfaid 3B", func(t *testing.T) {
				m := string(r.obj(t, r.ref(t, cat, "Metadata")))
				for _, want := range []string{"/Type /Metadata", "/Subtype /XML", "<pdfaid:part>3</pdfaid:part>", "<pdfaid:conformance>B</pdfaid:conformance>",
					"<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">" + v.Document.Title,
					"<xmp:CreateDate>" + clock.UTC().Format("2006-01-02T15:04:05") + "</xmp:CreateDate>"} {
					if !strings.Contains(m, want) {
						t.Errorf("metadata lacks %q", want)
					}
				}
				i := strings.Index(m, "stream\n")
				j := strings.LastIndex(m, "\nendstream")
				if err := xml.Unmarshal([]byte(m[i+7:j]), new(struct{})); err != nil {
					t.Errorf("XMP is not XML: %v", err)
				}
				info := string(r.obj(t, r.ref(t, r.trailer, "Info")))
				if want := "/CreationDate (D:" + clock.UTC().Format("20060102150405") + ")"; !strings.Contains(info, want) {
					t.Errorf("Info %s lacks %s (XMP dates must match)", info, want)
				}
			})
			t.Run("6.2.3 OutputIntent GTS_PDFA1 with DestOutputProfile", func(t *testing.T) {
				oi := regexp.MustCompile(`/OutputIntents \[(\d+) 0 R\]`).FindSubmatch(cat)
				if oi == nil {
					t.Fatalf("catalog has no OutputIntents: %s", cat)
				}
				n, _ := strconv.Atoi(string(oi[1]))
				intent := r.obj(t, n)
				if !bytes.Contains(intent, []byte("/S /GTS_PDFA1")) {
					t.Errorf("intent %s", intent)
				}
				prof := r.obj(t, r.ref(t, intent, "DestOutputProfile"))
				i := bytes.Index(prof, []byte("stream\n"))
				icc := prof[i+7:]
				if !bytes.Contains(prof, []byte("/N 3")) || string(icc[36:40]) != "acsp" || string(icc[16:20]) != "RGB " || icc[8] != 2 {
					t.Errorf("DestOutputProfile is not an ICC v2 RGB profile")
				}
			})
			t.Run("6.8 embedded files associated, with AFRelationship, Subtype, Params ModDate", func(t *testing.T) {
				af := regexp.MustCompile(`/AF \[([^\]]*)\]`).FindSubmatch(cat)
				if af == nil || !bytes.Contains(cat, []byte("/EmbeddedFiles")) {
					t.Fatalf("catalog has no /AF or EmbeddedFiles: %s", cat)
				}
				refs := regexp.MustCompile(`(\d+) 0 R`).FindAllSubmatch(af[1], -1)
				if len(refs) != 2 {
					t.Fatalf("AF %s", af[1])
				}
				rel := map[string]string{}
				for _, m := range refs {
					n, _ := strconv.Atoi(string(m[1]))
					spec := r.obj(t, n)
					name := regexp.MustCompile(`/UF \(([^)]*)\)`).FindSubmatch(spec)
					ar := regexp.MustCompile(`/AFRelationship /(\w+)`).FindSubmatch(spec)
					if name == nil || ar == nil || !bytes.Contains(spec, []byte("/Type /Filespec")) || !bytes.Contains(spec, []byte("/F (")) || !bytes.Contains(spec, []byte("/Desc ")) {
						t.Fatalf("filespec %s", spec)
					}
					rel[string(name[1])] = string(ar[1])
					ef := r.obj(t, r.ref(t, spec, "F"))
					if !regexp.MustCompile(`/Subtype /application#2F(json|xml)`).Match(ef) || !regexp.MustCompile(`/Params << /ModDate \(D:\d{14}\)`).Match(ef) {
						t.Errorf("embedded file %s", ef[:min(len(ef), 200)])
					}
				}
				if rel["invoice.json"] != "Source" || rel["invoice.xml"] != "Alternative" {
					t.Errorf("relationships %v", rel)
				}
			})
			t.Run("poppler reads it: attachments, text, QR", func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, "doc.pdf")
				if err := os.WriteFile(path, b, 0o644); err != nil {
					t.Fatal(err)
				}
				out, err := exec.Command("pdfinfo", path).CombinedOutput()
				if err != nil || strings.Contains(string(out), "Error") {
					t.Fatalf("pdfinfo: %v %s", err, out)
				}
				if got := pageCount(t, b); got < 1 {
					t.Errorf("pages %d", got)
				}
				list, err := exec.Command("pdfdetach", "-list", path).CombinedOutput()
				if err != nil || !strings.Contains(string(list), "2 embedded files") {
					t.Fatalf("pdfdetach -list: %v %s", err, list)
				}
				if out, err := exec.Command("pdfdetach", "-saveall", "-o", dir, path).CombinedOutput(); err != nil {
					t.Fatalf("pdfdetach -saveall: %v %s", err, out)
				}
				gotJS, _ := os.ReadFile(filepath.Join(dir, "invoice.json"))
				if !json.Valid(gotJS) || !bytes.Equal(gotJS, js) {
					t.Errorf("extracted JSON (%d bytes) differs from the payload (%d bytes)", len(gotJS), len(js))
				}
				gotXML, _ := os.ReadFile(filepath.Join(dir, "invoice.xml"))
				if !bytes.Equal(gotXML, x) {
					t.Error("extracted UBL differs")
				}
				if err := xml.Unmarshal(gotXML, new(struct{})); err != nil {
					t.Errorf("extracted UBL does not parse: %v", err)
				}
				if got := scanQR(t, b); got != v.QR.Payload {
					t.Errorf("QR scans %q, want %q", got, v.QR.Payload)
				}
				if text := pdfText(t, b, 1, 1); !strings.Contains(text, v.IRN) {
					t.Errorf("text of page 1 lacks the IRN %s", v.IRN)
				}
				fonts, err := exec.Command("pdffonts", path).CombinedOutput()
				if err == nil && regexp.MustCompile(`(?m)\s+no\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$`).Match(fonts) {
					t.Errorf("a font is not embedded:\n%s", fonts)
				}
			})
		})
	}
}

// pdfReader finds objects by the cross-reference sections of every
// revision, newest first, the way a PDF reader resolves them.
type pdfReader struct {
	b       []byte
	off     map[int]int
	trailer []byte
}

func readPDF(t *testing.T, b []byte) *pdfReader {
	t.Helper()
	r := &pdfReader{b: b, off: map[int]int{}}
	m := regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF\s*$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no startxref")
	}
	at, _ := strconv.Atoi(string(m[1]))
	for first := true; ; first = false {
		if !bytes.HasPrefix(b[at:], []byte("xref\n")) {
			t.Fatalf("startxref %d does not point at xref", at)
		}
		i := at + 5
		for !bytes.HasPrefix(b[i:], []byte("trailer")) {
			eol := bytes.IndexByte(b[i:], '\n')
			f := strings.Fields(string(b[i : i+eol]))
			start, _ := strconv.Atoi(f[0])
			n, _ := strconv.Atoi(f[1])
			i += eol + 1
			for k := 0; k < n; k++ {
				e := b[i : i+20]
				if e[17] == 'n' {
					if _, seen := r.off[start+k]; !seen {
						o, _ := strconv.Atoi(string(e[:10]))
						r.off[start+k] = o
						head := strconv.Itoa(start+k) + " 0 obj"
						if !bytes.HasPrefix(b[o:], []byte(head)) {
							t.Fatalf("xref offset %d of object %d points at %q", o, start+k, b[o:o+12])
						}
					}
				}
				i += 20
			}
		}
		end := bytes.Index(b[i:], []byte("startxref"))
		tr := b[i : i+end]
		if first {
			r.trailer = tr
		}
		p := regexp.MustCompile(`/Prev (\d+)`).FindSubmatch(tr)
		if p == nil {
			return r
		}
		at, _ = strconv.Atoi(string(p[1]))
	}
}

func (r *pdfReader) obj(t *testing.T, n int) []byte {
	t.Helper()
	o, ok := r.off[n]
	if !ok {
		t.Fatalf("object %d not in xref", n)
	}
	end := bytes.Index(r.b[o:], []byte("endobj"))
	return r.b[o : o+end]
}

func (r *pdfReader) ref(t *testing.T, dict []byte, key string) int {
	t.Helper()
	m := regexp.MustCompile(`/` + key + ` (\d+) 0 R`).FindSubmatch(dict)
	if m == nil {
		t.Fatalf("no /%s in %s", key, dict[:min(len(dict), 300)])
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}
