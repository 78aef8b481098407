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
	defaults := rest.RateLimits{Sandbox: rest.DefaultSandboxLimit, Production: rest.DefaultProductionLimit, GraphQLAnonymous: rest.DefaultGraphQLAnonymousLimit,
		GraphQLUser: rest.DefaultGraphQLUserLimit, GraphQLAddress: rest.DefaultGraphQLAddressLimit,
		SandboxProject: rest.DefaultSandboxProjectLimit, ProductionProject: rest.DefaultProductionProjectLimit}
	for _, c := range []struct {
		name          string
		mode          string
		env           map[string]string
		want          rest.RateLimits
		auth, account rest.Limit
		check         func(t *testing.T, o opsConfig)
		err           string
	}{
		{name: "api defaults", mode: modeAPI, want: defaults, auth: rest.DefaultAuthLimit, account: rest.DefaultAccountLimit,
			check: func(t *testing.T, o opsConfig) {
				if o.GraphQL.GraphiQL || o.GraphQL.Introspection || o.PublicMetrics || o.RequestTimeout != rest.DefaultRequestTimeout {
					t.Fatalf("api mode opens more than it should: %+v", o)
				}
			}},
		{name: "dev defaults", mode: modeDev, want: defaults, auth: rest.DefaultAuthLimit, account: rest.DefaultAccountLimit,
			check: func(t *testing.T, o opsConfig) {
				if !o.GraphQL.GraphiQL || !o.GraphQL.Introspection || !o.PublicMetrics {
					t.Fatalf("dev mode should open GraphiQL, introspection and metrics: %+v", o)
				}
			}},
		{name: "configured", mode: modeAPI, env: map[string]string{
			"EINVOICE_RATE_LIMIT_SANDBOX": "5/s", "EINVOICE_RATE_LIMIT_PRODUCTION": "1000/m", "EINVOICE_RATE_LIMIT_AUTH": "off",
			"EINVOICE_RATE_LIMIT_ACCOUNT": "3/h", "EINVOICE_RATE_LIMIT_GRAPHQL_ANONYMOUS": "off",
			"EINVOICE_GRAPHIQL": "true", "EINVOICE_GRAPHQL_INTROSPECTION": "true", "EINVOICE_PASSWORD_HASH_CONCURRENCY": "3",
			"EINVOICE_GRAPHQL_SUBSCRIPTIONS_PER_CONNECTION": "4", "EINVOICE_GRAPHQL_SUBSCRIPTIONS_PER_USER": "8",
			"EINVOICE_REQUEST_TIMEOUT": "10s", "EINVOICE_METRICS_ADDR": "127.0.0.1:9100",
			"EINVOICE_RATE_LIMIT_PROJECT_SANDBOX": "8/s", "EINVOICE_RATE_LIMIT_PROJECT_PRODUCTION": "off",
			"EINVOICE_RATE_LIMIT_GRAPHQL_USER": "100/m", "EINVOICE_RATE_LIMIT_GRAPHQL_ADDRESS": "off",
		},
			want: rest.RateLimits{Sandbox: rest.Limit{Count: 5, Period: time.Second}, Production: rest.Limit{Count: 1000, Period: time.Minute},
				SandboxProject: rest.Limit{Count: 8, Period: time.Second}, GraphQLUser: rest.Limit{Count: 100, Period: time.Minute}},
			account: rest.Limit{Count: 3, Period: time.Hour},
			check: func(t *testing.T, o opsConfig) {
				g := o.GraphQL
				if !g.GraphiQL || !g.Introspection || o.HashConcurrency != 3 || g.SubscriptionsPerConnection != 4 || g.SubscriptionsPerUser != 8 ||
					o.RequestTimeout != 10*time.Second || g.OperationTimeout != 10*time.Second || o.MetricsAddr != "127.0.0.1:9100" {
					t.Fatalf("not as configured: %+v", o)
				}
			}},
		{name: "dev with a metrics token", mode: modeDev, env: map[string]string{"EINVOICE_METRICS_TOKEN": "0123456789abcdef"}, want: defaults,
			auth: rest.DefaultAuthLimit, account: rest.DefaultAccountLimit,
			check: func(t *testing.T, o opsConfig) {
				if o.PublicMetrics {
					t.Fatal("a metrics token leaves /metrics public")
				}
			}},
		{name: "bad limit", env: map[string]string{"EINVOICE_RATE_LIMIT_AUTH": "ten a minute"}, err: "EINVOICE_RATE_LIMIT_AUTH"},
		{name: "bad account limit", env: map[string]string{"EINVOICE_RATE_LIMIT_ACCOUNT": "x"}, err: "EINVOICE_RATE_LIMIT_ACCOUNT"},
		{name: "bad boolean", env: map[string]string{"EINVOICE_GRAPHIQL": "yes please"}, err: "EINVOICE_GRAPHIQL"},
		{name: "bad count", env: map[string]string{"EINVOICE_GRAPHQL_SUBSCRIPTIONS_PER_USER": "0"}, err: "EINVOICE_GRAPHQL_SUBSCRIPTIONS_PER_USER"},
		{name: "bad timeout", env: map[string]string{"EINVOICE_REQUEST_TIMEOUT": "5ms"}, err: "EINVOICE_REQUEST_TIMEOUT"},
		{name: "bad redis url", env: map[string]string{"EINVOICE_REDIS_URL": "http://x"}, err: "EINVOICE_REDIS_URL"},
		{name: "short metrics token", env: map[string]string{"EINVOICE_METRICS_TOKEN": "short"}, err: "EINVOICE_METRICS_TOKEN"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mode := c.mode
			if mode == "" {
				mode = modeAPI
			}
			o, err := opsFromEnv(func(k string) string { return c.env[k] }, mode)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one naming %s", err, c.err)
				}
				return
			}
			if err != nil || o.Limits != c.want || o.Auth != c.auth || o.Account != c.account {
				t.Fatalf("limits %+v auth %v account %v, %v; want %+v %v %v", o.Limits, o.Auth, o.Account, err, c.want, c.auth, c.account)
			}
			if c.check != nil {
				c.check(t, o)
			}
		})
	}
}

// TestOpsRedisDown refuses to start with a Redis that does not answer.
func TestOpsRedisDown(t *testing.T) {
	o, err := opsFromEnv(func(k string) string {
		return map[string]string{"EINVOICE_REDIS_URL": "redis://127.0.0.1:1/0"}[k]
	}, modeAPI)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := o.limitStore(context.Background(), slog.New(slog.NewTextHandler(io.Discard, nil))); err == nil || !strings.Contains(err.Error(), "does not answer") {
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
