package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/einvoice-ng/einvoice/bench/cluster/tcpproxy"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/worker/temporaltest"
	"github.com/einvoice-ng/einvoice/workflows"
)

var workerProbesListening = regexp.MustCompile(`"msg":"einvoice worker probes listening","addr":"([^"]+)"`)

// TestWorkerServesProbesAndMetrics runs `einvoice worker` with
// EINVOICE_WORKER_HTTP_ADDR against a real Temporal server and PostgreSQL
// behind a proxy that can cut it: /health and /ready answer ok; once a
// workflow task ran on the worker, /metrics holds the Temporal SDK's
// metrics of it beside the Go runtime's; with the database cut off, /ready
// answers 503 naming the database and /health stays 200 (degraded); the
// database back, /ready answers 200 again.
func TestWorkerServesProbesAndMetrics(t *testing.T) {
	dsn := storetest.PostgresURL(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	proxy, err := tcpproxy.Start("127.0.0.1:0", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proxy.Close)
	u.Host = proxy.Addr()

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	srv, err := temporaltest.Start(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop() })

	vars := map[string]string{
		"EINVOICE_DATABASE_URL": u.String(), "EINVOICE_JWT_SECRET": strings.Repeat("s", 32),
		"EINVOICE_ENCRYPTION_KEY": strings.Repeat("ab", 32),
		"TEMPORAL_ADDRESS":        srv.FrontendAddr(), "TEMPORAL_NAMESPACE": srv.Namespace(),
		"EINVOICE_WORKER_HTTP_ADDR": "127.0.0.1:0",
	}
	p := start(t, []string{"worker"}, vars)
	base := "http://" + p.wait(t, workerProbesListening, 2*time.Minute)

	if code, body := getJSON(t, base+"/health"); code != 200 || body["status"] != "ok" || checks(body)["temporal"] != "ok" {
		t.Fatalf("health: %d %v", code, body)
	}
	if code, body := getJSON(t, base+"/ready"); code != 200 || body["status"] != "ready" ||
		checks(body)["database"] != "ok" || checks(body)["migrations"] != "ok" || checks(body)["temporal"] != "ok" {
		t.Fatalf("ready: %d %v", code, body)
	}
	if code, _ := getJSON(t, base+"/nothing"); code != 404 {
		t.Fatalf("an unknown path: %d", code)
	}

	// A workflow task on the worker's queue: an invoice queue drain (of a
	// project that does not exist: its activity fails and retries until
	// the workflow is terminated).
	c, err := envConfig(env(vars))
	if err != nil {
		t.Fatal(err)
	}
	tc, err := client.Dial(c.temporalOptions(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tc.Close)
	id := "probes-test-" + uuid.NewString()
	if _, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: workflows.TaskQueue},
		workflows.QueueDrainWorkflowName, workflows.DrainInput{ProjectID: uuid.New()}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tc.TerminateWorkflow(context.Background(), id, "", "test over") })
	// The SDK's timers reach the registry when recorded, its counters
	// within a second: poll until both are there.
	drain := `workflow_type="` + workflows.QueueDrainWorkflowName + `"}`
	var metrics string
	for deadline := time.Now().Add(time.Minute); ; {
		metrics = getText(t, base+"/metrics")
		if regexp.MustCompile(`(?m)^temporal_workflow_task_execution_latency_seconds_count\{.*`+drain+` [1-9]`).MatchString(metrics) &&
			regexp.MustCompile(`(?m)^temporal_workflow_task_queue_poll_succeed_total\{.*`+drain+` [1-9]`).MatchString(metrics) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no Temporal SDK metrics of the workflow task:\n%s", metrics)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, want := range []string{
		"temporal_workflow_task_schedule_to_start_latency_seconds_bucket{",
		"temporal_worker_task_slots_available{",
		"go_goroutines ",
		"process_cpu_seconds_total ",
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	proxy.Cut()
	code, body := getJSON(t, base+"/ready")
	if code != 503 || body["status"] != "not_ready" || checks(body)["database"] != "unavailable" || checks(body)["temporal"] != "ok" {
		t.Fatalf("ready with the database cut off: %d %v", code, body)
	}
	if code, body := getJSON(t, base+"/health"); code != 200 || body["status"] != "degraded" || checks(body)["database"] != "unavailable" {
		t.Fatalf("health with the database cut off: %d %v", code, body)
	}
	if err := proxy.Restore(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; {
		code, body := getJSON(t, base+"/ready")
		if code == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("ready with the database back: %d %v", code, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// getText answers the body of a GET of url, failing the test on anything but 200.
func getText(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v\n%s", url, res.StatusCode, err, b)
	}
	return string(b)
}

// getJSON answers the status and JSON body of a GET of url.
func getJSON(t *testing.T, url string) (int, map[string]any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
		t.Fatalf("GET %s: %d, not JSON: %v", url, res.StatusCode, err)
	}
	if res.StatusCode == 503 && res.Header.Get("Retry-After") == "" {
		t.Fatalf("GET %s: 503 without Retry-After", url)
	}
	return res.StatusCode, m
}

// checks is the checks object of a /health or /ready body.
func checks(body map[string]any) map[string]any {
	c, _ := body["checks"].(map[string]any)
	return c
}
