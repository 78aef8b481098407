// Package portal holds the portal's tenants: organizations, the projects
// they own and each project's tax authority settings. Owners and admins
// change them, members read them, and anyone else finds nothing. A new
// sandbox project is provisioned at once (business id, service id, keys,
// API credentials) and registered with the NRS sandbox stand-in.
package portal

import (
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/store"
)

// DefaultAuthority is the tax authority of new projects.
const DefaultAuthority = "NRS"

// Config configures New.
type Config struct {
	// Authority seals project secrets and says where projects call.
	// Required.
	Authority *authority.Directory
	// Trail records every change in the audit log.
	Trail access.Trail
	// OrganizationsPerUser and ProjectsPerOrganization bound what an
	// account may create (negative: no bound).
	OrganizationsPerUser    int
	ProjectsPerOrganization int
	// SandboxRegistrar, when set, is told about every sandbox project once
	// it is committed (and again when its authority settings change), so
	// that the NRS sandbox stand-in accepts the project's credentials.
	SandboxRegistrar SandboxRegistrar
	// SandboxFaults, when set, switches the stand-in's faults of sandbox
	// projects' businesses (SetSandboxFault and the like).
	SandboxFaults SandboxFaults
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives failures to register sandbox projects; default
	// slog.Default().
	Logger *slog.Logger
}

// Service holds organizations and projects.
type Service struct {
	st  *store.Store
	cfg Config
	dir *authority.Directory
}

// New builds the service over st.
func New(st *store.Store, cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Service{st: st, cfg: cfg, dir: cfg.Authority}
}

func (s *Service) now() time.Time { return model.StoredTime(s.cfg.Now()) }

// OrganizationView is an organization with the caller's role.
type OrganizationView struct {
	ID        uuid.UUID  `json:"id"`
	Name      string     `json:"name"`
	Slug      string     `json:"slug"`
	Role      model.Role `json:"role"`
	CreatedAt time.Time  `json:"created_at"`
}

func orgView(o *model.Organization) OrganizationView {
	return OrganizationView{ID: o.ID, Name: o.Name, Slug: o.Slug, Role: o.Role, CreatedAt: o.CreatedAt.UTC()}
}

func orgID(o *model.Organization) uuid.UUID { return o.ID }

// AuthorityView is a project's authority settings without secrets.
type AuthorityView struct {
	TaxAuthorityCode     string  `json:"tax_authority_code"`
	BusinessID           *string `json:"business_id"`
	ServiceID            *string `json:"service_id"`
	Configured           bool    `json:"configured"`
	QREncryption         string  `json:"qr_encryption"`
	PublicKeyFingerprint *string `json:"public_key_fingerprint"`
	BaseURL              *string `json:"base_url"`
	HasAPICredentials    bool    `json:"has_api_credentials"`
}

// ProjectView is a project as clients see it.
type ProjectView struct {
	ID             uuid.UUID         `json:"id"`
	OrganizationID uuid.UUID         `json:"organization_id"`
	Name           string            `json:"name"`
	Environment    model.Environment `json:"environment"`
	// ValidationProfile is the profile invoices are validated with when a
	// request names none: nrs (default) or strict.
	ValidationProfile model.ValidationProfile `json:"validation_profile"`
	// ClearanceDeadlineMinutes is how long after it was accepted a B2B or
	// B2G invoice must be cleared.
	ClearanceDeadlineMinutes int `json:"clearance_deadline_minutes"`
	// QueueRatePerMinute is the project's own pace for its queue (how many
	// waiting invoices are sent a minute once NRS answers again); nil: the
	// operator's default.
	QueueRatePerMinute *int `json:"queue_rate_per_minute"`
	// PostPaymentReport is off (default), postpayment or legacy: whether
	// and how an invoice set PAID is reported to NRS.
	PostPaymentReport string        `json:"post_payment_report"`
	CreatedAt         time.Time     `json:"created_at"`
	Authority         AuthorityView `json:"authority"`
}

func (s *Service) projectView(pr *model.Project) *ProjectView {
	a := AuthorityView{
		TaxAuthorityCode:  pr.TaxAuthorityCode,
		Configured:        pr.Configured,
		QREncryption:      string(pr.QREncryption),
		HasAPICredentials: len(pr.APIKeyEnc) > 0 && len(pr.APISecretEnc) > 0,
	}
	if pr.BusinessID != "" {
		a.BusinessID = &pr.BusinessID
	}
	if pr.ServiceID != "" {
		a.ServiceID = &pr.ServiceID
	}
	if u := s.dir.BaseURL(pr); u != "" {
		a.BaseURL = &u
	}
	if fp := authority.Fingerprint(pr.PublicKey); fp != "" {
		a.PublicKeyFingerprint = &fp
	}
	profile := pr.ValidationProfile
	if profile == "" {
		profile = model.ProfileNRS
	}
	report := pr.PostPaymentReport
	if report == "" {
		report = model.PostPaymentReportOff
	}
	return &ProjectView{PostPaymentReport: report, ID: pr.ID, OrganizationID: pr.OrganizationID, Name: pr.Name, Environment: pr.Environment,
		ValidationProfile: profile, ClearanceDeadlineMinutes: clearanceMinutes(pr), QueueRatePerMinute: pr.QueueRatePerMinute, CreatedAt: pr.CreatedAt.UTC(), Authority: a}
}

func (s *Service) projectValue(pr *model.Project) ProjectView { return *s.projectView(pr) }

func projectID(pr *model.Project) uuid.UUID { return pr.ID }

// clearanceMinutes is a project's clearance deadline in minutes.
func clearanceMinutes(pr *model.Project) int {
	if pr.ClearanceDeadlineMinutes <= 0 {
		return model.DefaultClearanceDeadlineMinutes
	}
	return pr.ClearanceDeadlineMinutes
}
