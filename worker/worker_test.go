package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/worker"
	"github.com/einvoice-ng/einvoice/worker/temporaltest"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// One Temporal server serves every test of the package; each test polls
// its own task queue, so that no worker ever takes another test's tasks,
// and has its own store and stand-in. The tests therefore run in parallel
// (t.Parallel), but for those that change a package-level setting of
// workflows (MaxProbeWait): TestInvoicesOutage, TestInvoicesThrottled and
// TestInvoiceQueueHistories run alone, before the parallel ones.
var temporalAddr, temporalNamespace string

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "einvoice-worker-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv, err := temporaltest.Start(ctx, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer srv.Stop()
	temporalAddr, temporalNamespace = srv.FrontendAddr(), srv.Namespace()
	c, err := client.DialContext(ctx, client.Options{HostPort: temporalAddr, Namespace: temporalNamespace,
		Logger: sdklog.NewStructuredLogger(quiet())})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	err = workflows.RegisterSearchAttributes(ctx, c, temporalNamespace, workflows.SearchAttributes()...)
	c.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

var queues atomic.Int64

// rig is a service wired to the stand-in, Temporal and a worker.
type rig struct {
	t     *testing.T
	e     *certtest.Env
	c     client.Client
	queue string
	gql   http.Handler // REST and GraphQL, built on first use
}

func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

func newRig(t *testing.T, opts certtest.Options) *rig {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: temporalAddr, Namespace: temporalNamespace,
		Logger: sdklog.NewStructuredLogger(quiet())})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	queue := fmt.Sprintf("%s-%s-%d", workflows.TaskQueue, strings.ReplaceAll(t.Name(), "/", "-"), queues.Add(1))
	opts.Runs = workflows.NewStarter(c, workflows.StarterOptions{TaskQueue: queue})
	return &rig{t: t, e: certtest.New(t, opts), c: c, queue: queue}
}

// startWorker starts a worker; stop it with the returned function (also
// called at cleanup).
func (r *rig) startWorker() (stop func()) {
	r.t.Helper()
	w, err := worker.New(r.c, worker.Options{Runs: r.e.App.Steps, TaskQueue: r.queue, Logger: quiet()})
	if err != nil {
		r.t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		r.t.Fatal(err)
	}
	var once atomic.Bool
	stop = func() {
		if once.CompareAndSwap(false, true) {
			w.Stop()
		}
	}
	r.t.Cleanup(stop)
	return stop
}

func (r *rig) do(method, path string, tn certtest.Tenant, body string) (int, map[string]any) {
	r.t.Helper()
	hr := httptest.NewRequest(method, path, strings.NewReader(body))
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("X-Client-Id", tn.ClientID)
	hr.Header.Set("X-Client-Secret", tn.ClientSecret)
	rec := httptest.NewRecorder()
	r.e.Handler.ServeHTTP(rec, hr)
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		r.t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
	}
	return rec.Code, m
}

// start posts a smoke run and returns its id.
func (r *rig) start(body string) string {
	r.t.Helper()
	code, m := r.do("POST", "/api/v2/certification/nrs/smoke", r.e.Tenant, body)
	if code != 200 || m["status"] != "queued" {
		r.t.Fatalf("start: %d %v", code, m)
	}
	return m["run_id"].(string)
}

// wait polls the run until cond holds.
func (r *rig) wait(runID string, timeout time.Duration, cond func(run map[string]any) bool) map[string]any {
	r.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		code, run := r.do("GET", "/api/v2/certification/runs/"+runID, r.e.Tenant, "")
		if code != 200 {
			r.t.Fatalf("get: %d %v", code, run)
		}
		if cond(run) {
			return run
		}
		if time.Now().After(deadline) {
			b, _ := json.MarshalIndent(run, "", "  ")
			r.t.Fatalf("run %s: condition not met within %s: %s", runID, timeout, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func final(run map[string]any) bool {
	s := run["status"]
	return s == "passed" || s == "failed" || s == "cancelled"
}

func stepNames(run map[string]any) []string {
	var out []string
	for _, s := range run["steps"].([]any) {
		out = append(out, s.(map[string]any)["name"].(string))
	}
	return out
}

func TestEndToEndThroughREST(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) { endToEnd(t, d) })
	}
}

func endToEnd(t *testing.T, d storetest.Dialect) {
	r := newRig(t, certtest.Options{Open: d.Open})
	r.startWorker()
	ids := map[string]string{}
	for _, kind := range []string{"B2B", "B2C", "B2G"} {
		ids[kind] = r.start(`{"invoice_type":"` + kind + `","issue_date":"2026-03-15"}`)
	}
	for _, kind := range []string{"B2B", "B2C", "B2G"} {
		t.Run(kind, func(t *testing.T) {
			began := time.Now()
			run := r.wait(ids[kind], time.Minute, final)
			t.Logf("%s run done %s after the start of the wait", kind, time.Since(began).Round(time.Millisecond))
			if run["status"] != "passed" {
				b, _ := json.MarshalIndent(run, "", "  ")
				t.Fatalf("run did not pass: %s", b)
			}
			names := stepNames(run)
			if len(names) < 8 {
				t.Fatalf("only %d steps: %v", len(names), names)
			}
			for _, want := range []string{workflows.StepGenerateIRN, workflows.StepSignInvoice, workflows.StepBuildQR,
				workflows.StepVerifyQR, workflows.StepConfirm, workflows.StepConfirmPaid, workflows.StepNegativeProbe} {
				if !slices.Contains(names, want) {
					t.Errorf("no %s step: %v", want, names)
				}
			}
			transmits := slices.Contains(names, workflows.StepTransmit) && slices.Contains(names, workflows.StepLookup)
			if transmits != (kind != "B2C") {
				t.Errorf("%s transmitted %v: %v", kind, transmits, names)
			}
			for _, s := range run["steps"].([]any) {
				st := s.(map[string]any)
				if st["status"] != "passed" || st["finished_at"] == nil || st["duration_ms"] == nil {
					t.Errorf("step %v", st)
				}
			}
			if irn, _ := run["irn"].(string); !strings.HasPrefix(irn, "CERT") || !strings.HasSuffix(irn, "-20260315") {
				t.Errorf("irn %v", run["irn"])
			}
			tmp := run["temporal"].(map[string]any)
			if tmp["workflow_id"] != "certification-run-"+ids[kind] || tmp["run_id"] == nil || run["finished_at"] == nil {
				t.Errorf("run: %v", run)
			}
			var res workflows.RunResult
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := r.c.GetWorkflow(ctx, tmp["workflow_id"].(string), "").Get(ctx, &res); err != nil || res.Status != "passed" {
				t.Errorf("workflow result %+v %v", res, err)
			}
		})
	}

	other := r.e.NewTenant(t)
	if code, m := r.do("GET", "/api/v2/certification/runs/"+ids["B2B"], other, ""); code != 404 || m["code"] != "not_found" {
		t.Fatalf("foreign run: %d %v", code, m)
	}
	if code, m := r.do("GET", "/api/v2/certification/runs/42", r.e.Tenant, ""); code != 422 ||
		!strings.Contains(fmt.Sprint(m["detail"]), "uuid_parsing") || !strings.Contains(fmt.Sprint(m["detail"]), "[path run_id]") {
		t.Fatalf("malformed id: %d %v", code, m)
	}
}

func TestFailedRunKeepsTheReason(t *testing.T) {
	t.Parallel()
	r := newRig(t, certtest.Options{Open: storetest.SQLite})
	r.startWorker()
	id := r.start(`{"invoice_type":"B2C","issue_date":"2026-03-15","invoice_payload":` + fixture(t, "invoice-b2c-1.1.json", "SBXSIGNFAIL"+uuid.NewString()[:4]) + `}`)
	run := r.wait(id, time.Minute, final)
	reason, _ := run["failure_reason"].(string)
	if run["status"] != "failed" || !strings.Contains(reason, "invoice_sign") || !strings.Contains(reason, "invoice signing failed") {
		t.Fatalf("run: %v", run)
	}
	last := run["steps"].([]any)[len(run["steps"].([]any))-1].(map[string]any)
	if last["name"] != workflows.StepSignInvoice || last["status"] != "failed" || last["http_status"] != float64(400) || last["nrs_error_id"] == nil {
		t.Fatalf("last step: %v", last)
	}
}

// TestRunSurvivesWorkerRestart stops the only worker in the middle of a
// slow run (the stand-in's SBXSLOW scenario delays every call) and lets a
// new worker finish it.
func TestRunSurvivesWorkerRestart(t *testing.T) {
	t.Parallel()
	r := newRig(t, certtest.Options{Open: storetest.SQLite, SlowDelay: 400 * time.Millisecond})
	stop := r.startWorker()
	id := r.start(`{"invoice_type":"B2B","issue_date":"2026-03-15","invoice_payload":` + fixture(t, "invoice-b2b-1.1.json", "SBXSLOW"+uuid.NewString()[:4]) + `}`)
	r.wait(id, time.Minute, func(run map[string]any) bool {
		for _, s := range run["steps"].([]any) {
			st := s.(map[string]any)
			if st["name"] == workflows.StepValidateInvoice && st["status"] == "running" {
				return true
			}
		}
		return false
	})
	stop()
	time.Sleep(time.Second)
	if _, run := r.do("GET", "/api/v2/certification/runs/"+id, r.e.Tenant, ""); final(run) {
		t.Fatalf("the run ended without a worker: %v", run)
	}
	r.startWorker()
	run := r.wait(id, 2*time.Minute, final)
	if run["status"] != "passed" {
		b, _ := json.MarshalIndent(run, "", "  ")
		t.Fatalf("run after the restart: %s", b)
	}
	for _, s := range run["steps"].([]any) {
		st := s.(map[string]any)
		if st["name"] == workflows.StepValidateInvoice && st["attempts"].(float64) < 2 {
			t.Fatalf("the interrupted step was not retried: %v", st)
		}
	}
}

// TestRunQueuedWithoutWorker: a run started while no worker polls waits
// and runs once one does.
func TestRunQueuedWithoutWorker(t *testing.T) {
	t.Parallel()
	r := newRig(t, certtest.Options{Open: storetest.SQLite})
	id := r.start(`{"invoice_type":"B2C","issue_date":"2026-03-15"}`)
	time.Sleep(300 * time.Millisecond)
	if _, run := r.do("GET", "/api/v2/certification/runs/"+id, r.e.Tenant, ""); run["status"] != "queued" {
		t.Fatalf("run without a worker: %v", run)
	}
	r.startWorker()
	if run := r.wait(id, time.Minute, final); run["status"] != "passed" {
		t.Fatalf("run: %v", run)
	}
	p, err := r.e.App.Store().Runs().ByID(context.Background(), uuid.MustParse(id))
	if err != nil || p.Status != "passed" {
		t.Fatalf("stored run: %+v %v", p, err)
	}
}

// fixture returns a testdata invoice whose IRN carries reference, as JSON.
func fixture(t *testing.T, name, reference string) string {
	t.Helper()
	f, err := os.Open("../testdata/fixtures/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	raw, _ := io.ReadAll(f)
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	doc["irn"] = reference + "-ABCDEFGH-20260315"
	b, _ := json.Marshal(doc)
	return string(b)
}

// nrsShapedPayload is an invoice written exactly as NRS's example requests
// write one: payment means 43, the discount as dicount_rate and
// dicount_amount, fee_rate and fee_amount present, price_unit "NGN per 1"
// (testdata/nrs/examples), on the B2B fixture with amounts that add up.
func nrsShapedPayload(t *testing.T, reference string) string {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(fixture(t, "invoice-b2b-1.1.json", reference)), &doc); err != nil {
		t.Fatal(err)
	}
	doc["payment_means"] = []any{map[string]any{"payment_means_code": "43", "payment_due_date": "2026-04-14"}}
	lines := doc["invoice_line"].([]any)
	// Line 0: 10 bags at 5,000 with a 10 % discount of 5,000: 45,000.
	l0 := lines[0].(map[string]any)
	l0["dicount_rate"], l0["dicount_amount"], l0["fee_rate"], l0["fee_amount"] = 10, 5000, 0, 0
	l0["line_extension_amount"] = 45000
	l0["price"].(map[string]any)["price_unit"] = "NGN per 1"
	l1 := lines[1].(map[string]any)
	l1["dicount_rate"], l1["dicount_amount"], l1["fee_rate"], l1["fee_amount"] = 0, 0, 0, 0
	l1["price"].(map[string]any)["price_unit"] = "NGN per 1"
	// 65,000 before tax, 4,875 VAT at 7.5 %, 69,875 payable.
	doc["tax_total"] = []any{map[string]any{"tax_amount": 4875, "tax_subtotal": []any{map[string]any{
		"taxable_amount": 65000, "tax_amount": 4875, "tax_category": map[string]any{"id": "STANDARD_VAT", "percent": 7.5}}}}}
	doc["legal_monetary_total"] = map[string]any{"line_extension_amount": 65000, "tax_exclusive_amount": 65000,
		"tax_inclusive_amount": 69875, "payable_amount": 69875}
	b, _ := json.Marshal(doc)
	return string(b)
}

// TestNRSShapedPayloadPasses runs a certification run with a payload
// written as NRS writes one: einvoice's validator, the stand-in and every
// step accept it.
func TestNRSShapedPayloadPasses(t *testing.T) {
	t.Parallel()
	r := newRig(t, certtest.Options{Open: storetest.SQLite})
	r.startWorker()
	id := r.start(`{"invoice_type":"B2B","issue_date":"2026-03-15","invoice_payload":` + nrsShapedPayload(t, "NRS"+uuid.NewString()[:4]) + `}`)
	run := r.wait(id, time.Minute, final)
	if run["status"] != "passed" {
		b, _ := json.MarshalIndent(run, "", "  ")
		t.Fatalf("run did not pass: %s", b)
	}
	for _, s := range run["steps"].([]any) {
		st := s.(map[string]any)
		if st["name"] == workflows.StepBuildPayload && !strings.Contains(st["message"].(string), "0 warning(s)") {
			t.Errorf("build_payload: %v", st["message"])
		}
	}
}
