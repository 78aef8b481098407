package service

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/qrcode"
)

// ValidateInvoiceInput asks for an invoice payload to be checked.
type ValidateInvoiceInput struct {
	InvoiceTypeCode  string `json:"invoice_type_code" required:"true"`
	TaxAuthorityCode string `json:"tax_authority_code" required:"true"`
	// SchemaVersion is model.DefaultSchemaVersion when absent, null or empty.
	SchemaVersion string `json:"schema_version"`
	// Profile is nrs or strict; absent, null or empty means the project's
	// validation_profile.
	Profile string `json:"profile"`
	Payload any    `json:"payload" required:"true"`
}

// lookupAuthority resolves a request's tax_authority_code ("" means the
// project's own).
func (s *Service) lookupAuthority(p *model.Problems, code, fallback string) model.Authority {
	if strings.TrimSpace(code) == "" {
		code = fallback
	}
	a, ok := s.cfg.Authorities.Lookup(code)
	if !ok {
		p.CheckEnum(code, s.cfg.Authorities.Codes(), "tax_authority_code")
	}
	return a
}

// ValidateInvoice checks a payload against the authority's schema and
// business rules, with the request's profile (else the project's) and the
// code lists of the project's environment. An invalid invoice is a report
// with valid=false; only an unusable request is an error.
func (s *Service) ValidateInvoice(ctx context.Context, k *model.KeyPrincipal, in ValidateInvoiceInput) (*model.ValidationReport, error) {
	it, err := s.issuer(ctx, k.ProjectID)
	if err != nil {
		return nil, err
	}
	var p model.Problems
	a := s.lookupAuthority(&p, in.TaxAuthorityCode, it.project.TaxAuthorityCode)
	if in.SchemaVersion == "" {
		in.SchemaVersion = model.DefaultSchemaVersion
	}
	if a != nil {
		p.CheckEnum(in.SchemaVersion, a.SchemaVersions(), "schema_version")
	}
	profile := it.profile()
	if in.Profile != "" && p.CheckEnum(in.Profile, model.ValidationProfiles, "profile") {
		profile = model.ValidationProfile(in.Profile)
	}
	if _, ok := in.Payload.(map[string]any); !ok {
		p.Add(model.ProblemDictType, "Input should be a valid dictionary or object", "payload")
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	rep, err := a.Validate(model.ValidateInput{
		SchemaVersion: in.SchemaVersion, InvoiceTypeCode: in.InvoiceTypeCode, Payload: in.Payload,
		Profile: profile, Environment: it.project.Environment,
	})
	if err != nil {
		return nil, err
	}
	prefixIssues(rep.Errors)
	prefixIssues(rep.Warnings)
	return rep, nil
}

// prefixIssues makes issue locations relative to the request body, where
// the payload sits under "payload".
func prefixIssues(list []model.Issue) {
	for i := range list {
		list[i].Loc = append([]any{"body", "payload"}, list[i].Loc...)
	}
}

// IRNInput asks for an invoice's IRN.
type IRNInput struct {
	InvoiceReference string `json:"invoice_reference" required:"true"`
	// InvoiceTypeCode is an invoice kind (model.ParseInvoiceKind's rule,
	// answered in canonical form) or an invoice type code of the authority.
	InvoiceTypeCode  string `json:"invoice_type_code" required:"true"`
	TaxAuthorityCode string `json:"tax_authority_code" required:"true"`
	IssueDate        string `json:"issue_date" required:"true"`
}

// IRNResult answers an IRN generation.
type IRNResult struct {
	IRN              string `json:"irn"`
	InvoiceReference string `json:"invoice_reference"`
	ServiceID        string `json:"service_id"`
	BusinessID       string `json:"business_id"`
	IssueDate        string `json:"issue_date"`
	InvoiceTypeCode  string `json:"invoice_type_code"`
	TaxAuthorityCode string `json:"tax_authority_code"`
}

// GenerateIRN builds the IRN of an invoice with the project's service id and
// records it: the same reference and date give the same IRN, the same
// reference with another date is a conflict.
func (s *Service) GenerateIRN(ctx context.Context, k *model.KeyPrincipal, in IRNInput) (*IRNResult, error) {
	it, err := s.issuer(ctx, k.ProjectID)
	if err != nil {
		return nil, err
	}
	var p model.Problems
	a := s.lookupAuthority(&p, in.TaxAuthorityCode, it.project.TaxAuthorityCode)
	if a != nil && it.authority != nil && a.Code() != it.authority.Code() {
		p.Add(model.ProblemValueError, "this project issues for "+it.authority.Code(), "tax_authority_code")
	}
	if in.InvoiceTypeCode != "" {
		if k, ok := model.ParseInvoiceKind(in.InvoiceTypeCode); ok {
			in.InvoiceTypeCode = string(k)
		} else if a != nil && !a.ValidInvoiceType(in.InvoiceTypeCode) {
			p.Add(model.ProblemEnum, "Input should be an invoice kind (B2B, B2C, B2G, any case) or an invoice type code of the authority", "invoice_type_code")
		}
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	if err := it.configured(); err != nil {
		return nil, err
	}
	irn, err := it.authority.GenerateIRN(in.InvoiceReference, it.project.ServiceID, in.IssueDate)
	if err != nil {
		return nil, err
	}
	ref := strings.ToUpper(in.InvoiceReference)
	rec := new(model.IssuedIRN)
	if known, ok := s.irns.get(it.project.ID, ref); ok {
		*rec = known
	} else {
		rec, _, err = s.store.IRNs().Claim(ctx, &model.IssuedIRN{
			ProjectID: it.project.ID, InvoiceReference: ref, IssueDate: in.IssueDate, IRN: irn,
			InvoiceTypeCode: in.InvoiceTypeCode, CreatedAt: s.now(),
		})
		if err != nil {
			return nil, err
		}
		s.irns.put(rec)
	}
	if rec.IssueDate != in.IssueDate {
		return nil, model.Errorf(model.CodeConflict, "invoice reference %s already has IRN %s issued for %s", ref, rec.IRN, rec.IssueDate)
	}
	return &IRNResult{
		IRN: rec.IRN, InvoiceReference: ref, ServiceID: it.project.ServiceID, BusinessID: it.project.BusinessID,
		IssueDate: rec.IssueDate, InvoiceTypeCode: in.InvoiceTypeCode, TaxAuthorityCode: it.authority.Code(),
	}, nil
}

// ValidateIRNInput asks for an IRN to be checked.
type ValidateIRNInput struct {
	InvoiceReference string `json:"invoice_reference" required:"true"`
	BusinessID       string `json:"business_id" required:"true"`
	IRN              string `json:"irn" required:"true"`
}

// ValidateIRN checks an IRN's shape, its reference, that its service id is
// the one of business_id (this project's business) and that its date is
// real. Every check is reported.
func (s *Service) ValidateIRN(ctx context.Context, k *model.KeyPrincipal, in ValidateIRNInput) (*model.IRNValidation, error) {
	it, err := s.issuer(ctx, k.ProjectID)
	if err != nil {
		return nil, err
	}
	var p model.Problems
	// irn and invoice_reference take any string: one that cannot match
	// is a failed check in the answer, not a refused request.
	p.CheckUUID(in.BusinessID, "business_id")
	if err := p.Err(); err != nil {
		return nil, err
	}
	if err := it.configured(); err != nil {
		return nil, err
	}
	ownBusiness := strings.EqualFold(in.BusinessID, it.project.BusinessID)
	serviceID := ""
	if ownBusiness {
		serviceID = it.project.ServiceID
	}
	v := it.authority.ValidateIRN(in.IRN, in.InvoiceReference, serviceID)
	check := model.IRNCheck{Name: "business_id", Passed: ownBusiness, Message: "business_id is this project's business"}
	if !ownBusiness {
		check.Message = "business_id is not this project's business, so its service id is unknown"
		v.Valid = false
	}
	v.Checks = append([]model.IRNCheck{check}, v.Checks...)
	return &v, nil
}

// QRInput asks for the QR payload of an IRN.
type QRInput struct {
	IRN       string `json:"irn" required:"true"`
	Timestamp *int64 `json:"timestamp"`
}

// QRResult answers a QR request.
type QRResult struct {
	IRN            string             `json:"irn"`
	Timestamp      int64              `json:"timestamp"`
	QRPayload      string             `json:"qr_payload"`
	Encryption     model.QREncryption `json:"encryption"`
	KeyFingerprint string             `json:"key_fingerprint"`
	QRPNGBase64    string             `json:"qr_png_base64,omitempty"`
}

// QRCode builds the encrypted QR payload of one of the project's IRNs with
// its public key and certificate; withPNG adds the QR image.
func (s *Service) QRCode(ctx context.Context, k *model.KeyPrincipal, in QRInput, withPNG bool) (*QRResult, error) {
	it, err := s.issuer(ctx, k.ProjectID)
	if err != nil {
		return nil, err
	}
	var p model.Problems
	ts := s.cfg.Now().Unix()
	if in.Timestamp != nil {
		ts = *in.Timestamp
	}
	if in.Timestamp != nil && (ts < 0 || ts > maxUnixSeconds) {
		p.Add(model.ProblemValueError, "timestamp must be Unix seconds (10 digits), not milliseconds or negative", "timestamp")
	}
	if err := it.configured(); err == nil {
		v := it.authority.ValidateIRN(in.IRN, irnReference(in.IRN), it.project.ServiceID)
		if !v.Valid {
			p.Add(model.ProblemValueError, "irn must be a valid IRN of this project (checks failed: "+failedChecks(v)+")", "irn")
		}
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	if err := it.configured(); err != nil {
		return nil, err
	}
	payload, err := it.authority.QRPayload(model.QRInput{
		IRN: strings.ToUpper(in.IRN), Timestamp: ts, PublicKey: it.publicKey, Certificate: it.certificate, Encryption: it.project.QREncryption,
	})
	if err != nil {
		return nil, err
	}
	out := &QRResult{IRN: strings.ToUpper(in.IRN), Timestamp: ts, QRPayload: payload, Encryption: it.project.QREncryption, KeyFingerprint: it.fingerprint}
	if withPNG {
		png, err := qrcode.PNG(payload, qrcode.DefaultSize)
		if err != nil {
			return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
		}
		out.QRPNGBase64 = png.Base64()
	}
	return out, nil
}

// maxUnixSeconds is the largest 10-digit Unix time (year 2286); anything
// larger is taken for milliseconds.
const maxUnixSeconds = 9_999_999_999

// irnReference is the invoice reference part of an IRN (before the last two
// hyphens), so that a QR request can be checked against the project.
func irnReference(irn string) string {
	i := strings.LastIndexByte(irn, '-')
	if i <= 0 {
		return irn
	}
	j := strings.LastIndexByte(irn[:i], '-')
	if j <= 0 {
		return irn
	}
	return irn[:j]
}

func failedChecks(v model.IRNValidation) string {
	var names []string
	for _, c := range v.Checks {
		if !c.Passed {
			names = append(names, c.Name)
		}
	}
	return strings.Join(names, ", ")
}

// InvoiceSchema returns the JSON Schema of an authority's invoice version.
func (s *Service) InvoiceSchema(authority, version string) ([]byte, error) {
	a, ok := s.cfg.Authorities.Lookup(authority)
	if !ok {
		return nil, model.Invalid(model.ProblemEnum, "Input should be one of "+strings.Join(s.cfg.Authorities.Codes(), ", "), "authority")
	}
	doc, ok := a.Schema(version)
	if !ok {
		return nil, model.Invalid(model.ProblemEnum, "Input should be one of "+strings.Join(a.SchemaVersions(), ", "), "version")
	}
	return doc, nil
}

// PortalPrincipal is what a portal user acts as when they try invoice
// operations on one of their projects in the portal's workbench: the
// project's principal holding every scope, with no key (so no key's usage
// is counted). Any member may read (validate, render, QR); write asks for
// an owner or admin, as for the project's keys (IRN generation records the
// IRN). Another tenant's project is not found.
func (s *Service) PortalPrincipal(ctx context.Context, u *UserPrincipal, projectID uuid.UUID, write bool) (*model.KeyPrincipal, error) {
	var (
		pr  *model.Project
		err error
	)
	if write {
		pr, err = s.projectForWriter(ctx, s.store, u, projectID)
	} else {
		pr, err = s.store.Projects().Get(ctx, projectID, u.UserID)
	}
	if err != nil {
		return nil, err
	}
	return &model.KeyPrincipal{
		ProjectID: pr.ID, OrganizationID: pr.OrganizationID, Environment: pr.Environment,
		Scopes: append(model.Scopes(nil), model.AllScopes...),
	}, nil
}
