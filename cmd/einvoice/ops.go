package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/einvoice-ng/einvoice/model/service"
	"github.com/einvoice-ng/einvoice/rest"
)

// opsConfig is what runs beside the handlers: rate limits (in memory, or in
// Redis when several API processes must share them) and the token that
// guards /metrics.
type opsConfig struct {
	RedisURL     string
	Limits       rest.RateLimits
	MetricsToken string
}

// idempotencyPurgeEvery is how often expired idempotency records are deleted.
const idempotencyPurgeEvery = 10 * time.Minute

// opsFromEnv reads EINVOICE_REDIS_URL, EINVOICE_RATE_LIMIT_* and
// EINVOICE_METRICS_TOKEN; unset limits take the defaults.
func opsFromEnv(getenv func(string) string) (opsConfig, error) {
	o := opsConfig{
		RedisURL:     getenv("EINVOICE_REDIS_URL"),
		MetricsToken: getenv("EINVOICE_METRICS_TOKEN"),
		Limits: rest.RateLimits{
			Sandbox: rest.DefaultSandboxLimit, Production: rest.DefaultProductionLimit, Auth: rest.DefaultAuthLimit,
			SandboxProject: rest.DefaultSandboxProjectLimit, ProductionProject: rest.DefaultProductionProjectLimit,
		},
	}
	for _, l := range []struct {
		name string
		dst  *rest.Limit
	}{
		{"EINVOICE_RATE_LIMIT_SANDBOX", &o.Limits.Sandbox},
		{"EINVOICE_RATE_LIMIT_PRODUCTION", &o.Limits.Production},
		{"EINVOICE_RATE_LIMIT_AUTH", &o.Limits.Auth},
		{"EINVOICE_RATE_LIMIT_PROJECT_SANDBOX", &o.Limits.SandboxProject},
		{"EINVOICE_RATE_LIMIT_PROJECT_PRODUCTION", &o.Limits.ProductionProject},
	} {
		if v := getenv(l.name); v != "" {
			parsed, err := rest.ParseLimit(v)
			if err != nil {
				return o, fmt.Errorf("%s: %w", l.name, err)
			}
			*l.dst = parsed
		}
	}
	if o.RedisURL != "" {
		if _, err := redis.ParseURL(o.RedisURL); err != nil {
			return o, fmt.Errorf("EINVOICE_REDIS_URL: %w", err)
		}
	}
	if o.MetricsToken != "" && len(o.MetricsToken) < 16 {
		return o, fmt.Errorf("EINVOICE_METRICS_TOKEN must be at least 16 characters")
	}
	return o, nil
}

// start connects Redis when configured (refusing to start when it does not
// answer), sets the router's limits and metrics token, and purges expired
// idempotency records in the background. stop ends the purging and closes
// Redis; call it before closing the store.
func (o opsConfig) start(ctx context.Context, opts *rest.Options, svc *service.Service, log *slog.Logger) (stop func(), err error) {
	opts.RateLimits, opts.MetricsToken = o.Limits, o.MetricsToken
	var client *redis.Client
	if o.RedisURL != "" {
		ropts, _ := redis.ParseURL(o.RedisURL)
		// A slow Redis must not hold requests: the limiter falls back to
		// memory when a call fails.
		ropts.DialTimeout, ropts.ReadTimeout, ropts.WriteTimeout, ropts.PoolTimeout = time.Second, 250*time.Millisecond, 250*time.Millisecond, time.Second
		ropts.MaxRetries = 1
		client = redis.NewClient(ropts)
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := client.Ping(pctx).Err()
		cancel()
		if err != nil {
			_ = client.Close()
			return nil, fmt.Errorf("EINVOICE_REDIS_URL: Redis at %s does not answer: %w", ropts.Addr, err)
		}
		opts.RateLimits.Store = rest.NewRedisLimitStore(client, "einvoice:ratelimit:")
	}
	log.Info("rate limits", "sandbox", o.Limits.Sandbox.String(), "production", o.Limits.Production.String(),
		"sandbox_project", o.Limits.SandboxProject.String(), "production_project", o.Limits.ProductionProject.String(),
		"auth", o.Limits.Auth.String(), "shared_in_redis", client != nil)

	pctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		svc.PurgeIdempotencyKeysEvery(pctx, idempotencyPurgeEvery)
	}()
	return func() {
		cancel()
		<-done
		if client != nil {
			_ = client.Close()
		}
	}, nil
}
