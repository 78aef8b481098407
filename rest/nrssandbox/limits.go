package nrssandbox

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimit is Count requests per Period, with bursts of Count. The zero
// value means "the default"; a negative Count turns the limit off.
type RateLimit struct {
	Count  int
	Period time.Duration
}

// Off reports whether the limit is turned off.
func (l RateLimit) Off() bool { return l.Count < 0 || l.Period <= 0 }

// String writes the limit as ParseRateLimit reads it.
func (l RateLimit) String() string {
	if l.Off() {
		return "off"
	}
	switch l.Period {
	case time.Second:
		return strconv.Itoa(l.Count) + "/s"
	case time.Minute:
		return strconv.Itoa(l.Count) + "/m"
	case time.Hour:
		return strconv.Itoa(l.Count) + "/h"
	}
	return strconv.Itoa(l.Count) + "/" + l.Period.String()
}

// ParseRateLimit reads "COUNT/PERIOD" (PERIOD s, m, h or a duration such as
// 10s) or "off".
func ParseRateLimit(s string) (RateLimit, error) {
	s = strings.TrimSpace(s)
	if s == "off" {
		return RateLimit{Count: -1, Period: time.Second}, nil
	}
	count, per, found := strings.Cut(s, "/")
	n, err := strconv.Atoi(count)
	if !found || err != nil || n <= 0 {
		return RateLimit{}, fmt.Errorf("rate limit %q: want COUNT/PERIOD (e.g. 50/s) or off", s)
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
		d, err = time.ParseDuration(per)
		if err != nil || d <= 0 {
			return RateLimit{}, fmt.Errorf("rate limit %q: the period must be s, m, h or a duration such as 10s", s)
		}
	}
	return RateLimit{Count: n, Period: d}, nil
}

// maxTracked bounds the limiter entries kept per kind (addresses,
// businesses); past it, idle entries are dropped.
const maxTracked = 10000

// limiter holds the token buckets per address and per business and the
// requests in flight per business. It lives in one process: with N
// processes serving one database, a business gets up to N times its limit
// (documented).
type limiter struct {
	business, ip RateLimit
	maxInFlight  int

	mu       sync.Mutex
	ips      map[string]*bucket
	biz      map[string]*bucket
	throttle map[string]*bucket
	inFlight map[string]int
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLimiter(business, ip RateLimit, maxInFlight int) *limiter {
	return &limiter{business: business, ip: ip, maxInFlight: maxInFlight,
		ips: map[string]*bucket{}, biz: map[string]*bucket{}, throttle: map[string]*bucket{}, inFlight: map[string]int{}}
}

// allowIP takes one token of an address's bucket; when none is left it
// says how long until one is.
func (l *limiter) allowIP(addr string, now time.Time) (time.Duration, bool) {
	return l.allow(l.ips, l.ip, addr, now)
}

// allowBusiness takes one token of a business's bucket.
func (l *limiter) allowBusiness(id string, now time.Time) (time.Duration, bool) {
	return l.allow(l.biz, l.business, id, now)
}

// allowThrottle takes one token of a throttle fault's bucket (key names the
// business, the fault and its allowance).
func (l *limiter) allowThrottle(key string, lim RateLimit, now time.Time) (time.Duration, bool) {
	return l.allow(l.throttle, lim, key, now)
}

func (l *limiter) allow(m map[string]*bucket, lim RateLimit, key string, now time.Time) (time.Duration, bool) {
	if lim.Off() {
		return 0, true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b, found := m[key]
	if !found {
		if len(m) >= maxTracked {
			sweep(m, now, lim.Period)
		}
		b = &bucket{lim: rate.NewLimiter(rate.Limit(float64(lim.Count)/lim.Period.Seconds()), lim.Count)}
		m[key] = b
	}
	b.seen = now
	r := b.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d, false
	}
	return 0, true
}

// sweep drops the entries idle long enough to have refilled; if that is not
// enough, everything (a flood of addresses then starts over with full
// buckets, which only ever lets more through).
func sweep(m map[string]*bucket, now time.Time, period time.Duration) {
	for k, b := range m {
		if now.Sub(b.seen) > period {
			delete(m, k)
		}
	}
	if len(m) >= maxTracked {
		clear(m)
	}
}

// enter counts a request of a business in flight; it fails when the
// business already has maxInFlight. Call the returned func when done.
func (l *limiter) enter(id string) (func(), bool) {
	if l.maxInFlight < 0 {
		return func() {}, true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inFlight[id] >= l.maxInFlight {
		return nil, false
	}
	l.inFlight[id]++
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			if l.inFlight[id]--; l.inFlight[id] <= 0 {
				delete(l.inFlight, id)
			}
			l.mu.Unlock()
		})
	}, true
}

// tooMany is the 429 answer of a limit (einvoice's reading: MBS publishes
// no limits), with Retry-After.
func tooMany(details string, wait time.Duration) *apiError {
	if wait < time.Second {
		wait = time.Second
	}
	return &apiError{status: http.StatusTooManyRequests, handler: HandlerKey, public: MsgTooManyRequests,
		details: details, retryAfter: wait}
}

// clientIP is the address of the connection. Forwarding headers are not
// trusted: behind a proxy, set RemoteAddr in the proxy's middleware.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
