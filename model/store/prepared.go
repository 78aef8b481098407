package store

import (
	"context"
	"time"

	"github.com/einvoice-ng/einvoice/model/store/dbopen"
)

// The invoice pipeline's hot statements are prepared once, their
// arguments bound (dbopen.Prepared).

// conn is where s's prepared statements run.
func (s *Store) conn() dbopen.Conn { return dbopen.Conn{DB: s.db, IDB: s.idb, Dialect: s.dialect} }

// closePrepared closes the statements prepared on the pool.
func (st *statements) closePrepared() {
	for _, p := range st.all() {
		p.Close()
	}
	st.saveMu.Lock()
	defer st.saveMu.Unlock()
	for _, p := range st.saves {
		p.Close()
	}
	for _, p := range st.rows {
		p.Close()
	}
}

func (s *Store) timeArg(t time.Time) any      { return dbopen.TimeArg(s.dialect, t) }
func (s *Store) nullTimeArg(t *time.Time) any { return dbopen.NullTimeArg(s.dialect, t) }
func textArg(s string) string                 { return dbopen.TextArg(s) }
func nullText(s string) any                   { return dbopen.NullText(s) }

// On SQLite a transaction (BEGIN IMMEDIATE) takes the database's write
// lock, and one that finds it taken waits in SQLite's busy handler, which
// sleeps and tries again (1, 2, 5, 10 … up to 100 ms between tries): under
// a steady stream of transactions a waiting one often slept well past the
// moment the lock was free, and the API's acceptance paid for it. The
// transactions of this process therefore take turns in Go first (writer,
// one at a time, woken as soon as the one before ends) and reach SQLite's
// lock with nobody of their own process ahead. A wait longer than
// writerWait goes on to SQLite's own handling, as before.
const writerWait = 10 * time.Second

// takeWriter waits for this process's turn to write (SQLite), and returns
// the function that ends it; nil when there is no turn to take
// (PostgreSQL) or ctx ended or writerWait passed first.
func (st *statements) takeWriter(ctx context.Context) func() {
	if st.writer == nil {
		return nil
	}
	select {
	case st.writer <- struct{}{}:
		return func() { <-st.writer }
	default:
	}
	t := time.NewTimer(writerWait)
	defer t.Stop()
	select {
	case st.writer <- struct{}{}:
		return func() { <-st.writer }
	case <-ctx.Done():
	case <-t.C:
	}
	return nil
}
