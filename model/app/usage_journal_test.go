package app_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/usage"
)

// Variables of the metering child process of TestUsageSurvivesSIGKILL.
const (
	envMeterChild = "EINVOICE_TEST_METER_CHILD"
	envMeterDB    = "EINVOICE_TEST_METER_DB"
	envMeterDir   = "EINVOICE_TEST_METER_DIR"
	envMeterKey   = "EINVOICE_TEST_METER_KEY"
)

// meteredCalls and flushedAfter: the child meters meteredCalls calls and
// flushes once after flushedAfter of them.
const (
	meteredCalls = 1000
	flushedAfter = 600
)

// TestMeterChild is the child process of TestUsageSurvivesSIGKILL: it
// meters calls with a journal, flushes part of them, says so and waits to
// be killed. In a normal test run it returns at once.
func TestMeterChild(t *testing.T) {
	if os.Getenv(envMeterChild) == "" {
		return
	}
	ctx := context.Background()
	st, err := store.Open(ctx, os.Getenv(envMeterDB))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := usage.New(st, usage.Config{FlushInterval: time.Hour, JournalDir: os.Getenv(envMeterDir)})
	if err != nil {
		t.Fatal(err)
	}
	var k model.Principal
	ids := os.Getenv(envMeterKey)
	k.ProjectID, k.KeyID = uuid.MustParse(ids[:36]), uuid.MustParse(ids[37:])
	for i := range meteredCalls {
		if i == flushedAfter {
			if err := svc.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
		svc.Meter(&k, "irn.generate")
	}
	os.Stdout.WriteString("metered\n")
	time.Sleep(time.Hour)
}

// TestUsageSurvivesSIGKILL: a process metering with a journal is killed
// (SIGKILL) after flushing only part of its calls; the next process
// metering into the same journal directory replays exactly the calls not
// written (no loss, none twice) and removes the journal.
func TestUsageSurvivesSIGKILL(t *testing.T) {
	dsn := storetest.SQLiteURL(t)
	svc := apptest.New(t, openMigratedAt(t, dsn), func(c *app.Config) { c.UsageFlushInterval = time.Hour })
	k := newKey(t, svc)
	ctx := context.Background()
	p, err := svc.Keys.Authenticate(ctx, k.ClientID, k.ClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "journal")
	cmd := exec.Command(os.Args[0], "-test.run=^TestMeterChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), envMeterChild+"=1", envMeterDB+"="+dsn, envMeterDir+"="+dir,
		envMeterKey+"="+p.ProjectID.String()+" "+p.KeyID.String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "metered\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("child: %q %v", line, err)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no flush, no cleanup
		t.Fatal(err)
	}
	_ = cmd.Wait()
	st := svc.Store()
	total := func() int64 {
		rows, err := st.Usage().List(ctx, p.ProjectID, uuid.Nil, "2000-01-01", "2999-12-31")
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		for _, r := range rows {
			n += r.Count
		}
		return n
	}
	if n := total(); n != flushedAfter {
		t.Fatalf("written before the kill: %d, want the %d flushed", n, flushedAfter)
	}
	next, err := usage.New(st, usage.Config{FlushInterval: time.Hour, JournalDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = next.Close(context.Background()) })
	for deadline := time.Now().Add(10 * time.Second); total() != meteredCalls; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("usage after the replay: %d, want %d", total(), meteredCalls)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 2 { // the new process's own lock and journal
		t.Fatalf("journal files left: %v", files)
	}
	if err := next.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Fatalf("journal files after a clean close: %v", files)
	}
	if n := total(); n != meteredCalls {
		t.Fatalf("usage after the second process closed: %d", n)
	}
}

// openMigratedAt opens and migrates the SQLite database at dsn.
func openMigratedAt(t *testing.T, dsn string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrations().Up(context.Background()); err != nil {
		t.Fatal(err)
	}
	return st
}
