package formats

import (
	"context"
	"fmt"
	"strings"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/invoices"
	"github.com/einvoice-ng/einvoice/model/sheets"
)

// MaxSheetBytes bounds a spreadsheet file: 1 MiB (the router's body
// bound by default; over GraphQL the file travels base64 in a body under
// the same bound).
const MaxSheetBytes = 1 << 20

// SheetInvoice is one invoice of a spreadsheet, validated.
type SheetInvoice struct {
	sheets.Invoice
	// Valid says whether it can be submitted: its rows have no error and
	// the payload passes validation under the project's profile.
	Valid bool `json:"valid"`
}

// SheetPreview is a spreadsheet read for a project: every invoice, and
// every row's errors (its own, and its invoice's validation problems,
// placed on the row of the line, or the invoice's first row).
type SheetPreview struct {
	RowCount int               `json:"row_count"`
	Invoices []SheetInvoice    `json:"invoices"`
	Errors   []sheets.RowError `json:"errors"`
	Columns  []string          `json:"columns"`
	Counts   map[string]int    `json:"counts"`
}

// PreviewSheet reads a CSV or XLSX file of the template for the caller's
// project and validates each invoice, storing nothing: what the portal
// shows before anything is sent. The valid invoices are then submitted as
// one batch (POST /api/v2/invoices/batch, submitInvoiceBatch).
func (s *Service) PreviewSheet(ctx context.Context, who *model.Principal, data []byte, mediaType string) (*SheetPreview, error) {
	if err := requireScope(who, model.ScopeInvoicesValidate); err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, model.Invalid(model.ProblemMissing, "Field required: a CSV or XLSX file", "file")
	}
	if len(data) > MaxSheetBytes {
		return nil, model.Invalid(model.ProblemValueError, fmt.Sprintf("the file is larger than %d bytes", MaxSheetBytes), "file")
	}
	sh, err := sheets.Read(data, mediaType, "file")
	if err != nil {
		return nil, err
	}
	it, err := s.cfg.Authority.Issuer(ctx, who.ProjectID)
	if err != nil {
		return nil, err
	}
	out := &SheetPreview{RowCount: sh.RowCount, Errors: sh.Errors, Invoices: make([]SheetInvoice, 0, len(sh.Invoices))}
	for _, c := range sheets.Columns {
		out.Columns = append(out.Columns, c.Name)
	}
	for _, inv := range sh.Invoices {
		si := SheetInvoice{Invoice: inv}
		if inv.Payload != nil {
			inv.Payload["business_id"] = it.Project.BusinessID
			si.Payload = inv.Payload
			// Validated with the IRN its reference gives (recorded only
			// when the batch is submitted, which generates it again).
			check := make(map[string]any, len(inv.Payload)+1)
			for k, v := range inv.Payload {
				check[k] = v
			}
			if it.Authority != nil && it.Project.ServiceID != "" {
				date, _ := inv.Payload["issue_date"].(string)
				irn, err := it.Authority.GenerateIRN(inv.Reference, it.Project.ServiceID, date)
				if err != nil {
					out.Errors = append(out.Errors, sheets.RowError{Row: inv.Rows[0], Column: "invoice_reference",
						Message: "no IRN can be made from it: 1 to 50 letters and digits"})
					si.Payload = nil
					out.Invoices = append(out.Invoices, si)
					continue
				}
				check["irn"] = irn
			}
			rep, err := s.invoices.ValidateForProject(ctx, who.ProjectID, invoices.ValidateInput{InvoiceTypeCode: string(inv.InvoiceType), Payload: check})
			if err != nil {
				return nil, err
			}
			for _, is := range rep.Errors {
				out.Errors = append(out.Errors, rowOf(inv, is))
			}
			si.Valid = rep.Valid
			if !rep.Valid {
				si.Payload = nil
			}
		}
		out.Invoices = append(out.Invoices, si)
	}
	sortRowErrors(out.Errors)
	out.Counts = map[string]int{"rows": sh.RowCount, "invoices": len(out.Invoices), "valid": 0, "invalid": 0, "rows_with_errors": 0}
	for _, inv := range out.Invoices {
		if inv.Valid {
			out.Counts["valid"]++
		} else {
			out.Counts["invalid"]++
		}
	}
	seen := map[int]bool{}
	for _, e := range out.Errors {
		if !seen[e.Row] {
			seen[e.Row] = true
			out.Counts["rows_with_errors"]++
		}
	}
	return out, nil
}

// columnOf names the template column a payload field comes from.
var columnOf = map[string]string{
	"issue_date": "issue_date", "issue_time": "issue_time", "due_date": "due_date", "invoice_type_code": "invoice_type_code",
	"document_currency_code": "currency", "tax_currency_code": "currency", "note": "note", "order_reference": "order_reference",
	"buyer_reference": "buyer_reference", "payment_means": "payment_means_code", "payment_terms_note": "payment_terms_note",
	"party_name": "name", "tin": "tin", "email": "email", "telephone": "telephone", "street_name": "street",
	"city_name": "city", "postal_zone": "postal_zone", "lga": "lga", "state": "state", "country": "country",
	"name": "item_name", "description": "item_description", "sellers_item_identification": "sellers_item_id",
	"hsn_code": "hsn_code", "product_category": "product_category", "isic_code": "isic_code", "service_category": "service_category",
	"invoiced_quantity": "quantity", "price_amount": "unit_price", "base_quantity": "base_quantity", "price_unit": "price_unit",
	"dicount_amount": "discount_amount", "fee_amount": "fee_amount", "id": "tax_category", "percent": "tax_rate",
}

// rowOf places a validation issue on a row: a line's on its row, any
// other on the invoice's first row; the column is the template's where the
// field has one.
func rowOf(inv sheets.Invoice, is model.Issue) sheets.RowError {
	loc := is.Loc
	if len(loc) >= 2 && loc[0] == "body" && loc[1] == "payload" {
		loc = loc[2:]
	}
	e := sheets.RowError{Row: inv.Rows[0], Message: is.Message}
	if len(loc) >= 2 && loc[0] == "invoice_line" {
		if i, ok := loc[1].(int); ok && i >= 0 && i < len(inv.Rows) {
			e.Row = inv.Rows[i]
		}
	}
	var last string
	for _, l := range loc {
		if s, ok := l.(string); ok {
			last = s
		}
	}
	if col, ok := columnOf[last]; ok {
		switch {
		case len(loc) > 0 && loc[0] == "accounting_supplier_party":
			col = "supplier_" + col
		case len(loc) > 0 && loc[0] == "accounting_customer_party":
			col = "customer_" + col
		}
		e.Column = col
	}
	if e.Column == "" && is.Path != "" {
		e.Message = strings.TrimSpace(is.Path + ": " + is.Message)
	}
	return e
}

func sortRowErrors(errs []sheets.RowError) {
	for i := 1; i < len(errs); i++ {
		for j := i; j > 0 && errs[j].Row < errs[j-1].Row; j-- {
			errs[j], errs[j-1] = errs[j-1], errs[j]
		}
	}
}
