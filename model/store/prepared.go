package store

import (
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
}

func (s *Store) timeArg(t time.Time) any      { return dbopen.TimeArg(s.dialect, t) }
func (s *Store) nullTimeArg(t *time.Time) any { return dbopen.NullTimeArg(s.dialect, t) }
func textArg(s string) string                 { return dbopen.TextArg(s) }
func nullText(s string) any                   { return dbopen.NullText(s) }
