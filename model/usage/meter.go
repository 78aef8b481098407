package usage

import (
	"context"
	"errors"
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
// batches, so that the request path never waits on the database. With a
// journal, every call is also appended to it before it is counted, so that
// a process killed before its flush loses nothing.
type meter struct {
	st       *store.Store
	interval time.Duration
	now      func() time.Time
	log      *slog.Logger
	journal  *journal
	// seq numbers the calls written to the journal.
	seq int64

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

func newMeter(st *store.Store, interval time.Duration, now func() time.Time, log *slog.Logger, j *journal) *meter {
	m := &meter{
		st: st, interval: interval, now: now, log: log, journal: j,
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
	if m.journal != nil {
		m.seq++
		if err := m.journal.append(m.seq, k, at); err != nil && at.Sub(m.journal.failedAt) > time.Minute {
			m.journal.failedAt = at
			m.log.Error("usage journal not written; calls are counted in memory only", "error", err.Error())
		}
	}
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
	m.adopt()
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
			m.adopt()
		}
	}
}

// adopt replays the journals of processes that are gone.
func (m *meter) adopt() {
	if m.journal == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n, err := adopt(ctx, m.st, m.journal.dir, m.journal.instance)
	if err != nil {
		m.log.Error("usage journals of stopped processes not replayed; retried at the next flush", "error", err)
	}
	if n > 0 {
		// Worth a warning: a process died without flushing its usage.
		m.log.Warn("usage journals of stopped processes replayed", "calls", n)
	}
}

// flush writes buffered counts (and, with a journal, moves its mark in the
// same transaction). On failure they are put back.
func (m *meter) flush(ctx context.Context) error {
	m.flushMu.Lock()
	defer m.flushMu.Unlock()
	m.mu.Lock()
	counts, used, seq := m.counts, m.used, m.seq
	m.counts, m.used = map[usageKey]int64{}, map[uuid.UUID]time.Time{}
	if m.journal != nil {
		m.journal.rotate(seq)
	}
	m.mu.Unlock()
	if len(counts) == 0 && len(used) == 0 {
		m.mu.Lock()
		m.lastFlush = m.now()
		m.mu.Unlock()
		return nil
	}
	rows := sortedRows(counts)
	err := m.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if err := tx.Usage().Add(ctx, rows); err != nil {
			return err
		}
		if err := tx.Keys().Touch(ctx, used); err != nil {
			return err
		}
		if m.journal != nil {
			return tx.Usage().SetJournalMark(ctx, m.journal.instance, seq)
		}
		return nil
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
	if m.journal != nil {
		m.journal.written(seq)
	}
	m.lastFlush = m.now()
	return nil
}

// sortRows orders rows by project, key, operation and day.
func sortRows(rows []model.UsageCounter) {
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
}

// lag is how long ago buffered usage was last written.
func (m *meter) lag() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now().Sub(m.lastFlush)
}

// close stops the flusher and flushes; the journal's files go once
// everything is written, else they stay for the next process to replay.
func (m *meter) close(ctx context.Context) error {
	var err error
	m.once.Do(func() {
		close(m.stop)
		<-m.done
		err = m.flush(ctx)
		if m.journal != nil {
			err = errors.Join(err, m.journal.close(ctx, m.st, err == nil))
		}
	})
	return err
}
