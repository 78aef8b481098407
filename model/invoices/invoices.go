// Package invoices is what integrators do with an invoice before NRS sees
// it: validate the payload against the authority's schema, code lists and
// rules; generate and validate its IRN (recorded per project, so that the
// same reference and date always give the same IRN); build the encrypted
// QR payload; render it (a JSON view, or the PDF). API keys act on their
// project, portal users on one of their projects through the workbench
// (Workbench), and a certification run's activities through the
// ...ForProject entry points.
//
// Nothing here is stored as an invoice: the invoices the API lists,
// reads and clears (its /invoices resources, its invoice.* events) are
// model/submissions' submissions. This package is the workbench before
// submission, whose one record is the IRN; see the glossary of
// docs/architecture.md.
package invoices

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/qrcode"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Config configures New.
type Config struct {
	// Authority gives each project's issuing settings. Required.
	Authority *authority.Directory
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Service runs the invoice operations.
type Service struct {
	st   *store.Store
	cfg  Config
	dir  *authority.Directory
	irns issuedIRNs
	// batch records new IRNs, many requests' to a transaction.
	batch irnBatcher
}

// New builds the service over st.
func New(st *store.Store, cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Service{st: st, cfg: cfg, dir: cfg.Authority}
	s.batch.claimAll = func(ctx context.Context, recs []*model.IssuedIRN) ([]*model.IssuedIRN, error) {
		got, _, err := st.IRNs().ClaimAll(ctx, recs)
		return got, err
	}
	return s
}

// ValidateInput asks for an invoice payload to be checked.
type ValidateInput struct {
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
	a, ok := s.dir.Authorities().Lookup(code)
	if !ok {
		p.CheckEnum(code, s.dir.Authorities().Codes(), "tax_authority_code")
	}
	return a
}

// Validate checks a payload against the authority's schema and business
// rules, with the request's profile (else the project's) and the code
// lists of the project's environment. An invalid invoice is a report with
// valid=false; only an unusable request is an error.
func (s *Service) Validate(ctx context.Context, who *model.Principal, in ValidateInput) (*model.ValidationReport, error) {
	return with(ctx, s, projectOf(who), func(it *authority.Issuer) (*model.ValidationReport, error) { return s.validate(it, in) })
}

// ValidateForProject validates a payload with the project's authority
// exactly as Validate does, for a caller that already knows the project is
// its own: the activities of a run the project started.
func (s *Service) ValidateForProject(ctx context.Context, projectID uuid.UUID, in ValidateInput) (*model.ValidationReport, error) {
	return with(ctx, s, projectID, func(it *authority.Issuer) (*model.ValidationReport, error) { return s.validate(it, in) })
}

func (s *Service) validate(it *authority.Issuer, in ValidateInput) (*model.ValidationReport, error) {
	var p model.Problems
	a := s.lookupAuthority(&p, in.TaxAuthorityCode, it.Project.TaxAuthorityCode)
	if in.SchemaVersion == "" {
		in.SchemaVersion = model.DefaultSchemaVersion
	}
	if a != nil {
		p.CheckEnum(in.SchemaVersion, a.SchemaVersions(), "schema_version")
	}
	profile := it.Profile()
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
		Profile: profile, Environment: it.Project.Environment,
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
func (s *Service) GenerateIRN(ctx context.Context, who *model.Principal, in IRNInput) (*IRNResult, error) {
	return with(ctx, s, projectOf(who), func(it *authority.Issuer) (*IRNResult, error) { return s.generateIRN(ctx, it, in) })
}

// GenerateIRNForProject issues an IRN for a project exactly as GenerateIRN
// does (and records it), for a caller that already knows the project is
// its own: the activities of a run the project started.
func (s *Service) GenerateIRNForProject(ctx context.Context, projectID uuid.UUID, in IRNInput) (*IRNResult, error) {
	return with(ctx, s, projectID, func(it *authority.Issuer) (*IRNResult, error) { return s.generateIRN(ctx, it, in) })
}

func (s *Service) generateIRN(ctx context.Context, it *authority.Issuer, in IRNInput) (*IRNResult, error) {
	var p model.Problems
	a := s.lookupAuthority(&p, in.TaxAuthorityCode, it.Project.TaxAuthorityCode)
	if a != nil && it.Authority != nil && a.Code() != it.Authority.Code() {
		p.Add(model.ProblemValueError, "this project issues for "+it.Authority.Code(), "tax_authority_code")
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
	if err := it.Configured(); err != nil {
		return nil, err
	}
	irn, err := it.Authority.GenerateIRN(in.InvoiceReference, it.Project.ServiceID, in.IssueDate)
	if err != nil {
		return nil, err
	}
	ref := strings.ToUpper(in.InvoiceReference)
	storedIRN, storedDate, known := s.irns.get(it.Project.ID, ref)
	if !known {
		rec, err := s.batch.claim(ctx, &model.IssuedIRN{
			ProjectID: it.Project.ID, InvoiceReference: ref, IssueDate: in.IssueDate, IRN: irn,
			InvoiceTypeCode: in.InvoiceTypeCode, CreatedAt: model.StoredTime(s.cfg.Now()),
		})
		if err != nil {
			return nil, err
		}
		s.irns.put(rec)
		storedIRN, storedDate = rec.IRN, rec.IssueDate
	}
	if storedDate != in.IssueDate {
		return nil, model.Errorf(model.CodeConflict, "invoice reference %s already has IRN %s issued for %s", ref, storedIRN, storedDate)
	}
	return &IRNResult{
		IRN: storedIRN, InvoiceReference: ref, ServiceID: it.Project.ServiceID, BusinessID: it.Project.BusinessID,
		IssueDate: storedDate, InvoiceTypeCode: in.InvoiceTypeCode, TaxAuthorityCode: it.Authority.Code(),
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
func (s *Service) ValidateIRN(ctx context.Context, who *model.Principal, in ValidateIRNInput) (*model.IRNValidation, error) {
	it, err := s.issuer(ctx, who)
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
	if err := it.Configured(); err != nil {
		return nil, err
	}
	ownBusiness := strings.EqualFold(in.BusinessID, it.Project.BusinessID)
	serviceID := ""
	if ownBusiness {
		serviceID = it.Project.ServiceID
	}
	v := it.Authority.ValidateIRN(in.IRN, in.InvoiceReference, serviceID)
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
func (s *Service) QRCode(ctx context.Context, who *model.Principal, in QRInput, withPNG bool) (*QRResult, error) {
	return with(ctx, s, projectOf(who), func(it *authority.Issuer) (*QRResult, error) { return s.qrCode(it, in, withPNG) })
}

// QRCodeForProject builds the QR payload of one of a project's IRNs
// exactly as QRCode does, for a caller that already knows the project is
// its own: the activities of a run the project started.
func (s *Service) QRCodeForProject(ctx context.Context, projectID uuid.UUID, in QRInput) (*QRResult, error) {
	return with(ctx, s, projectID, func(it *authority.Issuer) (*QRResult, error) { return s.qrCode(it, in, false) })
}

func (s *Service) qrCode(it *authority.Issuer, in QRInput, withPNG bool) (*QRResult, error) {
	var p model.Problems
	ts := s.cfg.Now().Unix()
	if in.Timestamp != nil {
		ts = *in.Timestamp
	}
	if in.Timestamp != nil && (ts < 0 || ts > maxUnixSeconds) {
		p.Add(model.ProblemValueError, "timestamp must be Unix seconds (10 digits), not milliseconds or negative", "timestamp")
	}
	if err := it.Configured(); err == nil {
		v := it.Authority.ValidateIRN(in.IRN, irnReference(in.IRN), it.Project.ServiceID)
		if !v.Valid {
			p.Add(model.ProblemValueError, "irn must be a valid IRN of this project (checks failed: "+failedChecks(v)+")", "irn")
		}
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	if err := it.Configured(); err != nil {
		return nil, err
	}
	payload, err := it.Authority.QRPayload(model.QRInput{
		IRN: strings.ToUpper(in.IRN), Timestamp: ts, PublicKey: it.PublicKey, Certificate: it.Certificate, Encryption: it.Project.QREncryption,
	})
	if err != nil {
		return nil, err
	}
	out := &QRResult{IRN: strings.ToUpper(in.IRN), Timestamp: ts, QRPayload: payload, Encryption: it.Project.QREncryption, KeyFingerprint: it.Fingerprint}
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

// Schema returns the JSON Schema of an authority's invoice version.
func (s *Service) Schema(authority, version string) ([]byte, error) {
	a, ok := s.dir.Authorities().Lookup(authority)
	if !ok {
		return nil, model.Invalid(model.ProblemEnum, "Input should be one of "+strings.Join(s.dir.Authorities().Codes(), ", "), "authority")
	}
	doc, ok := a.Schema(version)
	if !ok {
		return nil, model.Invalid(model.ProblemEnum, "Input should be one of "+strings.Join(a.SchemaVersions(), ", "), "version")
	}
	return doc, nil
}

// Workbench is who as they act on one of their projects in the portal's
// workbench: the project's principal holding every scope, with no key (so
// no key's usage is counted). Any member may read (validate, render, QR);
// write asks for an owner or admin, as for the project's keys (IRN
// generation records the IRN). Another tenant's project is not found.
func (s *Service) Workbench(ctx context.Context, who *model.Principal, projectID uuid.UUID, write bool) (*model.Principal, error) {
	need := access.Read
	if write {
		need = access.Write
	}
	pr, err := access.Project(ctx, s.st, who, projectID, need)
	if err != nil {
		return nil, err
	}
	return &model.Principal{
		UserID: who.UserID, TokenID: who.TokenID, TokenExpiresAt: who.TokenExpiresAt,
		ProjectID: pr.ID, OrganizationID: pr.OrganizationID, Environment: pr.Environment,
		Scopes: append(model.Scopes(nil), model.AllScopes...),
	}, nil
}

// projectOf is the project who acts on: an API key's, or the one a
// workbench principal was given (uuid.Nil for none).
func projectOf(who *model.Principal) uuid.UUID {
	if who == nil {
		return uuid.Nil
	}
	return who.ProjectID
}

// issuer is the Issuer of the project who acts on.
func (s *Service) issuer(ctx context.Context, who *model.Principal) (*authority.Issuer, error) {
	if projectOf(who) == uuid.Nil {
		return nil, model.NotFound("project")
	}
	return s.dir.Issuer(ctx, who.ProjectID)
}

// with runs op with the Issuer of projectID (uuid.Nil: none, not found).
func with[T any](ctx context.Context, s *Service, projectID uuid.UUID, op func(*authority.Issuer) (T, error)) (T, error) {
	var zero T
	if projectID == uuid.Nil {
		return zero, model.NotFound("project")
	}
	it, err := s.dir.Issuer(ctx, projectID)
	if err != nil {
		return zero, err
	}
	return op(it)
}
