package rest

import (
	"context"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/formats"
	"github.com/einvoice-ng/einvoice/model/sheets"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// formatRoutes declares the routes of invoices in other formats: UBL in
// (convert, and submit through POST /invoices), UBL out, the mapping
// report, and credit and debit notes. They share the submitted invoices'
// limits (the key's and project's rates, the project's in-flight cap).
func (a *api) formatRoutes(r chi.Router, submit, read func(op string) func(http.Handler) http.Handler, lim *inFlight) {
	validate := func(op string) func(http.Handler) http.Handler {
		return chainMW(a.requireKey(model.ScopeInvoicesValidate, op), lim.middleware)
	}
	r.With(validate("invoices.convert")).Post("/invoices/convert", a.adapt(a.convertInvoice))
	r.With(validate("invoices.spreadsheet")).Post("/invoices/spreadsheet", a.adapt(a.previewSpreadsheet))
	r.With(read("invoices.ubl")).Get("/invoices/{invoice_id}/ubl", a.adapt(a.invoiceUBL))
	r.With(read("invoices.mapping")).Get("/invoices/{invoice_id}/mapping", a.adapt(a.invoiceMapping))
	r.With(submit("invoices.credit_note")).Post("/invoices/{invoice_id}/credit-notes", a.adapt(a.creditNote))
	r.With(submit("invoices.debit_note")).Post("/invoices/{invoice_id}/debit-notes", a.adapt(a.debitNote))
}

// isXML tells a body sent as XML (application/xml, text/xml or a
// +xml type).
func isXML(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return false
	}
	return mt == "application/xml" || mt == "text/xml" || strings.HasSuffix(mt, "+xml")
}

// checkXMLContentType refuses a body not sent as XML (415), and a charset
// other than UTF-8.
func checkXMLContentType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if isXML(r) {
		_, params, _ := mime.ParseMediaType(ct)
		if cs, ok := params["charset"]; !ok || strings.EqualFold(cs, "utf-8") || strings.EqualFold(cs, "utf8") {
			return nil
		}
	}
	return model.Errorf(model.CodeUnsupportedMediaType,
		"Content-Type %q is not supported: send the UBL 2.1 document with Content-Type: application/xml (UTF-8)", truncate(ct, 100))
}

// prefersXML tells whether the Accept header ranks XML above JSON (an
// exact application/xml or text/xml, by quality, then order).
func prefersXML(r *http.Request) bool {
	accept := r.Header.Get("Accept")
	if accept == "" || !strings.Contains(accept, "xml") {
		return false
	}
	bestXML, bestJSON := -1.0, -1.0
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		switch mt {
		case "application/xml", "text/xml":
			if q > bestXML {
				bestXML = q
			}
		case "application/json", "*/*", "application/*":
			if q > bestJSON {
				bestJSON = q
			}
		}
	}
	return bestXML > 0 && bestXML > bestJSON
}

// convertInput reads a UBL request: the document (the body) and the
// query's invoice_type and invoice_reference.
func convertInput(r *http.Request) (formats.ConvertInput, error) {
	if err := checkXMLContentType(r); err != nil {
		return formats.ConvertInput{}, err
	}
	q := r.URL.Query()
	var p model.Problems
	for name := range q {
		if name != "invoice_type" && name != "invoice_reference" {
			p.Add(model.ProblemExtraForbidden, "Extra inputs are not permitted", "query", name)
		}
	}
	in := formats.ConvertInput{InvoiceType: q.Get("invoice_type"), InvoiceReference: q.Get("invoice_reference")}
	var own model.Problems
	in.Validate(&own)
	for _, f := range own.List() {
		if len(f.Loc) > 0 && f.Loc[0] != "body" {
			p.AddAll([]any{"query"}, []model.FieldError{f})
		}
	}
	if err := p.Err(); err != nil {
		return formats.ConvertInput{}, err
	}
	doc, err := readBody(r)
	if err != nil {
		return formats.ConvertInput{}, err
	}
	return formats.ConvertInput{Document: doc, InvoiceType: q.Get("invoice_type"), InvoiceReference: q.Get("invoice_reference")}, nil
}

// atXML locates the problems of a UBL request: the document's at "body"
// as they are, the payload's under "body" too (the converted payload),
// and the input's own (invoice_type, invoice_reference) in the query.
func atXML(err error) error {
	e := model.AsError(err)
	if e.Code != model.CodeInvalid || len(e.Fields) == 0 {
		return err
	}
	var p model.Problems
	for _, f := range e.Fields {
		switch {
		case len(f.Loc) > 0 && f.Loc[0] == "body":
			p.AddAll(nil, []model.FieldError{f})
		case len(f.Loc) > 0 && (f.Loc[0] == "invoice_type" || f.Loc[0] == "invoice_reference"):
			p.AddAll([]any{"query"}, []model.FieldError{f})
		default:
			p.AddAll([]any{"body"}, []model.FieldError{f})
		}
	}
	return p.Err()
}

func (a *api) convertInvoice(w http.ResponseWriter, r *http.Request) error {
	in, err := convertInput(r)
	if err != nil {
		return err
	}
	out, err := a.app.Formats.Convert(r.Context(), keyFrom(r), in)
	if err != nil {
		return atXML(err)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// submitUBL is POST /invoices with a UBL body: convert, then submit, the
// mapping report kept with the invoice.
func (a *api) submitUBL(w http.ResponseWriter, r *http.Request) error {
	in, err := convertInput(r)
	if err != nil {
		return err
	}
	out, err := a.app.Formats.Submit(r.Context(), keyFrom(r), in)
	if err != nil {
		return atXML(err)
	}
	w.Header().Set("Location", out.Links.Self)
	writeJSON(w, http.StatusAccepted, out)
	return nil
}

func (a *api) invoiceUBL(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "invoice_id")
	if err != nil {
		return err
	}
	doc, err := a.app.Formats.UBL(r.Context(), keyFrom(r), id)
	if err != nil {
		return at("path", err)
	}
	writeUBL(w, doc)
	return nil
}

func writeUBL(w http.ResponseWriter, doc *formats.UBLDocument) {
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Header().Set("Content-Disposition", `inline; filename="`+doc.Filename+`"`)
	w.Header().Set("Content-Length", strconv.Itoa(len(doc.Document)))
	w.Header().Add("Vary", "Accept")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(doc.Document)
}

func (a *api) invoiceMapping(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "invoice_id")
	if err != nil {
		return err
	}
	out, err := a.app.Formats.MappingReport(r.Context(), keyFrom(r), id)
	return reply(w, "path", out, err)
}

func (a *api) creditNote(w http.ResponseWriter, r *http.Request) error {
	return a.note(w, r, a.app.Formats.CreditNote)
}

func (a *api) debitNote(w http.ResponseWriter, r *http.Request) error {
	return a.note(w, r, a.app.Formats.DebitNote)
}

type noteBuilder = func(context.Context, *model.Principal, uuid.UUID, formats.NoteInput) (*submissions.View, error)

func (a *api) note(w http.ResponseWriter, r *http.Request, build noteBuilder) error {
	id, err := pathUUID(r, "invoice_id")
	if err != nil {
		return err
	}
	var in formats.NoteInput
	// A closure: the input is validated as decoded, not as it was before.
	if err := decodeJSON(r, &in, func(p *model.Problems) { in.Validate(p) }); err != nil {
		return err
	}
	out, err := build(r.Context(), keyFrom(r), id, in)
	if err != nil {
		return at("body", err)
	}
	w.Header().Set("Location", out.Links.Self)
	writeJSON(w, http.StatusAccepted, out)
	return nil
}

// previewSpreadsheet reads a CSV or XLSX file of the template and answers
// its invoices and each row's errors; nothing is stored.
func (a *api) previewSpreadsheet(w http.ResponseWriter, r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || (mt != sheets.MediaCSV && mt != sheets.MediaXLSX) {
		return model.Errorf(model.CodeUnsupportedMediaType,
			"Content-Type %q is not supported: send the spreadsheet as text/csv or %s", truncate(ct, 100), sheets.MediaXLSX)
	}
	data, err := readBody(r)
	if err != nil {
		return err
	}
	out, err := a.app.Formats.PreviewSheet(r.Context(), keyFrom(r), data, mt)
	if err != nil {
		if e := model.AsError(err); e.Code == model.CodeInvalid {
			var p model.Problems
			for _, f := range e.Fields {
				if len(f.Loc) > 0 && f.Loc[0] == "file" {
					f.Loc = append([]any{"body"}, f.Loc[1:]...)
				}
				p.AddAll(nil, []model.FieldError{f})
			}
			return p.Err()
		}
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
