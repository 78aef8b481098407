package render_test

import (
	"bytes"
	"compress/zlib"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/render"
)

func renderPDF(t testing.TB, v render.View) []byte {
	t.Helper()
	b, err := render.RenderWith(v, render.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", b[:min(len(b), 16)])
	}
	return b
}

// TestRenderPDFGolden pins the bytes: with a fixed clock and QR payload
// the same view must give the same document, run after run.
func TestRenderPDFGolden(t *testing.T) {
	for _, fx := range validFixtures {
		t.Run(string(fx.kind), func(t *testing.T) {
			v := viewOf(t, loadFixture(t, fx.file), fx.kind, fixedQR)
			first := renderPDF(t, v)
			if again := renderPDF(t, v); !bytes.Equal(first, again) {
				t.Fatal("two renderings of the same view differ")
			}
			golden(t, "render-"+strings.ToLower(string(fx.kind))+".pdf", first)
		})
	}
}

func TestRenderPDFText(t *testing.T) {
	both := []string{"Sango Building Supplies Ltd", "TIN 31447720-0001", "Page 1 of 1", "VAT 7.5%", "Amount payable"}
	cases := []struct {
		kind        model.InvoiceKind
		file        string
		irn         string
		want, avoid []string
	}{
		{model.InvoiceKindB2B, "invoice-b2b-1.1.json", "SGN2026000123-94ND90NR-20260315",
			[]string{"COMMERCIAL INVOICE", "BILL TO", "Ekiti Homes Development Co", "TIN 20983315-0001", "4 Fajuyi Road",
				"Cement 50kg", "₦50,000.00", "₦5,000.00", "STANDARD_VAT", "₦70,000.00", "₦5,250.00",
				"Credit Transfer (30) · due 2026-04-14", "Payment pending", "Thank you for your business"},
			[]string{"NOT VALID FOR SUBMISSION", "MINISTRY"}},
		{model.InvoiceKindB2C, "invoice-b2c-1.1.json", "POS000981-94ND90NR-20260316",
			[]string{"RECEIPT", "Claw hammer", "2 × ₦1,500.00 / H87", "₦3,000.00", "₦225.00", "Payment: Cash (10)", "Paid"},
			[]string{"NOT VALID FOR SUBMISSION", "BILL TO", "Customer:"}},
		{model.InvoiceKindB2G, "invoice-b2g-1.1.json", "GOV2026004-94ND90NR-20260320",
			[]string{"MINISTRY, DEPARTMENT OR AGENCY (GOVERNMENT BUYER)", "Oyo State Ministry of Works", "TIN 00452119-0001",
				"CONTRACT", "Contract reference CTR2025117-7XQ4LM2P-20251101 of 2025-11-01", "Rebar 12mm", "₦400,000.00",
				"Allowances", "−₦10,000.00", "₦390,000.00", "₦29,250.00"},
			[]string{"NOT VALID FOR SUBMISSION", "BILL TO"}},
	}
	for _, fx := range validFixtures {
		for _, c := range cases {
			if c.kind != fx.kind {
				continue
			}
			t.Run(string(c.kind), func(t *testing.T) {
				v := viewOf(t, loadFixture(t, fx.file), c.kind, realQR(t))
				text := pdfText(t, renderPDF(t, v), 0, 0)
				for _, s := range append(append([]string{c.irn, fx.payable}, both...), c.want...) {
					if !strings.Contains(text, s) {
						t.Errorf("text lacks %q:\n%s", s, text)
					}
				}
				for _, s := range c.avoid {
					if strings.Contains(text, s) {
						t.Errorf("text has %q", s)
					}
				}
				if !onPayableLine(text, fx.payable) {
					t.Errorf("the payable total %s is not on the Amount payable line:\n%s", fx.payable, text)
				}
			})
		}
	}
}

// onPayableLine reports whether the payable total shares a line with its
// label.
func onPayableLine(text, payable string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "Amount payable") && strings.Contains(l, payable) {
			return true
		}
	}
	return false
}

// TestRenderPDFQRScans rasterises page 1 at 150 dpi, reads the QR code
// back with zbarimg and decrypts it with the test private key.
func TestRenderPDFQRScans(t *testing.T) {
	requireTools(t, "pdftoppm", "zbarimg")
	for _, fx := range validFixtures {
		t.Run(string(fx.kind), func(t *testing.T) {
			t.Parallel()
			v := viewOf(t, loadFixture(t, fx.file), fx.kind, realQR(t))
			got := scanQR(t, renderPDF(t, v))
			if got != v.QR.Payload || len(got) != 344 {
				t.Fatalf("scanned %d characters %q, want the %d-character payload %q", len(got), got, len(v.QR.Payload), v.QR.Payload)
			}
			irnTS, cert := decryptQR(t, got)
			if want := v.IRN + "." + strconv.FormatInt(clock.Unix(), 10); irnTS != want {
				t.Errorf("decrypted irn %q, want %q", irnTS, want)
			}
			var ck struct {
				Certificate string `json:"certificate"`
			}
			if err := json.Unmarshal(readFile(t, filepath.Join(keysDir, "crypto_keys.txt")), &ck); err != nil || cert != ck.Certificate {
				t.Errorf("decrypted certificate %q, want %q (%v)", cert, ck.Certificate, err)
			}
		})
	}
}

// scanQR rasterises page 1 of a PDF at 150 dpi and decodes the one QR code
// on it.
func scanQR(t testing.TB, pdf []byte) string { return scanQRAt(t, pdf, 150) }

// TestRenderPDFQRScansAtOtherResolutions: the QR code is an image mask of
// one sample per module, scaled without smoothing; it must scan from a
// coarse screen rendering as well as from a fine print resolution.
func TestRenderPDFQRScansAtOtherResolutions(t *testing.T) {
	v := viewOf(t, loadFixture(t, "invoice-b2b-1.1.json"), model.InvoiceKindB2B, realQR(t))
	pdf := renderPDF(t, v)
	for _, dpi := range []int{96, 300} {
		if got := scanQRAt(t, pdf, dpi); got != v.QR.Payload {
			t.Errorf("at %d dpi scanned %q, want %q", dpi, got, v.QR.Payload)
		}
	}
}

func scanQRAt(t testing.TB, pdf []byte, dpi int) string {
	t.Helper()
	requireTools(t, "pdftoppm", "zbarimg")
	dir := t.TempDir()
	src := filepath.Join(dir, "doc.pdf")
	if err := os.WriteFile(src, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(dir, "page")
	if out, err := exec.Command("pdftoppm", "-r", strconv.Itoa(dpi), "-f", "1", "-l", "1", "-png", "-singlefile", src, prefix).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, out)
	}
	cmd := exec.Command("zbarimg", "-q", "--raw", "-Sdisable", "-Sqrcode.enable", prefix+".png")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("zbarimg found no QR code: %v: %s", err, stderr.String())
	}
	return strings.TrimRight(string(out), "\r\n")
}

// longInvoice is the B2B fixture with n lines of ₦100.00 each.
func longInvoice(t testing.TB, n int) map[string]any {
	t.Helper()
	p := loadFixture(t, "invoice-b2b-1.1.json")
	lines := make([]any, n)
	for i := range lines {
		lines[i] = nrsLine(map[string]any{
			"hsn_code": "2523.29", "product_category": "Portland cement", "invoiced_quantity": json.Number("1"),
			"line_extension_amount": json.Number("100.00"),
			"item":                  map[string]any{"name": fmt.Sprintf("Item %03d", i+1), "description": "Bag of cement, grade 42.5R"},
			"price":                 map[string]any{"price_amount": json.Number("100.00"), "base_quantity": json.Number("1"), "price_unit": "XBG"},
		})
	}
	total := fmt.Sprintf("%d.00", 100*n)
	tax := fmt.Sprintf("%d.%02d", 75*n/10, 75*n%10*10)
	incl := fmt.Sprintf("%d.%02d", 100*n+75*n/10, 75*n%10*10)
	p["invoice_line"] = lines
	p["tax_total"] = []any{map[string]any{"tax_amount": json.Number(tax), "tax_subtotal": []any{map[string]any{
		"taxable_amount": json.Number(total), "tax_amount": json.Number(tax),
		"tax_category": map[string]any{"id": "STANDARD_VAT", "percent": json.Number("7.5")},
	}}}}
	p["legal_monetary_total"] = map[string]any{
		"line_extension_amount": json.Number(total), "tax_exclusive_amount": json.Number(total),
		"tax_inclusive_amount": json.Number(incl), "payable_amount": json.Number(incl),
	}
	return p
}

func TestRenderPDFPaginates(t *testing.T) {
	for _, kind := range []model.InvoiceKind{model.InvoiceKindB2B, model.InvoiceKindB2C} {
		t.Run(string(kind), func(t *testing.T) {
			payload := longInvoice(t, 150)
			if kind == model.InvoiceKindB2C {
				payload["invoice_kind"] = "B2C"
			}
			v := viewOf(t, payload, kind, fixedQR)
			if !v.Valid() {
				t.Fatalf("the long invoice must be valid: %+v", v.Validation.Errors)
			}
			pdf := renderPDF(t, v)
			pages := pageCount(t, pdf)
			if pages < 3 {
				t.Fatalf("150 lines on %d pages, want several", pages)
			}
			all := pdfText(t, pdf, 0, 0)
			for i := 1; i <= 150; i++ {
				if n := strings.Count(all, fmt.Sprintf("Item %03d", i)); n != 1 {
					t.Errorf("Item %03d printed %d times", i, n)
				}
			}
			header := "Description"
			if kind == model.InvoiceKindB2C {
				header = "Item"
			}
			for page := 1; page <= pages; page++ {
				text := pdfText(t, pdf, page, page)
				if want := fmt.Sprintf("Page %d of %d", page, pages); !strings.Contains(text, want) {
					t.Errorf("page %d lacks %q", page, want)
				}
				if page > 1 && !strings.Contains(text, "continued") {
					t.Errorf("page %d does not say the document continues", page)
				}
				// Every page the table reaches repeats its header.
				if page < pages || strings.Contains(text, "Item 150") {
					if !strings.Contains(text, header) || !strings.Contains(text, "Amount") {
						t.Errorf("page %d lacks the table header:\n%s", page, text)
					}
				}
			}
			if !onPayableLine(all, "₦16,125.00") {
				t.Errorf("the payable total ₦16,125.00 is not printed:\n%s", all)
			}
		})
	}
}

func TestRenderPDFInvalidBanner(t *testing.T) {
	cases := []struct {
		file    string
		kind    model.InvoiceKind
		profile model.ValidationProfile
		errors  int
	}{
		{"invalid-missing-supplier-tin.json", model.InvoiceKindB2B, model.ProfileNRS, 1},
		{"invalid-payable-mismatch.json", model.InvoiceKindB2B, model.ProfileStrict, 1}, // a warning under nrs
		{"invalid-type-code-and-date.json", model.InvoiceKindB2B, model.ProfileNRS, 2},
		{"invoice-b2c-1.1.json", model.InvoiceKindB2G, model.ProfileStrict, 0}, // kind and payload disagree
	}
	for _, c := range cases {
		t.Run(c.file+"/"+string(c.kind), func(t *testing.T) {
			v := viewWith(t, loadFixture(t, c.file), c.kind, c.profile, fixedQR)
			if v.Valid() {
				t.Fatal("view is valid")
			}
			if c.errors > 0 && len(v.Validation.Errors) != c.errors {
				t.Errorf("%d errors, want %d: %+v", len(v.Validation.Errors), c.errors, v.Validation.Errors)
			}
			pdf := renderPDF(t, v)
			pages := pageCount(t, pdf)
			for page := 1; page <= pages; page++ {
				if text := pdfText(t, pdf, page, page); !strings.Contains(text, "NOT VALID FOR SUBMISSION") {
					t.Errorf("page %d of %d has no banner", page, pages)
				}
			}
			all := pdfText(t, pdf, 0, 0)
			for _, e := range v.Validation.Errors {
				if !strings.Contains(all, e.Rule) {
					t.Errorf("the document does not list %s", e.Rule)
				}
			}
		})
	}
}

func TestRenderPDFHostileText(t *testing.T) {
	p := loadFixture(t, "invoice-b2b-1.1.json")
	lines := p["invoice_line"].([]any)
	item := lines[0].(map[string]any)["item"].(map[string]any)
	item["name"] = "Ẹ̀wà ọ̀ṣọ́ 🚀 Ɓauchi\u0000\ttabs\r\nnew line " + strings.Repeat("long-word-", 40)
	item["description"] = strings.Repeat("A very long description that wraps over many lines. ", 30)
	p["note"] = "日本語 and emoji 😀"
	v := viewOf(t, p, model.InvoiceKindB2B, fixedQR)
	text := pdfText(t, renderPDF(t, v), 0, 0)
	for _, s := range []string{"Ẹ", "ọ", "ṣ", "Ɓauchi", "?"} {
		if !strings.Contains(text, s) {
			t.Errorf("text lacks %q", s)
		}
	}
}

func TestRenderPDFWithoutIRN(t *testing.T) {
	p := loadFixture(t, "invoice-b2b-1.1.json")
	delete(p, "irn")
	v := viewOf(t, p, model.InvoiceKindB2B, fixedQR)
	if v.IRN != "" || v.QR.Payload != "" || v.Filename() != "invoice.pdf" {
		t.Fatalf("view without IRN: %q %q %q", v.IRN, v.QR.Payload, v.Filename())
	}
	text := pdfText(t, renderPDF(t, v), 0, 0)
	for _, s := range []string{"NOT VALID FOR SUBMISSION", "not available", "No IRN, no QR code", render.RuleIRNUnavailable} {
		if !strings.Contains(text, s) {
			t.Errorf("text lacks %q", s)
		}
	}
}

func TestRenderUnknownKind(t *testing.T) {
	v := viewOf(t, loadFixture(t, "invoice-b2b-1.1.json"), model.InvoiceKindB2B, fixedQR)
	v.InvoiceType = "B2X"
	_, err := render.Render(v)
	if model.ErrorCodeOf(err) != model.CodeInvalid {
		t.Fatalf("err = %v, want invalid", err)
	}
}

// TestRenderConcurrent renders from many goroutines: the font face is
// shared, every document must come out the same (run with -race).
func TestRenderConcurrent(t *testing.T) {
	v := viewOf(t, loadFixture(t, "invoice-b2g-1.1.json"), model.InvoiceKindB2G, fixedQR)
	want := renderPDF(t, v)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Go(func() {
			got, err := render.RenderWith(v, render.Options{Now: clock})
			if err != nil || !bytes.Equal(got, want) {
				errs <- fmt.Sprintf("concurrent rendering differs (err %v)", err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// nigerianNames use letters outside the base runes every document's font
// subset holds: Yoruba (tone marks, dots below, combining marks), Igbo,
// Hausa (hooked letters) and Latin-1.
var nigerianNames = struct{ supplier, customer, item string }{
	supplier: "Adébáyọ̀ Ògúnlẹ́sì Ventures",
	customer: "Chụkwụemeka Ọkọńkwọ & Sons",
	item:     "Ɗanjuma Ƙwari Ɓauchi Ƴan · Société Générale",
}

func withNames(t testing.TB, supplier, customer, item string) render.View {
	t.Helper()
	p := loadFixture(t, "invoice-b2b-1.1.json")
	p["accounting_supplier_party"].(map[string]any)["party_name"] = supplier
	p["accounting_customer_party"].(map[string]any)["party_name"] = customer
	p["invoice_line"].([]any)[0].(map[string]any)["item"].(map[string]any)["name"] = item
	return viewOf(t, p, model.InvoiceKindB2B, fixedQR)
}

// TestRenderPDFNigerianNames: letters outside the base runes are embedded
// with the blocks holding them and come back out of the text layer.
func TestRenderPDFNigerianNames(t *testing.T) {
	n := nigerianNames
	pdf := renderPDF(t, withNames(t, n.supplier, n.customer, n.item))
	if again := renderPDF(t, withNames(t, n.supplier, n.customer, n.item)); !bytes.Equal(pdf, again) {
		t.Fatal("two renderings of the same view differ")
	}
	text := pdfText(t, pdf, 0, 0)
	for _, s := range []string{n.supplier, n.customer, "Ɗanjuma Ƙwari Ɓauchi Ƴan", "Société", "Générale", "₦50,000.00"} {
		if !strings.Contains(text, s) {
			t.Errorf("text lacks %q:\n%s", s, text)
		}
	}
	// The text layer maps codes to characters whether or not the font has
	// their glyphs: look the glyphs up in the font's CIDToGIDMap.
	gids := cidToGID(t, pdf)
	for _, r := range n.supplier + n.customer + n.item {
		if r != ' ' && gids[r] == 0 {
			t.Errorf("%q (%U) has no glyph in the embedded font", r, r)
		}
	}
	// A document whose text is all in the single-byte encoding (ASCII,
	// Latin-1, the signs the layouts use) embeds the single-byte font
	// instead: a TrueType font whose encoding names the glyphs beyond
	// ASCII, with no CIDToGIDMap.
	plain := renderPDF(t, viewOf(t, loadFixture(t, "invoice-b2b-1.1.json"), model.InvoiceKindB2B, fixedQR))
	if bytes.Contains(plain, []byte("/CIDToGIDMap")) || bytes.Contains(plain, []byte("/Type0")) {
		t.Error("the plain document embeds the UTF-8 font")
	}
	if !bytes.Contains(plain, []byte("/Subtype /TrueType")) || !bytes.Contains(plain, []byte("/FontFile2")) {
		t.Error("the plain document lacks the embedded single-byte TrueType font")
	}
	for _, name := range []string{"/uni20A6", "/uni2212", "/uni00B7", "/uni00D7"} {
		if !bytes.Contains(plain, []byte(name)) {
			t.Errorf("the plain document's encoding lacks %s", name)
		}
	}
	if text := pdfText(t, plain, 0, 0); !strings.Contains(text, "₦50,000.00") || !strings.Contains(text, " · ") {
		t.Errorf("the plain document's text lacks its signs:\n%s", text)
	}
}

// cidToGID reads the glyph of each character code from the one font's
// CIDToGIDMap (codes are Unicode code points; glyph 0 is no glyph).
func cidToGID(t testing.TB, pdf []byte) map[rune]int {
	t.Helper()
	var maps [][]byte
	for _, m := range streamRE.FindAllSubmatchIndex(pdf, -1) {
		n, _ := strconv.Atoi(string(pdf[m[2]:m[3]]))
		if m[1]+n > len(pdf) {
			t.Fatalf("stream of %d bytes past the end", n)
		}
		z, err := zlib.NewReader(bytes.NewReader(pdf[m[1] : m[1]+n]))
		if err != nil {
			continue // not compressed
		}
		b, err := io.ReadAll(z)
		if err == nil && len(b) == 2*65536 {
			maps = append(maps, b)
		}
	}
	if len(maps) != 1 {
		t.Fatalf("%d CIDToGIDMaps, want 1", len(maps))
	}
	gids := map[rune]int{}
	for c := range 65536 {
		if g := int(maps[0][2*c])<<8 | int(maps[0][2*c+1]); g != 0 {
			gids[rune(c)] = g
		}
	}
	return gids
}

var streamRE = regexp.MustCompile(`<<\s*/Length (\d+)[^>]*>>\nstream\n`)

// TestRenderPDFFontSubsetsEvicted renders documents needing more font
// subsets than the process keeps: every one must still come out the same
// as when its subset was new.
func TestRenderPDFFontSubsetsEvicted(t *testing.T) {
	// Pairs of letters from different blocks of 32: each pair needs a
	// subset of its own.
	letters := []rune("ÀĀĠŀƀƠǀǠȀȠɀɠʀ")
	var names []string
	for i, a := range letters {
		for _, b := range letters[i+1:] {
			names = append(names, "Trader "+string(a)+string(b))
		}
	}
	if len(names) <= 64 {
		t.Fatalf("%d names do not fill the cache", len(names))
	}
	first := make([][]byte, len(names))
	for i, name := range names {
		first[i] = renderPDF(t, withNames(t, name, "Buyer", "Item"))
	}
	for _, i := range []int{0, 1, len(names) - 1} {
		if again := renderPDF(t, withNames(t, names[i], "Buyer", "Item")); !bytes.Equal(first[i], again) {
			t.Errorf("%q renders differently the second time", names[i])
		}
		if text := pdfText(t, first[i], 0, 0); !strings.Contains(text, names[i]) {
			t.Errorf("text lacks %q", names[i])
		}
	}
}

// TestRenderFontSubsetsConcurrent renders documents needing font subsets
// not made yet from many goroutines at once (run with -race): each must
// come out as it does alone afterwards.
func TestRenderFontSubsetsConcurrent(t *testing.T) {
	names := []string{"Ọlá Ẹ̀gbẹ́ Ǹ", "Ɗanjuma Ƙwari Ǹ", "Chụkwụ Ọkọńkwọ Ǹ", "Plain Trader Ǹ", "Zoë Ångström Ǹ", "Ɓauchi Ƴan Ǹ"}
	views := make([]render.View, len(names))
	for i, name := range names {
		views[i] = withNames(t, name, "Buyer", "Item")
	}
	const copies = 4
	got := make([][]byte, copies*len(names))
	var wg sync.WaitGroup
	for c := range copies {
		for i := range names {
			wg.Go(func() {
				b, err := render.RenderWith(views[i], render.Options{Now: clock})
				if err != nil {
					t.Error(err)
				}
				got[c*len(names)+i] = b
			})
		}
	}
	wg.Wait()
	for i, v := range views {
		want := renderPDF(t, v)
		for c := range copies {
			if !bytes.Equal(got[c*len(names)+i], want) {
				t.Errorf("%q rendered at once with others differs from its rendering alone", names[i])
			}
		}
	}
}
