package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/graph/gqlmodel"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/formats"
	"github.com/einvoice-ng/einvoice/model/invoices"
	"github.com/einvoice-ng/einvoice/model/sheets"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// asJSON turns a Go value into the JSON scalar's plain maps and lists.
func asJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, model.Wrap(model.CodeInternal, err, internalMessage)
	}
	var out any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&out); err != nil {
		return nil, model.Wrap(model.CodeInternal, err, internalMessage)
	}
	return out, nil
}

// sheetMediaType is a spreadsheet's media type by its file name.
func sheetMediaType(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".xlsx":
		return sheets.MediaXLSX
	case ".csv", ".txt":
		return sheets.MediaCSV
	}
	return ""
}

func ublInput(in gqlmodel.UblInvoiceInput) formats.ConvertInput {
	out := formats.ConvertInput{Document: []byte(in.Document)}
	if in.InvoiceType != nil {
		out.InvoiceType = *in.InvoiceType
	}
	if in.InvoiceReference != nil {
		out.InvoiceReference = *in.InvoiceReference
	}
	return out
}

// invoiceReader is the workbench principal (read) of a submitted
// invoice's project, for the fields the caller already reached the
// invoice through.
func (r *Resolver) invoiceReader(ctx context.Context, obj *submissions.View) (*model.Principal, error) {
	u, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	return r.app.Invoices.Workbench(ctx, u, obj.ProjectID, false)
}

type noteBuilder = func(context.Context, *model.Principal, uuid.UUID, formats.NoteInput) (*submissions.View, error)

// note builds a credit or debit note of an invoice of one of the caller's
// projects: the invoice is found as Query.invoice finds it (another
// tenant's is not found), then the project's write access, rate limit and
// in-flight cap apply as to submitInvoice.
func (r *Resolver) note(ctx context.Context, invoiceID string, input gqlmodel.InvoiceNoteInput, build noteBuilder) (*submissions.View, error) {
	u, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	id, err := parseID(invoiceID, "invoiceId")
	if err != nil {
		return nil, err
	}
	inv, err := r.app.Submissions.Get(ctx, u, id)
	if err != nil {
		return nil, err
	}
	k, release, err := r.acquire(ctx, inv.ProjectID.String(), true)
	if err != nil {
		return nil, err
	}
	defer release()
	in := formats.NoteInput{InvoiceReference: input.InvoiceReference}
	if input.IssueDate != nil {
		in.IssueDate = *input.IssueDate
	}
	if input.Note != nil {
		in.Note = *input.Note
	}
	for _, l := range input.Lines {
		line := l.Line
		nl := formats.NoteLine{Line: &line}
		if l.Quantity != nil {
			nl.Quantity = *l.Quantity
		}
		if l.Amount != nil {
			nl.Amount = *l.Amount
		}
		in.Lines = append(in.Lines, nl)
	}
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, inInput(err)
	}
	out, err := build(ctx, k, id, in)
	if err != nil {
		return nil, inInput(err)
	}
	return out, nil
}

// clearedPDF renders a submitted invoice as GET /api/v2/invoices/{id}/pdf
// does: found through who's project (another tenant's is not found), its
// payload with its IRN and, once confirmed, its QR, signed when it was.
func (r *Resolver) clearedPDF(ctx context.Context, who *model.Principal, id uuid.UUID) (*invoices.Rendering, error) {
	cl, err := r.app.Submissions.Payload(ctx, who, id)
	if err != nil {
		return nil, err
	}
	in := invoices.RenderInput{InvoiceType: string(cl.Invoice.InvoiceType), Payload: cl.Payload}
	qr, at := "", cl.Invoice.CreatedAt
	if cl.Invoice.QRCodeData != nil {
		qr = *cl.Invoice.QRCodeData
	}
	if cl.Invoice.SignedAt != nil {
		at = *cl.Invoice.SignedAt
	}
	return r.app.Invoices.RenderCleared(ctx, who.ProjectID, in, qr, at)
}

// asArguments places the problems of a use case whose input came as a
// REST path or query (["path", "invoice_type"]) under the field's
// arguments (["invoiceType"]).
func asArguments(err error) error {
	var e *model.Error
	if !errors.As(err, &e) || e.Code != model.CodeInvalid || len(e.Fields) == 0 {
		return err
	}
	fields := make([]model.FieldError, len(e.Fields))
	for i, f := range e.Fields {
		loc := append([]any(nil), f.Loc...)
		if len(loc) > 1 && (loc[0] == "path" || loc[0] == "query") {
			loc = loc[1:]
		}
		if len(loc) > 0 {
			if s, ok := loc[0].(string); ok {
				loc[0] = camel(s)
			}
		}
		fields[i] = model.FieldError{Loc: loc, Msg: f.Msg, Type: f.Type}
	}
	var p model.Problems
	p.AddAll(nil, fields)
	return p.Err()
}
