package dbopen_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model/store/dbopen"
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
