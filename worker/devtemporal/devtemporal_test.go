package devtemporal_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	_ "modernc.org/sqlite" // database/sql driver "sqlite", to read the database file directly

	"github.com/einvoice-ng/einvoice/worker/devtemporal"
)

const (
	taskQueue    = "devtemporal-test"
	workflowName = "Greet"
	activityName = "Compose"
)

// testTimeout bounds each wait on the server; it is a safety net against a
// hung test, not an assertion about speed.
const testTimeout = 90 * time.Second

// greet is the workflow under test: it runs one activity and returns its result.
func greet(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var out string
	err := workflow.ExecuteActivity(ctx, activityName, name).Get(ctx, &out)
	return out, err
}

func compose(_ context.Context, name string) (string, error) {
	return "Hello, " + name + "!", nil
}

// logBuffer collects what the server writes to Options.Logger.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// startServer starts a server in dir on free ports, with the UI, and stops
// it when the test ends.
func startServer(t *testing.T, dir string, logs io.Writer) *devtemporal.Server {
	t.Helper()
	return startServerAt(t, dir, "127.0.0.1:0", "127.0.0.1:0", logs)
}

// startServerAt is startServer with given frontend and UI addresses.
func startServerAt(t *testing.T, dir, frontendAddr, uiAddr string, logs io.Writer) *devtemporal.Server {
	t.Helper()
	began := time.Now()
	srv, err := devtemporal.Start(testContext(t), devtemporal.Options{
		DataDir:      dir,
		FrontendAddr: frontendAddr,
		UIAddr:       uiAddr,
		Logger:       slog.New(slog.NewTextHandler(logs, nil)),
	})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Logf("Start took %v (frontend %s, ui %s)", time.Since(began).Round(time.Millisecond), srv.FrontendAddr(), srv.UIAddr())
	t.Cleanup(func() {
		if err := srv.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	return srv
}

func dial(t *testing.T, srv *devtemporal.Server) client.Client {
	t.Helper()
	c, err := client.DialContext(testContext(t), client.Options{
		HostPort:  srv.FrontendAddr(),
		Namespace: srv.Namespace(),
		Logger:    sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)),
	})
	if err != nil {
		t.Fatalf("dial %s: %v", srv.FrontendAddr(), err)
	}
	t.Cleanup(c.Close)
	return c
}

func startWorker(t *testing.T, c client.Client) {
	t.Helper()
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflowWithOptions(greet, workflow.RegisterOptions{Name: workflowName})
	w.RegisterActivityWithOptions(compose, activity.RegisterOptions{Name: activityName})
	if err := w.Start(); err != nil {
		t.Fatalf("start worker: %v", err)
	}
	t.Cleanup(w.Stop)
}

// runGreet runs the workflow to completion and returns its run ID.
func runGreet(t *testing.T, c client.Client, id, name, want string) string {
	t.Helper()
	return runGreetWith(t, c, client.StartWorkflowOptions{ID: id}, name, want)
}

// runGreetWith is runGreet with more start options; the task queue is set here.
func runGreetWith(t *testing.T, c client.Client, opts client.StartWorkflowOptions, name, want string) string {
	t.Helper()
	ctx := testContext(t)
	opts.TaskQueue = taskQueue
	id := opts.ID
	run, err := c.ExecuteWorkflow(ctx, opts, workflowName, name)
	if err != nil {
		t.Fatalf("ExecuteWorkflow: %v", err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil {
		t.Fatalf("workflow %s: %v", id, err)
	}
	if got != want {
		t.Fatalf("workflow result = %q, want %q", got, want)
	}
	return run.GetRunID()
}

// assertCompleted checks, through the history service and then through the
// workflow's stored result, that the run finished with want.
func assertCompleted(t *testing.T, c client.Client, id, runID, want string) {
	t.Helper()
	ctx := testContext(t)
	desc, err := c.DescribeWorkflowExecution(ctx, id, runID)
	if err != nil {
		t.Fatalf("DescribeWorkflowExecution: %v", err)
	}
	if got := desc.GetWorkflowExecutionInfo().GetStatus(); got != enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED {
		t.Fatalf("status = %v, want COMPLETED", got)
	}
	var got string
	if err := c.GetWorkflow(ctx, id, runID).Get(ctx, &got); err != nil {
		t.Fatalf("GetWorkflow(%s).Get: %v", id, err)
	}
	if got != want {
		t.Fatalf("stored result = %q, want %q", got, want)
	}
}

// addKeywordAttribute registers a custom Keyword search attribute.
func addKeywordAttribute(t *testing.T, c client.Client, namespace, name string) {
	t.Helper()
	_, err := c.OperatorService().AddSearchAttributes(testContext(t), &operatorservice.AddSearchAttributesRequest{
		Namespace:        namespace,
		SearchAttributes: map[string]enumspb.IndexedValueType{name: enumspb.INDEXED_VALUE_TYPE_KEYWORD},
	})
	if err != nil {
		t.Fatalf("AddSearchAttributes(%s): %v", name, err)
	}
}

// waitListed polls visibility until the run shows up in the list query.
// Visibility is written asynchronously, so one read may come too early.
func waitListed(t *testing.T, c client.Client, query, runID string) {
	t.Helper()
	ctx := testContext(t)
	for {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query})
		if err != nil {
			t.Fatalf("ListWorkflow(%s): %v", query, err)
		}
		for _, e := range resp.GetExecutions() {
			if e.GetExecution().GetRunId() == runID {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("run %s never listed by %q: %v", runID, query, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func httpGet(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(testContext(t), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: read body: %v", url, err)
	}
	return resp, body
}

func checkUI(t *testing.T, srv *devtemporal.Server) {
	t.Helper()
	base := "http://" + srv.UIAddr()

	resp, body := httpGet(t, base+"/")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /: status %d: %.200s", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("GET /: Content-Type %q, want text/html", ct)
	}
	if !bytes.Contains(bytes.ToLower(body), []byte("<html")) || !bytes.Contains(body, []byte("_app/")) {
		t.Fatalf("GET /: not the UI app page: %.300s", body)
	}

	resp, body = httpGet(t, base+"/api/v1/namespaces")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/v1/namespaces: status %d: %.300s", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("GET /api/v1/namespaces: Content-Type %q, want application/json", ct)
	}
	var list struct {
		Namespaces []struct {
			NamespaceInfo struct {
				Name string `json:"name"`
			} `json:"namespaceInfo"`
		} `json:"namespaces"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatalf("GET /api/v1/namespaces: %v: %.300s", err, body)
	}
	var names []string
	for _, ns := range list.Namespaces {
		names = append(names, ns.NamespaceInfo.Name)
	}
	if !contains(names, srv.Namespace()) {
		t.Fatalf("GET /api/v1/namespaces lists %q, want %q among them", names, srv.Namespace())
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// countCurrentExecutions reads the SQLite file directly, bypassing the
// server, and counts the stored runs of workflow id.
func countCurrentExecutions(t *testing.T, dir, id string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "temporal.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(testContext(t), "SELECT count(*) FROM current_executions WHERE workflow_id = ?", id).Scan(&n); err != nil {
		t.Fatalf("query temporal.db: %v", err)
	}
	return n
}

// checkLogs verifies that the server's verbose output went to the log file
// in dir and that Options.Logger got the life-cycle lines but none of it.
func checkLogs(t *testing.T, dir, logged string) {
	t.Helper()
	if !strings.Contains(logged, "temporal dev server started") || !strings.Contains(logged, "temporal dev server stopped") {
		t.Fatalf("Logger did not get the start and stop lines:\n%s", logged)
	}
	for _, line := range strings.Split(logged, "\n") {
		if strings.Contains(line, "component=temporal-server") && strings.Contains(line, "level=INFO") {
			t.Fatalf("server info line reached Logger: %s", line)
		}
	}
	file, err := os.ReadFile(filepath.Join(dir, "temporal-server.log"))
	if err != nil {
		t.Fatalf("server log file: %v", err)
	}
	if !bytes.Contains(file, []byte("level=INFO")) {
		t.Fatalf("server log file has no info lines:\n%.500s", file)
	}
}

func assertNotListening(t *testing.T, addr string) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err == nil {
		conn.Close()
		t.Fatalf("%s still accepts connections after Stop", addr)
	}
}

func TestServerRunsWorkflowsServesUIAndKeepsHistory(t *testing.T) {
	dir := t.TempDir()
	var logs logBuffer
	srv := startServer(t, dir, &logs)

	if srv.Namespace() != "default" {
		t.Fatalf("Namespace() = %q, want default", srv.Namespace())
	}
	if strings.HasSuffix(srv.FrontendAddr(), ":0") || srv.UIAddr() == "" || strings.HasSuffix(srv.UIAddr(), ":0") {
		t.Fatalf("addresses not resolved: frontend %q, ui %q", srv.FrontendAddr(), srv.UIAddr())
	}

	c := dial(t, srv)
	startWorker(t, c)
	addKeywordAttribute(t, c, srv.Namespace(), "InvoiceStatus")
	const id = "greet-ada"
	runID := runGreetWith(t, c, client.StartWorkflowOptions{
		ID: id,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			temporal.NewSearchAttributeKeyKeyword("InvoiceStatus").ValueSet("issued")),
	}, "Ada", "Hello, Ada!")
	waitListed(t, c, "WorkflowType = '"+workflowName+"' AND WorkflowId = '"+id+"' AND ExecutionStatus = 'Completed'", runID)
	waitListed(t, c, "InvoiceStatus = 'issued'", runID)
	checkUI(t, srv)

	frontend, ui := srv.FrontendAddr(), srv.UIAddr()
	if err := srv.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := srv.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	assertNotListening(t, frontend)
	assertNotListening(t, ui)
	if n := countCurrentExecutions(t, dir, id); n != 1 {
		t.Fatalf("temporal.db holds %d current executions of %s, want 1", n, id)
	}
	checkLogs(t, dir, logs.String())

	// Same data directory and same addresses, which Stop must have freed:
	// the finished run is still there and new work is accepted.
	srv2 := startServerAt(t, dir, frontend, ui, &logs)
	if srv2.FrontendAddr() != frontend || srv2.UIAddr() != ui {
		t.Fatalf("restarted on frontend %s, ui %s; want %s, %s", srv2.FrontendAddr(), srv2.UIAddr(), frontend, ui)
	}
	c2 := dial(t, srv2)
	assertCompleted(t, c2, id, runID, "Hello, Ada!")
	startWorker(t, c2)
	runGreet(t, c2, "greet-grace", "Grace", "Hello, Grace!")
}

// childEnv names the data directory when the test binary runs as the child
// process of TestHistorySurvivesProcessRestart.
const childEnv = "DEVTEMPORAL_TEST_CHILD_DIR"

// TestChildProcess is not a test on its own: it is the child half of
// TestHistorySurvivesProcessRestart and is skipped otherwise.
func TestChildProcess(t *testing.T) {
	dir := os.Getenv(childEnv)
	if dir == "" {
		t.Skip("runs only as the child of TestHistorySurvivesProcessRestart")
	}
	srv := startServer(t, dir, io.Discard)
	c := dial(t, srv)
	startWorker(t, c)
	runID := runGreet(t, c, "greet-linus", "Linus", "Hello, Linus!")
	if err := os.WriteFile(filepath.Join(dir, "run-id"), []byte(runID), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestHistorySurvivesProcessRestart(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("already the child")
	}
	dir := t.TempDir()
	cmd := exec.CommandContext(testContext(t), os.Args[0], "-test.run=^TestChildProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child process: %v\n%s", err, out)
	}
	runID, err := os.ReadFile(filepath.Join(dir, "run-id"))
	if err != nil {
		t.Fatalf("child left no run ID: %v", err)
	}

	srv := startServer(t, dir, io.Discard)
	c := dial(t, srv)
	assertCompleted(t, c, "greet-linus", string(runID), "Hello, Linus!")
}

func TestStartHonoursCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	srv, err := devtemporal.Start(ctx, devtemporal.Options{DataDir: t.TempDir(), FrontendAddr: "127.0.0.1:0"})
	if err == nil {
		srv.Stop()
		t.Fatal("Start succeeded with a cancelled context")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Start error = %v, want context.Canceled", err)
	}
}

func TestStartRejectsBadOptions(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { busy.Close() })

	cases := []struct {
		name string
		opts devtemporal.Options
		want string
	}{
		{"no data dir", devtemporal.Options{FrontendAddr: "127.0.0.1:0"}, "DataDir is required"},
		{"frontend host name", devtemporal.Options{DataDir: t.TempDir(), FrontendAddr: "example.com:7233"}, "not an IP address"},
		{"frontend port taken", devtemporal.Options{DataDir: t.TempDir(), FrontendAddr: busy.Addr().String()}, "not available"},
		{"UI port taken", devtemporal.Options{DataDir: t.TempDir(), FrontendAddr: "127.0.0.1:0", UIAddr: busy.Addr().String()}, "web UI"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := devtemporal.Start(testContext(t), tc.opts)
			if err == nil {
				srv.Stop()
				t.Fatalf("Start succeeded, want an error containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Start error = %q, want it to contain %q", err, tc.want)
			}
		})
	}
}
