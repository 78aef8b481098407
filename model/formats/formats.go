// Package formats takes invoices in the formats businesses already have
// and gives them back in those formats: a UBL 2.1 invoice or credit note
// (Peppol BIS Billing 3.0) converted to NRS's invoice and submitted, the
// UBL of a confirmed invoice, credit and debit notes built from a
// confirmed invoice, and spreadsheets of invoice lines. It converts with
// model/ubl and model/sheets, validates through model/invoices and submits
// through model/submissions' entry points (Submit, SubmitBatch), and is
// the only writer of the documents invoices were converted from
// (invoice_sources).
package formats

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/invoices"
	"github.com/einvoice-ng/einvoice/model/qrcode"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/submissions"
	"github.com/einvoice-ng/einvoice/model/ubl"
)

// Config configures New.
type Config struct {
	// Authority gives each project's issuing settings. Required.
	Authority *authority.Directory
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives failures after an invoice was submitted; default
	// slog.Default().
	Logger *slog.Logger
}

// Service converts, submits and writes invoices in other formats.
type Service struct {
	st       *store.Store
	cfg      Config
	invoices *invoices.Service
	subs     *submissions.Service
}

// New builds the service over st, validating through inv and submitting
// through subs.
func New(st *store.Store, cfg Config, inv *invoices.Service, subs *submissions.Service) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Service{st: st, cfg: cfg, invoices: inv, subs: subs}
}

func requireScope(who *model.Principal, scope model.Scope) error {
	if who == nil || who.ProjectID == uuid.Nil {
		return model.NotFound("project")
	}
	return who.Require(scope)
}

// ConvertInput is a UBL document to convert.
type ConvertInput struct {
	// Document is the UBL 2.1 Invoice or CreditNote, as sent.
	Document []byte
	// InvoiceType is B2B, B2C or B2G (any case); empty derives it: B2C
	// without a customer party, else B2B.
	InvoiceType string
	// InvoiceReference, when set, names the invoice instead of the
	// document's ID (which must then be letters and digits to make an
	// IRN).
	InvoiceReference string
}

// Validate checks the input's own fields.
func (in ConvertInput) Validate(p *model.Problems) {
	if in.InvoiceType != "" {
		p.CheckInvoiceKind(in.InvoiceType, "invoice_type")
	}
	if len(in.InvoiceReference) > 50 {
		p.Add(model.ProblemStringTooLong, "String should have at most 50 characters", "invoice_reference")
	}
	if len(in.Document) == 0 {
		p.Add(model.ProblemMissing, "Field required: a UBL 2.1 Invoice or CreditNote", "body")
	}
}

// Conversion is a UBL document as NRS's invoice.
type Conversion struct {
	InvoiceType model.InvoiceKind `json:"invoice_type"`
	// InvoiceReference is what the IRN is generated from (the document's
	// ID, or the request's reference); null when the document's ID is an
	// IRN of the project already.
	InvoiceReference *string `json:"invoice_reference"`
	// Payload is NRS's invoice; its irn is the IRN the reference gives
	// with the project's service id (recorded when it is submitted).
	Payload map[string]any `json:"payload"`
	// Mapping says element by element how the document was converted.
	Mapping ubl.Report `json:"mapping"`
	// Validation is the payload's validation under the project's profile.
	Validation *model.ValidationReport `json:"validation"`
	carried    ubl.Carried
}

// Convert converts a UBL document to NRS's invoice for the caller's
// project and validates it; nothing is stored.
func (s *Service) Convert(ctx context.Context, who *model.Principal, in ConvertInput) (*Conversion, error) {
	if err := requireScope(who, model.ScopeInvoicesValidate); err != nil {
		return nil, err
	}
	return s.convert(ctx, who.ProjectID, in)
}

func (s *Service) convert(ctx context.Context, projectID uuid.UUID, in ConvertInput) (*Conversion, error) {
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	it, err := s.cfg.Authority.Issuer(ctx, projectID)
	if err != nil {
		return nil, err
	}
	kind, _ := model.ParseInvoiceKind(in.InvoiceType)
	res, err := ubl.ToNRS(in.Document, ubl.InOptions{BusinessID: it.Project.BusinessID, ServiceID: it.Project.ServiceID, Kind: kind})
	if err != nil {
		return nil, err
	}
	out := &Conversion{InvoiceType: res.Kind, Payload: res.Payload, Mapping: res.Report, carried: res.Carried}
	ref := res.Reference
	if in.InvoiceReference != "" {
		ref = in.InvoiceReference
	}
	if _, has := res.Payload["irn"]; !has && ref != "" {
		out.InvoiceReference = &ref
		if it.Authority != nil && it.Project.ServiceID != "" {
			date, _ := res.Payload["issue_date"].(string)
			if irn, err := it.Authority.GenerateIRN(ref, it.Project.ServiceID, date); err == nil {
				res.Payload["irn"] = irn
			} else {
				out.Mapping.Problems = append(out.Mapping.Problems, ubl.Problem{Field: "/irn",
					Message: "no IRN can be made from the invoice reference '" + ref + "': it must be 1 to 50 letters and digits " +
						"(send invoice_reference to name the invoice), and the issue date a real date"})
			}
		}
	}
	rep, err := s.invoices.ValidateForProject(ctx, projectID, invoices.ValidateInput{InvoiceTypeCode: string(res.Kind), Payload: res.Payload})
	if err != nil {
		return nil, err
	}
	for _, list := range [][]model.Issue{rep.Errors, rep.Warnings} {
		for i := range list {
			// Locations relative to the converted payload.
			if len(list[i].Loc) >= 2 && list[i].Loc[0] == "body" && list[i].Loc[1] == "payload" {
				list[i].Loc = append([]any{"payload"}, list[i].Loc[2:]...)
			}
		}
	}
	out.Validation = rep
	return out, nil
}

// Submitted is an invoice submitted from a UBL document: the submitted
// invoice and how its document was converted.
type Submitted struct {
	*submissions.View
	Mapping ubl.Report `json:"mapping"`
}

// Submit converts a UBL document, submits the invoice as
// POST /api/v2/invoices submits JSON (the same checks, answer and
// idempotence: the same document again answers the same invoice), and
// keeps the document and its mapping report with the invoice. An invoice
// that does not validate is refused with the validator's problems and
// nothing is stored.
func (s *Service) Submit(ctx context.Context, who *model.Principal, in ConvertInput) (*Submitted, error) {
	if err := requireScope(who, model.ScopeInvoicesSubmit); err != nil {
		return nil, err
	}
	conv, err := s.convert(ctx, who.ProjectID, in)
	if err != nil {
		return nil, err
	}
	payload := conv.Payload
	ref := ""
	if conv.InvoiceReference != nil {
		// The IRN is generated and recorded by the submission.
		ref = *conv.InvoiceReference
		delete(payload, "irn")
	}
	v, err := s.subs.Submit(ctx, who, submissions.SubmitInput{InvoiceType: string(conv.InvoiceType), Payload: payload, InvoiceReference: ref})
	if err != nil {
		return nil, err
	}
	if err := s.keep(ctx, who.ProjectID, v.ID, model.SourceUBL, string(in.Document), conv.Mapping, conv.carried); err != nil {
		return nil, err
	}
	return &Submitted{View: v, Mapping: conv.Mapping}, nil
}

// keep records an invoice's source document. Failing, the invoice stays
// submitted: the error says so, and a retry (which answers the same
// invoice) records it.
func (s *Service) keep(ctx context.Context, projectID, invoiceID uuid.UUID, format, doc string, report any, carried ubl.Carried) error {
	rep, err := json.Marshal(report)
	if err != nil {
		return model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	car, err := json.Marshal(carried)
	if err != nil {
		return model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	src := &model.InvoiceSource{InvoiceID: invoiceID, ProjectID: projectID, Format: format, Document: doc,
		Report: string(rep), Carried: string(car), CreatedAt: model.StoredTime(s.cfg.Now())}
	if err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error { return store.Sources(tx).Put(ctx, src) }); err != nil {
		s.cfg.Logger.WarnContext(ctx, "invoice source not recorded", "invoice_id", invoiceID.String(), "error", err.Error())
		e := model.AsError(err)
		if e.Code == model.CodeInternal || e.Code == model.CodeUnavailable {
			e = model.Wrap(model.CodeUnavailable, err,
				"the invoice %s was submitted but its source document was not recorded; send the same request again to record it", invoiceID)
			e.RetryAfter = time.Second
		}
		return e
	}
	return nil
}

// Source is the document an invoice was converted from and its report.
type Source struct {
	InvoiceID uuid.UUID       `json:"invoice_id"`
	Format    string          `json:"format"`
	Mapping   json.RawMessage `json:"mapping"`
	CreatedAt time.Time       `json:"created_at"`
}

// MappingReport reads the mapping report kept with an invoice submitted as
// UBL or from a spreadsheet; another invoice is not found.
func (s *Service) MappingReport(ctx context.Context, who *model.Principal, invoiceID uuid.UUID) (*Source, error) {
	if err := requireScope(who, model.ScopeInvoicesRead); err != nil {
		return nil, err
	}
	src, err := store.Sources(s.st).Get(ctx, who.ProjectID, invoiceID)
	if err != nil {
		if model.ErrorCodeOf(err) == model.CodeNotFound {
			if _, gerr := s.subs.Get(ctx, who, invoiceID); gerr != nil {
				return nil, gerr
			}
			return nil, model.Errorf(model.CodeNotFound, "invoice %s was submitted as NRS JSON: it has no mapping report", invoiceID)
		}
		return nil, err
	}
	return &Source{InvoiceID: src.InvoiceID, Format: src.Format, Mapping: json.RawMessage(src.Report), CreatedAt: src.CreatedAt.UTC()}, nil
}

// UBLDocument is a confirmed invoice as UBL 2.1.
type UBLDocument struct {
	Filename string
	Document []byte
}

// qrPNGSize is the side of the QR image embedded in UBL, in pixels.
const qrPNGSize = 256

// UBL writes a confirmed invoice as a UBL 2.1 Invoice or CreditNote
// (Peppol BIS Billing 3.0): the payload NRS cleared, its IRN as the
// document's ID, and the QR payload NRS confirmed with its image. An
// invoice NRS has not confirmed yet is a conflict.
func (s *Service) UBL(ctx context.Context, who *model.Principal, invoiceID uuid.UUID) (*UBLDocument, error) {
	if err := requireScope(who, model.ScopeInvoicesRead); err != nil {
		return nil, err
	}
	cl, err := s.subs.Payload(ctx, who, invoiceID)
	if err != nil {
		return nil, err
	}
	if cl.Invoice.Status != model.InvoiceConfirmed || cl.Invoice.QRCodeData == nil {
		return nil, model.Errorf(model.CodeConflict,
			"invoice %s is %s: its UBL is written once NRS confirms it (with its IRN and QR)", invoiceID, cl.Invoice.Status)
	}
	opt := ubl.OutOptions{QRPayload: *cl.Invoice.QRCodeData}
	if png, err := qrcode.PNG(opt.QRPayload, qrPNGSize); err == nil {
		opt.QRPNG = png
	}
	if src, err := store.Sources(s.st).Get(ctx, who.ProjectID, invoiceID); err == nil {
		_ = json.Unmarshal([]byte(src.Carried), &opt.Carried)
	} else if model.ErrorCodeOf(err) != model.CodeNotFound {
		return nil, err
	}
	doc, err := ubl.FromNRS(cl.Payload, opt)
	if err != nil {
		return nil, err
	}
	return &UBLDocument{Filename: strings.ReplaceAll(cl.Invoice.IRN, "/", "_") + ".xml", Document: doc}, nil
}
