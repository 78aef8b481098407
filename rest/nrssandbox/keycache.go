package nrssandbox

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// credentialsFor is how long a business read for its API key, with its
// faults, answers the next calls with that key from memory: every call
// reads them first, three to five times per invoice cleared. A change made
// through this Handler (a business registered, updated or removed, a
// fault set or cleared) is seen by its next call; one made by another
// process sharing the database (the stand-in embedded in several API
// processes), within this long.
const credentialsFor = time.Second

// maxCachedKeys bounds the API keys kept; past it the cache starts over.
const maxCachedKeys = 10000

// keyCache keeps, per API key, the business and every fault of it that is
// in force at some moment of the entry's life (read with the window
// widened to its end), so that applying the faults at a call's own time
// gives what a read at that time would.
type keyCache struct {
	mu      sync.Mutex
	entries map[string]keyEntry
	// gen counts the changes made through the Handler; an entry read
	// before the last one is not used.
	gen atomic.Uint64
}

type keyEntry struct {
	b      *sandboxdb.Business
	faults []sandboxdb.Fault
	until  time.Time
	gen    uint64
}

// changed drops every entry: a business or a fault changed.
func (c *keyCache) changed() {
	c.gen.Add(1)
	c.mu.Lock()
	clear(c.entries)
	c.mu.Unlock()
}

// lookup returns the business of key and its faults in force at now, from
// memory while an entry read through db is fresh; sandboxdb.ErrNotFound
// for an unknown key (never kept). The business is shared: read only.
func (c *keyCache) lookup(ctx context.Context, db *sandboxdb.DB, key string, now time.Time) (*sandboxdb.Business, []sandboxdb.Fault, error) {
	gen := c.gen.Load()
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if !ok || e.gen != gen || !now.Before(e.until) || now.Before(e.until.Add(-credentialsFor)) {
		until := now.Add(credentialsFor)
		b, faults, err := db.Businesses().ByAPIKeyWithFaultsDuring(ctx, key, now, until)
		if err != nil {
			return nil, nil, err
		}
		e = keyEntry{b: b, faults: faults, until: until, gen: gen}
		c.mu.Lock()
		if c.entries == nil || len(c.entries) >= maxCachedKeys {
			c.entries = make(map[string]keyEntry)
		}
		if c.gen.Load() == gen {
			c.entries[key] = e
		}
		c.mu.Unlock()
	}
	var inForce []sandboxdb.Fault
	for _, f := range e.faults {
		if !f.StartsAt.After(now) && f.EndsAt.After(now) {
			inForce = append(inForce, f)
		}
	}
	return e.b, inForce, nil
}
