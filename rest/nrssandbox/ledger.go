package nrssandbox

import (
	"container/list"
	"sync"
	"time"
)

// Invoice states, in the order an invoice passes them.
const (
	StatusValidated   = "VALIDATED"
	StatusSigned      = "SIGNED"
	StatusTransmitted = "TRANSMITTED"
	StatusConfirmed   = "CONFIRMED"
)

// rank orders the states.
func rank(status string) int {
	switch status {
	case StatusValidated:
		return 1
	case StatusSigned:
		return 2
	case StatusTransmitted:
		return 3
	case StatusConfirmed:
		return 4
	}
	return 0
}

// invoice is what the stand-in knows of one IRN of one business. Values are
// copied out of the ledger, never shared.
type invoice struct {
	key             string
	irn             string
	businessID      string
	kind            string // B2B, B2G, B2C
	typeCode        string
	status          string
	paymentStatus   string
	paymentRef      string
	payload         []byte
	validatedAt     time.Time
	signedAt        time.Time
	transmittedAt   time.Time
	acknowledgedAt  time.Time
	confirmedAt     time.Time
	paymentUpdateAt time.Time
}

func (inv *invoice) transmitted() bool { return inv.kind != "B2C" && !inv.transmittedAt.IsZero() }

// ledger holds the invoices, bounded in count and payload bytes: when full,
// the oldest invoice goes. It also keeps the SBXRETRY attempt counters.
type ledger struct {
	mu       sync.Mutex
	items    map[string]*list.Element // of *invoice
	order    *list.List               // oldest first
	bytes    int64
	maxItems int
	maxBytes int64
	attempts map[string]int
}

// maxAttemptCounters bounds the SBXRETRY counters; past it they start over.
const maxAttemptCounters = 10000

func newLedger(maxItems int, maxBytes int64) *ledger {
	return &ledger{items: map[string]*list.Element{}, order: list.New(), maxItems: maxItems, maxBytes: maxBytes,
		attempts: map[string]int{}}
}

func invoiceKey(businessID, irn string) string { return businessID + "\x00" + irn }

// get returns a copy of an invoice.
func (l *ledger) get(key string) (invoice, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.items[key]
	if !ok {
		return invoice{}, false
	}
	return *e.Value.(*invoice), true
}

// update runs fn on the invoice under the lock. fn sees nil when the IRN is
// unknown and may return a new invoice to store; an error leaves the ledger
// as it was.
func (l *ledger) update(key string, fn func(cur *invoice) (*invoice, error)) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var cur *invoice
	e, exists := l.items[key]
	if exists {
		c := *e.Value.(*invoice)
		cur = &c
	}
	next, err := fn(cur)
	if err != nil || next == nil {
		return err
	}
	next.key = key
	if exists {
		old := e.Value.(*invoice)
		l.bytes += int64(len(next.payload)) - int64(len(old.payload))
		e.Value = next
	} else {
		l.items[key] = l.order.PushBack(next)
		l.bytes += int64(len(next.payload))
	}
	for (len(l.items) > l.maxItems || l.bytes > l.maxBytes) && l.order.Len() > 1 {
		oldest := l.order.Front()
		if oldest.Value.(*invoice).key == key {
			break
		}
		l.remove(oldest)
	}
	return nil
}

func (l *ledger) remove(e *list.Element) {
	inv := e.Value.(*invoice)
	l.order.Remove(e)
	delete(l.items, inv.key)
	l.bytes -= int64(len(inv.payload))
}

// len returns the number of invoices held.
func (l *ledger) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.items)
}

// countAttempt counts one more call under key and returns the count.
func (l *ledger) countAttempt(key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.attempts[key]; !ok && len(l.attempts) >= maxAttemptCounters {
		clear(l.attempts)
	}
	l.attempts[key]++
	return l.attempts[key]
}
