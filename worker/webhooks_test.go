package worker_test

import (
	"context"
	"crypto/hmac"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/audit"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/events"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/webhooks"
	"github.com/einvoice-ng/einvoice/worker"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// receiver is a webhook receiver on loopback: it verifies every delivery
// with the Go SDK's helper and answers 500 while failing is set.
type receiver struct {
	t       *testing.T
	url     string
	secret  atomic.Value // string
	failing atomic.Bool
	mu      sync.Mutex
	got     map[string][]string // event id → types received (verified)
	bad     int                 // deliveries whose signature did not verify
	hits    atomic.Int64
}

// listenInRange listens on the first free port of 19300-19399 on loopback.
func listenInRange(t *testing.T) net.Listener {
	t.Helper()
	for p := 19300; p < 19400; p++ {
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err == nil {
			return ln
		}
	}
	t.Fatal("no free port in 19300-19399")
	return nil
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{t: t, got: map[string][]string{}}
	ln := listenInRange(t)
	srv := &http.Server{Handler: rc, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	rc.url = "http://" + ln.Addr().String() + "/hooks"
	return rc
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rc.hits.Add(1)
	body, _ := io.ReadAll(r.Body)
	if rc.failing.Load() {
		http.Error(w, "receiver down", http.StatusInternalServerError)
		return
	}
	sec, _ := rc.secret.Load().(string)
	err := verifySignature(body, r.Header.Get("Einvoice-Signature"), sec, time.Now())
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if err != nil {
		rc.bad++
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	id := r.Header.Get("Einvoice-Event-Id")
	rc.got[id] = append(rc.got[id], r.Header.Get("Einvoice-Event-Type"))
	_, _ = w.Write([]byte(`{"ok":true}`))
}

func (rc *receiver) count(id string) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.got[id])
}

// newHookRig is a rig whose application delivers webhooks through
// Temporal on a webhook queue of the rig's own (the rig's queue with
// "-webhooks"), with a fast retry schedule.
func newHookRig(t *testing.T, d storetest.Dialect, retry webhooks.RetryPolicy, disableAfter time.Duration) *rig {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: temporalAddr, Namespace: temporalNamespace,
		Logger: sdklog.NewStructuredLogger(quiet())})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	queue := fmt.Sprintf("%s-%s-%d", workflows.TaskQueue, strings.ReplaceAll(t.Name(), "/", "-"), queues.Add(1))
	opts := certtest.Options{Open: d.Open, Runs: workflows.NewStarter(c, workflows.StarterOptions{TaskQueue: queue}),
		App: func(cfg *app.Config) {
			cfg.Webhooks.AllowPrivate, cfg.Webhooks.Retry, cfg.Webhooks.DisableAfter = true, retry, disableAfter
			cfg.Webhooks.Engine = workflows.NewWebhookStarter(c, workflows.StarterOptions{TaskQueue: queue + "-webhooks"})
		}}
	return &rig{t: t, e: certtest.New(t, opts), c: c, queue: queue}
}

// startHooks starts a worker that runs certification runs and delivers
// webhooks on its webhook queue, and a dispatcher, as einvoice worker does;
// the returned function stops both (a process that dies).
func (r *rig) startHooks() (stop func()) {
	r.t.Helper()
	w, err := worker.New(r.c, worker.Options{Runs: r.e.App.Steps, Webhooks: r.e.App.Deliveries, TaskQueue: r.queue,
		WebhookTaskQueue: r.queue + "-webhooks", Logger: quiet()})
	if err != nil {
		r.t.Fatal(err)
	}
	if got, want := strings.Join(w.TaskQueues(), " "), r.queue+" "+r.queue+"-webhooks"; got != want {
		r.t.Fatalf("task queues %q, want %q", got, want)
	}
	if err := w.Start(); err != nil {
		r.t.Fatal(err)
	}
	d, err := r.e.App.Dispatcher()
	if err != nil {
		r.t.Fatal(err)
	}
	// As einvoice worker does: the dispatcher makes each first attempt.
	wa, err := workflows.NewWebhookActivities(r.e.App.Deliveries)
	if err != nil {
		r.t.Fatal(err)
	}
	d.DeliverFirst(wa.DeliverFirst)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx, 20*time.Millisecond) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			<-done
			w.Stop()
		})
	}
	r.t.Cleanup(stop)
	return stop
}

func TestWebhooksEndToEnd(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) { webhooksEndToEnd(t, d) })
	}
}

func webhooksEndToEnd(t *testing.T, d storetest.Dialect) {
	ctx := context.Background()
	retry := webhooks.RetryPolicy{Initial: 100 * time.Millisecond, Max: 400 * time.Millisecond, Window: 2 * time.Minute}
	r := newHookRig(t, d, retry, time.Hour)
	rc := newReceiver(t)
	tn := r.e.Tenant
	ep, err := r.e.App.Webhooks.Create(ctx, tn.User, tn.Project.ID, webhooks.EndpointInput{URL: rc.url})
	if err != nil {
		t.Fatal(err)
	}
	rc.secret.Store(ep.Secret)

	// The receiver is down while the first events are delivered and while
	// the worker restarts: nothing may be lost.
	rc.failing.Store(true)
	stop := r.startHooks()
	runID := r.start(`{"invoice_type":"B2C","issue_date":"2026-03-15"}`)
	k, err := r.e.App.Keys.Create(ctx, tn.User, tn.Project.ID, keys.Input{KeyName: "webhooks"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.e.App.Keys.Rotate(ctx, tn.User, tn.Project.ID, k.ID, 0); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "failed attempts", func() bool { return rc.hits.Load() >= 3 })
	stop() // the worker and the dispatcher die mid-retries
	if _, err := r.e.App.Keys.Revoke(ctx, tn.User, tn.Project.ID, k.ID); err != nil {
		t.Fatal(err)
	}
	failed := r.e.NewRun(t, model.InvoiceKindB2B, "2026-03-15", "")
	if err := r.e.App.Steps.Begin(ctx, failed.ID); err != nil {
		t.Fatal(err)
	}
	if err := r.e.App.Steps.Finish(ctx, failed.ID, model.RunFailed, "step failed"); err != nil {
		t.Fatal(err)
	}
	cancelled := r.e.NewRun(t, model.InvoiceKindB2B, "2026-03-15", "")
	if err := r.e.App.Steps.Finish(ctx, cancelled.ID, model.RunCancelled, "cancelled"); err != nil {
		t.Fatal(err)
	}
	r.startHooks() // a new process
	rc.failing.Store(false)
	r.wait(runID, time.Minute, final)

	// Every event of the project arrives, verified, at least once.
	list, err := r.e.App.Events.List(ctx, tn.User, events.ListInput{ProjectID: tn.Project.ID.String(), PageInput: model.PageInput{Limit: ptr(200)}})
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]bool{}
	for _, ev := range list.Items {
		types[ev.Type] = true
	}
	for _, want := range []string{model.EventAPIKeyCreated, model.EventAPIKeyRotated, model.EventAPIKeyRevoked,
		model.EventCertificationRunStarted, model.EventCertificationRunPassed, model.EventCertificationRunFailed,
		model.EventCertificationRunCancelled} {
		if !types[want] {
			t.Errorf("no %s event recorded: %v", want, types)
		}
	}
	for _, ev := range list.Items {
		// An attempt lost with the stopped worker is tried again after
		// its start-to-close timeout (30 s).
		waitFor(t, 2*time.Minute, "event "+ev.Type, func() bool { return rc.count(ev.ID.String()) >= 1 })
	}
	rc.mu.Lock()
	if rc.bad != 0 {
		t.Errorf("%d deliveries failed verification", rc.bad)
	}
	rc.mu.Unlock()

	// The delivery log shows the 500s and the success.
	log, err := r.e.App.Webhooks.Attempts(ctx, tn.User, tn.Project.ID, ep.ID, webhooks.AttemptsInput{PageInput: model.PageInput{Limit: ptr(200)}})
	if err != nil {
		t.Fatal(err)
	}
	var saw500, saw200 bool
	for _, a := range log.Items {
		if a.HTTPStatus != nil && *a.HTTPStatus == 500 && a.Status == model.DeliveryFailed && a.ResponseBody == "" && strings.HasPrefix(a.Error, "the endpoint answered 500") {
			saw500 = true
		}
		if a.HTTPStatus != nil && *a.HTTPStatus == 200 && a.Status == model.DeliverySucceeded && a.ResponseBody == "" && a.Error == "" {
			saw200 = true
		}
	}
	if !saw500 || !saw200 {
		t.Errorf("delivery log: 500 seen %v, 200 seen %v (%d attempts)", saw500, saw200, len(log.Items))
	}

	// Redelivery sends the same event id again; a test ping arrives.
	ev := list.Items[0]
	before := rc.count(ev.ID.String())
	sent, err := r.e.App.Webhooks.Redeliver(ctx, tn.User, ev.ID, webhooks.RedeliverInput{})
	if err != nil || len(sent.Deliveries) != 1 {
		t.Fatalf("redeliver: %v %+v", err, sent)
	}
	waitFor(t, 20*time.Second, "redelivery", func() bool { return rc.count(ev.ID.String()) > before })
	ping, err := r.e.App.Webhooks.Test(ctx, tn.User, tn.Project.ID, ep.ID)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "test ping", func() bool { return rc.count(ping.EventID.String()) == 1 })

	// Another tenant sees none of it.
	other := r.e.NewTenant(t)
	if _, err := r.e.App.Events.Get(ctx, other.User, "", ev.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Errorf("another tenant reads the event: %v", err)
	}
	if _, err := r.e.App.Webhooks.Redeliver(ctx, other.User, ev.ID, webhooks.RedeliverInput{}); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Errorf("another tenant redelivers the event: %v", err)
	}
	if _, err := r.e.App.Webhooks.Get(ctx, other.User, tn.Project.ID, ep.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Errorf("another tenant reads the endpoint: %v", err)
	}
}

// An endpoint that fails for DisableAfter is disabled, with an event and
// an audit entry; its deliveries stop.
func TestWebhookEndpointDisabled(t *testing.T) {
	t.Parallel()
	d := storetest.Dialects(t)[0]
	ctx := context.Background()
	r := newHookRig(t, d, webhooks.RetryPolicy{Initial: 50 * time.Millisecond, Max: 100 * time.Millisecond, Window: time.Minute}, 300*time.Millisecond)
	rc := newReceiver(t)
	rc.failing.Store(true)
	tn := r.e.Tenant
	ep, err := r.e.App.Webhooks.Create(ctx, tn.User, tn.Project.ID, webhooks.EndpointInput{URL: rc.url, EventTypes: []string{"api_key.*"}})
	if err != nil {
		t.Fatal(err)
	}
	r.startHooks()
	if _, err := r.e.App.Keys.Create(ctx, tn.User, tn.Project.ID, keys.Input{KeyName: "disabled"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "endpoint disabled", func() bool {
		v, err := r.e.App.Webhooks.Get(ctx, tn.User, tn.Project.ID, ep.ID)
		return err == nil && !v.Enabled && v.DisabledReason != nil
	})
	list, err := r.e.App.Events.List(ctx, tn.User, events.ListInput{ProjectID: tn.Project.ID.String(), Types: []string{model.EventWebhookEndpointDisabled}})
	if err != nil || len(list.Items) != 1 {
		t.Fatalf("disabled events: %v %+v", err, list)
	}
	entries, err := r.e.App.Audit.List(ctx, tn.User, audit.Input{Action: model.ActionWebhookDisable})
	if err != nil || len(entries.Items) != 1 {
		t.Fatalf("audit: %v %+v", err, entries)
	}
	hits := rc.hits.Load()
	time.Sleep(500 * time.Millisecond)
	if n := rc.hits.Load(); n != hits {
		t.Errorf("a disabled endpoint still got %d requests", n-hits)
	}
}

// The delivery client refuses loopback at dial time when private
// addresses are not allowed (a name that resolved elsewhere when saved).
func TestWebhookClientRefusesLoopback(t *testing.T) {
	t.Parallel()
	rc := newReceiver(t)
	c := workflows.WebhookClient(webhooks.Config{}.Policy())
	_, err := c.Post(rc.url, "application/json", nil)
	if err == nil || rc.hits.Load() != 0 {
		t.Fatalf("loopback reached: %v", err)
	}
	if !errors.Is(err, egress.ErrForbidden) {
		t.Fatalf("not refused by the egress policy: %v", err)
	}
}

func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func ptr[T any](v T) *T { return &v }

// By default a worker polls the certification queue and, with webhooks to
// deliver, the webhook queue with slots of its own; the starters use the
// same queues.
func TestWorkerDefaultQueues(t *testing.T) {
	t.Parallel()
	d := storetest.Dialects(t)[0]
	r := newHookRig(t, d, webhooks.RetryPolicy{Initial: time.Second, Max: time.Second, Window: time.Minute}, time.Hour)
	w, err := worker.New(r.c, worker.Options{Runs: r.e.App.Steps, Webhooks: r.e.App.Deliveries, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(w.TaskQueues(), " "), workflows.TaskQueue+" "+workflows.WebhookTaskQueue; got != want {
		t.Errorf("task queues %q, want %q", got, want)
	}
	w, err = worker.New(r.c, worker.Options{Runs: r.e.App.Steps, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(w.TaskQueues(), " "); got != workflows.TaskQueue {
		t.Errorf("without webhooks: task queues %q, want %q", got, workflows.TaskQueue)
	}
	if workflows.WebhookTaskQueue == workflows.TaskQueue {
		t.Error("the webhook queue is the certification queue")
	}
}

// The dispatcher delivers an event itself on the first attempt: an
// endpoint that answers gets the event once and no delivery workflow is
// created; one that fails gets its retries from a workflow, which goes on
// from the second attempt.
func TestWebhookDirectFirstAttempt(t *testing.T) {
	t.Parallel()
	d := storetest.Dialects(t)[0]
	ctx := context.Background()
	r := newHookRig(t, d, webhooks.RetryPolicy{Initial: 100 * time.Millisecond, Max: 200 * time.Millisecond, Window: time.Minute}, time.Hour)
	rc := newReceiver(t)
	tn := r.e.Tenant
	ep, err := r.e.App.Webhooks.Create(ctx, tn.User, tn.Project.ID, webhooks.EndpointInput{URL: rc.url, EventTypes: []string{"api_key.*"}})
	if err != nil {
		t.Fatal(err)
	}
	rc.secret.Store(ep.Secret)
	r.startHooks()
	attempts := func(eventID string) []webhooks.AttemptView {
		log, err := r.e.App.Webhooks.Attempts(ctx, tn.User, tn.Project.ID, ep.ID, webhooks.AttemptsInput{EventID: eventID, PageInput: model.PageInput{Limit: ptr(50)}})
		if err != nil {
			t.Fatal(err)
		}
		return log.Items
	}
	workflowOf := func(eventID string) error {
		id, err := uuid.Parse(eventID)
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.c.DescribeWorkflowExecution(ctx, workflows.WebhookWorkflowID(webhooks.DeliveryID(id, ep.ID)), "")
		return err
	}
	eventOf := func(typ string) string {
		list, err := r.e.App.Events.List(ctx, tn.User, events.ListInput{ProjectID: tn.Project.ID.String(), Types: []string{typ}})
		if err != nil || len(list.Items) == 0 {
			t.Fatalf("%s events: %v", typ, err)
		}
		return list.Items[0].ID.String() // the newest
	}

	k, err := r.e.App.Keys.Create(ctx, tn.User, tn.Project.ID, keys.Input{KeyName: "direct"})
	if err != nil {
		t.Fatal(err)
	}
	created := eventOf(model.EventAPIKeyCreated)
	waitFor(t, 20*time.Second, "the direct delivery", func() bool { return len(attempts(created)) == 1 && rc.count(created) == 1 })
	if a := attempts(created)[0]; a.Attempt != 1 || a.Status != model.DeliverySucceeded {
		t.Errorf("direct attempt: %+v", a)
	}
	var nf *serviceerror.NotFound
	if err := workflowOf(created); !errors.As(err, &nf) {
		t.Errorf("a workflow exists for a delivery the dispatcher made: %v", err)
	}
	// Created claimed by the dispatcher, and recorded started with its
	// end: the sweep never takes it.
	if id, err := uuid.Parse(created); err != nil {
		t.Fatal(err)
	} else if del, err := r.e.App.Store().Webhooks().Delivery(ctx, webhooks.DeliveryID(id, ep.ID)); err != nil {
		t.Fatal(err)
	} else if del.ClaimedAt == nil || del.StartedAt == nil || del.FinishedAt == nil || del.Status != model.DeliverySucceeded || del.Attempts != 1 {
		t.Errorf("the direct delivery's row: %+v", del)
	}

	// The endpoint fails: the first attempt is the dispatcher's, the
	// retries are the workflow's.
	rc.failing.Store(true)
	if _, err := r.e.App.Keys.Rotate(ctx, tn.User, tn.Project.ID, k.ID, 0); err != nil {
		t.Fatal(err)
	}
	rotated := eventOf(model.EventAPIKeyRotated)
	waitFor(t, 20*time.Second, "failed attempts", func() bool { return len(attempts(rotated)) >= 2 })
	rc.failing.Store(false)
	waitFor(t, 20*time.Second, "the retried delivery", func() bool { return rc.count(rotated) == 1 })
	if err := workflowOf(rotated); err != nil {
		t.Errorf("no workflow retried the failed delivery: %v", err)
	}
	seen := map[int]int{}
	for _, a := range attempts(rotated) {
		seen[a.Attempt]++
	}
	for n, c := range seen {
		if c != 1 {
			t.Errorf("attempt %d recorded %d times: %v", n, c, seen)
		}
	}
	if seen[1] != 1 || seen[2] != 1 {
		t.Errorf("attempts %v, want 1 (the dispatcher's), 2, ... (the workflow's)", seen)
	}
	if rc.count(created) != 1 {
		t.Errorf("the first event arrived %d times", rc.count(created))
	}
}

// verifySignature checks an Einvoice-Signature header the way receivers
// do (the SDK's VerifyWebhook, a module of its own): one of its v1 values
// is the signature of the body under secret at its t, and t is within 5
// minutes of now.
func verifySignature(body []byte, header, secret string, now time.Time) error {
	var (
		ts  int64
		v1s []string
	)
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return fmt.Errorf("signature timestamp %q", v)
			}
			ts = n
		case "v1":
			v1s = append(v1s, v)
		}
	}
	if ts == 0 || len(v1s) == 0 {
		return fmt.Errorf("signature header %q malformed", header)
	}
	if d := now.Sub(time.Unix(ts, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return fmt.Errorf("signature timestamp %d outside the tolerance", ts)
	}
	_, want, _ := strings.Cut(webhooks.Sign(time.Unix(ts, 0), body, secret), ",v1=")
	for _, v := range v1s {
		if hmac.Equal([]byte(v), []byte(want)) {
			return nil
		}
	}
	return fmt.Errorf("no signature matches the secret")
}
