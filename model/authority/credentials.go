package authority

import (
	"context"
	"crypto/rsa"
	"fmt"
	"log/slog"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// Credentials are a project's opened authority settings, for the calls to
// the tax authority a certification run or a code list refresh makes.
// Never return them to a client or log them: String and LogValue hide the
// secrets.
type Credentials struct {
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
	// PostPaymentReport is the project's post-payment report setting
	// (model.PostPaymentReports); ReportBaseURL is the deployment's report
	// host for production projects ("" for the project's BaseURL).
	PostPaymentReport string
	ReportBaseURL     string
}

// String describes the credentials without their secrets.
func (c Credentials) String() string {
	return fmt.Sprintf("Credentials{ProjectID:%s TaxAuthorityCode:%s BaseURL:%s BusinessID:%s ServiceID:%s APIKey:%s APISecret:%s}",
		c.ProjectID, c.TaxAuthorityCode, c.BaseURL, c.BusinessID, c.ServiceID, mark(c.APIKey), mark(c.APISecret))
}

// GoString is String, for %#v.
func (c Credentials) GoString() string { return c.String() }

// LogValue logs the credentials without their secrets.
func (c Credentials) LogValue() slog.Value {
	return slog.GroupValue(slog.String("project_id", c.ProjectID.String()),
		slog.String("tax_authority_code", c.TaxAuthorityCode), slog.String("base_url", c.BaseURL),
		slog.String("business_id", c.BusinessID), slog.String("service_id", c.ServiceID))
}

// RequireAPI fails with authority_not_configured unless the project can call
// the authority's API (a base URL and an API key and secret).
func (c *Credentials) RequireAPI() error {
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

// Credentials opens a project's authority settings for a caller that
// already knows the project is its own (the activities of a run the
// project started, an operator's tool). An unconfigured project is
// authority_not_configured.
func (d *Directory) Credentials(ctx context.Context, projectID uuid.UUID) (*Credentials, error) {
	pr, err := d.st.Projects().ByID(ctx, projectID)
	if err != nil {
		return nil, err
	}
	if !pr.Configured || pr.BusinessID == "" || pr.ServiceID == "" {
		return nil, model.Errorf(model.CodeAuthorityNotConfigured,
			"this project's tax authority settings are not configured; set them with PUT /api/v2/projects/%s/authority", pr.ID)
	}
	base, err := d.URL(ctx, pr)
	if err != nil {
		return nil, err
	}
	c := &Credentials{
		ProjectID: pr.ID, Environment: pr.Environment, TaxAuthorityCode: pr.TaxAuthorityCode,
		BaseURL: base, BusinessID: pr.BusinessID, ServiceID: pr.ServiceID,
		PublicKeyPEM: pr.PublicKey, QREncryption: pr.QREncryption, PostPaymentReport: pr.PostPaymentReport,
	}
	if pr.Environment == model.EnvironmentProduction {
		c.ReportBaseURL = d.cfg.ReportBaseURL
	}
	if pr.PublicKey != "" {
		pub, _, err := ParsePublicKey(pr.PublicKey)
		if err != nil {
			return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
		}
		c.PublicKey = pub
	}
	s, err := d.open(pr)
	if err != nil {
		return nil, err
	}
	c.Certificate, c.PrivateKeyPEM, c.APIKey, c.APISecret = s.certificate, s.privateKey, s.apiKey, s.apiSecret
	return c, nil
}
