package rest

import (
	"context"
	"errors"

	"github.com/einvoice-ng/einvoice/model"
)

// ProjectLimiter limits requests counted under a key (such as a project's
// portal workbench) with the limit of a project's environment, in the same
// store as the router's limits. It answers rate_limited over the limit; a
// failing store without a fallback lets the request through, as the router
// does.
func ProjectLimiter(l RateLimits) func(ctx context.Context, key string, env model.Environment) error {
	n := ProjectLimiterN(l)
	return func(ctx context.Context, key string, env model.Environment) error { return n(ctx, key, env, 1) }
}

// ProjectLimiterN is ProjectLimiter counting n requests at once (an
// invoice batch counts as its invoices), at most one full burst of the
// limit, so that a full batch passes on a rested budget.
func ProjectLimiterN(l RateLimits) func(ctx context.Context, key string, env model.Environment, n int) error {
	store := l.Store
	if store == nil {
		store = NewMemoryLimitStore(nil)
	}
	return func(ctx context.Context, key string, env model.Environment, n int) error {
		lim := l.Sandbox
		if env == model.EnvironmentProduction {
			lim = l.Production
		}
		if lim.IsZero() || n <= 0 {
			return nil
		}
		res, err := allowN(ctx, store, key, lim, min(n, lim.Count))
		if err != nil && !errors.Is(err, ErrLimitStoreDown) {
			return nil
		}
		if !res.Allowed {
			return model.Errorf(model.CodeRateLimited, "rate limit of %s exceeded; retry in %d s", lim, max(1, ceilSeconds(res.RetryAfter)))
		}
		return nil
	}
}
