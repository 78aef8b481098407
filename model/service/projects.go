package service

import (
	"context"
	"crypto/rand"
	"net/url"
	"regexp"
	"strings"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/store"
)

// DefaultAuthority is the tax authority of new projects.
const DefaultAuthority = "NRS"

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
func (s *Service) CreateProject(ctx context.Context, u *UserPrincipal, in ProjectInput) (*ProjectView, error) {
	var p model.Problems
	orgID, env := in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	// Authorize and check the quota before the (slow) key generation; the
	// transaction checks both again.
	if err := s.requireWriter(ctx, s.store, u, orgID); err != nil {
		return nil, err
	}
	if err := s.checkProjectQuota(ctx, s.store, orgID); err != nil {
		return nil, err
	}
	now := s.now()
	pr := &model.Project{
		ID: newID(), OrganizationID: orgID, Name: in.Name, Environment: env,
		CreatedAt: now, UpdatedAt: now, TaxAuthorityCode: DefaultAuthority, QREncryption: model.QREncryptionPKCS1v15,
		ValidationProfile: model.ProfileNRS,
	}
	if pr.Environment == model.EnvironmentSandbox {
		if err := s.provisionSandbox(pr); err != nil {
			return nil, err
		}
	}
	err := s.store.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if err := s.requireWriter(ctx, tx, u, orgID); err != nil {
			return err
		}
		if err := s.checkProjectQuota(ctx, tx, orgID); err != nil {
			return err
		}
		if err := tx.Projects().Create(ctx, pr); err != nil {
			return err
		}
		return s.audit(ctx, tx, &orgID, userActor(u.UserID), model.ActionProjectCreate, "project", pr.ID.String())
	})
	if err != nil {
		return nil, err
	}
	s.registerSandbox(ctx, pr)
	return s.projectView(pr), nil
}

// baseURL is where a project talks to its authority: for a sandbox
// project, the configured sandbox (the stand-in in development), read at
// use time so that moving the sandbox moves every sandbox project with it;
// for a production project, the base_url its owner chose among the
// configured hosts, else the first of them. A base_url saved before the
// hosts were restricted and no longer among them is returned as it is;
// authorityURL refuses it.
func (s *Service) baseURL(pr *model.Project) string {
	if pr.Environment == model.EnvironmentSandbox {
		return strings.TrimRight(s.cfg.SandboxBaseURL, "/")
	}
	if pr.BaseURL == "" {
		return s.cfg.Egress.Origins[0]
	}
	return pr.BaseURL
}

// authorityURL is baseURL for a call about to be made: a production
// project's base_url must still be one of the configured hosts.
func (s *Service) authorityURL(ctx context.Context, pr *model.Project) (string, error) {
	u := s.baseURL(pr)
	if pr.Environment == model.EnvironmentSandbox || pr.BaseURL == "" {
		return u, nil
	}
	check := s.cfg.Egress
	check.AllowPrivate = true // the dialer judges the addresses at connection time
	if _, err := check.CheckURL(ctx, u); err != nil {
		return "", model.Errorf(model.CodeAuthorityNotConfigured,
			"this project's base_url %s is not one of the tax authority hosts this server calls (%s); set base_url again, or leave it out, with PUT /api/v2/projects/%s/authority",
			u, strings.Join(s.cfg.Egress.Origins, ", "), pr.ID)
	}
	return u, nil
}

const serviceIDAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

func (s *Service) provisionSandbox(pr *model.Project) error {
	keys, err := s.cfg.SandboxKeys()
	if err != nil {
		return model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	for i := range b {
		b[i] = serviceIDAlphabet[int(b[i])%len(serviceIDAlphabet)]
	}
	pr.BusinessID = uuid.New().String()
	pr.ServiceID = string(b)
	pr.PublicKey = keys.PublicKeyPEM
	if pr.CertificateEnc, err = s.seal(pr.ID, "certificate", keys.Certificate); err != nil {
		return err
	}
	if pr.PrivateKeyEnc, err = s.seal(pr.ID, "private_key", keys.PrivateKeyPEM); err != nil {
		return err
	}
	if err := s.provisionSandboxCredentials(pr); err != nil {
		return err
	}
	pr.Configured = true
	return nil
}

func (s *Service) seal(projectID uuid.UUID, field, value string) ([]byte, error) {
	if value == "" {
		return nil, nil
	}
	out, err := s.cfg.Box.Seal([]byte(value), "project:"+projectID.String()+":"+field)
	if err != nil {
		return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return out, nil
}

func (s *Service) open(projectID uuid.UUID, field string, sealed []byte) (string, error) {
	out, err := s.cfg.Box.Open(sealed, "project:"+projectID.String()+":"+field)
	if err != nil {
		return "", model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return string(out), nil
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
	if u := s.baseURL(pr); u != "" {
		a.BaseURL = &u
	}
	if pr.PublicKey != "" {
		if pub, _, err := parsePublicKey(pr.PublicKey); err == nil {
			fp := fingerprint(pub)
			a.PublicKeyFingerprint = &fp
		}
	}
	profile := pr.ValidationProfile
	if profile == "" {
		profile = model.ProfileNRS
	}
	return &ProjectView{ID: pr.ID, OrganizationID: pr.OrganizationID, Name: pr.Name, Environment: pr.Environment,
		ValidationProfile: profile, CreatedAt: pr.CreatedAt.UTC(), Authority: a}
}

// ProjectsInput filters a project listing.
type ProjectsInput struct {
	OrganizationID string
	PageInput
}

// Projects lists the caller's projects, optionally of one organization.
func (s *Service) Projects(ctx context.Context, u *UserPrincipal, in ProjectsInput) (*List[ProjectView], error) {
	var p model.Problems
	page := in.PageInput.validate(&p)
	var orgID uuid.UUID
	if in.OrganizationID != "" {
		orgID = p.CheckUUID(in.OrganizationID, "organization_id")
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	rows, more, err := s.store.Projects().List(ctx, u.UserID, orgID, page)
	if err != nil {
		return nil, err
	}
	out := &List[ProjectView]{Items: make([]ProjectView, 0, len(rows))}
	for i := range rows {
		out.Items = append(out.Items, *s.projectView(&rows[i]))
	}
	if more {
		out.NextCursor = cursorFor(rows[len(rows)-1].ID)
	}
	return out, nil
}

// Project returns one of the caller's projects.
func (s *Service) Project(ctx context.Context, u *UserPrincipal, id uuid.UUID) (*ProjectView, error) {
	pr, err := s.store.Projects().Get(ctx, id, u.UserID)
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
func (s *Service) checkBaseURL(ctx context.Context, u *UserPrincipal, projectID uuid.UUID, raw string, p *model.Problems) {
	if _, err := url.Parse(raw); err != nil {
		p.Add(model.ProblemValueError, "Input should be a valid http or https URL", "base_url")
		return
	}
	pr, err := s.store.Projects().Get(ctx, projectID, u.UserID)
	if err != nil {
		pr = nil // not found, or not the caller's: the update answers that
	}
	if pr != nil && pr.Environment == model.EnvironmentSandbox {
		p.Add(model.ProblemValueError, "sandbox projects call the NRS sandbox this server is configured with; base_url is for production projects only", "base_url")
		return
	}
	if _, err := s.cfg.Egress.CheckURL(ctx, raw); err != nil {
		msg := strings.TrimPrefix(err.Error(), egress.ErrForbidden.Error()+": ")
		p.Add(model.ProblemValueError, "base_url is not allowed: "+msg, "base_url")
	}
}

// UpdateAuthority configures a project's tax authority settings. Secrets
// are sealed at rest and never shown again.
func (s *Service) UpdateAuthority(ctx context.Context, u *UserPrincipal, projectID uuid.UUID, in AuthorityInput) (*ProjectView, error) {
	var p model.Problems
	code := strings.ToUpper(strings.TrimSpace(in.TaxAuthorityCode))
	authority, ok := s.cfg.Authorities.Lookup(code)
	if !ok {
		p.CheckEnum(in.TaxAuthorityCode, s.cfg.Authorities.Codes(), "tax_authority_code")
	} else {
		code = authority.Code()
	}
	p.CheckUUID(in.BusinessID, "business_id")
	p.CheckPattern(in.ServiceID, serviceIDRE, "service_id")
	var pubPEM string
	if in.PublicKey == "" {
		p.Add(model.ProblemStringTooShort, "String should have at least 1 character", "public_key")
	} else if _, pem, err := parsePublicKey(in.PublicKey); err != nil {
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
		s.checkBaseURL(ctx, u, projectID, *in.BaseURL, &p)
	}
	if in.QREncryption != nil {
		p.CheckEnum(*in.QREncryption, QREncryptions, "qr_encryption")
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	var view *ProjectView
	err := s.store.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, err := tx.Projects().Get(ctx, projectID, u.UserID)
		if err != nil {
			return err
		}
		if err := s.requireWriter(ctx, tx, u, pr.OrganizationID); err != nil {
			return err
		}
		if pr.PublicKey != pubPEM {
			pr.PrivateKeyEnc = nil // the stored private key no longer matches
		}
		pr.TaxAuthorityCode = code
		pr.BusinessID = strings.ToLower(in.BusinessID)
		pr.ServiceID = strings.ToUpper(in.ServiceID)
		pr.PublicKey = pubPEM
		if pr.CertificateEnc, err = s.seal(pr.ID, "certificate", strings.TrimSpace(in.Certificate)); err != nil {
			return err
		}
		if in.APIKey != nil {
			if pr.APIKeyEnc, err = s.seal(pr.ID, "api_key", *in.APIKey); err != nil {
				return err
			}
			if pr.APISecretEnc, err = s.seal(pr.ID, "api_secret", *in.APISecret); err != nil {
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
		pr.UpdatedAt = s.now()
		if err := tx.Projects().UpdateAuthority(ctx, pr); err != nil {
			return err
		}
		// The stand-in refuses a business that belongs to another project
		// (issue: a tenant pointing its sandbox project at another tenant's
		// business_id); that refusal undoes the change.
		if err := s.registerSandboxStrict(ctx, pr); err != nil {
			return err
		}
		view = s.projectView(pr)
		return s.audit(ctx, tx, &pr.OrganizationID, userActor(u.UserID), model.ActionAuthorityUpdate, "project", pr.ID.String())
	})
	if err != nil {
		return nil, err
	}
	s.issuers.forget(projectID)
	return view, nil
}

// ProjectUpdate changes a project's settings; fields left out keep their
// value, and at least one must be given.
type ProjectUpdate struct {
	// ValidationProfile is nrs or strict: the profile the project's
	// invoices are validated with when a request names none.
	ValidationProfile *string `json:"validation_profile"`
}

// Validate records every problem of the update.
func (in *ProjectUpdate) Validate(p *model.Problems) {
	if in.ValidationProfile == nil {
		p.Add(model.ProblemMissing, "Field required", "validation_profile")
		return
	}
	p.CheckEnum(*in.ValidationProfile, model.ValidationProfiles, "validation_profile")
}

// UpdateProject changes one of the caller's projects (owners and admins),
// in one transaction with its audit entry (project.update). Validation in
// this process uses the new profile at once, in other processes within the
// issuer cache period (one second by default).
func (s *Service) UpdateProject(ctx context.Context, u *UserPrincipal, projectID uuid.UUID, in ProjectUpdate) (*ProjectView, error) {
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	var view *ProjectView
	err := s.store.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, err := tx.Projects().Get(ctx, projectID, u.UserID)
		if err != nil {
			return err
		}
		if err := s.requireWriter(ctx, tx, u, pr.OrganizationID); err != nil {
			return err
		}
		pr.ValidationProfile = model.ValidationProfile(*in.ValidationProfile)
		pr.UpdatedAt = s.now()
		if err := tx.Projects().UpdateValidationProfile(ctx, pr); err != nil {
			return err
		}
		view = s.projectView(pr)
		return s.audit(ctx, tx, &pr.OrganizationID, userActor(u.UserID), model.ActionProjectUpdate, "project", pr.ID.String())
	})
	if err != nil {
		return nil, err
	}
	s.issuers.forget(projectID)
	return view, nil
}
