// Package authority is how a project reaches its tax authority, shared by
// the application packages that change a project's settings (portal), issue
// its invoices (invoices) and call the authority for it (runs):
//
//   - a project's secrets (certificate, sandbox private key, API key and
//     secret) are sealed at rest here and opened only here;
//   - the host a project calls: the configured sandbox for sandbox
//     projects, for production projects one of the tax authority hosts the
//     server calls (the egress policy), checked again at every use;
//   - Issuer, what an invoice operation needs of a project, cached briefly;
//   - Credentials, the opened settings a call to the authority needs;
//   - sandbox provisioning: the business, keys and API credentials a new
//     sandbox project gets at once.
package authority

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store"
)

// DefaultProductionBaseURL is NRS's production API host: the default host
// of production projects, and the only place production code lists are
// refreshed from.
const DefaultProductionBaseURL = "https://einvoice1.nrs.gov.ng"

// Config configures New.
type Config struct {
	// Box seals the projects' secrets at rest. Required.
	Box *secret.Box
	// Authorities is the registry of tax authorities.
	Authorities model.Authorities
	// SandboxBaseURL is where sandbox projects talk to the authority (the
	// NRS sandbox stand-in in development), and the only host sandbox code
	// lists are stored from.
	SandboxBaseURL string
	// ProductionBaseURL is the authority's production host, the only one
	// production code lists are stored from; default
	// DefaultProductionBaseURL.
	ProductionBaseURL string
	// ReportBaseURL is the host production projects send post-payment VAT
	// reports to; "" for the project's own host. Sandbox projects report
	// to their sandbox host.
	ReportBaseURL string
	// Egress judges where production projects may send their calls: its
	// Origins are the tax authority hosts this server calls (the first is
	// the default of a project without base_url; default
	// ProductionBaseURL), and it refuses special-purpose addresses unless
	// AllowPrivate is set.
	Egress egress.Policy
	// SandboxKeys makes the key pair and certificate of a new sandbox
	// project; default: a fresh RSA-2048 pair (nrs.GenerateSandboxKeys).
	SandboxKeys func() (nrs.SandboxKeys, error)
	// CacheTTL bounds how long an Issuer is reused, hence how late a
	// change made by another process is seen; default 1 s.
	CacheTTL time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Directory knows how every project reaches its tax authority.
type Directory struct {
	st      *store.Store
	cfg     Config
	issuers *issuerCache
}

// New builds a Directory over st.
func New(st *store.Store, cfg Config) (*Directory, error) {
	if cfg.Box == nil {
		return nil, errors.New("authority: an encryption box is required")
	}
	if cfg.Authorities == nil {
		cfg.Authorities = model.Authorities{}
	}
	if cfg.ProductionBaseURL == "" {
		cfg.ProductionBaseURL = DefaultProductionBaseURL
	}
	// Production projects call NRS's production host unless the operator
	// lists others.
	if len(cfg.Egress.Origins) == 0 {
		cfg.Egress.Origins = []string{cfg.ProductionBaseURL}
	}
	origins, err := egress.NormalizeOrigins(cfg.Egress.Origins)
	if err != nil {
		return nil, fmt.Errorf("authority origins: %w", err)
	}
	cfg.Egress.Origins = origins
	if cfg.SandboxKeys == nil {
		cfg.SandboxKeys = func() (nrs.SandboxKeys, error) { return nrs.GenerateSandboxKeys(nil) }
	}
	if cfg.CacheTTL <= 0 {
		cfg.CacheTTL = time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Directory{st: st, cfg: cfg, issuers: newIssuerCache(cfg.CacheTTL)}, nil
}

// Authorities returns the registry of tax authorities.
func (d *Directory) Authorities() model.Authorities { return d.cfg.Authorities }

// Seal seals one secret field of a project ("" seals to nothing).
func (d *Directory) Seal(projectID uuid.UUID, field, value string) ([]byte, error) {
	if value == "" {
		return nil, nil
	}
	out, err := d.cfg.Box.Seal([]byte(value), purpose(projectID, field))
	if err != nil {
		return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return out, nil
}

// Open opens one secret field of a project.
func (d *Directory) Open(projectID uuid.UUID, field string, sealed []byte) (string, error) {
	out, err := d.cfg.Box.Open(sealed, purpose(projectID, field))
	if err != nil {
		return "", model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return string(out), nil
}

// purpose binds a sealed value to its project and field, so that no
// sealed value can be passed off as another.
func purpose(projectID uuid.UUID, field string) string {
	return "project:" + projectID.String() + ":" + field
}

// secrets are a project's opened secret fields.
type secrets struct {
	certificate, privateKey, apiKey, apiSecret string
}

// open opens every secret a project holds (absent ones stay "").
func (d *Directory) open(pr *model.Project) (secrets, error) {
	var s secrets
	for _, f := range []struct {
		dst   *string
		name  string
		value []byte
	}{
		{&s.certificate, "certificate", pr.CertificateEnc},
		{&s.privateKey, "private_key", pr.PrivateKeyEnc},
		{&s.apiKey, "api_key", pr.APIKeyEnc},
		{&s.apiSecret, "api_secret", pr.APISecretEnc},
	} {
		if len(f.value) == 0 {
			continue
		}
		var err error
		if *f.dst, err = d.Open(pr.ID, f.name, f.value); err != nil {
			return secrets{}, err
		}
	}
	return s, nil
}

// BaseURL is where a project talks to its authority: for a sandbox
// project, the configured sandbox (the stand-in in development), read at
// use time so that moving the sandbox moves every sandbox project with it;
// for a production project, the base_url its owner chose among the
// configured hosts, else the first of them. A base_url saved before the
// hosts were restricted and no longer among them is returned as it is; URL
// refuses it.
func (d *Directory) BaseURL(pr *model.Project) string {
	if pr.Environment == model.EnvironmentSandbox {
		return strings.TrimRight(d.cfg.SandboxBaseURL, "/")
	}
	if pr.BaseURL == "" {
		return d.cfg.Egress.Origins[0]
	}
	return pr.BaseURL
}

// URL is BaseURL for a call about to be made: a production project's
// base_url must still be one of the configured hosts.
func (d *Directory) URL(ctx context.Context, pr *model.Project) (string, error) {
	u := d.BaseURL(pr)
	if pr.Environment == model.EnvironmentSandbox || pr.BaseURL == "" {
		return u, nil
	}
	check := d.cfg.Egress
	check.AllowPrivate = true // the dialer judges the addresses at connection time
	if _, err := check.CheckURL(ctx, u); err != nil {
		return "", model.Errorf(model.CodeAuthorityNotConfigured,
			"this project's base_url %s is not one of the tax authority hosts this server calls (%s); set base_url again, or leave it out, with PUT /api/v2/projects/%s/authority",
			u, strings.Join(d.cfg.Egress.Origins, ", "), pr.ID)
	}
	return u, nil
}

// CheckURL judges a base_url an owner wants to save with the rules every
// call obeys: one of the configured hosts, resolving to no address the
// egress policy refuses.
func (d *Directory) CheckURL(ctx context.Context, raw string) error {
	_, err := d.cfg.Egress.CheckURL(ctx, raw)
	return err
}

// OfficialBaseURL is the authority host of env, the only one code lists
// of env may be stored from: the configured sandbox for sandbox, the
// authority's production host for production.
func (d *Directory) OfficialBaseURL(env model.Environment) string {
	switch env {
	case model.EnvironmentSandbox:
		return strings.TrimRight(d.cfg.SandboxBaseURL, "/")
	case model.EnvironmentProduction:
		return strings.TrimRight(d.cfg.ProductionBaseURL, "/")
	}
	return ""
}

// ParsePublicKey accepts the crypto_keys.txt forms (a PEM, or the base64 of
// a PEM) and returns the key with its canonical PKIX PEM, which is what a
// project stores.
func ParsePublicKey(s string) (*rsa.PublicKey, string, error) {
	pub, err := nrs.ParsePublicKey(s)
	if err != nil {
		return nil, "", err
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, "", model.Invalid(model.ProblemValueError, "public key cannot be encoded", "public_key")
	}
	return pub, string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})), nil
}

// Fingerprint identifies a stored public key (PEM) without revealing it; ""
// when it cannot be read.
func Fingerprint(publicKeyPEM string) string {
	if publicKeyPEM == "" {
		return ""
	}
	pub, _, err := ParsePublicKey(publicKeyPEM)
	if err != nil {
		return ""
	}
	return nrs.KeyFingerprint(pub)
}
