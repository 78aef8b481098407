package usage

import (
	"context"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

type usageKey struct {
	project, key uuid.UUID
	op, day      string
}

// meter buffers usage counts and last-use times in memory and writes them in
// batches, so that the request path never waits on the database.
type meter struct {
	st       *store.Store
	interval time.Duration
	now      func() time.Time
	log      *slog.Logger

	mu      sync.Mutex
	counts  map[usageKey]int64
	used    map[uuid.UUID]time.Time
	flushMu sync.Mutex // one flush at a time
	// lastFlush is when buffered usage was last written successfully.
	lastFlush time.Time

	stop chan struct{}
	done chan struct{}
	once sync.Once
}

func newMeter(st *store.Store, interval time.Duration, now func() time.Time, log *slog.Logger) *meter {
	m := &meter{
		st: st, interval: interval, now: now, log: log,
		counts: map[usageKey]int64{}, used: map[uuid.UUID]time.Time{},
		stop: make(chan struct{}), done: make(chan struct{}), lastFlush: now(),
	}
	go m.loop()
	return m
}

func (m *meter) record(project, key uuid.UUID, op string, at time.Time) {
	at = at.UTC()
	k := usageKey{project: project, key: key, op: op, day: at.Format(time.DateOnly)}
	m.mu.Lock()
	m.counts[k]++
	if at.After(m.used[key]) {
		m.used[key] = at
	}
	m.mu.Unlock()
}

func (m *meter) lastUsed(key uuid.UUID) (time.Time, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	at, ok := m.used[key]
	return at, ok
}

// pending returns buffered counts of a project not yet written.
func (m *meter) pending(project, key uuid.UUID, from, to string) []model.UsageCounter {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []model.UsageCounter
	for k, n := range m.counts {
		if k.project == project && (key == uuid.Nil || k.key == key) && k.day >= from && k.day <= to {
			out = append(out, model.UsageCounter{ProjectID: k.project, KeyID: k.key, Operation: k.op, Day: k.day, Count: n})
		}
	}
	return out
}

func (m *meter) loop() {
	defer close(m.done)
	t := time.NewTicker(m.interval)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			if err := m.flush(ctx); err != nil {
				m.log.Error("usage flush failed; counts kept for the next attempt", "error", err)
			}
			cancel()
		}
	}
}

// flush writes buffered counts. On failure they are put back.
func (m *meter) flush(ctx context.Context) error {
	m.flushMu.Lock()
	defer m.flushMu.Unlock()
	m.mu.Lock()
	counts, used := m.counts, m.used
	m.counts, m.used = map[usageKey]int64{}, map[uuid.UUID]time.Time{}
	m.mu.Unlock()
	if len(counts) == 0 && len(used) == 0 {
		m.mu.Lock()
		m.lastFlush = m.now()
		m.mu.Unlock()
		return nil
	}
	rows := make([]model.UsageCounter, 0, len(counts))
	for k, n := range counts {
		rows = append(rows, model.UsageCounter{ProjectID: k.project, KeyID: k.key, Operation: k.op, Day: k.day, Count: n})
	}
	// A stable order keeps concurrent flushers from deadlocking on PostgreSQL.
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.ProjectID != b.ProjectID {
			return a.ProjectID.String() < b.ProjectID.String()
		}
		if a.KeyID != b.KeyID {
			return a.KeyID.String() < b.KeyID.String()
		}
		if a.Operation != b.Operation {
			return a.Operation < b.Operation
		}
		return a.Day < b.Day
	})
	err := m.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if err := tx.Usage().Add(ctx, rows); err != nil {
			return err
		}
		return tx.Keys().Touch(ctx, used)
	})
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		for k, n := range counts {
			m.counts[k] += n
		}
		for k, at := range used {
			if at.After(m.used[k]) {
				m.used[k] = at
			}
		}
		return err
	}
	m.lastFlush = m.now()
	return nil
}

// lag is how long ago buffered usage was last written.
func (m *meter) lag() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now().Sub(m.lastFlush)
}

func (m *meter) close(ctx context.Context) error {
	m.once.Do(func() { close(m.stop) })
	<-m.done
	return m.flush(ctx)
}
