package workflows

import (
	"bytes"
	"context"
	"errors"
	"hash/fnv"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/webhooks"
)

// WebhookWorkflowName is the registered name of the WebhookDelivery
// workflow.
const WebhookWorkflowName = "WebhookDelivery"

// webhookIDPrefix starts every delivery workflow id.
const webhookIDPrefix = "webhook-delivery-"

// WebhookWorkflowID is the workflow id of a delivery: it derives from the
// delivery id, so that a second start never creates a second execution.
func WebhookWorkflowID(deliveryID uuid.UUID) string { return webhookIDPrefix + deliveryID.String() }

// Timeouts of one delivery attempt: connecting (TLS included), waiting for
// the answer's headers, and the whole exchange.
const (
	webhookConnectTimeout = 5 * time.Second
	webhookHeaderTimeout  = 10 * time.Second
	webhookTotalTimeout   = 15 * time.Second
	// webhookDrainBytes is how much more of an answer is read (and
	// dropped) so that the connection can be reused.
	webhookDrainBytes = 64 << 10
)

// webhookActivityOptions: an attempt's HTTP exchange is bounded by
// webhookTotalTimeout, the whole attempt by StartToCloseTimeout (after
// which an attempt lost with its worker is tried again elsewhere); the
// activity itself is retried only when the database or the worker failed,
// until the database answers again.
var webhookActivityOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 30 * time.Second,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:    time.Second,
		BackoffCoefficient: 2,
		MaximumInterval:    time.Minute,
	},
}

// WebhookAttempt is the input of DeliverWebhook.
type WebhookAttempt struct {
	DeliveryID uuid.UUID `json:"delivery_id"`
	Attempt    int       `json:"attempt"`
}

// WebhookDelivery delivers one event to one endpoint: an attempt, then
// retries with exponential backoff and jitter (in.Retry) until one
// succeeds, the endpoint is deleted or disabled, or the retry window
// ends, when the delivery is recorded failed. It only orchestrates.
func WebhookDelivery(ctx workflow.Context, in webhooks.DeliveryInput) error {
	ctx = workflow.WithActivityOptions(ctx, webhookActivityOptions)
	var a *WebhookActivities
	start := workflow.Now(ctx)
	if in.Attempted > 0 {
		// The dispatcher made the first attempt(s) itself: wait as after
		// a failed attempt of the workflow.
		if err := workflow.Sleep(ctx, jitter(in.Retry.Delay(in.Attempted), in.DeliveryID, in.Attempted)); err != nil {
			return err
		}
	}
	for attempt := in.Attempted + 1; ; attempt++ {
		var out webhooks.Outcome
		if err := workflow.ExecuteActivity(ctx, a.DeliverWebhook, WebhookAttempt{DeliveryID: in.DeliveryID, Attempt: attempt}).Get(ctx, &out); err != nil {
			return err
		}
		if out.Done {
			return nil
		}
		wait := jitter(in.Retry.Delay(attempt), in.DeliveryID, attempt)
		if workflow.Now(ctx).Add(wait).Sub(start) > in.Retry.Window {
			return workflow.ExecuteActivity(ctx, a.FailWebhookDelivery, in.DeliveryID).Get(ctx, nil)
		}
		if err := workflow.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// jitter spreads a wait over ±20 %, the same for the same delivery and
// attempt (so that the workflow replays), different across deliveries.
func jitter(d time.Duration, id uuid.UUID, attempt int) time.Duration {
	h := fnv.New64a()
	h.Write(id[:])
	h.Write([]byte{byte(attempt), byte(attempt >> 8)})
	f := float64(h.Sum64()%10001)/10000*0.4 - 0.2 // [-0.2, 0.2]
	return d + time.Duration(float64(d)*f)
}

// WebhookActivities does the I/O of deliveries: the signed POST and the
// record of each attempt, through webhooks.Deliveries.
type WebhookActivities struct {
	d      *webhooks.Deliveries
	client *http.Client
}

// NewWebhookActivities builds the activities over d. Their HTTP client
// applies d's egress policy to every address it dials (after DNS
// resolution, so that DNS rebinding is refused too), follows no redirect,
// ignores proxy settings and bounds connect, header and total times.
func NewWebhookActivities(d *webhooks.Deliveries) (*WebhookActivities, error) {
	if d == nil {
		return nil, errors.New("workflows: the deliveries' entry point is required")
	}
	return &WebhookActivities{d: d, client: WebhookClient(d.Egress())}, nil
}

// WebhookClient is the HTTP client of deliveries under policy p.
func WebhookClient(p egress.Policy) *http.Client {
	t := p.Transport()
	t.DialContext = (&net.Dialer{Timeout: webhookConnectTimeout, KeepAlive: 30 * time.Second, Control: p.Control}).DialContext
	t.TLSHandshakeTimeout = webhookConnectTimeout
	t.ResponseHeaderTimeout = webhookHeaderTimeout
	t.MaxIdleConnsPerHost = 64
	return &http.Client{Transport: t, Timeout: webhookTotalTimeout, CheckRedirect: egress.NoRedirects}
}

// DeliverWebhook makes one attempt of a delivery and records it.
func (a *WebhookActivities) DeliverWebhook(ctx context.Context, in WebhookAttempt) (*webhooks.Outcome, error) {
	req, err := a.d.Prepare(ctx, in.DeliveryID)
	if err != nil {
		return nil, err
	}
	if req.Stop {
		return &webhooks.Outcome{Done: true}, nil
	}
	res := a.post(ctx, req)
	res.DeliveryID, res.Attempt = in.DeliveryID, in.Attempt
	return a.d.Record(ctx, res)
}

// DeliverFirst makes a delivery's first attempt outside any workflow
// (the dispatcher's direct attempt, with the rows it holds) and records
// it, as DeliverWebhook does; it fits webhooks.Dispatcher.DeliverFirst.
func (a *WebhookActivities) DeliverFirst(ctx context.Context, x *webhooks.Direct) (*webhooks.Outcome, error) {
	req, err := a.d.PrepareDirect(ctx, x)
	if err != nil {
		return nil, err
	}
	if req.Stop {
		return &webhooks.Outcome{Done: true}, nil
	}
	res := a.post(ctx, req)
	res.DeliveryID, res.Attempt = x.Delivery.ID, 1
	return a.d.RecordDirect(ctx, x, res)
}

// post sends a request and records the answer's status, never its body:
// where the operator lets endpoints be private addresses, the body may be
// an internal page that the tenant must not read in the delivery log. An
// answer other than 2xx gets a fixed reason instead.
func (a *WebhookActivities) post(ctx context.Context, r *webhooks.Request) webhooks.Result {
	var out webhooks.Result
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		out.Error = "cannot build the request: " + err.Error()
		return out
	}
	for k, v := range r.Headers {
		hreq.Header.Set(k, v)
	}
	began := time.Now()
	resp, err := a.client.Do(hreq)
	out.Latency = time.Since(began)
	if err != nil {
		out.Error = describe(err)
		return out
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, webhookDrainBytes))
	out.Latency = time.Since(began)
	out.HTTPStatus = resp.StatusCode
	out.Error = webhooks.StatusReason(resp.StatusCode)
	return out
}

// describe says why a request got no answer, without the URL.
func describe(err error) string {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			err = inner
		}
	}
	msg := err.Error()
	if errors.Is(err, egress.ErrForbidden) || strings.Contains(msg, egress.ErrForbidden.Error()) {
		return "refused by the egress policy: " + msg
	}
	return msg
}

// FailWebhookDelivery records a delivery whose retry window passed.
func (a *WebhookActivities) FailWebhookDelivery(ctx context.Context, deliveryID uuid.UUID) error {
	return a.d.Fail(ctx, deliveryID)
}

// WebhookStarter starts delivery workflows over a Temporal client. It
// implements webhooks.Starter.
type WebhookStarter struct {
	c         client.Client
	timeout   time.Duration
	taskQueue string
}

var _ webhooks.Starter = (*WebhookStarter)(nil)

// NewWebhookStarter builds a WebhookStarter. Its TaskQueue defaults to
// WebhookTaskQueue.
func NewWebhookStarter(c client.Client, opts StarterOptions) *WebhookStarter {
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	if opts.TaskQueue == "" {
		opts.TaskQueue = WebhookTaskQueue
	}
	return &WebhookStarter{c: c, timeout: opts.StartTimeout, taskQueue: opts.TaskQueue}
}

// StartWebhookDelivery starts the workflow of a delivery; one that exists
// already (running or over) is left as it is.
func (s *WebhookStarter) StartWebhookDelivery(ctx context.Context, in webhooks.DeliveryInput) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	_, err := s.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       WebhookWorkflowID(in.DeliveryID),
		TaskQueue:                s.taskQueue,
		Priority:                 temporal.Priority{FairnessKey: FairnessKey(in.OrganizationID)},
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowExecutionTimeout: in.Retry.Window + 24*time.Hour,
	}, WebhookDelivery, in)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return nil
	}
	return err
}
