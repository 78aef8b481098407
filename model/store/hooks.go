package store

import (
	"context"
	"sync/atomic"

	"github.com/uptrace/bun"
)

// AddQueryHook installs h on the connection pool: it sees every query of
// this store and of the transactions RunInTx hands out. Install hooks
// before the store is shared; bun does not guard its hook list.
func (s *Store) AddQueryHook(h bun.QueryHook) { s.db.AddQueryHook(h) }

// QueryCounter is a query hook that counts the queries it sees, for tests
// and metrics that assert how many round trips an operation costs.
type QueryCounter struct {
	n atomic.Int64
}

// BeforeQuery implements bun.QueryHook.
func (c *QueryCounter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

// AfterQuery implements bun.QueryHook.
func (c *QueryCounter) AfterQuery(context.Context, *bun.QueryEvent) { c.n.Add(1) }

// Count returns the number of queries seen so far.
func (c *QueryCounter) Count() int64 { return c.n.Load() }

// Reset sets the count back to zero.
func (c *QueryCounter) Reset() { c.n.Store(0) }
