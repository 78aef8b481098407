package invoices

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/render"
	"github.com/einvoice-ng/einvoice/model/render/pdfa"
	"github.com/einvoice-ng/einvoice/model/ubl"
)

// RenderInput asks for an invoice payload to be rendered in the layout of
// an invoice kind.
type RenderInput struct {
	InvoiceType string `json:"invoice_type" required:"true"`
	Payload     any    `json:"payload" required:"true"`
}

// Rendering is a rendered invoice: its view, and the PDF when one was asked
// for.
type Rendering struct {
	View render.View
	PDF  []byte
}

// Render renders a payload for the key's project: it validates the
// payload (with the project's validation profile and code lists), computes
// its amounts, prints the project's business id and an IRN
// with the project's service id (rebuilt when the payload carries another
// business's placeholders, with a warning saying so), and builds the QR
// payload with the project's key and certificate the way QRCode does.
// withPDF adds the A4 PDF of the view.
//
// Only a structurally unusable request is an error (invoice_type not B2B,
// B2C or B2G in any case, see model.ParseInvoiceKind; a payload that is not an object or has wrong JSON types where
// the document needs an object, array, number or boolean); an invoice that
// breaks business rules renders with valid=false and its issues. An
// unconfigured project is a conflict (authority_not_configured).
func (s *Service) Render(ctx context.Context, who *model.Principal, in RenderInput, withPDF bool) (*Rendering, error) {
	it, err := s.issuer(ctx, who)
	if err != nil {
		return nil, err
	}
	return s.render(it, in, withPDF, "", time.Time{})
}

// RenderCleared renders the PDF of an invoice a project submitted, as it
// was cleared: its payload with its IRN and, when NRS answered one, the
// QR payload NRS confirmed, signed at clearedAt (else one built as Render
// builds it).
func (s *Service) RenderCleared(ctx context.Context, projectID uuid.UUID, in RenderInput, clearedQR string, clearedAt time.Time) (*Rendering, error) {
	return with(ctx, s, projectID, func(it *authority.Issuer) (*Rendering, error) {
		return s.render(it, in, true, clearedQR, clearedAt)
	})
}

func (s *Service) render(it *authority.Issuer, in RenderInput, withPDF bool, clearedQR string, clearedAt time.Time) (*Rendering, error) {
	var p model.Problems
	kind, _ := p.CheckInvoiceKind(in.InvoiceType, "invoice_type")
	render.CheckPayload(&p, in.Payload)
	if err := p.Err(); err != nil {
		return nil, err
	}
	if err := it.Configured(); err != nil {
		return nil, err
	}
	if it.Authority.Code() != nrs.Code {
		return nil, model.Errorf(model.CodeConflict, "rendering supports NRS invoices; this project issues for %s", it.Authority.Code())
	}

	report, err := it.Authority.Validate(model.ValidateInput{
		InvoiceTypeCode: string(kind), Payload: in.Payload,
		Profile: it.Profile(), Environment: it.Project.Environment,
	})
	if err != nil {
		return nil, err
	}
	prefixIssues(report.Errors)
	prefixIssues(report.Warnings)
	inv, err := nrs.Decode(in.Payload)
	if err != nil {
		return nil, err
	}
	irn, businessID, warnings := render.Identify(it.Authority, inv,
		render.Issuer{BusinessID: it.Project.BusinessID, ServiceID: it.Project.ServiceID})
	prefixIssues(warnings)

	var qr render.QR
	switch {
	case irn != "" && clearedQR != "":
		qr = render.QR{Payload: clearedQR, Timestamp: clearedAt.Unix(), Encryption: it.Project.QREncryption, KeyFingerprint: it.Fingerprint}
	case irn != "":
		q, err := s.qrCode(it, QRInput{IRN: irn}, false)
		if err != nil {
			return nil, err
		}
		qr = render.QR{Payload: q.QRPayload, Timestamp: q.Timestamp, Encryption: q.Encryption, KeyFingerprint: q.KeyFingerprint}
	}

	out := &Rendering{View: render.NewView(render.Input{
		InvoiceType: kind, Invoice: inv, Totals: nrs.ComputeTotals(inv), Report: report,
		IRN: irn, BusinessID: businessID, QR: qr, Warnings: warnings,
	})}
	if withPDF {
		files, err := attachments(in.Payload, irn, qr.Payload)
		if err != nil {
			return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
		}
		if out.PDF, err = render.RenderWith(out.View, render.Options{Now: s.cfg.Now(), Attach: files}); err != nil {
			if errors.Is(err, render.ErrQRMismatch) {
				return nil, model.Wrap(model.CodeInternal, err,
					"The PDF's QR code did not decode back to the invoice's QR payload, so no PDF was sent; try again")
			}
			return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
		}
	}
	return out, nil
}

// attachments are the files the invoice PDF carries, making it PDF/A-3b:
// the NRS JSON payload (its source, AFRelationship Source) and, when the
// invoice type has a UBL document type, the UBL 2.1 document of it
// (AFRelationship Alternative). Both carry the IRN the document prints.
func attachments(payload any, irn, qrPayload string) ([]pdfa.File, error) {
	if m, ok := payload.(map[string]any); ok && irn != "" && m["irn"] != irn {
		c := make(map[string]any, len(m))
		for k, v := range m {
			c[k] = v
		}
		c["irn"] = irn
		payload = c
	}
	js, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	files := []pdfa.File{{Name: "invoice.json", MediaType: "application/json",
		Description: "NRS invoice payload", Relation: pdfa.Source, Content: js}}
	if m, ok := payload.(map[string]any); ok {
		if x, err := ubl.FromNRS(m, ubl.OutOptions{QRPayload: qrPayload}); err == nil {
			files = append(files, pdfa.File{Name: "invoice.xml", MediaType: ubl.MediaType,
				Description: "UBL 2.1 invoice", Relation: pdfa.Alternative, Content: x})
		}
	}
	return files, nil
}
