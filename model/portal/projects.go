package portal

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/store"
)

// ProjectInput creates a project.
type ProjectInput struct {
	OrganizationID string `json:"organization_id" required:"true"`
	Name           string `json:"name" required:"true"`
	// Environment is sandbox or production; absent, null or empty means
	// model.DefaultEnvironment.
	Environment string `json:"environment"`
}

// Validate normalizes the input and records every problem; it returns the
// organization's id and the environment, the default when none was given.
func (in *ProjectInput) Validate(p *model.Problems) (uuid.UUID, model.Environment) {
	id := p.CheckUUID(in.OrganizationID, "organization_id")
	in.Name = strings.TrimSpace(in.Name)
	p.CheckText(in.Name, model.NameLength, "name")
	env := model.DefaultEnvironment
	if in.Environment != "" {
		env = model.Environment(in.Environment)
		p.CheckEnum(in.Environment, model.Environments, "environment")
	}
	return id, env
}

// CreateProject creates a project in one of the caller's organizations. A
// sandbox project is provisioned at once with a business id, a service id
// and a key pair, so the whole flow works without setup.
func (s *Service) CreateProject(ctx context.Context, who *model.Principal, in ProjectInput) (*ProjectView, error) {
	var p model.Problems
	orgID, env := in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	// Authorize and check the quota before the (slow) key generation; the
	// transaction checks both again.
	if err := s.canCreateProject(ctx, s.st, who, orgID); err != nil {
		return nil, err
	}
	now := s.now()
	pr := &model.Project{
		ID: model.NewID(), OrganizationID: orgID, Name: in.Name, Environment: env,
		CreatedAt: now, UpdatedAt: now, TaxAuthorityCode: DefaultAuthority, QREncryption: model.QREncryptionPKCS1v15,
		ValidationProfile: model.ProfileNRS,
	}
	if pr.Environment == model.EnvironmentSandbox {
		if err := s.dir.ProvisionSandbox(pr); err != nil {
			return nil, err
		}
	}
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if err := s.canCreateProject(ctx, tx, who, orgID); err != nil {
			return err
		}
		if err := tx.Projects().Create(ctx, pr); err != nil {
			return err
		}
		return s.cfg.Trail.Record(ctx, tx, &orgID, who.Actor(), model.ActionProjectCreate, "project", pr.ID.String())
	})
	if err != nil {
		return nil, err
	}
	_ = s.register(ctx, pr, false) // never fails when not strict
	return s.projectView(pr), nil
}

// ProjectsInput filters a project listing.
type ProjectsInput struct {
	OrganizationID string
	model.PageInput
}

// Projects lists the caller's projects, optionally of one organization.
func (s *Service) Projects(ctx context.Context, who *model.Principal, in ProjectsInput) (*model.List[ProjectView], error) {
	var p model.Problems
	page := in.Validate(&p)
	var orgID uuid.UUID
	if in.OrganizationID != "" {
		orgID = p.CheckUUID(in.OrganizationID, "organization_id")
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	rows, more, err := s.st.Projects().List(ctx, who.UserID, orgID, page)
	if err != nil {
		return nil, err
	}
	return model.ListOf(rows, more, projectID, s.projectValue), nil
}

// Project returns one of the caller's projects.
func (s *Service) Project(ctx context.Context, who *model.Principal, id uuid.UUID) (*ProjectView, error) {
	pr, err := access.Project(ctx, s.st, who, id, access.Read)
	if err != nil {
		return nil, err
	}
	return s.projectView(pr), nil
}

// AuthorityInput sets a project's tax authority settings.
type AuthorityInput struct {
	TaxAuthorityCode string  `json:"tax_authority_code" required:"true"`
	BusinessID       string  `json:"business_id" required:"true"`
	ServiceID        string  `json:"service_id" required:"true"`
	PublicKey        string  `json:"public_key" required:"true"`
	Certificate      string  `json:"certificate" required:"true"`
	APIKey           *string `json:"api_key"`
	APISecret        *string `json:"api_secret"`
	BaseURL          *string `json:"base_url"`
	QREncryption     *string `json:"qr_encryption"`
}

var serviceIDRE = regexp.MustCompile(`^[A-Za-z0-9]{8}$`)

// QREncryptions lists the accepted QR encryption schemes.
var QREncryptions = []string{string(model.QREncryptionPKCS1v15), string(model.QREncryptionOAEPSHA256)}

// checkBaseURL records a problem with a base_url: sandbox projects take
// none (they call the sandbox the server is configured with), and a
// production project's must be one of the configured hosts and resolve to
// no address the egress policy refuses, the rules every call obeys.
func (s *Service) checkBaseURL(ctx context.Context, who *model.Principal, projectID uuid.UUID, raw string, p *model.Problems) {
	if _, err := url.Parse(raw); err != nil {
		p.Add(model.ProblemValueError, "Input should be a valid http or https URL", "base_url")
		return
	}
	pr, err := access.Project(ctx, s.st, who, projectID, access.Read)
	if err != nil {
		pr = nil // not found, or not the caller's: the update answers that
	}
	if pr != nil && pr.Environment == model.EnvironmentSandbox {
		p.Add(model.ProblemValueError, "sandbox projects call the NRS sandbox this server is configured with; base_url is for production projects only", "base_url")
		return
	}
	if err := s.dir.CheckURL(ctx, raw); err != nil {
		msg := strings.TrimPrefix(err.Error(), egress.ErrForbidden.Error()+": ")
		p.Add(model.ProblemValueError, "base_url is not allowed: "+msg, "base_url")
	}
}

// UpdateAuthority configures a project's tax authority settings. Secrets
// are sealed at rest and never shown again.
func (s *Service) UpdateAuthority(ctx context.Context, who *model.Principal, projectID uuid.UUID, in AuthorityInput) (*ProjectView, error) {
	var p model.Problems
	code := strings.ToUpper(strings.TrimSpace(in.TaxAuthorityCode))
	a, ok := s.dir.Authorities().Lookup(code)
	if !ok {
		p.CheckEnum(in.TaxAuthorityCode, s.dir.Authorities().Codes(), "tax_authority_code")
	} else {
		code = a.Code()
	}
	p.CheckUUID(in.BusinessID, "business_id")
	p.CheckPattern(in.ServiceID, serviceIDRE, "service_id")
	var pubPEM string
	if in.PublicKey == "" {
		p.Add(model.ProblemStringTooShort, "String should have at least 1 character", "public_key")
	} else if _, pem, err := authority.ParsePublicKey(in.PublicKey); err != nil {
		p.AddAll(nil, model.AsError(err).Fields)
	} else {
		pubPEM = pem
	}
	p.CheckLength(strings.TrimSpace(in.Certificate), 1, 4096, "certificate")
	if in.APIKey != nil {
		p.CheckLength(*in.APIKey, 1, 512, "api_key")
	}
	if in.APISecret != nil {
		p.CheckLength(*in.APISecret, 1, 512, "api_secret")
	}
	if (in.APIKey == nil) != (in.APISecret == nil) {
		loc := "api_secret"
		if in.APIKey == nil {
			loc = "api_key"
		}
		p.Add(model.ProblemMissing, "api_key and api_secret go together", loc)
	}
	if in.BaseURL != nil {
		s.checkBaseURL(ctx, who, projectID, *in.BaseURL, &p)
	}
	if in.QREncryption != nil {
		p.CheckEnum(*in.QREncryption, QREncryptions, "qr_encryption")
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	return s.update(ctx, who, projectID, model.ActionAuthorityUpdate, func(ctx context.Context, tx *store.Store, pr *model.Project) error {
		var err error
		if pr.Environment == model.EnvironmentSandbox && s.cfg.SandboxRegistrar != nil && pr.BusinessID != "" &&
			!strings.EqualFold(pr.BusinessID, in.BusinessID) {
			// Whether another project holds the id or nobody does, the
			// answer is the same, so that it tells nothing of other
			// tenants' businesses.
			return errSandboxBusinessKept()
		}
		if pr.PublicKey != pubPEM {
			pr.PrivateKeyEnc = nil // the stored private key no longer matches
		}
		pr.TaxAuthorityCode = code
		pr.BusinessID = strings.ToLower(in.BusinessID)
		pr.ServiceID = strings.ToUpper(in.ServiceID)
		pr.PublicKey = pubPEM
		if pr.CertificateEnc, err = s.dir.Seal(pr.ID, "certificate", strings.TrimSpace(in.Certificate)); err != nil {
			return err
		}
		if in.APIKey != nil {
			if pr.APIKeyEnc, err = s.dir.Seal(pr.ID, "api_key", *in.APIKey); err != nil {
				return err
			}
			if pr.APISecretEnc, err = s.dir.Seal(pr.ID, "api_secret", *in.APISecret); err != nil {
				return err
			}
		}
		if in.BaseURL != nil && pr.Environment == model.EnvironmentProduction {
			pr.BaseURL = strings.TrimRight(strings.TrimSpace(*in.BaseURL), "/")
		}
		if in.QREncryption != nil {
			pr.QREncryption = model.QREncryption(*in.QREncryption)
		}
		pr.Configured = true
		if err := tx.Projects().UpdateAuthority(ctx, pr); err != nil {
			return err
		}
		// The stand-in refuses a business that belongs to another project
		// (issue: a tenant pointing its sandbox project at another tenant's
		// business_id); that refusal undoes the change.
		return s.register(ctx, pr, true)
	})
}

// ProjectUpdate changes a project's settings; fields left out keep their
// value, and at least one must be given.
type ProjectUpdate struct {
	// ValidationProfile is nrs or strict: the profile the project's
	// invoices are validated with when a request names none.
	ValidationProfile *string `json:"validation_profile"`
	// ClearanceDeadlineMinutes is how long after it was accepted a B2B or
	// B2G invoice must be cleared (model.ClearanceDeadlineMinutes bounds it).
	ClearanceDeadlineMinutes *int `json:"clearance_deadline_minutes"`
	// QueueRatePerMinute is how many of the project's waiting invoices are
	// sent a minute once NRS answers again (model.QueueRatePerMinute bounds
	// it); null: back to the operator's default.
	QueueRatePerMinute model.NullableInt `json:"queue_rate_per_minute"`
	// PostPaymentReport is off, postpayment or legacy: whether and how an
	// invoice set PAID is reported to NRS's VAT report endpoint.
	PostPaymentReport *string `json:"post_payment_report"`
}

// Validate records every problem of the update.
func (in *ProjectUpdate) Validate(p *model.Problems) {
	if in.ValidationProfile == nil && in.ClearanceDeadlineMinutes == nil && !in.QueueRatePerMinute.Set && in.PostPaymentReport == nil {
		p.Add(model.ProblemMissing, "Field required", "validation_profile")
		return
	}
	if in.ValidationProfile != nil {
		p.CheckEnum(*in.ValidationProfile, model.ValidationProfiles, "validation_profile")
	}
	if in.PostPaymentReport != nil {
		p.CheckEnum(*in.PostPaymentReport, model.PostPaymentReports, "post_payment_report")
	}
	if m := in.ClearanceDeadlineMinutes; m != nil {
		b := model.ClearanceDeadlineMinutes
		if *m < b.Min {
			p.Add(model.ProblemValueError, fmt.Sprintf("Input should be greater than or equal to %d", b.Min), "clearance_deadline_minutes")
		} else if *m > b.Max {
			p.Add(model.ProblemValueError, fmt.Sprintf("Input should be less than or equal to %d", b.Max), "clearance_deadline_minutes")
		}
	}
	if r := in.QueueRatePerMinute.Value; r != nil {
		b := model.QueueRatePerMinute
		if *r < b.Min {
			p.Add(model.ProblemValueError, fmt.Sprintf("Input should be greater than or equal to %d", b.Min), "queue_rate_per_minute")
		} else if *r > b.Max {
			p.Add(model.ProblemValueError, fmt.Sprintf("Input should be less than or equal to %d", b.Max), "queue_rate_per_minute")
		}
	}
}

// UpdateProject changes one of the caller's projects (owners and admins),
// in one transaction with its audit entry (project.update). Validation in
// this process uses the new profile at once, in other processes within the
// issuer cache period (one second by default). A new clearance deadline
// applies to invoices submitted after it.
func (s *Service) UpdateProject(ctx context.Context, who *model.Principal, projectID uuid.UUID, in ProjectUpdate) (*ProjectView, error) {
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	return s.update(ctx, who, projectID, model.ActionProjectUpdate, func(ctx context.Context, tx *store.Store, pr *model.Project) error {
		if in.ValidationProfile != nil {
			pr.ValidationProfile = model.ValidationProfile(*in.ValidationProfile)
		}
		if in.ClearanceDeadlineMinutes != nil {
			pr.ClearanceDeadlineMinutes = *in.ClearanceDeadlineMinutes
		}
		if in.QueueRatePerMinute.Set {
			pr.QueueRatePerMinute = in.QueueRatePerMinute.Value
		}
		if in.PostPaymentReport != nil {
			pr.PostPaymentReport = *in.PostPaymentReport
		}
		return tx.Projects().UpdateSettings(ctx, pr)
	})
}

// update changes a project who may change (owners and admins) with change,
// in one transaction with its audit entry (action), and forgets the
// project's cached settings: this process sees the change at once, others
// within the issuer cache period (one second by default).
func (s *Service) update(ctx context.Context, who *model.Principal, projectID uuid.UUID, action string,
	change func(context.Context, *store.Store, *model.Project) error) (*ProjectView, error) {
	var view *ProjectView
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, err := access.Project(ctx, tx, who, projectID, access.Write)
		if err != nil {
			return err
		}
		pr.UpdatedAt = s.now()
		if err := change(ctx, tx, pr); err != nil {
			return err
		}
		view = s.projectView(pr)
		return s.cfg.Trail.Record(ctx, tx, &pr.OrganizationID, who.Actor(), action, "project", pr.ID.String())
	})
	if err != nil {
		return nil, err
	}
	s.dir.Forget(projectID)
	return view, nil
}

// canCreateProject checks that who may create a project in orgID (an owner
// or admin) and that the organization's quota allows one more.
func (s *Service) canCreateProject(ctx context.Context, tx *store.Store, who *model.Principal, orgID uuid.UUID) error {
	if _, err := access.Organization(ctx, tx, who, orgID, access.Write); err != nil {
		return err
	}
	return access.Quota(ctx, s.cfg.ProjectsPerOrganization, orgID, tx.Organizations().Lock, tx.Projects().Count,
		"projects per organization", "ask the operator for more")
}

// ProjectsByOrganization lists one page of projects of each organization in
// orgIDs, by organization id, for GraphQL dataloaders. Every id gets a
// list; one that is not the caller's gets an empty list.
func (s *Service) ProjectsByOrganization(ctx context.Context, who *model.Principal, orgIDs []uuid.UUID, in model.PageInput) (map[uuid.UUID]*model.List[ProjectView], error) {
	page, err := in.Page()
	if err != nil {
		return nil, err
	}
	rows, err := s.st.Projects().ListForOrganizations(ctx, who.UserID, orgIDs, page)
	if err != nil {
		return nil, err
	}
	return model.Lists(orgIDs, rows, page.Limit, func(r *model.Project) uuid.UUID { return r.OrganizationID }, projectID, s.projectValue), nil
}
