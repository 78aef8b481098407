// Package sheets reads invoices from a spreadsheet (CSV, or the first
// sheet of an XLSX workbook) laid out as einvoice's template: one row per
// invoice line, the rows of one invoice sharing its invoice_reference. It
// builds NRS's invoice of each reference, computing line amounts, tax and
// totals, and says what is wrong row by row. docs/spreadsheets.md is the
// template. A pure leaf: bytes in, payloads and row errors out.
package sheets

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"

	"github.com/einvoice-ng/einvoice/model"
)

// Bounds of a spreadsheet.
const (
	// MaxRows bounds the line rows of one file.
	MaxRows = 5000
	// MaxCellBytes bounds one cell.
	MaxCellBytes = 2000
	// MaxInvoices bounds the invoices of one file: one batch.
	MaxInvoices = model.MaxBatchItems
)

// Media types of the files read.
const (
	MediaCSV  = "text/csv"
	MediaXLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
)

// Column is one column of the template.
type Column struct {
	Name string
	// Level is "invoice" (the same on every row of the invoice; the first
	// row's counts, others may leave it empty) or "line".
	Level    string
	Required bool
	Doc      string
}

// Columns is the template, in its order.
var Columns = []Column{
	{"invoice_reference", "invoice", true, "the invoice's number (letters and digits): the rows of one invoice share it; the IRN is generated from it"},
	{"invoice_type", "invoice", true, "B2B, B2C or B2G"},
	{"issue_date", "invoice", true, "YYYY-MM-DD"},
	{"issue_time", "invoice", false, "HH:MM:SS"},
	{"due_date", "invoice", false, "YYYY-MM-DD"},
	{"invoice_type_code", "invoice", false, "NRS's invoice type (invoice-types list); default 381, Commercial Invoice"},
	{"currency", "invoice", false, "document and tax currency; default NGN"},
	{"note", "invoice", false, ""},
	{"order_reference", "invoice", false, ""},
	{"buyer_reference", "invoice", false, ""},
	{"payment_means_code", "invoice", false, "NRS's payment-means list, such as 30 (credit transfer)"},
	{"payment_terms_note", "invoice", false, ""},
	{"supplier_name", "invoice", true, ""},
	{"supplier_tin", "invoice", true, ""},
	{"supplier_email", "invoice", true, ""},
	{"supplier_telephone", "invoice", false, "starting with +"},
	{"supplier_street", "invoice", true, ""},
	{"supplier_city", "invoice", true, ""},
	{"supplier_postal_zone", "invoice", true, ""},
	{"supplier_lga", "invoice", true, "NRS's LGA code, such as NG-OY-INO"},
	{"supplier_state", "invoice", true, "NRS's state code, such as NG-OY"},
	{"supplier_country", "invoice", false, "ISO 3166-1 alpha-2; default NG"},
	{"customer_name", "invoice", false, "required for B2B and B2G"},
	{"customer_tin", "invoice", false, ""},
	{"customer_email", "invoice", false, ""},
	{"customer_telephone", "invoice", false, ""},
	{"customer_street", "invoice", false, ""},
	{"customer_city", "invoice", false, ""},
	{"customer_postal_zone", "invoice", false, ""},
	{"customer_lga", "invoice", false, ""},
	{"customer_state", "invoice", false, ""},
	{"customer_country", "invoice", false, "default NG when the customer has an address"},
	{"item_name", "line", true, ""},
	{"item_description", "line", false, ""},
	{"sellers_item_id", "line", false, ""},
	{"hsn_code", "line", false, "goods: HS code, such as 2523.29 (with product_category)"},
	{"product_category", "line", false, ""},
	{"isic_code", "line", false, "services: ISIC code, such as 4330 (with service_category)"},
	{"service_category", "line", false, ""},
	{"quantity", "line", true, "a decimal"},
	{"unit_price", "line", true, "a decimal: the price of base_quantity units"},
	{"base_quantity", "line", false, "default 1"},
	{"price_unit", "line", false, "such as EA, H87 or \"NGN per 1\""},
	{"discount_amount", "line", false, "default 0"},
	{"fee_amount", "line", false, "default 0"},
	{"tax_category", "line", false, "NRS's tax-categories list; default STANDARD_VAT"},
	{"tax_rate", "line", false, "a percentage; default 7.5"},
}

// RowError is what is wrong with one row.
type RowError struct {
	// Row is the spreadsheet's row number (the header is row 1).
	Row int `json:"row"`
	// Column is the template column, when one is to blame.
	Column  string `json:"column,omitempty"`
	Message string `json:"message"`
}

// Invoice is one invoice read from the file.
type Invoice struct {
	Reference   string            `json:"invoice_reference"`
	InvoiceType model.InvoiceKind `json:"invoice_type"`
	// Rows are the invoice's rows, its lines in order.
	Rows []int `json:"rows"`
	// Payload is NRS's invoice (no irn: it is generated from the
	// reference when submitted); nil when a row of it has errors.
	Payload map[string]any `json:"payload"`
}

// Sheet is a file read.
type Sheet struct {
	Invoices []Invoice `json:"invoices"`
	// Errors are the rows' errors, in row order.
	Errors []RowError `json:"errors"`
	// RowCount is the number of line rows (the header left out).
	RowCount int `json:"row_count"`
}

// Read parses a CSV or XLSX file (by media type, else by its first bytes:
// an XLSX file is a ZIP archive) and builds its invoices. A file that is
// not a spreadsheet of the template (no header, an unknown or missing
// column, too many rows) is an invalid *model.Error at loc.
func Read(data []byte, mediaType string, loc ...any) (*Sheet, error) {
	if len(loc) == 0 {
		loc = []any{"file"}
	}
	var records [][]string
	var err error
	isXLSX := mediaType == MediaXLSX || (mediaType != MediaCSV && bytes.HasPrefix(data, []byte("PK\x03\x04")))
	if isXLSX {
		records, err = readXLSX(data)
	} else {
		records, err = readCSV(data)
	}
	if err != nil {
		return nil, model.Invalid(model.ProblemValueError, err.Error(), loc...)
	}
	return build(records, loc)
}

func readCSV(data []byte) ([][]string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.ReuseRecord = false
	var out [][]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("the file is not a readable CSV: %v", err)
		}
		if len(out) > MaxRows+1 {
			return nil, fmt.Errorf("the file has more than %d rows", MaxRows)
		}
		out = append(out, rec)
	}
	return out, nil
}

func readXLSX(data []byte) ([][]string, error) {
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: 64 << 20, UnzipXMLSizeLimit: 16 << 20})
	if err != nil {
		return nil, fmt.Errorf("the file is not a readable XLSX workbook: %v", err)
	}
	defer func() { _ = f.Close() }()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, errors.New("the workbook has no sheet")
	}
	rows, err := f.Rows(sheets[0])
	if err != nil {
		return nil, fmt.Errorf("the first sheet cannot be read: %v", err)
	}
	defer func() { _ = rows.Close() }()
	var out [][]string
	for rows.Next() {
		if len(out) > MaxRows+1 {
			return nil, fmt.Errorf("the file has more than %d rows", MaxRows)
		}
		cols, err := rows.Columns()
		if err != nil {
			return nil, fmt.Errorf("the first sheet cannot be read: %v", err)
		}
		out = append(out, cols)
	}
	return out, rows.Error()
}

var reDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

type row struct {
	n      int
	values map[string]string
}

func (r row) get(col string) string { return r.values[col] }

func build(records [][]string, loc []any) (*Sheet, error) {
	if len(records) == 0 {
		return nil, model.Invalid(model.ProblemValueError, "the file is empty: its first row names the template's columns", loc...)
	}
	header := records[0]
	index := map[string]int{}
	known := map[string]bool{}
	for _, c := range Columns {
		known[c.Name] = true
	}
	var p model.Problems
	for i, h := range header {
		name := strings.ToLower(strings.TrimSpace(h))
		if name == "" {
			continue
		}
		if !known[name] {
			p.Add(model.ProblemValueError, fmt.Sprintf("column %d, %q, is not a column of the template", i+1, h), loc...)
			continue
		}
		if _, dup := index[name]; dup {
			p.Add(model.ProblemValueError, fmt.Sprintf("column %q appears twice", name), loc...)
		}
		index[name] = i
	}
	for _, c := range Columns {
		if _, ok := index[c.Name]; c.Required && !ok {
			p.Add(model.ProblemMissing, fmt.Sprintf("the header lacks the column %q", c.Name), loc...)
		}
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	sh := &Sheet{Invoices: []Invoice{}, Errors: []RowError{}}
	var rows []row
	for i, rec := range records[1:] {
		r := row{n: i + 2, values: map[string]string{}}
		empty := true
		for name, at := range index {
			if at < len(rec) {
				v := strings.TrimSpace(rec[at])
				if len(v) > MaxCellBytes {
					sh.Errors = append(sh.Errors, RowError{Row: r.n, Column: name, Message: fmt.Sprintf("longer than %d bytes", MaxCellBytes)})
					v = v[:MaxCellBytes]
				}
				r.values[name] = v
				empty = empty && v == ""
			}
		}
		if !empty {
			rows = append(rows, r)
		}
	}
	sh.RowCount = len(rows)
	if len(rows) == 0 {
		return nil, model.Invalid(model.ProblemValueError, "the file has a header and no line rows", loc...)
	}
	// Group by reference, in order of first appearance.
	order := []string{}
	groups := map[string][]row{}
	for _, r := range rows {
		ref := r.get("invoice_reference")
		if ref == "" {
			sh.Errors = append(sh.Errors, RowError{Row: r.n, Column: "invoice_reference", Message: "required: the rows of one invoice share its reference"})
			continue
		}
		key := strings.ToUpper(ref)
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], r)
	}
	if len(order) > MaxInvoices {
		return nil, model.Invalid(model.ProblemValueError,
			fmt.Sprintf("the file holds %d invoices; one file is one batch of at most %d", len(order), MaxInvoices), loc...)
	}
	for _, key := range order {
		inv, errs := buildInvoice(groups[key])
		sh.Invoices = append(sh.Invoices, inv)
		sh.Errors = append(sh.Errors, errs...)
	}
	sortErrors(sh.Errors)
	return sh, nil
}

func sortErrors(errs []RowError) {
	for i := 1; i < len(errs); i++ {
		for j := i; j > 0 && errs[j].Row < errs[j-1].Row; j-- {
			errs[j], errs[j-1] = errs[j-1], errs[j]
		}
	}
}

var hundred = decimal.NewFromInt(100)

type builder struct {
	errs  []RowError
	first row
}

func (b *builder) fail(r row, col, msg string) {
	b.errs = append(b.errs, RowError{Row: r.n, Column: col, Message: msg})
}

// inv reads an invoice-level column: the first row's value; another row
// with a different value is an error.
func (b *builder) inv(rows []row, col string) string {
	v := b.first.get(col)
	for _, r := range rows[1:] {
		if w := r.get(col); w != "" && w != v {
			b.fail(r, col, fmt.Sprintf("%q differs from the invoice's first row (row %d: %q)", w, b.first.n, v))
		}
	}
	return v
}

func (b *builder) required(r row, col, v string) bool {
	if v == "" {
		b.fail(r, col, "required")
		return false
	}
	return true
}

func (b *builder) num(r row, col, def string) (decimal.Decimal, bool) {
	v := strings.ReplaceAll(r.get(col), ",", "")
	if v == "" {
		v = def
	}
	if v == "" {
		b.fail(r, col, "required")
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(v)
	if err != nil || strings.ContainsAny(v, "eE") {
		b.fail(r, col, fmt.Sprintf("%q is not a decimal number", r.get(col)))
		return decimal.Zero, false
	}
	return d, true
}

func (b *builder) date(r row, col, v string) {
	if v == "" {
		return
	}
	if _, err := time.Parse(time.DateOnly, v); err != nil || !reDate.MatchString(v) {
		b.fail(r, col, fmt.Sprintf("%q is not a date YYYY-MM-DD", v))
	}
}

func num(d decimal.Decimal) json.Number { return json.Number(d.String()) }

func buildInvoice(rows []row) (Invoice, []RowError) {
	b := &builder{first: rows[0]}
	first := rows[0]
	out := Invoice{Reference: first.get("invoice_reference")}
	for _, r := range rows {
		out.Rows = append(out.Rows, r.n)
	}
	p := map[string]any{}
	kindText := b.inv(rows, "invoice_type")
	kind, ok := model.ParseInvoiceKind(kindText)
	if b.required(first, "invoice_type", kindText) && !ok {
		b.fail(first, "invoice_type", fmt.Sprintf("%q is not B2B, B2C or B2G", kindText))
	}
	out.InvoiceType = kind
	p["invoice_kind"] = string(kind)
	issue := b.inv(rows, "issue_date")
	if b.required(first, "issue_date", issue) {
		b.date(first, "issue_date", issue)
		p["issue_date"] = issue
	}
	for _, c := range []string{"issue_time", "due_date", "note", "order_reference", "buyer_reference", "payment_terms_note"} {
		if v := b.inv(rows, c); v != "" {
			if c == "due_date" {
				b.date(first, c, v)
			}
			p[c] = v
		}
	}
	code := b.inv(rows, "invoice_type_code")
	if code == "" {
		code = "381"
	}
	p["invoice_type_code"] = code
	cur := strings.ToUpper(b.inv(rows, "currency"))
	if cur == "" {
		cur = "NGN"
	}
	p["document_currency_code"], p["tax_currency_code"] = cur, cur
	if pm := b.inv(rows, "payment_means_code"); pm != "" {
		m := map[string]any{"payment_means_code": pm}
		if due, ok := p["due_date"]; ok {
			m["payment_due_date"] = due
		}
		p["payment_means"] = []any{m}
	}
	p["accounting_supplier_party"] = b.party(rows, "supplier", true)
	if cus := b.party(rows, "customer", false); len(cus) > 0 {
		p["accounting_customer_party"] = cus
	} else if kind == model.InvoiceKindB2B || kind == model.InvoiceKindB2G {
		b.fail(first, "customer_name", "required for a "+string(kind)+" invoice")
	}
	var lines []any
	type catKey struct{ id, rate string }
	taxable := map[catKey]decimal.Decimal{}
	var cats []catKey
	sum := decimal.Zero
	for _, r := range rows {
		l := map[string]any{}
		if name := r.get("item_name"); b.required(r, "item_name", name) {
			item := map[string]any{"name": name}
			if v := r.get("item_description"); v != "" {
				item["description"] = v
			}
			if v := r.get("sellers_item_id"); v != "" {
				item["sellers_item_identification"] = v
			}
			l["item"] = item
		}
		for _, c := range []string{"hsn_code", "product_category", "isic_code", "service_category"} {
			if v := r.get(c); v != "" {
				l[c] = v
			}
		}
		qty, ok1 := b.num(r, "quantity", "")
		price, ok2 := b.num(r, "unit_price", "")
		base, ok3 := b.num(r, "base_quantity", "1")
		disc, ok4 := b.num(r, "discount_amount", "0")
		fee, ok5 := b.num(r, "fee_amount", "0")
		rate, ok6 := b.num(r, "tax_rate", "7.5")
		if ok3 && base.Sign() <= 0 {
			b.fail(r, "base_quantity", "must be greater than 0")
			ok3 = false
		}
		if ok1 && qty.Sign() <= 0 {
			b.fail(r, "quantity", "must be greater than 0")
			ok1 = false
		}
		if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
			continue
		}
		gross := qty.Mul(price).DivRound(base, 10)
		net := gross.Sub(disc).Add(fee).Round(2)
		discRate := decimal.Zero
		if gross.Sign() != 0 && disc.Sign() != 0 {
			discRate = disc.Mul(hundred).DivRound(gross, 4)
		}
		feeRate := decimal.Zero
		if gross.Sign() != 0 && fee.Sign() != 0 {
			feeRate = fee.Mul(hundred).DivRound(gross, 4)
		}
		l["invoiced_quantity"] = num(qty)
		l["line_extension_amount"] = num(net)
		l["dicount_rate"], l["dicount_amount"] = num(discRate), num(disc)
		l["fee_rate"], l["fee_amount"] = num(feeRate), num(fee)
		unit := r.get("price_unit")
		if unit == "" {
			unit = cur + " per " + base.String()
		}
		l["price"] = map[string]any{"price_amount": num(price), "base_quantity": num(base), "price_unit": unit}
		lines = append(lines, l)
		cat := r.get("tax_category")
		if cat == "" {
			cat = "STANDARD_VAT"
		}
		k := catKey{cat, rate.String()}
		if _, seen := taxable[k]; !seen {
			cats = append(cats, k)
		}
		taxable[k] = taxable[k].Add(net)
		sum = sum.Add(net)
	}
	p["invoice_line"] = lines
	tax := decimal.Zero
	var subs []any
	for _, k := range cats {
		rate, _ := decimal.NewFromString(k.rate)
		t := taxable[k].Mul(rate).DivRound(hundred, 10).Round(2)
		tax = tax.Add(t)
		subs = append(subs, map[string]any{"taxable_amount": num(taxable[k]), "tax_amount": num(t),
			"tax_category": map[string]any{"id": k.id, "percent": num(rate)}})
	}
	p["tax_total"] = []any{map[string]any{"tax_amount": num(tax), "tax_subtotal": subs}}
	p["legal_monetary_total"] = map[string]any{"line_extension_amount": num(sum), "tax_exclusive_amount": num(sum),
		"tax_inclusive_amount": num(sum.Add(tax)), "payable_amount": num(sum.Add(tax))}
	if len(b.errs) == 0 {
		out.Payload = p
	}
	return out, b.errs
}

// party reads a supplier's or customer's columns; an empty map when none
// is given (a B2C invoice without a customer).
func (b *builder) party(rows []row, prefix string, required bool) map[string]any {
	o := map[string]any{}
	addr := map[string]any{}
	for _, f := range []struct{ col, key string }{{"name", "party_name"}, {"tin", "tin"}, {"email", "email"}, {"telephone", "telephone"}} {
		v := b.inv(rows, prefix+"_"+f.col)
		if required && f.col != "telephone" {
			b.required(b.first, prefix+"_"+f.col, v)
		}
		if v != "" {
			o[f.key] = v
		}
	}
	for _, f := range []struct{ col, key string }{{"street", "street_name"}, {"city", "city_name"}, {"postal_zone", "postal_zone"}, {"lga", "lga"}, {"state", "state"}} {
		v := b.inv(rows, prefix+"_"+f.col)
		if required {
			b.required(b.first, prefix+"_"+f.col, v)
		}
		if v != "" {
			addr[f.key] = v
		}
	}
	country := strings.ToUpper(b.inv(rows, prefix+"_country"))
	if len(addr) > 0 {
		if country == "" {
			country = "NG"
		}
		addr["country"] = country
		o["postal_address"] = addr
	}
	return o
}

// Template is the template's header line as CSV.
func Template() string {
	names := make([]string, len(Columns))
	for i, c := range Columns {
		names[i] = c.Name
	}
	return strings.Join(names, ",") + "\n"
}
