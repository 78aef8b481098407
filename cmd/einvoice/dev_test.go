package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
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
		map[string]any{"key_name": "certification", "scopes": []string{}})
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
