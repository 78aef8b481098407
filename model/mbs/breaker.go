package mbs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Circuit breakers and pacing.
//
// A Breakers is the process's memory of how NRS answers: one circuit breaker
// per environment (sandbox, production) and endpoint (Operation), shared by
// every Client built with it, whatever the project. A breaker is closed
// while calls go through; after BreakerOptions.Failures consecutive
// failures (no answer, a timeout, or a 5xx other than 501) it opens: calls
// to that endpoint of that environment fail at once with an *Error whose
// BreakerOpen is set and whose RetryAfter says when the breaker will probe,
// without reaching NRS. After OpenFor it is half-open: Probes calls go
// through; a success closes it, a failure opens it again for twice as long
// (up to MaxOpenFor). A 4xx is NRS answering: it closes a half-open breaker
// and resets the count.
//
// A 429 is not a failure: NRS (or its gateway) asks the caller to slow
// down. Its Retry-After (or, without one, the client's backoff) holds every
// later call of the same credentials to that endpoint until it passes:
// calls wait (within their context and RetryPolicy.MaxRetryAfter) instead
// of failing, and past MaxRetryAfter they fail with RetryAfter set, never
// sending, so that a scheduler waits.
//
// State is kept per process. Each worker learns of an outage from its own
// Failures calls, and probes on its own; a shared state would put a
// round trip to Redis or the database in front of every NRS call and make
// the breaker a dependency of its own. What a process learns is published
// (Breakers.OnChange) so that other processes can show it (docs/invoices.md).

// BreakerState is the state of one breaker.
type BreakerState int

// The states, ordered from best to worst.
const (
	BreakerClosed BreakerState = iota
	BreakerHalfOpen
	BreakerOpen
)

// String names the state: closed, half_open, open.
func (s BreakerState) String() string {
	switch s {
	case BreakerHalfOpen:
		return "half_open"
	case BreakerOpen:
		return "open"
	}
	return "closed"
}

// Health of an environment, as /health shows it.
const (
	HealthOK       = "ok"
	HealthDegraded = "degraded"
	HealthDown     = "down"
)

// Defaults of BreakerOptions.
const (
	DefaultBreakerFailures = 5
	DefaultBreakerOpenFor  = 30 * time.Second
	DefaultBreakerMaxOpen  = 5 * time.Minute
	DefaultBreakerProbes   = 1
)

// BreakerOptions configure a Breakers. The zero value gives the defaults.
type BreakerOptions struct {
	// Failures is how many consecutive failures open a breaker; default 5.
	Failures int
	// OpenFor is how long a breaker stays open before it probes; default
	// 30 s. Each failed probe doubles it, up to MaxOpenFor (default 5 min).
	OpenFor    time.Duration
	MaxOpenFor time.Duration
	// Probes is how many calls a half-open breaker lets through at once;
	// default 1.
	Probes int
	// Now is the clock; default time.Now.
	Now func() time.Time
	// OnChange is called (outside the breaker's lock, in the calling
	// goroutine) when a breaker changes state.
	OnChange func(environment string, op Operation, from, to BreakerState)
}

// Breakers is a set of circuit breakers and paces, safe for concurrent use.
type Breakers struct {
	opts BreakerOptions

	mu     sync.Mutex
	states map[breakerKey]*breaker
	paces  map[paceKey]time.Time

	transitions *prometheus.CounterVec
	rejected    *prometheus.CounterVec
	throttled   *prometheus.CounterVec
	stateDesc   *prometheus.Desc
}

type breakerKey struct {
	env string
	op  Operation
}

type paceKey struct {
	env, creds string
	op         Operation
}

type breaker struct {
	state    BreakerState
	failures int
	openedAt time.Time
	openFor  time.Duration
	probes   int // calls in flight while half-open
}

// NewBreakers builds an empty set.
func NewBreakers(opts BreakerOptions) *Breakers {
	if opts.Failures <= 0 {
		opts.Failures = DefaultBreakerFailures
	}
	if opts.OpenFor <= 0 {
		opts.OpenFor = DefaultBreakerOpenFor
	}
	if opts.MaxOpenFor < opts.OpenFor {
		opts.MaxOpenFor = max(DefaultBreakerMaxOpen, opts.OpenFor)
	}
	if opts.Probes <= 0 {
		opts.Probes = DefaultBreakerProbes
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	labels := []string{"environment", "endpoint"}
	return &Breakers{opts: opts, states: map[breakerKey]*breaker{}, paces: map[paceKey]time.Time{},
		transitions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "einvoice_nrs_breaker_transitions_total",
			Help: "Changes of state of the NRS circuit breakers, by environment, endpoint and new state."},
			append(labels, "state")),
		rejected: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "einvoice_nrs_breaker_rejected_total",
			Help: "NRS calls not sent because the endpoint's circuit breaker was open."}, labels),
		throttled: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "einvoice_nrs_throttled_total",
			Help: "NRS answers of 429 (too many requests), by environment and endpoint."}, labels),
		stateDesc: prometheus.NewDesc("einvoice_nrs_breaker_state",
			"State of an NRS circuit breaker: 0 closed, 1 half-open, 2 open.", labels, nil),
	}
}

// Describe implements prometheus.Collector.
func (b *Breakers) Describe(ch chan<- *prometheus.Desc) {
	b.transitions.Describe(ch)
	b.rejected.Describe(ch)
	b.throttled.Describe(ch)
	ch <- b.stateDesc
}

// Collect implements prometheus.Collector.
func (b *Breakers) Collect(ch chan<- prometheus.Metric) {
	b.transitions.Collect(ch)
	b.rejected.Collect(ch)
	b.throttled.Collect(ch)
	for _, s := range b.Snapshot() {
		ch <- prometheus.MustNewConstMetric(b.stateDesc, prometheus.GaugeValue, float64(s.State), s.Environment, string(s.Operation))
	}
}

// BreakerSnapshot is one breaker's state.
type BreakerSnapshot struct {
	Environment string
	Operation   Operation
	State       BreakerState
	// Until is when an open breaker will probe.
	Until time.Time
}

// Snapshot lists the breakers that have seen a call, by environment and
// operation. An open breaker whose time has come shows as half-open.
func (b *Breakers) Snapshot() []BreakerSnapshot {
	now := b.opts.Now()
	b.mu.Lock()
	out := make([]BreakerSnapshot, 0, len(b.states))
	for k, br := range b.states {
		s := BreakerSnapshot{Environment: k.env, Operation: k.op, State: br.state}
		if br.state == BreakerOpen {
			s.Until = br.openedAt.Add(br.openFor)
			if !now.Before(s.Until) {
				s.State = BreakerHalfOpen
			}
		}
		out = append(out, s)
	}
	b.mu.Unlock()
	slices.SortFunc(out, func(x, y BreakerSnapshot) int {
		if x.Environment != y.Environment {
			if x.Environment < y.Environment {
				return -1
			}
			return 1
		}
		switch {
		case x.Operation < y.Operation:
			return -1
		case x.Operation > y.Operation:
			return 1
		}
		return 0
	})
	return out
}

// Health sums up an environment: ok while every breaker is closed and no
// pace holds calls back, down when every breaker that has seen a call is
// open (or probing), degraded otherwise.
func (b *Breakers) Health(environment string) string {
	return HealthOf(b.Snapshot(), environment, b.Paced(environment))
}

// HealthOf sums up the breakers of one environment (see Breakers.Health);
// paced says that a 429's Retry-After holds some calls back.
func HealthOf(snaps []BreakerSnapshot, environment string, paced bool) string {
	seen, notClosed := 0, 0
	for _, s := range snaps {
		if s.Environment != environment {
			continue
		}
		seen++
		if s.State != BreakerClosed {
			notClosed++
		}
	}
	switch {
	case seen > 0 && notClosed == seen:
		return HealthDown
	case notClosed > 0 || paced:
		return HealthDegraded
	}
	return HealthOK
}

// Now is the breakers' clock (BreakerOptions.Now), against which
// BreakerSnapshot.Until is read.
func (b *Breakers) Now() time.Time { return b.opts.Now() }

// Paced reports whether a 429's Retry-After still holds back calls of the
// environment.
func (b *Breakers) Paced(environment string) bool {
	now := b.opts.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	for k, until := range b.paces {
		if k.env == environment && now.Before(until) {
			return true
		}
	}
	return false
}

// allow asks the breaker of (env, op) for a call. It returns a release to
// call with the outcome, or how long until the breaker probes.
func (b *Breakers) allow(env string, op Operation) (func(outcome), time.Duration, bool) {
	now := b.opts.Now()
	k := breakerKey{env, op}
	b.mu.Lock()
	br := b.states[k]
	if br == nil {
		br = &breaker{}
		b.states[k] = br
	}
	var change func()
	if br.state == BreakerOpen {
		until := br.openedAt.Add(br.openFor)
		if now.Before(until) {
			b.mu.Unlock()
			b.rejected.WithLabelValues(env, string(op)).Inc()
			return nil, until.Sub(now), false
		}
		change = b.setLocked(k, br, BreakerHalfOpen)
		br.probes = 0
	}
	if br.state == BreakerHalfOpen {
		if br.probes >= b.opts.Probes {
			b.mu.Unlock()
			if change != nil {
				change()
			}
			b.rejected.WithLabelValues(env, string(op)).Inc()
			return nil, b.opts.OpenFor, false
		}
		br.probes++
	}
	probing := br.state == BreakerHalfOpen
	b.mu.Unlock()
	if change != nil {
		change()
	}
	var once sync.Once
	return func(o outcome) { once.Do(func() { b.record(k, probing, o) }) }, 0, true
}

// outcome is what a call taught about NRS.
type outcome int

const (
	outcomeAnswered outcome = iota // NRS answered (2xx, 4xx, 429)
	outcomeFailed                  // no answer, a timeout, a 5xx
	outcomeNone                    // the caller gave up: nothing learnt
)

// outcomeOf classifies an attempt: a transport error or timeout (unless the
// caller's context ended) or a 5xx other than 501 is a failure.
func outcomeOf(status int, err error, callerDone bool) outcome {
	switch {
	case callerDone:
		return outcomeNone
	case err != nil:
		if errors.Is(err, errMalformed) {
			return outcomeAnswered
		}
		return outcomeFailed
	case status >= 500 && status != http.StatusNotImplemented:
		return outcomeFailed
	}
	return outcomeAnswered
}

func (b *Breakers) record(k breakerKey, probing bool, o outcome) {
	b.mu.Lock()
	br := b.states[k]
	if probing && br.probes > 0 {
		br.probes--
	}
	var change func()
	switch o {
	case outcomeAnswered:
		br.failures = 0
		if br.state != BreakerClosed {
			br.openFor = 0
			change = b.setLocked(k, br, BreakerClosed)
		}
	case outcomeFailed:
		br.failures++
		switch {
		case br.state == BreakerHalfOpen:
			br.openFor = min(max(2*br.openFor, b.opts.OpenFor), b.opts.MaxOpenFor)
			br.openedAt = b.opts.Now()
			change = b.setLocked(k, br, BreakerOpen)
		case br.state == BreakerClosed && br.failures >= b.opts.Failures:
			br.openFor = b.opts.OpenFor
			br.openedAt = b.opts.Now()
			change = b.setLocked(k, br, BreakerOpen)
		}
	case outcomeNone:
	}
	b.mu.Unlock()
	if change != nil {
		change()
	}
}

// setLocked changes a breaker's state (b.mu held) and returns the
// notification to run once the lock is released.
func (b *Breakers) setLocked(k breakerKey, br *breaker, to BreakerState) func() {
	from := br.state
	br.state = to
	if to == BreakerClosed {
		br.failures = 0
	}
	return func() {
		b.transitions.WithLabelValues(k.env, string(k.op), to.String()).Inc()
		if b.opts.OnChange != nil {
			b.opts.OnChange(k.env, k.op, from, to)
		}
	}
}

// paceWait is how long calls of credentials to (env, op) must still wait.
func (b *Breakers) paceWait(env, creds string, op Operation) time.Duration {
	now := b.opts.Now()
	k := paceKey{env, creds, op}
	b.mu.Lock()
	defer b.mu.Unlock()
	until, ok := b.paces[k]
	if !ok {
		return 0
	}
	if !now.Before(until) {
		delete(b.paces, k)
		return 0
	}
	return until.Sub(now)
}

// maxPaces bounds the paces kept; past it, those that have passed go.
const maxPaces = 10000

// throttle records a 429: calls of credentials to (env, op) wait d.
func (b *Breakers) throttle(env, creds string, op Operation, d time.Duration) {
	b.throttled.WithLabelValues(env, string(op)).Inc()
	now := b.opts.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.paces) >= maxPaces {
		for k, until := range b.paces {
			if !now.Before(until) {
				delete(b.paces, k)
			}
		}
		if len(b.paces) >= maxPaces {
			clear(b.paces)
		}
	}
	k := paceKey{env, creds, op}
	if until := now.Add(d); until.After(b.paces[k]) {
		b.paces[k] = until
	}
}

// credsKey identifies credentials in the paces without keeping them.
func credsKey(base, key string) string {
	sum := sha256.Sum256([]byte(base + "\x00" + key))
	return hex.EncodeToString(sum[:8])
}
