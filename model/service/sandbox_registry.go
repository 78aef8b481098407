package service

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"log/slog"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// SandboxBusiness is a sandbox project as the NRS sandbox stand-in knows it;
// the type lives in model so that the stand-in needs nothing of this package.
type SandboxBusiness = model.SandboxBusiness

// SandboxRegistrar registers sandbox businesses with the NRS sandbox
// stand-in, which keeps them in its own database. The stand-in implements it
// in process (nrssandbox.Handler) and over HTTP (nrssandbox.AdminClient); a
// conflict error means the business_id, API key or TIN belongs to another
// project.
type SandboxRegistrar interface {
	RegisterSandboxBusiness(ctx context.Context, b SandboxBusiness) error
}

// AuthorityCredentials are a project's opened authority settings, for the
// activities that talk to the tax authority. Never return them to a client
// or log them: String and LogValue hide the secrets.
type AuthorityCredentials struct {
	ProjectID        uuid.UUID
	Environment      model.Environment
	TaxAuthorityCode string
	// BaseURL is the authority's API root (the stand-in for sandbox
	// projects); APIKey and APISecret authenticate calls to it. They are
	// empty when the project has none (see RequireAPI).
	BaseURL   string
	APIKey    string
	APISecret string
	// BusinessID and ServiceID identify the business at the authority.
	BusinessID string
	ServiceID  string
	// PublicKeyPEM and PublicKey encrypt QR payloads; Certificate goes into
	// them.
	PublicKeyPEM string
	PublicKey    *rsa.PublicKey
	Certificate  string
	// PrivateKeyPEM is set for sandbox projects only.
	PrivateKeyPEM string
	QREncryption  model.QREncryption
}

// String describes the credentials without their secrets.
func (c AuthorityCredentials) String() string {
	return fmt.Sprintf("AuthorityCredentials{ProjectID:%s TaxAuthorityCode:%s BaseURL:%s BusinessID:%s ServiceID:%s APIKey:%s APISecret:%s}",
		c.ProjectID, c.TaxAuthorityCode, c.BaseURL, c.BusinessID, c.ServiceID, mark(c.APIKey), mark(c.APISecret))
}

// GoString is String, for %#v.
func (c AuthorityCredentials) GoString() string { return c.String() }

// LogValue logs the credentials without their secrets.
func (c AuthorityCredentials) LogValue() slog.Value {
	return slog.GroupValue(slog.String("project_id", c.ProjectID.String()),
		slog.String("tax_authority_code", c.TaxAuthorityCode), slog.String("base_url", c.BaseURL),
		slog.String("business_id", c.BusinessID), slog.String("service_id", c.ServiceID))
}

// RequireAPI fails with authority_not_configured unless the project can call
// the authority's API (a base URL and an API key and secret).
func (c *AuthorityCredentials) RequireAPI() error {
	if c.BaseURL == "" || c.APIKey == "" || c.APISecret == "" {
		return model.Errorf(model.CodeAuthorityNotConfigured,
			"this project has no tax authority API base URL or credentials; set base_url, api_key and api_secret with PUT /api/v2/projects/%s/authority", c.ProjectID)
	}
	return nil
}

func mark(secret string) string {
	if secret == "" {
		return `""`
	}
	return "[REDACTED]"
}

// AuthorityCredentials opens a project's authority settings for an activity
// that already knows the project is the caller's (it holds the id of a run
// the service started). An unconfigured project is authority_not_configured.
func (s *Service) AuthorityCredentials(ctx context.Context, projectID uuid.UUID) (*AuthorityCredentials, error) {
	pr, err := s.store.Projects().ByID(ctx, projectID)
	if err != nil {
		return nil, err
	}
	if !pr.Configured || pr.BusinessID == "" || pr.ServiceID == "" {
		return nil, model.Errorf(model.CodeAuthorityNotConfigured,
			"this project's tax authority settings are not configured; set them with PUT /api/v2/projects/%s/authority", pr.ID)
	}
	base, err := s.authorityURL(ctx, pr)
	if err != nil {
		return nil, err
	}
	c := &AuthorityCredentials{
		ProjectID: pr.ID, Environment: pr.Environment, TaxAuthorityCode: pr.TaxAuthorityCode,
		BaseURL: base, BusinessID: pr.BusinessID, ServiceID: pr.ServiceID,
		PublicKeyPEM: pr.PublicKey, QREncryption: pr.QREncryption,
	}
	if pr.PublicKey != "" {
		pub, _, err := parsePublicKey(pr.PublicKey)
		if err != nil {
			return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
		}
		c.PublicKey = pub
	}
	for _, f := range []struct {
		dst   *string
		name  string
		value []byte
	}{
		{&c.Certificate, "certificate", pr.CertificateEnc},
		{&c.PrivateKeyPEM, "private_key", pr.PrivateKeyEnc},
		{&c.APIKey, "api_key", pr.APIKeyEnc},
		{&c.APISecret, "api_secret", pr.APISecretEnc},
	} {
		if len(f.value) == 0 {
			continue
		}
		if *f.dst, err = s.open(pr.ID, f.name, f.value); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// sandboxPageSize bounds how many projects SandboxBusinesses holds per query.
const sandboxPageSize = 500

// SandboxBusinesses lists every sandbox project of every tenant with its
// opened secrets, for registering them again with the NRS sandbox stand-in.
// Projects without sandbox API credentials (created before they existed)
// come with APIKey and APISecret empty; see RegisterSandboxBusinesses.
func (s *Service) SandboxBusinesses(ctx context.Context) ([]SandboxBusiness, error) {
	var out []SandboxBusiness
	err := s.eachSandboxProject(ctx, func(pr *model.Project) error {
		b, err := s.sandboxBusiness(pr)
		if err != nil {
			return err
		}
		out = append(out, b)
		return nil
	})
	return out, err
}

// RegisterSandboxBusinesses registers every sandbox project with the
// configured SandboxRegistrar, generating sandbox API credentials first for
// projects that have none. Call it at startup: registration is idempotent,
// and this repairs projects created while the stand-in was unreachable or
// before it kept its state. It returns how many businesses were registered;
// a business the stand-in refuses as another project's is logged and
// skipped, and any other failure stops it.
func (s *Service) RegisterSandboxBusinesses(ctx context.Context) (int, error) {
	reg := s.cfg.SandboxRegistrar
	if reg == nil {
		return 0, nil
	}
	n := 0
	err := s.eachSandboxProject(ctx, func(pr *model.Project) error {
		if len(pr.APIKeyEnc) == 0 || len(pr.APISecretEnc) == 0 {
			if err := s.provisionSandboxCredentials(pr); err != nil {
				return err
			}
			pr.UpdatedAt = s.now()
			if err := s.store.Projects().UpdateAuthority(ctx, pr); err != nil {
				return err
			}
			s.issuers.forget(pr.ID)
		}
		b, err := s.sandboxBusiness(pr)
		if err != nil {
			return err
		}
		if err := reg.RegisterSandboxBusiness(ctx, b); err != nil {
			if model.ErrorCodeOf(err) == model.CodeConflict {
				// Another project holds the business at the stand-in: this
				// project's runs fail until its owner fixes its settings,
				// and nobody else's are touched.
				s.cfg.Logger.WarnContext(ctx, "sandbox business refused by the NRS sandbox stand-in",
					"project_id", pr.ID.String(), "error", err.Error())
				return nil
			}
			return model.Wrap(model.CodeUnavailable, err, "cannot register sandbox business of project %s", pr.ID)
		}
		n++
		return nil
	})
	return n, err
}

// eachSandboxProject calls fn for every configured sandbox project, in id
// order, a page at a time.
func (s *Service) eachSandboxProject(ctx context.Context, fn func(pr *model.Project) error) error {
	after := uuid.Nil
	for {
		page, err := s.store.Projects().Sandbox(ctx, after, sandboxPageSize)
		if err != nil {
			return err
		}
		for i := range page {
			if err := fn(&page[i]); err != nil {
				return err
			}
		}
		if len(page) < sandboxPageSize {
			return nil
		}
		after = page[len(page)-1].ID
	}
}

// sandboxBusiness opens a sandbox project's secrets.
func (s *Service) sandboxBusiness(pr *model.Project) (SandboxBusiness, error) {
	b := SandboxBusiness{
		ProjectID: pr.ID, BusinessID: pr.BusinessID, ServiceID: pr.ServiceID,
		PublicKeyPEM: pr.PublicKey, QREncryption: pr.QREncryption, BaseURL: s.baseURL(pr),
	}
	for _, f := range []struct {
		dst   *string
		name  string
		value []byte
	}{
		{&b.Certificate, "certificate", pr.CertificateEnc},
		{&b.PrivateKeyPEM, "private_key", pr.PrivateKeyEnc},
		{&b.APIKey, "api_key", pr.APIKeyEnc},
		{&b.APISecret, "api_secret", pr.APISecretEnc},
	} {
		if len(f.value) == 0 {
			continue
		}
		var err error
		if *f.dst, err = s.open(pr.ID, f.name, f.value); err != nil {
			return SandboxBusiness{}, err
		}
	}
	return b, nil
}

// registerSandbox tells the registrar about a sandbox project that was just
// committed. The project exists whatever happens here, so a failure is
// logged, not returned: RegisterSandboxBusinesses repairs it at the next
// start.
func (s *Service) registerSandbox(ctx context.Context, pr *model.Project) {
	if s.cfg.SandboxRegistrar == nil || pr.Environment != model.EnvironmentSandbox || !pr.Configured {
		return
	}
	b, err := s.sandboxBusiness(pr)
	if err == nil {
		err = s.cfg.SandboxRegistrar.RegisterSandboxBusiness(ctx, b)
	}
	if err != nil {
		s.cfg.Logger.WarnContext(ctx, "sandbox business not registered with the NRS sandbox stand-in",
			"project_id", pr.ID.String(), "error", err.Error())
	}
}

// registerSandboxStrict registers a sandbox project whose authority
// settings are being changed, inside the change's transaction: a conflict
// (the stand-in holds the business_id, API key or TIN for another project)
// is returned, so the change is refused; any other failure is logged, as in
// registerSandbox, and repaired by RegisterSandboxBusinesses.
func (s *Service) registerSandboxStrict(ctx context.Context, pr *model.Project) error {
	if s.cfg.SandboxRegistrar == nil || pr.Environment != model.EnvironmentSandbox || !pr.Configured {
		return nil
	}
	b, err := s.sandboxBusiness(pr)
	if err == nil {
		err = s.cfg.SandboxRegistrar.RegisterSandboxBusiness(ctx, b)
	}
	switch {
	case err == nil:
		return nil
	case model.ErrorCodeOf(err) == model.CodeConflict:
		return model.Errorf(model.CodeConflict,
			"the NRS sandbox holds this business_id for another project; a sandbox project keeps the business einvoice gave it or one of its own")
	}
	s.cfg.Logger.WarnContext(ctx, "sandbox business not registered with the NRS sandbox stand-in",
		"project_id", pr.ID.String(), "error", err.Error())
	return nil
}

// Shapes of generated sandbox API credentials: the key a UUID like NRS's, the
// secret 64 letters and digits.
const (
	sandboxSecretLen      = 64
	sandboxSecretAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
)

// provisionSandboxCredentials generates the API key and secret a sandbox
// project presents to the NRS sandbox stand-in and seals them.
func (s *Service) provisionSandboxCredentials(pr *model.Project) error {
	secret, err := randomString(sandboxSecretLen, sandboxSecretAlphabet)
	if err != nil {
		return model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	if pr.APIKeyEnc, err = s.seal(pr.ID, "api_key", uuid.NewString()); err != nil {
		return err
	}
	if pr.APISecretEnc, err = s.seal(pr.ID, "api_secret", secret); err != nil {
		return err
	}
	return nil
}

// randomString draws n characters of alphabet uniformly (rejection
// sampling, so no character is favoured).
func randomString(n int, alphabet string) (string, error) {
	limit := 256 - 256%len(alphabet)
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/2)
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			return "", err
		}
		for _, c := range buf {
			if int(c) < limit && len(out) < n {
				out = append(out, alphabet[int(c)%len(alphabet)])
			}
		}
	}
	return string(out), nil
}
