package rest

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/google/uuid"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/auth"
)

// Limit is a request rate: Count requests per Period, in bursts of up to
// Count (a token bucket, GCRA in Redis). The zero Limit imposes none.
type Limit struct {
	Count  int
	Period time.Duration
}

// IsZero reports whether l imposes no limit.
func (l Limit) IsZero() bool { return l.Count <= 0 || l.Period <= 0 }

// String renders l as ParseLimit reads it.
func (l Limit) String() string {
	if l.IsZero() {
		return "off"
	}
	unit := map[time.Duration]string{time.Second: "s", time.Minute: "m", time.Hour: "h"}[l.Period]
	if unit == "" {
		unit = l.Period.String()
	}
	return strconv.Itoa(l.Count) + "/" + unit
}

// ParseLimit reads a limit written COUNT/PERIOD, where PERIOD is s, m, h or
// a Go duration ("50/s", "10/m", "1000/1h"); "off" or "0" disables it.
func ParseLimit(s string) (Limit, error) {
	s = strings.TrimSpace(s)
	if s == "off" || s == "0" {
		return Limit{}, nil
	}
	count, per, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(count)
	if !ok || err != nil || n <= 0 {
		return Limit{}, fmt.Errorf("rate limit %q: want COUNT/PERIOD, e.g. 50/s, 10/m, or off", s)
	}
	var d time.Duration
	switch per {
	case "s":
		d = time.Second
	case "m":
		d = time.Minute
	case "h":
		d = time.Hour
	default:
		if d, err = time.ParseDuration(per); err != nil || d <= 0 {
			return Limit{}, fmt.Errorf("rate limit %q: period must be s, m, h or a duration such as 10s", s)
		}
	}
	return Limit{Count: n, Period: d}, nil
}

// Rate is l as model/auth counts it.
func (l Limit) Rate() auth.Rate { return auth.Rate{Count: l.Count, Period: l.Period} }

// Default rate limits, which cmd/einvoice applies unless configured.
var (
	DefaultSandboxLimit    = Limit{Count: 50, Period: time.Second}
	DefaultProductionLimit = Limit{Count: 200, Period: time.Second}
	// DefaultSandboxProjectLimit and DefaultProductionProjectLimit are
	// all the keys of one project together.
	DefaultSandboxProjectLimit    = Limit{Count: 100, Period: time.Second}
	DefaultProductionProjectLimit = Limit{Count: 400, Period: time.Second}
	// DefaultAuthLimit is each client address's budget of signup and
	// login attempts, DefaultAccountLimit each e-mail's (auth.Limits).
	DefaultAuthLimit    = Limit{Count: 10, Period: time.Minute}
	DefaultAccountLimit = Limit{Count: 10, Period: time.Hour}
	// DefaultGraphQLAnonymousLimit is each client address's budget of
	// /graphql requests without a bearer token.
	DefaultGraphQLAnonymousLimit = Limit{Count: 60, Period: time.Minute}
	// DefaultGraphQLUserLimit is each user's budget of /graphql cost
	// units (a request costs 1 plus one per 100 selections of its
	// document; see graph.SelectionsPerCost), DefaultGraphQLAddressLimit
	// each client address's, whoever sends them.
	DefaultGraphQLUserLimit    = Limit{Count: 300, Period: time.Minute}
	DefaultGraphQLAddressLimit = Limit{Count: 600, Period: time.Minute}
)

// RateLimits configures the router's rate limits. Zero limits impose none.
type RateLimits struct {
	// Sandbox and Production limit each API key of a project in that
	// environment, over every route the key may call.
	Sandbox, Production Limit
	// SandboxProject and ProductionProject limit all the keys of one
	// project together, so that minting keys does not multiply the
	// project's budget.
	SandboxProject, ProductionProject Limit
	// GraphQLAnonymous limits each client IP's /graphql requests made
	// without a bearer token (signup, login, introspection, WebSocket
	// upgrades, whose token comes later in connection_init). Signup and
	// login attempts themselves are counted by model/auth, one per
	// attempt on both transports (auth.Limits, AttemptLimiter).
	GraphQLAnonymous Limit
	// GraphQLUser limits each authenticated user's /graphql requests and
	// GraphQLAddress each client IP's (anonymous or not), both weighted
	// by the document's cost when the GraphQL handler tells it (a
	// RequestCost(*http.Request) int method, as graph's handler has):
	// a larger document counts as several requests.
	GraphQLUser, GraphQLAddress Limit
	// Store counts requests; nil counts in this process's memory. Use
	// NewRedisLimitStore so that several API processes share limits.
	Store LimitStore
}

// LimitResult is a limit store's decision on one request.
type LimitResult struct {
	Allowed bool
	// Remaining is how many more requests would be allowed at once.
	Remaining int
	// RetryAfter is how long until a request is allowed again (when denied).
	RetryAfter time.Duration
	// ResetAfter is how long until the full burst is available again.
	ResetAfter time.Duration
}

// LimitStore counts requests per key against a limit.
type LimitStore interface {
	Allow(ctx context.Context, key string, l Limit) (LimitResult, error)
}

// LimitStoreN is a LimitStore that can count several requests at once
// (an invoice batch counts as its invoices). Both stores of this package
// implement it; another store is asked once per request counted.
type LimitStoreN interface {
	LimitStore
	AllowN(ctx context.Context, key string, l Limit, n int) (LimitResult, error)
}

// allowN counts n requests under key in s.
func allowN(ctx context.Context, s LimitStore, key string, l Limit, n int) (LimitResult, error) {
	if sn, ok := s.(LimitStoreN); ok {
		return sn.AllowN(ctx, key, l, n)
	}
	var (
		res LimitResult
		err error
	)
	for i := 0; i < n; i++ {
		if res, err = s.Allow(ctx, key, l); err != nil || !res.Allowed {
			break
		}
	}
	return res, err
}

// memoryLimits is a LimitStore in this process's memory: one token bucket
// (golang.org/x/time/rate) per key, in two least-recently-used caches of
// maxMemoryBuckets each: lockouts (per-e-mail attempt budgets, keys
// starting with auth.AccountKeyPrefix) apart from every other key, so
// that a flood of client addresses evicts only the addresses used least
// recently and never a lockout. Idle (full) buckets are dropped every
// minute.
type memoryLimits struct {
	now func() time.Time
	// mu serialises creating buckets and sweeping; the caches lock
	// themselves.
	mu                sync.Mutex
	buckets, lockouts *lru.Cache[string, *rate.Limiter]
	lastSweep         time.Time
}

// maxMemoryBuckets bounds memory under a flood of distinct keys (client
// addresses), per cache.
const maxMemoryBuckets = 200000

// NewMemoryLimitStore counts requests in memory. now is the clock; nil
// means time.Now.
func NewMemoryLimitStore(now func() time.Time) LimitStore {
	return newMemoryLimits(now, maxMemoryBuckets)
}

func newMemoryLimits(now func() time.Time, size int) *memoryLimits {
	if now == nil {
		now = time.Now
	}
	buckets, _ := lru.New[string, *rate.Limiter](size)  // size > 0: no error
	lockouts, _ := lru.New[string, *rate.Limiter](size) // size > 0: no error
	return &memoryLimits{now: now, buckets: buckets, lockouts: lockouts, lastSweep: now()}
}

// cache is the cache key belongs in.
func (m *memoryLimits) cache(key string) *lru.Cache[string, *rate.Limiter] {
	if strings.HasPrefix(key, auth.AccountKeyPrefix) {
		return m.lockouts
	}
	return m.buckets
}

func (m *memoryLimits) Allow(ctx context.Context, key string, l Limit) (LimitResult, error) {
	return m.AllowN(ctx, key, l, 1)
}

// AllowN implements LimitStoreN.
func (m *memoryLimits) AllowN(_ context.Context, key string, l Limit, n int) (LimitResult, error) {
	now := m.now()
	c := m.cache(key)
	b, ok := c.Get(key)
	if !ok {
		b = m.bucket(c, key, l, now)
	}
	every := float64(l.Period) / float64(l.Count) // time per token
	allowed := b.AllowN(now, n)
	tokens := b.TokensAt(now)
	res := LimitResult{Allowed: allowed, Remaining: max(0, int(math.Floor(tokens)))}
	res.ResetAfter = time.Duration((float64(l.Count) - tokens) * every)
	if !allowed {
		res.RetryAfter = time.Duration((float64(n) - tokens) * every)
	}
	return res, nil
}

// bucket returns key's bucket in c, making it (and, once a minute,
// dropping idle buckets) when there is none. A full cache evicts its
// least recently used bucket.
func (m *memoryLimits) bucket(c *lru.Cache[string, *rate.Limiter], key string, l Limit, now time.Time) *rate.Limiter {
	m.mu.Lock()
	defer m.mu.Unlock()
	if b, ok := c.Get(key); ok {
		return b
	}
	if now.Sub(m.lastSweep) > time.Minute {
		for _, cc := range []*lru.Cache[string, *rate.Limiter]{m.buckets, m.lockouts} {
			for _, k := range cc.Keys() {
				if b, ok := cc.Peek(k); ok && b.TokensAt(now) >= float64(b.Burst()) { // a full bucket is an idle one
					cc.Remove(k)
				}
			}
		}
		m.lastSweep = now
	}
	b := rate.NewLimiter(rate.Every(l.Period/time.Duration(l.Count)), l.Count)
	c.Add(key, b)
	return b
}

// redisLimits is a LimitStore in Redis (GCRA, github.com/go-redis/redis_rate),
// so that every API process sharing the Redis shares the limits. While
// Redis fails, each process limits in its own memory and tries Redis again
// every redisRetryAfter, so an outage neither stops the API nor lifts the
// limits, nor makes every request wait on a dead connection.
type redisLimits struct {
	limiter  *redis_rate.Limiter
	prefix   string
	fallback LimitStore
	// downUntil is the Unix nanosecond until which Redis is not tried.
	downUntil atomic.Int64
}

// redisRetryAfter is how long a failing Redis is left alone.
const redisRetryAfter = 5 * time.Second

// ErrLimitStoreDown wraps the error of a failing shared limit store; the
// request was counted in memory instead.
var ErrLimitStoreDown = errors.New("rate limit store unavailable; limiting in memory")

// NewRedisLimitStore counts requests in Redis under keys starting with
// prefix (e.g. "einvoice:").
func NewRedisLimitStore(client *redis.Client, prefix string) LimitStore {
	return &redisLimits{limiter: redis_rate.NewLimiter(client), prefix: prefix, fallback: NewMemoryLimitStore(nil)}
}

func (s *redisLimits) Allow(ctx context.Context, key string, l Limit) (LimitResult, error) {
	return s.AllowN(ctx, key, l, 1)
}

// AllowN implements LimitStoreN.
func (s *redisLimits) AllowN(ctx context.Context, key string, l Limit, n int) (LimitResult, error) {
	fallback := s.fallback.(LimitStoreN)
	if time.Now().UnixNano() < s.downUntil.Load() {
		return fallback.AllowN(ctx, key, l, n)
	}
	res, err := s.limiter.AllowN(ctx, s.prefix+key, redis_rate.Limit{Rate: l.Count, Burst: l.Count, Period: l.Period}, n)
	if err != nil {
		if ctx.Err() == nil {
			s.downUntil.Store(time.Now().Add(redisRetryAfter).UnixNano())
		}
		out, _ := fallback.AllowN(ctx, key, l, n)
		return out, fmt.Errorf("%w: %w", ErrLimitStoreDown, err)
	}
	return LimitResult{Allowed: res.Allowed > 0, Remaining: res.Remaining, RetryAfter: max(0, res.RetryAfter), ResetAfter: max(0, res.ResetAfter)}, nil
}

// limitKey rate-limits an authenticated API key by its project's
// environment: the key's own limit, then its project's, which all the
// project's keys share.
func (a *api) limitKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k := keyFrom(r)
		l, pl := a.opts.RateLimits.Sandbox, a.opts.RateLimits.SandboxProject
		if k.Environment == model.EnvironmentProduction {
			l, pl = a.opts.RateLimits.Production, a.opts.RateLimits.ProductionProject
		}
		if a.allowAll(w, r, limitCheck{key: limitKeyOf("key:", k.KeyID), limit: l}, limitCheck{key: limitKeyOf("project:", k.ProjectID), limit: pl}) {
			next.ServeHTTP(w, r)
		}
	})
}

// limitAnonymousGraphQL rate-limits a client IP's /graphql requests that
// carry no bearer token: the only ones an attacker without an account can
// send at will.
func (a *api) limitAnonymousGraphQL(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" || a.allow(w, r, "graphql-ip:"+a.limitAddress(r), a.opts.RateLimits.GraphQLAnonymous) {
			next.ServeHTTP(w, r)
		}
	})
}

// graphQLCoster is a GraphQL handler that weighs its requests.
type graphQLCoster interface {
	RequestCost(r *http.Request) int
}

// limitGraphQL rate-limits every /graphql request, weighted by its
// document's cost: per user when one is authenticated (after
// optionalUser), and per client address always. A WebSocket upgrade counts
// once; the operations on the socket are bounded by the subscription caps
// and the operation deadline.
func (a *api) limitGraphQL(next http.Handler) http.Handler {
	coster, _ := next.(graphQLCoster)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rl := a.opts.RateLimits
		if rl.GraphQLUser.IsZero() && rl.GraphQLAddress.IsZero() {
			next.ServeHTTP(w, r)
			return
		}
		n := 1
		if coster != nil && !isGraphQLSocket(r) {
			n = max(1, coster.RequestCost(r))
		}
		checks := make([]limitCheck, 0, 2)
		if u := userFrom(r); u != nil {
			checks = append(checks, limitCheck{key: limitKeyOf("graphql-user:", u.UserID), limit: rl.GraphQLUser, n: n})
		}
		checks = append(checks, limitCheck{key: "graphql-addr:" + a.limitAddress(r), limit: rl.GraphQLAddress, n: n})
		if a.allowAll(w, r, checks...) {
			next.ServeHTTP(w, r)
		}
	})
}

// AttemptLimiter lets model/auth count signup and login attempts in s,
// the store the router limits with: REST and GraphQL attempts then share
// one budget per address and per e-mail, and with a Redis store so do all
// API processes. While Redis fails, the store's in-memory fallback decides.
func AttemptLimiter(s LimitStore) auth.RateLimiter { return attemptLimiter{s} }

type attemptLimiter struct{ store LimitStore }

func (l attemptLimiter) Allow(ctx context.Context, key string, r auth.Rate) (auth.RateDecision, error) {
	res, err := l.store.Allow(ctx, key, Limit{Count: r.Count, Period: r.Period})
	if err != nil && !errors.Is(err, ErrLimitStoreDown) {
		return auth.RateDecision{}, err
	}
	return auth.RateDecision{Allowed: res.Allowed, Remaining: res.Remaining, RetryAfter: res.RetryAfter, ResetAfter: res.ResetAfter}, nil
}

// setRateHeaders writes the RateLimit-* headers of a decision under l.
func setRateHeaders(h http.Header, l Limit, res LimitResult) {
	// One backing array for the three headers (canonical keys, set
	// directly): this runs on every request of a limited route.
	// The three numbers share one string too.
	var b [3 * 20]byte
	n := strconv.AppendInt(b[:0], int64(l.Count), 10)
	i := len(n)
	n = strconv.AppendInt(n, int64(res.Remaining), 10)
	j := len(n)
	n = strconv.AppendInt(n, int64(ceilSeconds(res.ResetAfter)), 10)
	all := string(n)
	v := []string{all[:i], all[i:j], all[j:]}
	h["Ratelimit-Limit"], h["Ratelimit-Remaining"], h["Ratelimit-Reset"] = v[0:1:1], v[1:2:2], v[2:3:3]
}

// allow counts the request under key, sets the RateLimit-* headers and,
// when the limit is reached, answers 429 with Retry-After. A store that
// fails without a fallback lets the request through: an outage of the
// limiter must not stop the API.
func (a *api) allow(w http.ResponseWriter, r *http.Request, key string, l Limit) bool {
	return a.allowAll(w, r, limitCheck{key: key, limit: l})
}

// limitCheck is one limit a request counts against, under key, as n
// requests (0 counts one; more than the limit's burst count as the burst).
type limitCheck struct {
	key   string
	limit Limit
	n     int
}

// allowAll counts the request under each check in turn, stopping at the
// first that refuses it, like allow; the RateLimit-* headers describe the
// tightest limit (the one that refused, else the one with the fewest
// requests left).
func (a *api) allowAll(w http.ResponseWriter, r *http.Request, checks ...limitCheck) bool {
	var (
		tight    LimitResult
		tightLim Limit
		counted  bool
	)
	for _, c := range checks {
		if c.limit.IsZero() {
			continue
		}
		var (
			res LimitResult
			err error
		)
		if c.n > 1 {
			res, err = allowN(r.Context(), a.limits, c.key, c.limit, min(c.n, c.limit.Count))
		} else {
			res, err = a.limits.Allow(r.Context(), c.key, c.limit)
		}
		if err != nil {
			a.limitErrorLog(r, err)
			if !errors.Is(err, ErrLimitStoreDown) {
				continue
			}
		}
		if !counted || !res.Allowed || res.Remaining < tight.Remaining {
			tight, tightLim, counted = res, c.limit, true
		}
		if !res.Allowed {
			break
		}
	}
	if !counted {
		return true
	}
	h := w.Header()
	setRateHeaders(h, tightLim, tight)
	if tight.Allowed {
		return true
	}
	h.Set("Retry-After", strconv.Itoa(max(1, ceilSeconds(tight.RetryAfter))))
	a.writeError(w, r, model.Errorf(model.CodeRateLimited, "rate limit of %s exceeded; retry after the time in Retry-After", tightLim))
	return false
}

func ceilSeconds(d time.Duration) int {
	return int(math.Ceil(d.Seconds()))
}

// limitErrorLog logs a failing limit store at most once a minute.
func (a *api) limitErrorLog(r *http.Request, err error) {
	now := time.Now().Unix()
	last := a.limitErrAt.Load()
	if now-last < 60 || !a.limitErrAt.CompareAndSwap(last, now) {
		return
	}
	if errors.Is(err, context.Canceled) {
		return
	}
	a.log.Warn("rate limit store failed", "request_id", requestID(r.Context()), "error", err)
}

// limitKeyOf is prefix+id.String() in one allocation instead of two.
func limitKeyOf(prefix string, id uuid.UUID) string {
	var b [16 + 36]byte
	if len(prefix) > 16 { // longer than any prefix in use
		return prefix + id.String()
	}
	n := copy(b[:], prefix)
	u := b[n : n+36]
	hex.Encode(u[0:8], id[0:4])
	u[8] = '-'
	hex.Encode(u[9:13], id[4:6])
	u[13] = '-'
	hex.Encode(u[14:18], id[6:8])
	u[18] = '-'
	hex.Encode(u[19:23], id[8:10])
	u[23] = '-'
	hex.Encode(u[24:], id[10:])
	return string(b[:n+36])
}
