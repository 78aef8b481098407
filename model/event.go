package model

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Event types. Each names the resource and what happened to it; the
// event's data is the resource as the API shows it after the change.
const (
	EventCertificationRunStarted   = "certification_run.started"
	EventCertificationRunPassed    = "certification_run.passed"
	EventCertificationRunFailed    = "certification_run.failed"
	EventCertificationRunCancelled = "certification_run.cancelled"
	EventAPIKeyCreated             = "api_key.created"
	EventAPIKeyRotated             = "api_key.rotated"
	EventAPIKeyRevoked             = "api_key.revoked"
	EventWebhookEndpointDisabled   = "webhook_endpoint.disabled"
	// EventTestPing is sent by POST .../webhook-endpoints/{id}/test to one
	// endpoint; it is recorded like any event but dispatched to that
	// endpoint only.
	EventTestPing = "test.ping"
)

// Invoice lifecycle events: one per state the invoice enters (appended by
// the invoice state transitions), its payment status updates and its
// submission deadline warnings. The data is the invoice as the API shows it.
const (
	EventInvoiceQueued         = "invoice.queued"
	EventInvoiceSubmitting     = "invoice.submitting"
	EventInvoiceSigned         = "invoice.signed"
	EventInvoiceTransmitted    = "invoice.transmitted"
	EventInvoiceConfirmed      = "invoice.confirmed"
	EventInvoiceRejected       = "invoice.rejected"
	EventInvoiceOutcomeUnknown = "invoice.outcome_unknown"
	EventInvoicePaymentUpdated = "invoice.payment_updated"
	EventInvoiceDeadlineAtRisk = "invoice.deadline_at_risk"
	EventInvoiceDeadlineMissed = "invoice.deadline_missed"
)

// InvoiceStateEvent is the event type of an invoice entering state s
// ("invoice." + s).
func InvoiceStateEvent(s InvoiceStatus) string { return "invoice." + string(s) }

// EventTypes lists every type an endpoint may subscribe to, in order.
var EventTypes = []string{
	EventCertificationRunStarted, EventCertificationRunPassed, EventCertificationRunFailed, EventCertificationRunCancelled,
	EventInvoiceQueued, EventInvoiceSubmitting, EventInvoiceSigned, EventInvoiceTransmitted, EventInvoiceConfirmed,
	EventInvoiceRejected, EventInvoiceOutcomeUnknown, EventInvoicePaymentUpdated,
	EventInvoiceDeadlineAtRisk, EventInvoiceDeadlineMissed,
	EventReceivedInvoiceReceived, EventReceivedInvoiceConfirmed, EventReceivedInvoiceAccepted, EventReceivedInvoiceRejected,
	EventAPIKeyCreated, EventAPIKeyRotated, EventAPIKeyRevoked,
	EventWebhookEndpointDisabled,
}

// Event is one state change of a project's resource, recorded in the
// transaction of the change. DispatchedAt is the outbox mark: nil until
// the event's deliveries exist and their workflows are started.
type Event struct {
	bun.BaseModel `bun:"table:events"`

	ID             uuid.UUID       `bun:"id,pk"`
	ProjectID      uuid.UUID       `bun:"project_id"`
	OrganizationID uuid.UUID       `bun:"organization_id"`
	Type           string          `bun:"type"`
	Data           json.RawMessage `bun:"data,type:jsonb"`
	CreatedAt      time.Time       `bun:"created_at"`
	DispatchedAt   *time.Time      `bun:"dispatched_at"`
}

// WebhookEndpoint is where a project's events are POSTed. Secrets are
// sealed at rest.
type WebhookEndpoint struct {
	bun.BaseModel `bun:"table:webhook_endpoints"`

	ID                  uuid.UUID  `bun:"id,pk"`
	ProjectID           uuid.UUID  `bun:"project_id"`
	URL                 string     `bun:"url"`
	Description         string     `bun:"description"`
	EventTypes          string     `bun:"event_types"` // space-separated; "*" for every type
	Enabled             bool       `bun:"enabled"`
	DisabledReason      *string    `bun:"disabled_reason"`
	SecretEnc           []byte     `bun:"secret_enc"`
	SecretLast4         string     `bun:"secret_last4"`
	PrevSecretEnc       []byte     `bun:"prev_secret_enc,nullzero"`
	PrevSecretExpiresAt *time.Time `bun:"prev_secret_expires_at"`
	FailingSince        *time.Time `bun:"failing_since"`
	CreatedAt           time.Time  `bun:"created_at"`
	UpdatedAt           time.Time  `bun:"updated_at"`
	DeletedAt           *time.Time `bun:"deleted_at"`
}

// Delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliverySucceeded = "succeeded"
	DeliveryFailed    = "failed"
)

// WebhookDelivery is one event's delivery to one endpoint.
type WebhookDelivery struct {
	bun.BaseModel `bun:"table:webhook_deliveries"`

	ID         uuid.UUID  `bun:"id,pk"`
	EventID    uuid.UUID  `bun:"event_id"`
	EndpointID uuid.UUID  `bun:"endpoint_id"`
	ProjectID  uuid.UUID  `bun:"project_id"`
	Status     string     `bun:"status"`
	Attempts   int        `bun:"attempts"`
	CreatedAt  time.Time  `bun:"created_at"`
	StartedAt  *time.Time `bun:"started_at"`
	FinishedAt *time.Time `bun:"finished_at"`
	// ClaimedAt is when a dispatcher took on the delivery's first
	// attempt, made directly with no workflow.
	ClaimedAt *time.Time `bun:"claimed_at"`
}

// WebhookAttempt is one HTTP attempt of a delivery.
type WebhookAttempt struct {
	bun.BaseModel `bun:"table:webhook_attempts"`

	ID           uuid.UUID `bun:"id,pk"`
	DeliveryID   uuid.UUID `bun:"delivery_id"`
	EndpointID   uuid.UUID `bun:"endpoint_id"`
	EventID      uuid.UUID `bun:"event_id"`
	EventType    string    `bun:"event_type"`
	Attempt      int       `bun:"attempt"`
	Succeeded    bool      `bun:"succeeded"`
	HTTPStatus   *int      `bun:"http_status"`
	LatencyMS    int64     `bun:"latency_ms"`
	ResponseBody string    `bun:"response_body"`
	Error        string    `bun:"error"`
	CreatedAt    time.Time `bun:"created_at"`
}
