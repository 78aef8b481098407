package formats

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/submissions"
	"github.com/einvoice-ng/einvoice/model/ubl"
)

// NRS's invoice types of notes, from its invoice-types list
// (reference/invoice-types.json): 380 "Credit Note", 384 "Debit Note".
const (
	TypeCreditNote = "380"
	TypeDebitNote  = "384"
)

// noteTypes are NRS's note types, which are never the original of a note.
var noteTypes = map[string]bool{"380": true, "384": true, "393": true, "395": true}

// MaxNoteLines bounds the lines of a note request.
const MaxNoteLines = 1000

// NoteInput asks for a credit or debit note of a confirmed invoice.
type NoteInput struct {
	// InvoiceReference is the note's own number (letters and digits), its
	// IRN's first part.
	InvoiceReference string `json:"invoice_reference" required:"true"`
	// IssueDate is the note's date, YYYY-MM-DD; default today (Lagos).
	IssueDate string `json:"issue_date"`
	// Note is the reason, written as the note's note.
	Note string `json:"note"`
	// Lines are what the note credits or debits; empty means the whole
	// invoice (a credit note only).
	Lines []NoteLine `json:"lines"`
}

// NoteLine is one line of a note: a quantity of an original line (at its
// price), or an amount on it (a price adjustment, quantity 1).
type NoteLine struct {
	// Line is the original line's position in invoice_line, from 0.
	Line *int `json:"line" required:"true"`
	// Quantity (of the original line, at its price) or Amount (a price
	// adjustment): a JSON number, or a decimal string.
	Quantity any `json:"quantity"`
	Amount   any `json:"amount"`
}

// decimalOf reads a JSON number (json.Number, float64) or a decimal
// string; nil is absent.
func decimalOf(v any) (*decimal.Decimal, bool) {
	var d decimal.Decimal
	var err error
	switch x := v.(type) {
	case nil:
		return nil, true
	case json.Number:
		d, err = decimal.NewFromString(string(x))
	case string:
		d, err = decimal.NewFromString(x)
	case float64:
		d = decimal.NewFromFloat(x)
	case int:
		d = decimal.NewFromInt(int64(x))
	default:
		return nil, false
	}
	if err != nil {
		return nil, false
	}
	return &d, true
}

func (l NoteLine) quantity() *decimal.Decimal { d, _ := decimalOf(l.Quantity); return d }
func (l NoteLine) amount() *decimal.Decimal   { d, _ := decimalOf(l.Amount); return d }

// Validate checks the input's own fields.
func (in NoteInput) Validate(p *model.Problems) {
	if in.InvoiceReference == "" {
		p.Add(model.ProblemMissing, "Field required", "invoice_reference")
	} else if len(in.InvoiceReference) > 50 {
		p.Add(model.ProblemStringTooLong, "String should have at most 50 characters", "invoice_reference")
	}
	if in.IssueDate != "" {
		if _, err := time.Parse(time.DateOnly, in.IssueDate); err != nil {
			p.Add(model.ProblemValueError, "Input should be a valid date YYYY-MM-DD", "issue_date")
		}
	}
	if len(in.Note) > 2000 {
		p.Add(model.ProblemStringTooLong, "String should have at most 2000 characters", "note")
	}
	if len(in.Lines) > MaxNoteLines {
		p.Add(model.ProblemValueError, fmt.Sprintf("List should have at most %d items", MaxNoteLines), "lines")
	}
	for i, l := range in.Lines {
		if l.Line == nil {
			p.Add(model.ProblemMissing, "Field required", "lines", i, "line")
		} else if *l.Line < 0 {
			p.Add(model.ProblemValueError, "Input should be greater than or equal to 0", "lines", i, "line")
		}
		q, qok := decimalOf(l.Quantity)
		a, aok := decimalOf(l.Amount)
		switch {
		case !qok:
			p.Add(model.ProblemValueError, "Input should be a valid number", "lines", i, "quantity")
		case !aok:
			p.Add(model.ProblemValueError, "Input should be a valid number", "lines", i, "amount")
		case q == nil && a == nil:
			p.Add(model.ProblemMissing, "Either quantity or amount is required", "lines", i)
		case q != nil && a != nil:
			p.Add(model.ProblemValueError, "Give quantity or amount, not both", "lines", i)
		case q != nil && q.Sign() <= 0:
			p.Add(model.ProblemValueError, "Input should be greater than 0", "lines", i, "quantity")
		case a != nil && a.Sign() <= 0:
			p.Add(model.ProblemValueError, "Input should be greater than 0", "lines", i, "amount")
		}
	}
}

// CreditNote builds a credit note of a confirmed invoice (NRS's type 380,
// its billing_reference the original's IRN and issue date) and submits it
// as POST /api/v2/invoices submits an invoice.
func (s *Service) CreditNote(ctx context.Context, who *model.Principal, invoiceID uuid.UUID, in NoteInput) (*submissions.View, error) {
	return s.note(ctx, who, invoiceID, TypeCreditNote, in)
}

// DebitNote builds a debit note of a confirmed invoice (NRS's type 384)
// and submits it; it names the lines and quantities or amounts it adds.
func (s *Service) DebitNote(ctx context.Context, who *model.Principal, invoiceID uuid.UUID, in NoteInput) (*submissions.View, error) {
	return s.note(ctx, who, invoiceID, TypeDebitNote, in)
}

// lagos is Nigeria's time (WAT, UTC+1, no daylight saving).
var lagos = time.FixedZone("WAT", 3600)

func (s *Service) note(ctx context.Context, who *model.Principal, invoiceID uuid.UUID, typeCode string, in NoteInput) (*submissions.View, error) {
	if err := requireScope(who, model.ScopeInvoicesSubmit); err != nil {
		return nil, err
	}
	var p model.Problems
	in.Validate(&p)
	if typeCode == TypeDebitNote && len(in.Lines) == 0 {
		p.Add(model.ProblemMissing, "A debit note names the lines it adds to: quantities or amounts", "lines")
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	cl, err := s.subs.Payload(ctx, who, invoiceID)
	if err != nil {
		return nil, err
	}
	orig := cl.Invoice
	if orig.Status != model.InvoiceConfirmed {
		return nil, model.Errorf(model.CodeConflict, "invoice %s is %s: a note is built from an invoice NRS confirmed", invoiceID, orig.Status)
	}
	if noteTypes[orig.InvoiceTypeCode] {
		return nil, model.Errorf(model.CodeConflict, "invoice %s is itself a note (NRS type %s): build the note from the invoice it corrects", invoiceID, orig.InvoiceTypeCode)
	}
	date := in.IssueDate
	if date == "" {
		date = s.cfg.Now().In(lagos).Format(time.DateOnly)
	}
	origDate, _ := cl.Payload["issue_date"].(string)
	if date < origDate {
		return nil, model.Invalid(model.ProblemValueError, "the note's issue_date is before the invoice's ("+origDate+")", "issue_date")
	}
	payload, err := buildNote(cl.Payload, orig.IRN, typeCode, date, in)
	if err != nil {
		return nil, err
	}
	// What the original's source said that NRS has no field for (the
	// parties' electronic addresses, the payee's accounts) is the note's
	// too: its UBL carries it as the invoice's does.
	var carried ubl.Carried
	if src, err := store.Sources(s.st).Get(ctx, who.ProjectID, invoiceID); err == nil {
		_ = json.Unmarshal([]byte(src.Carried), &carried)
	} else if model.ErrorCodeOf(err) != model.CodeNotFound {
		return nil, err
	}
	v, err := s.subs.Submit(ctx, who, submissions.SubmitInput{InvoiceType: string(orig.InvoiceType), Payload: payload, InvoiceReference: in.InvoiceReference})
	if err != nil {
		return nil, err
	}
	req, _ := json.Marshal(in)
	report := noteReport{BuiltFrom: noteOrigin{InvoiceID: invoiceID, IRN: orig.IRN}, InvoiceTypeCode: typeCode, WholeInvoice: len(in.Lines) == 0}
	if err := s.keep(ctx, who.ProjectID, v.ID, model.SourceNote, string(req), report, carried); err != nil {
		return nil, err
	}
	return v, nil
}

// noteReport is the report kept with a note: the invoice it was built
// from.
type noteReport struct {
	BuiltFrom       noteOrigin `json:"built_from"`
	InvoiceTypeCode string     `json:"invoice_type_code"`
	WholeInvoice    bool       `json:"whole_invoice"`
}

type noteOrigin struct {
	InvoiceID uuid.UUID `json:"invoice_id"`
	IRN       string    `json:"irn"`
}

var hundred = decimal.NewFromInt(100)

// buildNote makes a note's payload from the original's: the same parties,
// currencies and references, the original's IRN as billing_reference, and
// either every line (a whole credit) or the lines asked for, with the tax
// and totals computed for them at the original's tax category.
func buildNote(orig map[string]any, origIRN, typeCode, date string, in NoteInput) (map[string]any, error) {
	note := map[string]any{}
	for _, k := range []string{"business_id", "document_currency_code", "tax_currency_code", "invoice_kind",
		"accounting_supplier_party", "accounting_customer_party", "payee_party", "bill_party", "ship_party",
		"tax_representative_party", "order_reference", "buyer_reference", "contract_document_reference", "payment_means", "accounting_cost",
		"payment_terms_note"} {
		if v, ok := orig[k]; ok {
			note[k] = v
		}
	}
	note["invoice_type_code"] = typeCode
	note["issue_date"] = date
	origDate, _ := orig["issue_date"].(string)
	note["billing_reference"] = []any{map[string]any{"irn": origIRN, "issue_date": origDate}}
	if in.Note != "" {
		note["note"] = in.Note
	}
	if pm, ok := note["payment_means"].([]any); ok {
		// The original's due dates are not the note's.
		var means []any
		for _, m := range pm {
			if o, ok := m.(map[string]any); ok {
				means = append(means, map[string]any{"payment_means_code": o["payment_means_code"]})
			}
		}
		note["payment_means"] = means
	}
	if len(in.Lines) == 0 {
		for _, k := range []string{"invoice_line", "tax_total", "legal_monetary_total", "allowance_charge"} {
			if v, ok := orig[k]; ok {
				note[k] = v
			}
		}
		return note, nil
	}
	inv, err := nrs.Decode(orig)
	if err != nil {
		return nil, err
	}
	cat, err := singleCategory(inv)
	if err != nil {
		return nil, err
	}
	origLines, _ := orig["invoice_line"].([]any)
	var lines []any
	sum := decimal.Zero
	var p model.Problems
	for i, nl := range in.Lines {
		if *nl.Line >= len(inv.Lines) || *nl.Line >= len(origLines) {
			p.Add(model.ProblemValueError, fmt.Sprintf("the invoice has %d lines (0 to %d)", len(inv.Lines), len(inv.Lines)-1), "lines", i, "line")
			continue
		}
		ol := inv.Lines[*nl.Line]
		line := copyMap(origLines[*nl.Line])
		var net decimal.Decimal
		if q := nl.quantity(); q != nil {
			oq := ol.InvoicedQuantity
			if !oq.Valid || oq.Decimal.Sign() <= 0 || !ol.LineExtensionAmount.Valid {
				p.Add(model.ProblemValueError, "the original line has no positive quantity and amount to take a share of", "lines", i, "quantity")
				continue
			}
			if typeCode == TypeCreditNote && q.GreaterThan(oq.Decimal) {
				p.Add(model.ProblemValueError, "a credit note credits at most the line's quantity ("+oq.Decimal.String()+")", "lines", i, "quantity")
				continue
			}
			share := q.DivRound(oq.Decimal, 16)
			net = ol.LineExtensionAmount.Decimal.Mul(share).Round(2)
			line["invoiced_quantity"] = number(*q)
			line["dicount_amount"] = number(orZero(ol.DiscountAmount).Mul(share).Round(2))
			line["fee_amount"] = number(orZero(ol.FeeAmount).Mul(share).Round(2))
			delete(line, "discount_amount")
		} else {
			net = nl.amount().Round(2)
			line["invoiced_quantity"] = json.Number("1")
			line["dicount_rate"], line["dicount_amount"] = json.Number("0"), json.Number("0")
			line["fee_rate"], line["fee_amount"] = json.Number("0"), json.Number("0")
			delete(line, "discount_rate")
			delete(line, "discount_amount")
			price := copyMap(line["price"])
			price["price_amount"] = number(net)
			price["base_quantity"] = json.Number("1")
			line["price"] = price
		}
		line["line_extension_amount"] = number(net)
		sum = sum.Add(net)
		lines = append(lines, line)
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	tax := decimal.Zero
	if cat.Percent.Valid {
		tax = sum.Mul(cat.Percent.Decimal).DivRound(hundred, 10).Round(2)
	}
	note["invoice_line"] = lines
	catObj := map[string]any{"id": cat.ID}
	if cat.Percent.Valid {
		catObj["percent"] = number(cat.Percent.Decimal)
	}
	note["tax_total"] = []any{map[string]any{"tax_amount": number(tax), "tax_subtotal": []any{map[string]any{
		"taxable_amount": number(sum), "tax_amount": number(tax), "tax_category": catObj}}}}
	note["legal_monetary_total"] = map[string]any{"line_extension_amount": number(sum), "tax_exclusive_amount": number(sum),
		"tax_inclusive_amount": number(sum.Add(tax)), "payable_amount": number(sum.Add(tax))}
	return note, nil
}

// singleCategory is the original's one tax category: NRS's lines carry
// none, so a note of some lines is taxed at the invoice's only category.
func singleCategory(inv *nrs.Invoice) (nrs.TaxCategory, error) {
	var found []nrs.TaxCategory
	for _, tt := range inv.TaxTotals {
		for _, st := range tt.TaxSubtotals {
			found = append(found, st.Category)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nrs.TaxCategory{}, model.Errorf(model.CodeConflict, "the invoice has no tax category to tax the note's lines at")
	}
	return nrs.TaxCategory{}, model.Invalid(model.ProblemValueError,
		"the invoice has several tax categories and NRS's lines carry none, so a note of some lines cannot be taxed: credit the whole invoice (no lines), or submit the note as JSON", "lines")
}

func orZero(a nrs.Amount) decimal.Decimal {
	if a.Valid {
		return a.Decimal
	}
	return decimal.Zero
}

func number(d decimal.Decimal) json.Number { return json.Number(d.String()) }

func copyMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	out := make(map[string]any, len(m))
	for k, x := range m {
		out[k] = x
	}
	return out
}
