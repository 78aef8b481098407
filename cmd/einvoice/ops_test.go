package main

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/rest"
)

func TestOpsFromEnv(t *testing.T) {
	for _, c := range []struct {
		name string
		env  map[string]string
		want rest.RateLimits
		err  string
	}{
		{name: "defaults", want: rest.RateLimits{Sandbox: rest.DefaultSandboxLimit, Production: rest.DefaultProductionLimit, Auth: rest.DefaultAuthLimit,
			SandboxProject: rest.DefaultSandboxProjectLimit, ProductionProject: rest.DefaultProductionProjectLimit}},
		{name: "configured", env: map[string]string{"EINVOICE_RATE_LIMIT_SANDBOX": "5/s", "EINVOICE_RATE_LIMIT_PRODUCTION": "1000/m", "EINVOICE_RATE_LIMIT_AUTH": "off",
			"EINVOICE_RATE_LIMIT_PROJECT_SANDBOX": "8/s", "EINVOICE_RATE_LIMIT_PROJECT_PRODUCTION": "off"},
			want: rest.RateLimits{Sandbox: rest.Limit{Count: 5, Period: time.Second}, Production: rest.Limit{Count: 1000, Period: time.Minute},
				SandboxProject: rest.Limit{Count: 8, Period: time.Second}}},
		{name: "bad limit", env: map[string]string{"EINVOICE_RATE_LIMIT_AUTH": "ten a minute"}, err: "EINVOICE_RATE_LIMIT_AUTH"},
		{name: "bad redis url", env: map[string]string{"EINVOICE_REDIS_URL": "http://x"}, err: "EINVOICE_REDIS_URL"},
		{name: "short metrics token", env: map[string]string{"EINVOICE_METRICS_TOKEN": "short"}, err: "EINVOICE_METRICS_TOKEN"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, err := opsFromEnv(func(k string) string { return c.env[k] })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one naming %s", err, c.err)
				}
				return
			}
			if err != nil || o.Limits != c.want {
				t.Fatalf("limits %+v, %v; want %+v", o.Limits, err, c.want)
			}
		})
	}
}

// TestOpsRedisDown refuses to start with a Redis that does not answer.
func TestOpsRedisDown(t *testing.T) {
	o, err := opsFromEnv(func(k string) string {
		return map[string]string{"EINVOICE_REDIS_URL": "redis://127.0.0.1:1/0"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	var opts rest.Options
	if _, err := o.start(context.Background(), &opts, nil, slog.New(slog.NewTextHandler(io.Discard, nil))); err == nil || !strings.Contains(err.Error(), "does not answer") {
		t.Fatalf("start with Redis down: %v", err)
	}
}

func TestQuotasFromEnv(t *testing.T) {
	q, err := quotasFromEnv(func(k string) string {
		return map[string]string{"EINVOICE_MAX_KEYS_PER_PROJECT": "3", "EINVOICE_MAX_RUNS_PER_PROJECT": "off"}[k]
	})
	if err != nil || q.KeysPerProject != 3 || q.RunsPerProject != -1 || q.ProjectsPerOrganization != 0 {
		t.Fatalf("quotas %+v, %v", q, err)
	}
	if _, err := quotasFromEnv(func(k string) string {
		return map[string]string{"EINVOICE_MAX_PROJECTS_PER_ORGANIZATION": "0"}[k]
	}); err == nil || !strings.Contains(err.Error(), "EINVOICE_MAX_PROJECTS_PER_ORGANIZATION") {
		t.Fatalf("a zero quota: %v", err)
	}
}

func TestIdempotencyFromEnv(t *testing.T) {
	l, err := idempotencyFromEnv(func(k string) string {
		return map[string]string{"EINVOICE_IDEMPOTENCY_MAX_RESPONSE": "128KiB", "EINVOICE_IDEMPOTENCY_MAX_BYTES": "1 MiB", "EINVOICE_IDEMPOTENCY_MAX_KEYS": "500"}[k]
	})
	if err != nil || l.MaxResponseBytes != 128<<10 || l.MaxBytesPerCredential != 1<<20 || l.MaxKeysPerCredential != 500 {
		t.Fatalf("limits %+v, %v", l, err)
	}
	for _, bad := range []map[string]string{
		{"EINVOICE_IDEMPOTENCY_MAX_RESPONSE": "1GiB"}, {"EINVOICE_IDEMPOTENCY_MAX_BYTES": "-3"}, {"EINVOICE_IDEMPOTENCY_MAX_KEYS": "many"},
	} {
		if _, err := idempotencyFromEnv(func(k string) string { return bad[k] }); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
