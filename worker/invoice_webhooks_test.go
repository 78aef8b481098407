package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/events"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/webhooks"
	"github.com/einvoice-ng/einvoice/worker"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// A B2B invoice submitted to confirmation records one invoice.<state>
// event per state, in order, in its project, each carrying the invoice as
// GET /api/v2/invoices/{id} shows it then; a payment update records
// invoice.payment_updated; every one is delivered signed to the project's
// endpoint.
func TestInvoiceWebhooks(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) { invoiceWebhooks(t, d) })
	}
}

func invoiceWebhooks(t *testing.T, d storetest.Dialect) {
	ctx := context.Background()
	r := newInvoiceHookRig(t, d)
	rc := newReceiverIn(t, 19600, 19700)
	tn := r.e.Tenant
	ep, err := r.e.App.Webhooks.Create(ctx, tn.User, tn.Project.ID, webhooks.EndpointInput{URL: rc.url, EventTypes: []string{"invoice.*"}})
	if err != nil {
		t.Fatal(err)
	}
	rc.secret.Store(ep.Secret)
	r.startInvoiceHooks()

	code, inv, err := r.call("POST", "/api/v2/invoices", tn, submitBody(t, tn, model.InvoiceKindB2B, "HOOK1", nil))
	if err != nil || code != 202 {
		t.Fatalf("submit: %d %v %v", code, inv, err)
	}
	id := inv["id"].(string)
	confirmed := r.waitInvoice(tn, id, time.Minute, settled)
	if confirmed["status"] != "confirmed" {
		t.Fatalf("invoice: %v", confirmed)
	}
	code, paid, _ := r.call("PATCH", "/api/v2/invoices/"+id+"/payment", tn, `{"payment_status":"PARTIAL"}`)
	if code != 200 || paid["payment_status"] != "PARTIAL" {
		t.Fatalf("payment: %d %v", code, paid)
	}

	list, err := r.e.App.Events.List(ctx, tn.User, events.ListInput{ProjectID: tn.Project.ID.String(),
		Types: []string{"invoice.*"}, PageInput: model.PageInput{Limit: ptr(100)}})
	if err != nil {
		t.Fatal(err)
	}
	evs := slices.Clone(list.Items)
	slices.Reverse(evs) // oldest first
	var types []string
	for _, ev := range evs {
		types = append(types, ev.Type)
		if ev.ProjectID != tn.Project.ID {
			t.Errorf("%s in project %s, want %s", ev.Type, ev.ProjectID, tn.Project.ID)
		}
		var obj map[string]any
		if err := json.Unmarshal(ev.Data.Object, &obj); err != nil {
			t.Fatal(err)
		}
		if obj["id"] != id || obj["project_id"] != tn.Project.ID.String() {
			t.Errorf("%s about %v", ev.Type, obj)
		}
		if st, ok := strings.CutPrefix(ev.Type, "invoice."); ok && ev.Type != model.EventInvoicePaymentUpdated && obj["status"] != st {
			t.Errorf("%s carries status %v", ev.Type, obj["status"])
		}
		switch ev.Type {
		case model.EventInvoiceConfirmed:
			// The invoice as the API showed it once confirmed.
			if !reflect.DeepEqual(obj, confirmed) {
				t.Errorf("confirmed event's invoice\n%v\nwant the API's\n%v", obj, confirmed)
			}
		case model.EventInvoicePaymentUpdated:
			if !reflect.DeepEqual(obj, paid) {
				t.Errorf("payment event's invoice\n%v\nwant the API's\n%v", obj, paid)
			}
		}
	}
	want := []string{model.EventInvoiceQueued, model.EventInvoiceSubmitting, model.EventInvoiceSigned,
		model.EventInvoiceTransmitted, model.EventInvoiceConfirmed, model.EventInvoicePaymentUpdated}
	if !slices.Equal(types, want) {
		t.Fatalf("invoice events %v, want %v", types, want)
	}
	for _, ev := range evs {
		waitFor(t, time.Minute, "delivery of "+ev.Type, func() bool { return rc.count(ev.ID.String()) >= 1 })
		rc.mu.Lock()
		got := rc.got[ev.ID.String()][0]
		rc.mu.Unlock()
		if got != ev.Type {
			t.Errorf("event %s delivered as %s", ev.Type, got)
		}
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.bad != 0 {
		t.Errorf("%d deliveries failed verification", rc.bad)
	}
}

// newInvoiceHookRig is an invoice rig (newInvoiceRig) whose application
// also delivers webhooks through Temporal on the rig's queue.
func newInvoiceHookRig(t *testing.T, d storetest.Dialect) *rig {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: temporalAddr, Namespace: temporalNamespace,
		Logger: sdklog.NewStructuredLogger(quiet())})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	queue := fmt.Sprintf("%s-%s-%d", workflows.TaskQueue, strings.ReplaceAll(t.Name(), "/", "-"), queues.Add(1))
	opts := certtest.Options{Open: d.Open, LateDelay: 3 * time.Second,
		Runs: workflows.NewStarter(c, workflows.StarterOptions{TaskQueue: queue}),
		App: func(cfg *app.Config) {
			cfg.Webhooks.AllowPrivate = true
			cfg.Webhooks.Retry = webhooks.RetryPolicy{Initial: 100 * time.Millisecond, Max: 400 * time.Millisecond, Window: time.Minute}
			cfg.Webhooks.Engine = workflows.NewWebhookStarter(c, workflows.StarterOptions{TaskQueue: queue})
		}}
	r := &rig{t: t, e: certtest.New(t, opts), c: c, queue: queue}
	registerAttrs.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := workflows.RegisterSearchAttributes(ctx, r.c, temporalNamespace, workflows.SearchAttributes()...); err != nil {
			t.Fatal(err)
		}
	})
	return r
}

// startInvoiceHooks starts a worker running invoice workflows and webhook
// deliveries, and a dispatcher.
func (r *rig) startInvoiceHooks() {
	r.t.Helper()
	w, err := worker.New(r.c, worker.Options{Runs: r.e.App.Steps, Submissions: r.e.App.SubmissionSteps, Webhooks: r.e.App.Deliveries,
		TaskQueue: r.queue, Logger: quiet(), SubmissionMBS: workflows.SubmissionClients(egress.Policy{}, invoiceCallTimeout),
		SubmissionCallTimeout: invoiceCallTimeout})
	if err != nil {
		r.t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		r.t.Fatal(err)
	}
	d, err := r.e.App.Dispatcher()
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx, 20*time.Millisecond) }()
	var once sync.Once
	r.t.Cleanup(func() {
		once.Do(func() {
			cancel()
			<-done
			w.Stop()
		})
	})
}

// newReceiverIn is newReceiver listening on the first free loopback port
// of [lo, hi).
func newReceiverIn(t *testing.T, lo, hi int) *receiver {
	t.Helper()
	rc := &receiver{t: t, got: map[string][]string{}}
	var ln net.Listener
	for p := lo; p < hi && ln == nil; p++ {
		ln, _ = net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
	}
	if ln == nil {
		t.Fatalf("no free port in %d-%d", lo, hi-1)
	}
	srv := &http.Server{Handler: rc, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	rc.url = "http://" + ln.Addr().String() + "/hooks"
	return rc
}
