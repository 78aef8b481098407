// Package usage meters the calls API keys make and reports them: every
// successful call with a key is counted per project, key, operation and
// day, in memory (and in a journal file when configured), and written in
// batches every FlushInterval and at Close, so that the request path never
// waits on the database. Reports add the counts not written yet.
package usage

import (
	"context"
	"log/slog"
	"sort"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Config configures New.
type Config struct {
	// FlushInterval is how often buffered usage is written; default 2 s.
	FlushInterval time.Duration
	// JournalDir, when set, keeps a journal of every metered call there,
	// so that a process killed before its flush loses no count: the next
	// process metering into the same directory replays it. Without one, a
	// killed process loses the calls of its last FlushInterval (and, while
	// the database is down, every call since it went down).
	JournalDir string
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives the flusher's failures; default slog.Default().
	Logger *slog.Logger
}

// Service meters and reports usage.
type Service struct {
	st    *store.Store
	cfg   Config
	meter *meter
}

// New builds the service over st and starts its flusher; call Close to
// flush and stop it. It fails when the journal cannot be created.
func New(st *store.Store, cfg Config) (*Service, error) {
	if cfg.FlushInterval <= 0 {
		cfg.FlushInterval = 2 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	var j *journal
	if cfg.JournalDir != "" {
		var err error
		if j, err = openJournal(cfg.JournalDir); err != nil {
			return nil, err
		}
	}
	return &Service{st: st, cfg: cfg, meter: newMeter(st, cfg.FlushInterval, cfg.Now, cfg.Logger, j)}, nil
}

// Close flushes buffered usage and stops the flusher.
func (s *Service) Close(ctx context.Context) error { return s.meter.close(ctx) }

// Flush writes buffered usage now.
func (s *Service) Flush(ctx context.Context) error { return s.meter.flush(ctx) }

// FlushLag is how long ago buffered usage was last written.
func (s *Service) FlushLag() time.Duration { return s.meter.lag() }

// LastUsed is when a key was last used, as this process saw it and has not
// written yet.
func (s *Service) LastUsed(keyID uuid.UUID) (time.Time, bool) { return s.meter.lastUsed(keyID) }

// Authorize checks that a key holds scope for op. It counts nothing: the
// transport meters the call with Meter once it has succeeded.
func (s *Service) Authorize(k *model.Principal, scope model.Scope, op string) error {
	return k.Require(scope)
}

// Meter counts a successful call as op in its key's project's usage,
// without waiting for a database write. Only successful calls are
// metered: a call refused (rate limited, invalid, unauthorized) or failed
// is not.
func (s *Service) Meter(k *model.Principal, op string) {
	s.meter.record(k.ProjectID, k.KeyID, op, s.cfg.Now())
}

// maxDays bounds a usage query's range.
const maxDays = 366

// Report reports a project's usage per operation and day (default: the
// last 30 days), including counts not yet written. An API key reports on
// its own project; a portal user on any project of their organizations.
// Another tenant's project is not found.
func (s *Service) Report(ctx context.Context, who *model.Principal, projectID uuid.UUID, in Input) (*Report, error) {
	if !who.IsKey() {
		reps, err := s.ByProject(ctx, who, []uuid.UUID{projectID}, in)
		if err != nil {
			return nil, err
		}
		rep, ok := reps[projectID]
		if !ok {
			return nil, model.NotFound("project")
		}
		return rep, nil
	}
	from, to, keyID, err := s.dateRange(in)
	if err != nil {
		return nil, err
	}
	if projectID != who.ProjectID {
		return nil, model.NotFound("project")
	}
	rows, err := s.st.Usage().List(ctx, projectID, keyID, from, to)
	if err != nil {
		return nil, err
	}
	rows = append(rows, s.meter.pending(projectID, keyID, from, to)...)
	return report(projectID, keyID, from, to, rows), nil
}

// ByProject reports the usage of several of a portal user's projects at
// once, by project id, with Report's rules, for GraphQL dataloaders; a
// project that is not the caller's has no entry. It costs two queries
// whatever the number of projects: the tenant check and the counters.
func (s *Service) ByProject(ctx context.Context, who *model.Principal, projectIDs []uuid.UUID, in Input) (map[uuid.UUID]*Report, error) {
	from, to, keyID, err := s.dateRange(in)
	if err != nil {
		return nil, err
	}
	ids, err := s.st.Projects().IDs(ctx, who.UserID, projectIDs)
	if err != nil {
		return nil, err
	}
	rows, err := s.st.Usage().ListForProjects(ctx, who.UserID, ids, keyID, from, to)
	if err != nil {
		return nil, err
	}
	byProject := make(map[uuid.UUID][]model.UsageCounter, len(ids))
	for _, r := range rows {
		byProject[r.ProjectID] = append(byProject[r.ProjectID], r)
	}
	out := make(map[uuid.UUID]*Report, len(ids))
	for _, id := range ids {
		counters := append(byProject[id], s.meter.pending(id, keyID, from, to)...)
		out[id] = report(id, keyID, from, to, counters)
	}
	return out, nil
}

// Input asks for a project's usage between two days.
type Input struct {
	From  string
	To    string
	KeyID string
}

// Daily is one operation's count on one day.
type Daily struct {
	Date      string `json:"date"`
	Operation string `json:"operation"`
	Count     int64  `json:"count"`
}

// Report answers a usage query.
type Report struct {
	ProjectID   uuid.UUID        `json:"project_id"`
	KeyID       *uuid.UUID       `json:"key_id"`
	From        string           `json:"from"`
	To          string           `json:"to"`
	Total       int64            `json:"total"`
	ByOperation map[string]int64 `json:"by_operation"`
	Daily       []Daily          `json:"daily"`
}

// dateRange checks a usage query and returns its days
// (YYYY-MM-DD) and key filter.
func (s *Service) dateRange(in Input) (from, to string, keyID uuid.UUID, err error) {
	var p model.Problems
	today := model.StoredTime(s.cfg.Now()).Truncate(24 * time.Hour)
	t, f := today, today.AddDate(0, 0, -29)
	toOK, fromOK := true, true
	if in.To != "" {
		t, toOK = p.CheckDate(in.To, "to")
	}
	if in.From != "" {
		f, fromOK = p.CheckDate(in.From, "from")
	} else if toOK {
		f = t.AddDate(0, 0, -29)
	}
	if toOK && fromOK {
		if f.After(t) {
			p.Add(model.ProblemValueError, "from must not be after to", "from")
		} else if t.Sub(f) > maxDays*24*time.Hour {
			p.Add(model.ProblemValueError, "the range must not exceed 366 days", "from")
		}
	}
	if in.KeyID != "" {
		keyID = p.CheckUUID(in.KeyID, "key_id")
	}
	if err := p.Err(); err != nil {
		return "", "", uuid.Nil, err
	}
	return f.Format(time.DateOnly), t.Format(time.DateOnly), keyID, nil
}

// report sums counters into a report.
func report(projectID, keyID uuid.UUID, from, to string, rows []model.UsageCounter) *Report {
	type dayOp struct{ day, op string }
	daily := map[dayOp]int64{}
	rep := &Report{ProjectID: projectID, From: from, To: to, ByOperation: map[string]int64{}, Daily: []Daily{}}
	if keyID != uuid.Nil {
		rep.KeyID = &keyID
	}
	for _, r := range rows {
		rep.Total += r.Count
		rep.ByOperation[r.Operation] += r.Count
		daily[dayOp{r.Day, r.Operation}] += r.Count
	}
	for k, n := range daily {
		rep.Daily = append(rep.Daily, Daily{Date: k.day, Operation: k.op, Count: n})
	}
	sort.Slice(rep.Daily, func(i, j int) bool {
		if rep.Daily[i].Date != rep.Daily[j].Date {
			return rep.Daily[i].Date < rep.Daily[j].Date
		}
		return rep.Daily[i].Operation < rep.Daily[j].Operation
	})
	return rep
}
