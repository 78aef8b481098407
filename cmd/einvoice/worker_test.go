package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model/app/apptest"
)

func TestWorkerNeedsTemporalAddress(t *testing.T) {
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"worker"}, env(map[string]string{
		"EINVOICE_DATABASE_URL": t.TempDir() + "/x.db", "EINVOICE_JWT_SECRET": strings.Repeat("s", 32),
		"EINVOICE_ENCRYPTION_KEY": strings.Repeat("ab", 32),
	}), &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "TEMPORAL_ADDRESS") {
		t.Fatalf("worker without TEMPORAL_ADDRESS: %v", err)
	}
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
	if health.Checks["temporal"] != "ok" || health.Checks["database"] != "ok" ||
		health.Checks["nrs_sandbox"] != "ok" || health.Checks["nrs_production"] != "ok" {
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
