package dbopen_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model/store/dbopen"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// A prepared statement first used inside a transaction, on a pool whose
// only connection that transaction holds, runs at once (its text, bound)
// instead of waiting for a connection to prepare it on; later uses, in
// and outside transactions, see every row.
func TestPreparedInsideTheOnlyConnection(t *testing.T) {
	o, err := dbopen.Open(filepath.Join(t.TempDir(), "db.sqlite"), dbopen.Options{Name: "test",
		SQLite: dbopen.Pool{MaxOpen: 1, MaxIdle: 1}, Busy: time.Second, AutoCheckpoint: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer o.DB.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := o.DB.ExecContext(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, at TIMESTAMP)"); err != nil {
		t.Fatal(err)
	}
	ins := &dbopen.Prepared{Build: func(_ *bun.DB, _ string, ph func(int) string) string {
		return "INSERT INTO t (id, name, at) VALUES (" + dbopen.Placeholders(ph, 3) + ")"
	}}
	count := &dbopen.Prepared{Build: func(_ *bun.DB, _ string, _ func(int) string) string {
		return "SELECT count(*) AS n, max(name) AS last FROM t"
	}}
	defer ins.Close()
	defer count.Close()
	at := time.Date(2026, 11, 28, 10, 0, 0, 123456789, time.UTC)
	for i := 1; i <= 20; i++ {
		err := o.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			c := dbopen.Conn{DB: o.DB, IDB: tx, Dialect: o.Dialect}
			_, err := ins.Exec(ctx, c, i, dbopen.TextArg("n\x00"+string(rune('a'+i))), dbopen.TimeArg(o.Dialect, at))
			return err
		})
		if err != nil {
			t.Fatalf("insert %d: %v", i, err)
		}
		time.Sleep(time.Millisecond) // let the pool prepare it meanwhile
	}
	var got struct {
		N    int    `bun:"n"`
		Last string `bun:"last"`
	}
	if err := count.ScanOne(ctx, dbopen.Conn{DB: o.DB, IDB: o.DB, Dialect: o.Dialect}, &got); err != nil {
		t.Fatal(err)
	}
	if got.N != 20 || got.Last != "nu" {
		t.Fatalf("read %+v, want 20 rows, the last name nu", got)
	}
	var when string
	if err := o.DB.QueryRowContext(ctx, "SELECT CAST(at AS TEXT) FROM t WHERE id = 1").Scan(&when); err != nil || when != "2026-11-28 10:00:00.123456+00:00" {
		t.Fatalf("time written as %q (%v), want bun's text", when, err)
	}
}

// On PostgreSQL (pools of one connection) bun's statements, their arguments in their text, run
// unnamed: none is left prepared on the connection. A Prepared is kept
// prepared there by its text and runs again without another prepare; in
// a transaction too, planned again each time (plan_cache_mode). A URL's
// own default_query_exec_mode and plan_cache_mode are kept.
func TestPostgresPreparesOnlyPrepared(t *testing.T) {
	url := storetest.PostgresURL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	named := func(t *testing.T, conn bun.IDB, text string) int {
		t.Helper()
		var n int
		if err := conn.NewRaw("SELECT count(*) FROM pg_prepared_statements WHERE statement = ?", text).Scan(ctx, &n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, c := range []struct {
		name, query, planMode string
		bunNamed              int
	}{
		{"default", "", "force_custom_plan", 0},
		{"the URL's modes", "default_query_exec_mode=cache_statement&plan_cache_mode=auto", "auto", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			dsn := url
			if c.query != "" {
				dsn += map[bool]string{true: "&", false: "?"}[strings.Contains(url, "?")] + c.query
			}
			o, err := dbopen.Open(dsn, dbopen.Options{Name: "test", Postgres: dbopen.Pool{MaxOpen: 1, MaxIdle: 1}})
			if err != nil {
				t.Fatal(err)
			}
			defer o.DB.Close()
			conn := o.DB // one connection: every statement below runs on it
			var x int
			if err := conn.NewSelect().ColumnExpr("? + 1 AS x", 41).Scan(ctx, &x); err != nil || x != 42 {
				t.Fatalf("bun's select: %d, %v", x, err)
			}
			var mode string
			if err := conn.NewRaw("SHOW plan_cache_mode").Scan(ctx, &mode); err != nil || mode != c.planMode {
				t.Fatalf("plan_cache_mode %q, %v; want %q", mode, err, c.planMode)
			}
			if got := named(t, conn, "SELECT 41 + 1 AS x"); got != c.bunNamed {
				t.Fatalf("bun's statement left prepared %d times, want %d", got, c.bunNamed)
			}
			p := &dbopen.Prepared{Build: func(_ *bun.DB, _ string, ph func(int) string) string {
				return "SELECT " + ph(1) + "::int + 1 AS n"
			}}
			defer p.Close()
			pc := dbopen.Conn{DB: o.DB, IDB: conn, Dialect: o.Dialect}
			for i := range 3 {
				var got struct{ N int }
				if err := p.ScanOne(ctx, pc, &got, i); err != nil || got.N != i+1 {
					t.Fatalf("prepared, %d: %+v, %v", i, got, err)
				}
			}
			if got := named(t, conn, "SELECT $1::int + 1 AS n"); got != 1 {
				t.Fatalf("the Prepared is prepared %d times on its connection, want 1", got)
			}
			err = o.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				var got struct{ N int }
				if err := p.ScanOne(ctx, dbopen.Conn{DB: o.DB, IDB: tx, Dialect: o.Dialect}, &got, 9); err != nil || got.N != 10 {
					return fmt.Errorf("in a transaction: %+v, %v", got, err)
				}
				if got := named(t, tx, "SELECT $1::int + 1 AS n"); got != 1 {
					return fmt.Errorf("prepared %d times after a transaction's use, want 1", got)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
