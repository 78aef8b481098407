//go:build !prod

// The tests of `einvoice dev`, which embeds the Temporal server: only the
// default build has it (a build with -tags prod answers an error, see
// build_test.go). make test runs them without the race detector, so that
// the server's packages are built once, without it; every other test of the
// package runs with it, on the production build (see the Makefile).

package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model/app/apptest"
)

// Issue 20: a certification run in dev survives a restart of the dev
// process. The run's invoice reference is SBXSLOW (every stand-in call waits
// a second), the process stops once the invoice is signed at the stand-in,
// and the run ends passed after the restart: the stand-in still knows the
// signed invoice, and Temporal resumes the workflow.
func TestDevRunSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"EINVOICE_NRS_SANDBOX_SLOW_DELAY": "1s"}
	args := []string{"dev", "--addr", "127.0.0.1:0", "--data-dir", dir, "--temporal-addr", "127.0.0.1:0", "--temporal-ui-addr", ""}
	first := start(t, args, vars)
	base := first.wait(t, devBanner, 2*time.Minute)

	token, pr := tenant(t, base)
	key := callREST(t, "POST", base+"/api/v2/projects/"+pr["id"].(string)+"/keys", map[string]string{"Authorization": "Bearer " + token},
		map[string]any{"key_name": "certification"})
	auth := map[string]string{"X-Client-Id": key["client_id"].(string), "X-Client-Secret": key["client_secret"].(string)}
	inv := invoiceFixture(t, "x", "SBXSLOW1-94ND90NR-20260315")
	run := callREST(t, "POST", base+"/api/v2/certification/nrs/smoke", auth,
		map[string]any{"invoice_type": "B2B", "issue_date": "2026-03-15", "invoice_payload": inv})
	runURL := "/api/v2/certification/runs/" + run["run_id"].(string)

	// Wait until the stand-in has signed the invoice, then stop dev.
	waitRun(t, base+runURL, auth, 2*time.Minute, func(r map[string]any) bool { return stepPassed(r, "invoice_sign") })
	first.stop()

	second := start(t, args, vars)
	base = second.wait(t, devBanner, 2*time.Minute)
	got := waitRun(t, base+runURL, auth, 3*time.Minute, func(r map[string]any) bool {
		return r["status"] == "passed" || r["status"] == "failed"
	})
	if got["status"] != "passed" {
		b, _ := json.MarshalIndent(got, "", "  ")
		t.Fatalf("the run did not survive the restart:\n%s", b)
	}
	for _, step := range []string{"transmit", "transmit_lookup", "confirm", "update_paid", "confirm_paid"} {
		if !stepPassed(got, step) {
			t.Fatalf("step %s did not pass after the restart", step)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "nrs-sandbox.db")); err != nil {
		t.Fatalf("the stand-in's state is not under the data dir: %v", err)
	}
}

func stepPassed(run map[string]any, name string) bool {
	steps, _ := run["steps"].([]any)
	for _, s := range steps {
		if s, _ := s.(map[string]any); s["name"] == name && s["status"] == "passed" {
			return true
		}
	}
	return false
}

// waitRun polls a run until done says so.
func waitRun(t *testing.T, url string, auth map[string]string, timeout time.Duration, done func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last map[string]any
	for time.Now().Before(deadline) {
		last = callREST(t, "GET", url, auth, nil)
		if done(last) {
			return last
		}
		if last["status"] == "failed" {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	b, _ := json.MarshalIndent(last, "", "  ")
	t.Fatalf("run not there within %s:\n%s", timeout, b)
	return nil
}

// TestDevRunsTemporalWorkerAndSandbox starts `einvoice dev` on free ports,
// checks that Temporal is healthy and the stand-in is mounted, and that it
// stops cleanly.
func TestDevRunsTemporalWorkerAndSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb apptest.LogBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"dev", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir(), "--log-level", "warn",
			"--temporal-addr", "127.0.0.1:0", "--temporal-ui-addr", "127.0.0.1:0"}, env(nil), &out, &errb)
	}()
	base := regexp.MustCompile(`Health\s+(http://\S+)/health`)
	deadline := time.Now().Add(90 * time.Second)
	var url string
	for url == "" {
		select {
		case err := <-done:
			t.Fatalf("dev stopped: %v\n%s\n%s", err, out.String(), errb.String())
		default:
		}
		if m := base.FindStringSubmatch(out.String()); m != nil {
			url = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("no banner: %s %s", out.String(), errb.String())
		} else {
			time.Sleep(50 * time.Millisecond)
		}
	}
	for _, want := range []string{"Temporal UI  http://127.0.0.1:", "NRS sandbox  " + url + "/nrs-sandbox/api", "Temporal     127.0.0.1:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("banner lacks %q:\n%s", want, out.String())
		}
	}
	var health struct {
		Checks map[string]string `json:"checks"`
	}
	res, err := http.Get(url + "/health")
	if err != nil {
		t.Fatal(err)
	}
	_ = json.NewDecoder(res.Body).Decode(&health)
	res.Body.Close()
	// Nothing has called NRS production: its health is unknown, not ok.
	if health.Checks["temporal"] != "ok" || health.Checks["database"] != "ok" ||
		(health.Checks["nrs_sandbox"] != "ok" && health.Checks["nrs_sandbox"] != "unknown") ||
		health.Checks["nrs_production"] != "unknown" {
		t.Fatalf("health: %+v", health)
	}
	// Readiness: the database, its migrations and Temporal's namespace.
	var ready struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
	}
	res, err = http.Get(url + "/ready")
	if err != nil {
		t.Fatal(err)
	}
	_ = json.NewDecoder(res.Body).Decode(&ready)
	res.Body.Close()
	if res.StatusCode != 200 || ready.Status != "ready" || ready.Checks["temporal"] != "ok" || ready.Checks["migrations"] != "ok" {
		t.Fatalf("ready: %d %+v", res.StatusCode, ready)
	}
	res, err = http.Get(url + "/nrs-sandbox/api")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("stand-in health: %d", res.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("dev stopped with %v\n%s", err, errb.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("dev did not stop")
	}
}
