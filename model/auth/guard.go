package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/einvoice-ng/einvoice/model"
)

// Rate is a budget of Count events per Period, in bursts of up to Count (a
// token bucket). The zero Rate imposes none.
type Rate struct {
	Count  int
	Period time.Duration
}

// IsZero reports whether r imposes no limit.
func (r Rate) IsZero() bool { return r.Count <= 0 || r.Period <= 0 }

// RateDecision is a limiter's answer for one event.
type RateDecision struct {
	Allowed bool
	// Remaining is how many more events would be allowed at once.
	Remaining int
	// RetryAfter is how long until an event is allowed again (when denied).
	RetryAfter time.Duration
	// ResetAfter is how long until the full burst is available again.
	ResetAfter time.Duration
}

// RateLimiter counts events under a key against a rate. The REST
// transport's limit stores implement it (rest.AttemptLimiter), in this
// process's memory or in Redis, where every API process shares it.
type RateLimiter interface {
	Allow(ctx context.Context, key string, r Rate) (RateDecision, error)
}

// Limits bound credential guessing and the cost of password hashing.
// Every signup and login attempt counts, whichever transport carries it:
// one REST request, or one field of a GraphQL document.
type Limits struct {
	// Limiter counts attempts; nil counts none.
	Limiter RateLimiter
	// PerIP limits the attempts of one client address (as the transport
	// recorded it with model.WithRequestMeta).
	PerIP Rate
	// PerAccount limits the attempts naming one e-mail address, whether or
	// not it has an account, so that a refusal reveals nothing. It is a
	// lockout that lifts gradually: a burst of Count attempts, then one
	// more every Period/Count.
	PerAccount Rate
	// Hashing bounds password hashes computed at once (each holds its
	// argon2id memory); default runtime.GOMAXPROCS(0).
	Hashing int
	// HashQueue bounds the attempts waiting for a hashing slot; one more is
	// refused at once with unavailable. Default 4 × Hashing.
	HashQueue int
	// HashWait bounds how long an attempt waits for a slot (the request's
	// own deadline may end the wait sooner); default 5 s.
	HashWait time.Duration
}

func (l *Limits) defaults() {
	if l.Hashing <= 0 {
		l.Hashing = runtime.GOMAXPROCS(0)
	}
	if l.HashQueue <= 0 {
		l.HashQueue = 4 * l.Hashing
	}
	if l.HashWait <= 0 {
		l.HashWait = 5 * time.Second
	}
}

// RateObserver sees the per-address decision on an auth attempt, for a
// transport that reports it (REST's RateLimit-* headers).
type RateObserver func(r Rate, d RateDecision)

type rateObserverKey struct{}

// WithRateObserver makes the auth use cases called with ctx report their
// per-address rate decision to fn.
func WithRateObserver(ctx context.Context, fn RateObserver) context.Context {
	return context.WithValue(ctx, rateObserverKey{}, fn)
}

// Attempt limit keys. "ip:" is the key REST limited signup and login under
// before the limit moved here, so budgets carry over a rolling upgrade.
const (
	attemptIPKey      = "ip:"
	attemptAccountKey = AccountKeyPrefix
)

// AccountKeyPrefix starts the limiter keys of per-e-mail attempt budgets:
// lockouts, which a limit store must keep apart from per-address buckets
// so that a flood of addresses never makes it forget them.
const AccountKeyPrefix = "account:"

// guardAttempt counts one signup or login attempt against the client
// address's budget, then against the e-mail's, and refuses it when either
// is spent. The address is checked first, so that a client refused for
// its own flood does not also spend the budget of the e-mails it names.
// E-mails are hashed before they become keys: the limiter (Redis) never
// holds an address.
func (s *Service) guardAttempt(ctx context.Context, email string) error {
	l := s.cfg.Limits
	if l.Limiter == nil {
		return nil
	}
	if !l.PerIP.IsZero() {
		d := s.allowAttempt(ctx, attemptIPKey+model.AddressKey(model.RequestMetaFrom(ctx).IP), l.PerIP)
		if obs, ok := ctx.Value(rateObserverKey{}).(RateObserver); ok {
			obs(l.PerIP, d)
		}
		if !d.Allowed {
			return &model.Error{Code: model.CodeRateLimited, RetryAfter: d.RetryAfter,
				Message: "too many sign-in and sign-up attempts from this address; retry after the time in Retry-After"}
		}
	}
	if !l.PerAccount.IsZero() {
		sum := sha256.Sum256([]byte(email))
		d := s.allowAttempt(ctx, attemptAccountKey+hex.EncodeToString(sum[:16]), l.PerAccount)
		if !d.Allowed {
			return &model.Error{Code: model.CodeRateLimited, RetryAfter: d.RetryAfter,
				Message: "too many attempts for this e-mail address; retry after the time in Retry-After"}
		}
	}
	return nil
}

// allowAttempt asks the limiter. A limiter that fails lets the attempt
// through (it is logged): an outage of the limiter must not stop sign-in,
// and the hashing bound still holds. (The Redis store falls back to memory
// by itself and reports no error then.)
func (s *Service) allowAttempt(ctx context.Context, key string, r Rate) RateDecision {
	d, err := s.cfg.Limits.Limiter.Allow(ctx, key, r)
	if err != nil {
		if ctx.Err() == nil {
			s.cfg.Logger.WarnContext(ctx, "auth attempt limiter failed", "error", err.Error())
		}
		return RateDecision{Allowed: true}
	}
	return d
}

// hashGate bounds concurrent password hashing: slots holders hash, at most
// queue more wait (with their request's context, for at most wait), and
// the rest are refused at once, so a flood of attempts costs neither
// unbounded memory (argon2id holds its memory while it runs) nor an
// unbounded queue.
type hashGate struct {
	slots   chan struct{}
	waiting atomic.Int64
	queue   int64
	wait    time.Duration
}

func newHashGate(l Limits) *hashGate {
	return &hashGate{slots: make(chan struct{}, l.Hashing), queue: int64(l.HashQueue), wait: l.HashWait}
}

// errHashBusy answers an attempt that found every hashing slot taken and
// the queue full, or waited too long.
var errHashBusy = &model.Error{Code: model.CodeUnavailable, RetryAfter: time.Second,
	Message: "the server is busy checking passwords; retry after the time in Retry-After"}

// acquire takes a hashing slot; release gives it back.
func (g *hashGate) acquire(ctx context.Context) (release func(), err error) {
	select {
	case g.slots <- struct{}{}:
		return g.release, nil
	default:
	}
	if g.waiting.Add(1) > g.queue {
		g.waiting.Add(-1)
		return nil, errHashBusy
	}
	defer g.waiting.Add(-1)
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return g.release, nil
	case <-t.C:
		return nil, errHashBusy
	case <-ctx.Done():
		return nil, model.Wrap(model.CodeUnavailable, ctx.Err(), "the request ended while waiting to check the password")
	}
}

func (g *hashGate) release() { <-g.slots }
