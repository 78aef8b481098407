// Package webhooks holds a project's webhook endpoints and delivers its
// events to them. It is the only writer of endpoints, deliveries and
// attempts.
//
// # Delivery
//
// Events are written by the packages that change resources (model/events),
// in the change's transaction; the events table is the outbox. The
// Dispatcher, run by every worker process, picks up the events not
// dispatched yet, creates one delivery per matching enabled endpoint (its
// id derives from the event's and the endpoint's, so a second pass creates
// nothing new), starts one workflow per delivery through Starter (the
// workflow id derives from the delivery id, so a second start creates no
// second execution), and only then marks the event dispatched. A process
// that dies anywhere in between leaves the event undispatched, and the next
// pass does the rest: nothing is lost, nothing is delivered by two
// workflows.
//
// The delivery workflow (workflows.WebhookDelivery) asks Deliveries for
// the signed request, POSTs it, and records the attempt through Deliveries;
// it retries with exponential backoff and jitter for RetryPolicy.Window
// (3 days by default). An endpoint that has failed for DisableAfter
// without one success is disabled, with a webhook_endpoint.disabled event
// and an audit entry.
//
// A test ping and a redelivery create deliveries of their own and start
// their workflows after their transaction commits; one whose start failed
// is started by the Dispatcher's sweep.
package webhooks

import (
	"context"
	"log/slog"
	"net/netip"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/secret"
)

// Starter starts delivery workflows. This package declares it so that it
// never imports the workflow engine; workflows.WebhookStarter implements
// it over a Temporal client.
type Starter interface {
	// StartWebhookDelivery starts the workflow of a delivery. Starting a
	// delivery whose workflow exists already (running or over) must start
	// nothing and answer nil.
	StartWebhookDelivery(ctx context.Context, in DeliveryInput) error
}

// DeliveryInput is the input of a delivery's workflow.
type DeliveryInput struct {
	DeliveryID uuid.UUID `json:"delivery_id"`
	// OrganizationID is the tenant, the workflow's fairness key.
	OrganizationID uuid.UUID   `json:"organization_id"`
	Retry          RetryPolicy `json:"retry"`
	// Attempted is how many attempts were made before the workflow (the
	// dispatcher's direct first attempt): the workflow waits the retry
	// delay of the last one, then goes on from the next.
	Attempted int `json:"attempted,omitempty"`
}

// RetryPolicy is a delivery's retry schedule: the n-th retry waits
// Initial·2^(n-1), at most Max, each wait ±20 % of jitter, for as long as
// the delivery is younger than Window.
type RetryPolicy struct {
	Initial time.Duration `json:"initial"`
	Max     time.Duration `json:"max"`
	Window  time.Duration `json:"window"`
}

// Default retry schedule: 30 s, 1 min, 2 min, ... up to 6 h between
// attempts, for 3 days (about 20 attempts).
const (
	DefaultRetryInitial = 30 * time.Second
	DefaultRetryMax     = 6 * time.Hour
	DefaultRetryWindow  = 72 * time.Hour
	// DefaultDisableAfter is how long an endpoint may fail every attempt
	// before it is disabled.
	DefaultDisableAfter = 72 * time.Hour
	// DefaultEndpointsPerProject bounds a project's endpoints.
	DefaultEndpointsPerProject = 16
)

// Delay is the wait before retry n (1 for the first retry), before
// jitter.
func (r RetryPolicy) Delay(n int) time.Duration {
	d := r.Initial
	for i := 1; i < n && d < r.Max; i++ {
		d *= 2
	}
	return min(d, r.Max)
}

func (r *RetryPolicy) defaults() {
	if r.Initial <= 0 {
		r.Initial = DefaultRetryInitial
	}
	if r.Max <= 0 {
		r.Max = DefaultRetryMax
	}
	if r.Window <= 0 {
		r.Window = DefaultRetryWindow
	}
}

// Config configures New, NewDispatcher and NewDeliveries.
type Config struct {
	// Box seals signing secrets at rest. Required.
	Box *secret.Box
	// Trail records endpoint changes, redeliveries and disabled endpoints
	// in the audit log.
	Trail access.Trail
	// AllowPrivate lets endpoint URLs reach loopback, private, link-local
	// and metadata addresses (EINVOICE_WEBHOOK_ALLOW_PRIVATE; einvoice dev
	// sets it). The delivery's dialer applies the same rule at every
	// connection.
	AllowPrivate bool
	// AllowHTTP lets production projects use plain http URLs (einvoice
	// dev); sandbox projects always may.
	AllowHTTP bool
	// Resolver resolves endpoint hosts when they are saved; default the
	// system's.
	Resolver egressResolver
	// Engine starts delivery workflows; nil leaves deliveries for a
	// worker's Dispatcher to start.
	Engine Starter
	// EndpointsPerProject bounds a project's endpoints (negative: none);
	// default 16.
	EndpointsPerProject int
	// Retry is the retry schedule of deliveries.
	Retry RetryPolicy
	// DisableAfter is how long an endpoint may fail before it is
	// disabled; default 3 days.
	DisableAfter time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives background failures; default slog.Default().
	Logger *slog.Logger
}

type egressResolver = interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

func (c *Config) defaults() {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.EndpointsPerProject == 0 {
		c.EndpointsPerProject = DefaultEndpointsPerProject
	}
	if c.DisableAfter <= 0 {
		c.DisableAfter = DefaultDisableAfter
	}
	c.Retry.defaults()
}

// Policy is the egress policy of deliveries: what the dialer of the
// delivery workflow allows.
func (c Config) Policy() egress.Policy {
	p := egress.Policy{AllowPrivate: c.AllowPrivate}
	if c.Resolver != nil {
		p.Resolver = c.Resolver
	}
	return p
}

func now(c Config) time.Time { return model.StoredTime(c.Now()) }

func splitFields(s string) []string { return strings.Fields(s) }
