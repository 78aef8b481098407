package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/events"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Service holds the webhook endpoints of projects (owners and admins
// change them, members read them), lists their delivery attempts, sends
// test pings and redelivers events.
type Service struct {
	st  *store.Store
	cfg Config
}

// New builds the service over st.
func New(st *store.Store, cfg Config) *Service {
	cfg.defaults()
	return &Service{st: st, cfg: cfg}
}

// Bounds of an endpoint.
const (
	MaxURLLength         = 2048
	MaxDescriptionLength = 500
	MaxEventTypes        = 32
	// MaxGraceSeconds bounds a secret rotation's grace period (7 days);
	// DefaultGraceSeconds is 24 hours.
	MaxGraceSeconds     = 604800
	DefaultGraceSeconds = 86400
	secretPrefix        = "whsec_"
	secretRandom        = 32
)

// EndpointInput creates an endpoint.
type EndpointInput struct {
	URL         string   `json:"url" required:"true"`
	Description string   `json:"description"`
	EventTypes  []string `json:"event_types"`
}

// Validate records every problem of the input's shape (the URL's
// destination is judged when it is saved).
func (in *EndpointInput) Validate(p *model.Problems) {
	in.URL = strings.TrimSpace(in.URL)
	checkURLShape(p, in.URL)
	checkDescription(p, in.Description)
	in.EventTypes = checkTypes(p, in.EventTypes)
}

// EndpointPatch changes an endpoint; absent fields stay as they are.
type EndpointPatch struct {
	URL         *string   `json:"url"`
	Description *string   `json:"description"`
	EventTypes  *[]string `json:"event_types"`
	Enabled     *bool     `json:"enabled"`
}

// Validate records every problem of the patch.
func (in *EndpointPatch) Validate(p *model.Problems) {
	if in.URL != nil {
		u := strings.TrimSpace(*in.URL)
		in.URL = &u
		checkURLShape(p, u)
	}
	if in.Description != nil {
		checkDescription(p, *in.Description)
	}
	if in.EventTypes != nil {
		t := checkTypes(p, *in.EventTypes)
		in.EventTypes = &t
	}
}

func checkURLShape(p *model.Problems, u string) {
	if u == "" {
		p.Add(model.ProblemMissing, "Field required", "url")
		return
	}
	if len(u) > MaxURLLength {
		p.Add(model.ProblemStringTooLong, "String should have at most 2048 characters", "url")
		return
	}
	p.CheckNoControl(u, "url")
}

func checkDescription(p *model.Problems, d string) {
	if len(d) > MaxDescriptionLength {
		p.Add(model.ProblemStringTooLong, "String should have at most 500 characters", "description")
		return
	}
	p.CheckNoControl(d, "description")
}

// checkTypes checks event type filters; none means every type ("*").
func checkTypes(p *model.Problems, types []string) []string {
	if len(types) == 0 {
		return []string{"*"}
	}
	if len(types) > MaxEventTypes {
		p.Add(model.ProblemValueError, "at most 32 event types", "event_types")
		return types
	}
	var out []string
	for i, t := range types {
		t = strings.TrimSpace(t)
		if !events.ValidFilter(t) {
			p.Add(model.ProblemValueError, "Input should be an event type such as certification_run.passed, a resource's types such as invoice.*, or *", "event_types", i)
			continue
		}
		dup := false
		for _, o := range out {
			dup = dup || o == t
		}
		if !dup {
			out = append(out, t)
		}
	}
	return out
}

// checkURL judges an endpoint's URL for a project: https in production
// projects (http in sandbox projects, or anywhere with AllowHTTP), and a
// host that resolves to no address the policy refuses.
func (s *Service) checkURL(ctx context.Context, pr *model.Project, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return model.Invalid(model.ProblemValueError, "Input should be an absolute https URL", "url")
	}
	if u.Scheme == "http" && pr.Environment == model.EnvironmentProduction && !s.cfg.AllowHTTP {
		return model.Invalid(model.ProblemValueError, "a production project's webhook URL must use https", "url")
	}
	if err := s.checkHost(ctx, u.Hostname()); err != nil {
		return err
	}
	if _, err := s.cfg.Policy().CheckURL(ctx, raw); err != nil {
		msg := strings.TrimPrefix(err.Error(), egress.ErrForbidden.Error()+": ")
		if errors.Is(err, egress.ErrForbidden) {
			return model.Invalid(model.ProblemValueError, "URL not allowed: "+msg, "url")
		}
		return model.Invalid(model.ProblemValueError, "URL not allowed", "url")
	}
	return nil
}

// hostResolveTimeout bounds the DNS lookup of a host being saved.
const hostResolveTimeout = 5 * time.Second

// checkHost refuses, whatever the egress policy, a host that is a number
// in any form but the canonical one (2130706433, 0x7f.1, 127.1, 0, 0177.0.0.1:
// the forms inet_aton reads, which a URL parser, a resolver and a dialer
// may each read differently) or an IPv6 address with a zone, and a name
// that does not resolve. The delivery's dialer checks every address again
// at each connection.
func (s *Service) checkHost(ctx context.Context, host string) error {
	if a, err := netip.ParseAddr(host); err == nil {
		if a.Zone() != "" {
			return model.Invalid(model.ProblemValueError, "URL not allowed: an IPv6 address with a zone", "url")
		}
		return nil
	}
	if numericHost(host) {
		return model.Invalid(model.ProblemValueError, fmt.Sprintf("URL not allowed: the host %q is a number in a non-canonical form; write an IPv4 address as four decimal numbers, such as 192.0.2.10", host), "url")
	}
	var r egressResolver = net.DefaultResolver
	if s.cfg.Resolver != nil {
		r = s.cfg.Resolver
	}
	rctx, cancel := context.WithTimeout(ctx, hostResolveTimeout)
	defer cancel()
	if addrs, err := r.LookupNetIP(rctx, "ip", host); err != nil || len(addrs) == 0 {
		return model.Invalid(model.ProblemValueError, fmt.Sprintf("URL not allowed: the host %q does not resolve", host), "url")
	}
	return nil
}

// numericHost reports whether host ends in a number, as the WHATWG URL
// standard reads it: its last label (a trailing dot aside) is decimal
// digits or 0x and hexadecimal digits. Such a host is an IPv4 address in
// some form, never a name.
func numericHost(host string) bool {
	labels := strings.Split(host, ".")
	if len(labels) > 1 && labels[len(labels)-1] == "" {
		labels = labels[:len(labels)-1]
	}
	last := labels[len(labels)-1]
	if last == "" {
		return false
	}
	digits := "0123456789"
	if len(last) >= 2 && (last[:2] == "0x" || last[:2] == "0X") {
		last, digits = last[2:], "0123456789abcdefABCDEF"
	}
	for _, c := range last {
		if !strings.ContainsRune(digits, c) {
			return false
		}
	}
	return true
}

// EndpointView is an endpoint as the API shows it, without its secret.
type EndpointView struct {
	ID                  uuid.UUID  `json:"id"`
	ProjectID           uuid.UUID  `json:"project_id"`
	URL                 string     `json:"url"`
	Description         string     `json:"description"`
	EventTypes          []string   `json:"event_types"`
	Enabled             bool       `json:"enabled"`
	DisabledReason      *string    `json:"disabled_reason"`
	SecretLast4         string     `json:"secret_last4"`
	PrevSecretExpiresAt *time.Time `json:"previous_secret_expires_at"`
	FailingSince        *time.Time `json:"failing_since"`
	CreatedAt           time.Time  `json:"created_at"`
	UpdatedAt           time.Time  `json:"updated_at"`
}

// EndpointWithSecret answers create and rotate-secret: the only time the
// signing secret is shown.
type EndpointWithSecret struct {
	EndpointView
	Secret string `json:"secret"`
}

func endpointView(e *model.WebhookEndpoint) EndpointView {
	return EndpointView{
		ID: e.ID, ProjectID: e.ProjectID, URL: e.URL, Description: e.Description, EventTypes: strings.Fields(e.EventTypes),
		Enabled: e.Enabled, DisabledReason: e.DisabledReason, SecretLast4: e.SecretLast4,
		PrevSecretExpiresAt: model.UTC(e.PrevSecretExpiresAt), FailingSince: model.UTC(e.FailingSince),
		CreatedAt: e.CreatedAt.UTC(), UpdatedAt: e.UpdatedAt.UTC(),
	}
}

func sealAD(id uuid.UUID) string { return "webhook_endpoint:" + id.String() + ":secret" }

func (s *Service) newSecret(id uuid.UUID) (string, []byte, error) {
	r, err := secret.Base62(secretRandom)
	if err != nil {
		return "", nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	sec := secretPrefix + r
	sealed, err := s.cfg.Box.Seal([]byte(sec), sealAD(id))
	if err != nil {
		return "", nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return sec, sealed, nil
}

// Create adds an endpoint to one of the caller's projects; the answer
// holds the signing secret, shown this once. Under an Idempotency-Key, the
// answer (sealed) is kept in the endpoint's own commit (Store.KeepAnswer):
// a retry is answered this endpoint and its secret whatever happens to
// this process from here on, and never creates a second one.
func (s *Service) Create(ctx context.Context, who *model.Principal, projectID uuid.UUID, in EndpointInput) (*EndpointWithSecret, error) {
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	pr, err := s.writable(ctx, who, projectID)
	if err != nil {
		return nil, err
	}
	if err := s.checkURL(ctx, pr, in.URL); err != nil {
		return nil, err
	}
	at := now(s.cfg)
	e := &model.WebhookEndpoint{
		ID: model.NewID(), ProjectID: pr.ID, URL: in.URL, Description: in.Description, EventTypes: strings.Join(in.EventTypes, " "),
		Enabled: true, CreatedAt: at, UpdatedAt: at,
	}
	sec, sealed, err := s.newSecret(e.ID)
	if err != nil {
		return nil, err
	}
	e.SecretEnc, e.SecretLast4 = sealed, sec[len(sec)-4:]
	out := &EndpointWithSecret{EndpointView: endpointView(e), Secret: sec}
	err = s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if err := access.Quota(ctx, s.cfg.EndpointsPerProject, pr.ID, tx.Projects().Lock, tx.Webhooks().CountEndpoints,
			"webhook endpoints per project", "delete an endpoint you no longer use"); err != nil {
			return err
		}
		if err := tx.Webhooks().CreateEndpoint(ctx, e); err != nil {
			return err
		}
		if err := s.cfg.Trail.Record(ctx, tx, &pr.OrganizationID, who.Actor(), model.ActionWebhookCreate, "webhook_endpoint", e.ID.String()); err != nil {
			return err
		}
		_, err := tx.KeepAnswer(ctx, out)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// writable loads a project who may change (owners and admins).
func (s *Service) writable(ctx context.Context, who *model.Principal, projectID uuid.UUID) (*model.Project, error) {
	if who == nil || who.IsKey() {
		return nil, model.NotFound("project")
	}
	return access.Project(ctx, s.st, who, projectID, access.Write)
}

// List lists a project's endpoints.
func (s *Service) List(ctx context.Context, who *model.Principal, projectID uuid.UUID, in model.PageInput) (*model.List[EndpointView], error) {
	if who == nil || who.IsKey() {
		return nil, model.NotFound("project")
	}
	page, err := access.ProjectPage(ctx, s.st, who, projectID, in)
	if err != nil {
		return nil, err
	}
	rows, more, err := s.st.Webhooks().ListEndpoints(ctx, projectID, page)
	if err != nil {
		return nil, err
	}
	return model.ListOf(rows, more, func(e *model.WebhookEndpoint) uuid.UUID { return e.ID }, endpointView), nil
}

// Get reads one endpoint.
func (s *Service) Get(ctx context.Context, who *model.Principal, projectID, endpointID uuid.UUID) (*EndpointView, error) {
	_, e, err := s.endpoint(ctx, s.st, who, projectID, endpointID, access.Read)
	if err != nil {
		return nil, err
	}
	v := endpointView(e)
	return &v, nil
}

func (s *Service) endpoint(ctx context.Context, st *store.Store, who *model.Principal, projectID, endpointID uuid.UUID, need access.Need) (*model.Project, *model.WebhookEndpoint, error) {
	if who == nil || who.IsKey() {
		return nil, nil, model.NotFound("project")
	}
	pr, err := access.Project(ctx, st, who, projectID, need)
	if err != nil {
		return nil, nil, err
	}
	e, err := st.Webhooks().Endpoint(ctx, pr.ID, endpointID)
	return pr, e, err
}

// Update changes an endpoint's URL, description, event types or whether it
// is enabled; enabling an endpoint clears why it was disabled.
func (s *Service) Update(ctx context.Context, who *model.Principal, projectID, endpointID uuid.UUID, in EndpointPatch) (*EndpointView, error) {
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	if in.URL != nil {
		pr, err := s.writable(ctx, who, projectID)
		if err != nil {
			return nil, err
		}
		if err := s.checkURL(ctx, pr, *in.URL); err != nil {
			return nil, err
		}
	}
	var out EndpointView
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, e, err := s.endpoint(ctx, tx, who, projectID, endpointID, access.Write)
		if err != nil {
			return err
		}
		cols := []string{}
		if in.URL != nil {
			e.URL = *in.URL
			cols = append(cols, "url")
		}
		if in.Description != nil {
			e.Description = *in.Description
			cols = append(cols, "description")
		}
		if in.EventTypes != nil {
			e.EventTypes = strings.Join(*in.EventTypes, " ")
			cols = append(cols, "event_types")
		}
		if in.Enabled != nil {
			if *in.Enabled && !e.Enabled {
				e.DisabledReason, e.FailingSince = nil, nil
			}
			e.Enabled = *in.Enabled
			cols = append(cols, "enabled", "disabled_reason", "failing_since")
		}
		e.UpdatedAt = now(s.cfg)
		if err := tx.Webhooks().UpdateEndpoint(ctx, e, cols...); err != nil {
			return err
		}
		out = endpointView(e)
		return s.cfg.Trail.Record(ctx, tx, &pr.OrganizationID, who.Actor(), model.ActionWebhookUpdate, "webhook_endpoint", e.ID.String())
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Deleted answers a deletion.
type Deleted struct {
	ID      uuid.UUID `json:"id"`
	Deleted bool      `json:"deleted"`
}

// Delete deletes an endpoint: nothing more is sent to it, deliveries under
// way stop at their next attempt, and its delivery log stays.
func (s *Service) Delete(ctx context.Context, who *model.Principal, projectID, endpointID uuid.UUID) (*Deleted, error) {
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, e, err := s.endpoint(ctx, tx, who, projectID, endpointID, access.Write)
		if err != nil {
			return err
		}
		at := now(s.cfg)
		e.DeletedAt, e.Enabled, e.UpdatedAt = &at, false, at
		if err := tx.Webhooks().UpdateEndpoint(ctx, e, "deleted_at", "enabled"); err != nil {
			return err
		}
		return s.cfg.Trail.Record(ctx, tx, &pr.OrganizationID, who.Actor(), model.ActionWebhookDelete, "webhook_endpoint", e.ID.String())
	})
	if err != nil {
		return nil, err
	}
	return &Deleted{ID: endpointID, Deleted: true}, nil
}

// RotateSecret gives an endpoint a new signing secret, shown once; the
// previous one keeps signing alongside (a second v1 signature) for
// graceSeconds. Under an Idempotency-Key, the answer is kept in the
// rotation's own commit, as Create keeps its: a retry is answered this
// secret and never rotates the secret again.
func (s *Service) RotateSecret(ctx context.Context, who *model.Principal, projectID, endpointID uuid.UUID, graceSeconds int) (*EndpointWithSecret, error) {
	if graceSeconds < 0 || graceSeconds > MaxGraceSeconds {
		return nil, model.Invalid(model.ProblemValueError, "Input should be between 0 and 604800", "grace_seconds")
	}
	var out *EndpointWithSecret
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, e, err := s.endpoint(ctx, tx, who, projectID, endpointID, access.Write)
		if err != nil {
			return err
		}
		sec, sealed, err := s.newSecret(e.ID)
		if err != nil {
			return err
		}
		at := now(s.cfg)
		e.PrevSecretEnc, e.PrevSecretExpiresAt = nil, nil
		if graceSeconds > 0 {
			exp := at.Add(time.Duration(graceSeconds) * time.Second)
			e.PrevSecretEnc, e.PrevSecretExpiresAt = e.SecretEnc, &exp
		}
		e.SecretEnc, e.SecretLast4, e.UpdatedAt = sealed, sec[len(sec)-4:], at
		if err := tx.Webhooks().UpdateEndpoint(ctx, e, "secret_enc", "secret_last4", "prev_secret_enc", "prev_secret_expires_at"); err != nil {
			return err
		}
		out = &EndpointWithSecret{EndpointView: endpointView(e), Secret: sec}
		if err := s.cfg.Trail.Record(ctx, tx, &pr.OrganizationID, who.Actor(), model.ActionWebhookRotate, "webhook_endpoint", e.ID.String()); err != nil {
			return err
		}
		_, err = tx.KeepAnswer(ctx, out)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
