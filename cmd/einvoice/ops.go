package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/einvoice-ng/einvoice/graph"
	application "github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/rest"
)

// opsConfig is what runs beside the handlers and what bounds them: rate
// limits (in memory, or in Redis when several API processes must share
// them), the limits on signup and login attempts and on password hashing,
// request deadlines, the GraphQL endpoint's exposure and limits, and how
// /metrics is exposed.
type opsConfig struct {
	RedisURL string
	Limits   rest.RateLimits
	// Auth and Account limit signup and login attempts per client address
	// and per e-mail; HashConcurrency bounds password hashes at once
	// (0: one per CPU).
	Auth, Account   rest.Limit
	HashConcurrency int
	// RequestTimeout bounds each request's work.
	RequestTimeout time.Duration
	// MetricsToken guards /metrics; MetricsAddr serves it on a listener of
	// its own instead of the API's. PublicMetrics serves it on the API's
	// listener without a token (dev only).
	MetricsToken  string
	MetricsAddr   string
	PublicMetrics bool
	// GraphQL is the GraphQL endpoint's exposure and limits.
	GraphQL graph.Options
}

// Modes of opsFromEnv: dev opens what helps a developer (GraphiQL,
// introspection, /metrics without a token); api keeps them closed unless
// configured.
const (
	modeDev = "dev"
	modeAPI = "api"
)

// backgroundPurgeEvery is how often expired idempotency records, revoked
// tokens and ended portal sign-ins are deleted.
const backgroundPurgeEvery = 10 * time.Minute

// backgroundSettleEvery is how often certification runs whose workflow
// ended without recording it are settled.
const backgroundSettleEvery = time.Minute

// backgroundDispatchEvery is how often certification runs recorded while
// Temporal was slow or down are handed to it.
const backgroundDispatchEvery = 3 * time.Second

// opsFromEnv reads EINVOICE_REDIS_URL, EINVOICE_RATE_LIMIT_*,
// EINVOICE_PASSWORD_HASH_CONCURRENCY, EINVOICE_REQUEST_TIMEOUT,
// EINVOICE_METRICS_*, EINVOICE_GRAPHIQL and EINVOICE_GRAPHQL_*; unset
// values take the defaults of mode.
func opsFromEnv(getenv func(string) string, mode string) (opsConfig, error) {
	dev := mode == modeDev
	o := opsConfig{
		RedisURL:     getenv("EINVOICE_REDIS_URL"),
		MetricsToken: getenv("EINVOICE_METRICS_TOKEN"),
		MetricsAddr:  getenv("EINVOICE_METRICS_ADDR"),
		Limits: rest.RateLimits{
			Sandbox: rest.DefaultSandboxLimit, Production: rest.DefaultProductionLimit,
			SandboxProject: rest.DefaultSandboxProjectLimit, ProductionProject: rest.DefaultProductionProjectLimit,
			GraphQLAnonymous: rest.DefaultGraphQLAnonymousLimit,
			GraphQLUser:      rest.DefaultGraphQLUserLimit, GraphQLAddress: rest.DefaultGraphQLAddressLimit,
		},
		Auth:           rest.DefaultAuthLimit,
		Account:        rest.DefaultAccountLimit,
		RequestTimeout: rest.DefaultRequestTimeout,
		GraphQL:        graph.Options{GraphiQL: dev, Introspection: dev},
	}
	for _, l := range []struct {
		name string
		dst  *rest.Limit
	}{
		{"EINVOICE_RATE_LIMIT_SANDBOX", &o.Limits.Sandbox},
		{"EINVOICE_RATE_LIMIT_PRODUCTION", &o.Limits.Production},
		{"EINVOICE_RATE_LIMIT_PROJECT_SANDBOX", &o.Limits.SandboxProject},
		{"EINVOICE_RATE_LIMIT_PROJECT_PRODUCTION", &o.Limits.ProductionProject},
		{"EINVOICE_RATE_LIMIT_GRAPHQL_ANONYMOUS", &o.Limits.GraphQLAnonymous},
		{"EINVOICE_RATE_LIMIT_GRAPHQL_USER", &o.Limits.GraphQLUser},
		{"EINVOICE_RATE_LIMIT_GRAPHQL_ADDRESS", &o.Limits.GraphQLAddress},
		{"EINVOICE_RATE_LIMIT_AUTH", &o.Auth},
		{"EINVOICE_RATE_LIMIT_ACCOUNT", &o.Account},
	} {
		if v := getenv(l.name); v != "" {
			parsed, err := rest.ParseLimit(v)
			if err != nil {
				return o, fmt.Errorf("%s: %w", l.name, err)
			}
			*l.dst = parsed
		}
	}
	for _, b := range []struct {
		name string
		dst  *bool
	}{
		{"EINVOICE_GRAPHIQL", &o.GraphQL.GraphiQL},
		{"EINVOICE_GRAPHQL_INTROSPECTION", &o.GraphQL.Introspection},
	} {
		if v := getenv(b.name); v != "" {
			parsed, err := strconv.ParseBool(v)
			if err != nil {
				return o, fmt.Errorf("%s must be true or false", b.name)
			}
			*b.dst = parsed
		}
	}
	for _, n := range []struct {
		name string
		dst  *int
	}{
		{"EINVOICE_PASSWORD_HASH_CONCURRENCY", &o.HashConcurrency},
		{"EINVOICE_GRAPHQL_SUBSCRIPTIONS_PER_CONNECTION", &o.GraphQL.SubscriptionsPerConnection},
		{"EINVOICE_GRAPHQL_SUBSCRIPTIONS_PER_USER", &o.GraphQL.SubscriptionsPerUser},
	} {
		if v := getenv(n.name); v != "" {
			parsed, err := strconv.Atoi(v)
			if err != nil || parsed < 1 || parsed > 100_000 {
				return o, fmt.Errorf("%s must be a whole number from 1 to 100000", n.name)
			}
			*n.dst = parsed
		}
	}
	if v := getenv("EINVOICE_REQUEST_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second {
			return o, fmt.Errorf("EINVOICE_REQUEST_TIMEOUT must be a duration of at least 1s (e.g. 30s)")
		}
		o.RequestTimeout = d
	}
	o.GraphQL.OperationTimeout = o.RequestTimeout
	if o.RedisURL != "" {
		if _, err := redis.ParseURL(o.RedisURL); err != nil {
			return o, fmt.Errorf("EINVOICE_REDIS_URL: %w", err)
		}
	}
	if o.MetricsToken != "" && len(o.MetricsToken) < 16 {
		return o, fmt.Errorf("EINVOICE_METRICS_TOKEN must be at least 16 characters")
	}
	o.PublicMetrics = dev && o.MetricsToken == "" && o.MetricsAddr == ""
	return o, nil
}

// limitStore connects Redis when configured (refusing to start when it
// does not answer) and returns the store rate limits count in: Redis, or
// this process's memory. closeStore closes Redis.
func (o opsConfig) limitStore(ctx context.Context, log *slog.Logger) (store rest.LimitStore, closeStore func(), err error) {
	if o.RedisURL == "" {
		log.Info("rate limits", "sandbox", o.Limits.Sandbox.String(), "production", o.Limits.Production.String(),
			"sandbox_project", o.Limits.SandboxProject.String(), "production_project", o.Limits.ProductionProject.String(),
			"auth", o.Auth.String(), "account", o.Account.String(), "graphql_anonymous", o.Limits.GraphQLAnonymous.String(),
			"graphql_user", o.Limits.GraphQLUser.String(), "graphql_address", o.Limits.GraphQLAddress.String(),
			"shared_in_redis", false)
		return rest.NewMemoryLimitStore(nil), func() {}, nil
	}
	ropts, _ := redis.ParseURL(o.RedisURL)
	// A slow Redis must not hold requests: the limiter falls back to
	// memory when a call fails.
	ropts.DialTimeout, ropts.ReadTimeout, ropts.WriteTimeout, ropts.PoolTimeout = time.Second, 250*time.Millisecond, 250*time.Millisecond, time.Second
	ropts.MaxRetries = 1
	client := redis.NewClient(ropts)
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	err = client.Ping(pctx).Err()
	cancel()
	if err != nil {
		_ = client.Close()
		return nil, nil, fmt.Errorf("EINVOICE_REDIS_URL: Redis at %s does not answer: %w", ropts.Addr, err)
	}
	log.Info("rate limits", "sandbox", o.Limits.Sandbox.String(), "production", o.Limits.Production.String(),
		"sandbox_project", o.Limits.SandboxProject.String(), "production_project", o.Limits.ProductionProject.String(),
		"auth", o.Auth.String(), "account", o.Account.String(), "graphql_anonymous", o.Limits.GraphQLAnonymous.String(),
		"graphql_user", o.Limits.GraphQLUser.String(), "graphql_address", o.Limits.GraphQLAddress.String(),
		"shared_in_redis", true)
	return rest.NewRedisLimitStore(client, "einvoice:ratelimit:"), func() { _ = client.Close() }, nil
}

// authLimits is the sign-in attempt limits over store.
func (o opsConfig) authLimits(store rest.LimitStore) auth.Limits {
	return auth.Limits{
		Limiter: rest.AttemptLimiter(store), PerIP: o.Auth.Rate(), PerAccount: o.Account.Rate(), Hashing: o.HashConcurrency,
	}
}

// routerOptions sets the router's limits, deadline and metrics exposure.
// When metrics go to their own listener, or nowhere, exported receives
// the handler (nil when they are not served at all).
func (o opsConfig) routerOptions(opts *rest.Options, store rest.LimitStore, exported *http.Handler) {
	opts.RateLimits = o.Limits
	opts.RateLimits.Store = store
	opts.RequestTimeout = o.RequestTimeout
	opts.MetricsToken = o.MetricsToken
	if o.MetricsAddr != "" || (o.MetricsToken == "" && !o.PublicMetrics) {
		opts.ExportMetrics = func(h http.Handler) {
			if o.MetricsAddr != "" {
				*exported = h
			}
		}
	}
}

// job is a background job of the API process: fn does one round and says
// how many records it handled.
type job struct {
	name  string
	every time.Duration
	fn    func(context.Context) (int64, error)
}

// background runs the API process's jobs until stop is called: each now,
// then every interval. Purges delete expired idempotency records, revoked
// tokens past their expiry and the refresh tokens of ended portal
// sign-ins; settling records the end of certification runs whose workflow
// ended without recording it; dispatching starts the workflows of runs
// recorded while Temporal did not answer. A failed round is logged; the next retries.
func background(ctx context.Context, svc *application.App, log *slog.Logger) (stop func()) {
	jobs := []job{
		{"purge expired revoked tokens", backgroundPurgeEvery, svc.Auth.PurgeRevokedTokens},
		{"purge ended portal sign-ins", backgroundPurgeEvery, svc.Auth.PurgeSessions},
		{"purge expired idempotency keys", backgroundPurgeEvery, svc.Idempotency.Purge},
		{"settle certification runs", backgroundSettleEvery, svc.Runs.Settle},
		{"dispatch certification runs", backgroundDispatchEvery, svc.Runs.Dispatch},
	}
	pctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Go(func() { j.run(pctx, log) })
	}
	return func() {
		cancel()
		wg.Wait()
	}
}

// run does the job now and then every interval until ctx ends.
func (j job) run(ctx context.Context, log *slog.Logger) {
	t := time.NewTicker(j.every)
	defer t.Stop()
	for {
		rctx, cancel := context.WithTimeout(ctx, time.Minute)
		n, err := j.fn(rctx)
		cancel()
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn(j.name+" failed", "error", err.Error())
		case n > 0:
			log.Info(j.name, "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
