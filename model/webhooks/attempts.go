package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/events"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Deliveries is the entry point of the delivery workflow's activities:
// what they read or write in the database goes through it. The workflow
// holds a delivery id, which this package created, so it acts without a
// principal.
type Deliveries struct {
	st  *store.Store
	cfg Config
}

// NewDeliveries builds the activities' entry point over st.
func NewDeliveries(st *store.Store, cfg Config) (*Deliveries, error) {
	if cfg.Box == nil {
		return nil, errors.New("webhooks: an encryption box is required")
	}
	cfg.defaults()
	return &Deliveries{st: st, cfg: cfg}, nil
}

// Egress is the policy the delivery's HTTP client applies at every
// connection.
func (d *Deliveries) Egress() egress.Policy { return d.cfg.Policy() }

// Request is what one attempt sends, or why there is nothing to send.
type Request struct {
	// Stop is set when the delivery is over (already succeeded or failed,
	// its endpoint deleted or disabled); StopReason says why.
	Stop       bool
	StopReason string
	URL        string
	Body       []byte
	Headers    map[string]string
}

// Prepare builds the signed request of a delivery's next attempt. A
// delivery that cannot go on is finished failed and answered Stop.
func (d *Deliveries) Prepare(ctx context.Context, deliveryID uuid.UUID) (*Request, error) {
	del, err := d.st.Webhooks().Delivery(ctx, deliveryID)
	if err != nil {
		return nil, err
	}
	if del.Status != model.DeliveryPending {
		return &Request{Stop: true, StopReason: "the delivery is over (" + del.Status + ")"}, nil
	}
	e, err := d.st.Webhooks().EndpointByID(ctx, del.EndpointID)
	if err != nil {
		return nil, err
	}
	ev, err := d.st.Events().ByID(ctx, del.EventID)
	if err != nil {
		return nil, err
	}
	stop := ""
	switch {
	case e.DeletedAt != nil:
		stop = "the endpoint was deleted"
	case !e.Enabled && ev.Type != model.EventTestPing:
		stop = "the endpoint is disabled"
	}
	if stop == "" {
		pr, err := d.st.Projects().ByID(ctx, e.ProjectID)
		if err != nil {
			return nil, err
		}
		if u, err := url.Parse(e.URL); err != nil || (u.Scheme != "https" && pr.Environment == model.EnvironmentProduction && !d.cfg.AllowHTTP) {
			stop = "a production project's endpoint must use https"
		}
	}
	if stop != "" {
		if err := d.st.Webhooks().FinishDelivery(ctx, del.ID, model.DeliveryFailed, now(d.cfg)); err != nil {
			return nil, err
		}
		return &Request{Stop: true, StopReason: stop}, nil
	}
	return d.request(del, e, ev)
}

// request is the signed request of a delivery of ev to e.
func (d *Deliveries) request(del *model.WebhookDelivery, e *model.WebhookEndpoint, ev *model.Event) (*Request, error) {
	secrets, err := d.secrets(e)
	if err != nil {
		return nil, err
	}
	b, err := body(ev)
	if err != nil {
		return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return &Request{
		URL: e.URL, Body: b,
		Headers: map[string]string{
			"Content-Type":   "application/json",
			"User-Agent":     "einvoice-webhooks/1",
			SignatureHeader:  Sign(d.cfg.Now(), b, secrets...),
			EventIDHeader:    ev.ID.String(),
			EventTypeHeader:  ev.Type,
			DeliveryIDHeader: del.ID.String(),
		},
	}, nil
}

// Direct is a delivery's first attempt made by the dispatcher that
// claimed it, with the rows the dispatcher holds already: the delivery
// (pending, claimed), its event, its endpoint (enabled, not failing, as
// the dispatcher's pass read it) and the environment of the endpoint's
// project.
type Direct struct {
	Delivery    *model.WebhookDelivery
	Event       *model.Event
	Endpoint    *model.WebhookEndpoint
	Environment model.Environment
}

// PrepareDirect builds the signed request of a direct attempt without
// reading anything again (Prepare's checks on the rows held); a delivery
// that cannot go on is finished failed and answered Stop.
func (d *Deliveries) PrepareDirect(ctx context.Context, x *Direct) (*Request, error) {
	if u, err := url.Parse(x.Endpoint.URL); err != nil || (u.Scheme != "https" && x.Environment == model.EnvironmentProduction && !d.cfg.AllowHTTP) {
		if err := d.st.Webhooks().FinishDelivery(ctx, x.Delivery.ID, model.DeliveryFailed, now(d.cfg)); err != nil {
			return nil, err
		}
		return &Request{Stop: true, StopReason: "a production project's endpoint must use https"}, nil
	}
	return d.request(x.Delivery, x.Endpoint, x.Event)
}

// RecordDirect records a direct attempt as Record does. A success, the
// endpoint not failing, is written at once (store.Webhooks.AddSuccess):
// the attempt, and the delivery counted, finished and recorded started (no
// workflow will follow). Any other outcome is Record's.
func (d *Deliveries) RecordDirect(ctx context.Context, x *Direct, r Result) (*Outcome, error) {
	if !r.Succeeded() || x.Endpoint.FailingSince != nil {
		return d.Record(ctx, r)
	}
	at := now(d.cfg)
	a := &model.WebhookAttempt{
		ID: model.NewID(), DeliveryID: x.Delivery.ID, EndpointID: x.Delivery.EndpointID, EventID: x.Delivery.EventID,
		EventType: x.Event.Type, Attempt: r.Attempt, Succeeded: true, LatencyMS: r.Latency.Milliseconds(),
		HTTPStatus: &r.HTTPStatus, CreatedAt: at,
	}
	if err := d.st.Webhooks().AddSuccess(ctx, a, at); err != nil {
		return nil, err
	}
	return &Outcome{Done: true, Started: true}, nil
}

// secrets opens an endpoint's signing secrets: the current one, and the
// previous one while its grace period lasts.
func (d *Deliveries) secrets(e *model.WebhookEndpoint) ([]string, error) {
	cur, err := d.cfg.Box.Open(e.SecretEnc, sealAD(e.ID))
	if err != nil {
		return nil, model.Wrap(model.CodeInternal, err, "cannot open the endpoint's signing secret")
	}
	out := []string{string(cur)}
	if len(e.PrevSecretEnc) > 0 && e.PrevSecretExpiresAt != nil && d.cfg.Now().Before(*e.PrevSecretExpiresAt) {
		if prev, err := d.cfg.Box.Open(e.PrevSecretEnc, sealAD(e.ID)); err == nil {
			out = append(out, string(prev))
		}
	}
	return out, nil
}

// StatusReason is what the delivery log says of an answer with HTTP
// status code: nothing for 2xx, else a fixed reason. The log keeps no
// answer's body: where private addresses are allowed, an endpoint may be
// an internal page the tenant must not read.
func StatusReason(code int) string {
	switch {
	case code >= 200 && code < 300:
		return ""
	case code >= 300 && code < 400:
		return fmt.Sprintf("redirects are not followed (answered %d %s)", code, http.StatusText(code))
	default:
		return fmt.Sprintf("the endpoint answered %d %s; only a 2xx answer counts as delivered", code, http.StatusText(code))
	}
}

// Result is what one attempt got.
type Result struct {
	DeliveryID uuid.UUID     `json:"delivery_id"`
	Attempt    int           `json:"attempt"`
	HTTPStatus int           `json:"http_status"` // 0: no answer
	Latency    time.Duration `json:"latency"`
	// Body is not recorded; older workers sent the answer's first bytes.
	Body  string `json:"body"`
	Error string `json:"error"`
}

// Succeeded reports whether the endpoint took the event: any 2xx answer.
func (r Result) Succeeded() bool { return r.HTTPStatus >= 200 && r.HTTPStatus < 300 }

// Outcome tells the workflow whether to try again.
type Outcome struct {
	// Done: the delivery is over (succeeded, or its endpoint was disabled).
	Done bool `json:"done"`
	// Started: the delivery was recorded started with its outcome
	// (RecordDirect), so that nothing else need be.
	Started bool `json:"-"`
}

// Record writes an attempt in the delivery log and its consequences: a
// success ends the delivery and clears the endpoint's failing state; a
// failure marks the endpoint failing, and disables it when it has failed
// for DisableAfter.
func (d *Deliveries) Record(ctx context.Context, r Result) (*Outcome, error) {
	out := &Outcome{}
	err := d.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		del, err := tx.Webhooks().Delivery(ctx, r.DeliveryID)
		if err != nil {
			return err
		}
		ev, err := tx.Events().ByID(ctx, del.EventID)
		if err != nil {
			return err
		}
		at := now(d.cfg)
		a := &model.WebhookAttempt{
			ID: model.NewID(), DeliveryID: del.ID, EndpointID: del.EndpointID, EventID: del.EventID, EventType: ev.Type,
			Attempt: r.Attempt, Succeeded: r.Succeeded(), LatencyMS: r.Latency.Milliseconds(),
			Error: clip(r.Error, 500), CreatedAt: at,
		}
		// Never the answer's body (StatusReason), even from a worker
		// that still sends it.
		if r.HTTPStatus > 0 {
			a.Error = StatusReason(r.HTTPStatus)
		}
		if r.HTTPStatus > 0 {
			a.HTTPStatus = &r.HTTPStatus
		}
		if err := tx.Webhooks().AddAttempt(ctx, a); err != nil {
			return err
		}
		if r.Succeeded() {
			out.Done = true
			if err := tx.Webhooks().FinishDelivery(ctx, del.ID, model.DeliverySucceeded, at); err != nil {
				return err
			}
			return tx.Webhooks().SetFailing(ctx, del.EndpointID, nil)
		}
		if err := tx.Webhooks().SetFailing(ctx, del.EndpointID, &at); err != nil {
			return err
		}
		e, err := tx.Webhooks().EndpointByID(ctx, del.EndpointID)
		if err != nil {
			return err
		}
		if e.FailingSince == nil || at.Sub(*e.FailingSince) < d.cfg.DisableAfter || ev.Type == model.EventTestPing {
			return nil
		}
		out.Done = true
		if err := tx.Webhooks().FinishDelivery(ctx, del.ID, model.DeliveryFailed, at); err != nil {
			return err
		}
		return d.disable(ctx, tx, e, at)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// disable disables a failing endpoint, with its event and audit entry.
func (d *Deliveries) disable(ctx context.Context, tx *store.Store, e *model.WebhookEndpoint, at time.Time) error {
	reason := fmt.Sprintf("every delivery failed since %s", e.FailingSince.UTC().Format(time.RFC3339))
	done, err := tx.Webhooks().Disable(ctx, e.ID, reason, at)
	if err != nil || !done {
		return err
	}
	pr, err := tx.Projects().ByID(ctx, e.ProjectID)
	if err != nil {
		return err
	}
	e.Enabled, e.DisabledReason, e.UpdatedAt = false, &reason, at
	if err := events.Append(ctx, tx, events.Source{ProjectID: pr.ID, OrganizationID: pr.OrganizationID},
		model.EventWebhookEndpointDisabled, endpointView(e), at); err != nil {
		return err
	}
	d.cfg.Logger.WarnContext(ctx, "webhook endpoint disabled", "endpoint_id", e.ID.String(), "reason", reason)
	return d.cfg.Trail.Record(ctx, tx, &pr.OrganizationID, model.Ref{Type: "system", ID: "webhooks"},
		model.ActionWebhookDisable, "webhook_endpoint", e.ID.String())
}

// Fail ends a delivery whose retry window passed without success.
func (d *Deliveries) Fail(ctx context.Context, deliveryID uuid.UUID) error {
	return d.st.Webhooks().FinishDelivery(ctx, deliveryID, model.DeliveryFailed, now(d.cfg))
}

// clip cuts s to at most n bytes of valid UTF-8, without NUL (which
// PostgreSQL text refuses).
func clip(s string, n int) string {
	s = strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", ""), "\uFFFD")
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
