// Package nrshealth shares how NRS answers between the processes that call
// it and those that show it. Each process keeps its own circuit breakers
// (model/mbs); this package publishes a process's view of each
// environment (ok, degraded, down) to the database while it is not ok, and
// reads the other processes' fresh views in the background, so that the
// API's /health and NRS-Status header show what the workers see, with no
// query on a request's path.
package nrshealth

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Local is what the process's own breakers say of an environment: its
// health and the endpoints whose breakers are not closed.
type Local func(env model.Environment) (health string, endpoints []string)

// DefaultInterval is how often a process publishes and reads.
const DefaultInterval = 5 * time.Second

// Config configures a Service.
type Config struct {
	// ProcessID names the process in the shared table; default a fresh
	// UUID.
	ProcessID string
	// Local reads the process's own breakers; nil for a process that does
	// not call NRS (it only reads the others').
	Local Local
	// Interval is how often the process publishes and reads; a view not
	// refreshed for three intervals is ignored. Default 5 s.
	Interval time.Duration
	Now      func() time.Time
	Logger   *slog.Logger
}

// Environments are the environments reported.
var Environments = []model.Environment{model.EnvironmentSandbox, model.EnvironmentProduction}

// Service publishes and reads the processes' views. Health is safe for
// concurrent use.
type Service struct {
	st  *store.Store
	cfg Config

	shared atomic.Pointer[map[model.Environment]string]

	mu        sync.Mutex
	published map[model.Environment]string
}

// New builds a Service; Run keeps it current.
func New(st *store.Store, cfg Config) *Service {
	if cfg.ProcessID == "" {
		cfg.ProcessID = uuid.NewString()
	}
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Service{st: st, cfg: cfg, published: map[model.Environment]string{}}
}

// Health is the worst of this process's own view of env (read live) and
// the other processes' fresh views (as last read).
func (s *Service) Health(env model.Environment) string {
	h := model.AuthorityOK
	if s.cfg.Local != nil {
		h, _ = s.cfg.Local(env)
	}
	if m := s.shared.Load(); m != nil {
		if o := (*m)[env]; model.AuthorityHealthRank(o) > model.AuthorityHealthRank(h) {
			h = o
		}
	}
	return h
}

// Run publishes and reads every interval until ctx ends.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(s.cfg.Interval)
	defer t.Stop()
	for {
		if err := s.Tick(ctx); err != nil && ctx.Err() == nil {
			s.cfg.Logger.WarnContext(ctx, "nrs health: cannot share the view of NRS", "error", err.Error())
		}
		select {
		case <-ctx.Done():
			s.withdraw()
			return
		case <-t.C:
		}
	}
}

// Tick publishes this process's views (a view that is not ok is refreshed,
// one that became ok is withdrawn) and reads the others'.
func (s *Service) Tick(ctx context.Context) error {
	now := s.cfg.Now().UTC()
	stale := now.Add(-3 * s.cfg.Interval)
	if s.cfg.Local != nil {
		for _, env := range Environments {
			h, endpoints := s.cfg.Local(env)
			s.mu.Lock()
			before, seen := s.published[env]
			s.mu.Unlock()
			var err error
			switch {
			case h != model.AuthorityOK && h != model.AuthorityUnknown:
				err = s.st.NRSHealth().Report(ctx, &model.NRSHealthReport{ProcessID: s.cfg.ProcessID, Environment: env,
					Health: h, Endpoints: strings.Join(endpoints, ","), UpdatedAt: now})
			case seen && before != model.AuthorityOK && before != model.AuthorityUnknown:
				err = s.st.NRSHealth().Withdraw(ctx, s.cfg.ProcessID, env, stale)
			}
			if err != nil {
				return err
			}
			s.mu.Lock()
			s.published[env] = h
			s.mu.Unlock()
		}
	}
	rows, err := s.st.NRSHealth().Fresh(ctx, stale)
	if err != nil {
		return err
	}
	m := map[model.Environment]string{}
	for _, r := range rows {
		if r.ProcessID == s.cfg.ProcessID {
			continue
		}
		if model.AuthorityHealthRank(r.Health) > model.AuthorityHealthRank(m[r.Environment]) {
			m[r.Environment] = r.Health
		}
	}
	s.shared.Store(&m)
	return nil
}

// withdraw removes this process's views as it stops.
func (s *Service) withdraw() {
	if s.cfg.Local == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	stale := s.cfg.Now().UTC().Add(-3 * s.cfg.Interval)
	for _, env := range Environments {
		_ = s.st.NRSHealth().Withdraw(ctx, s.cfg.ProcessID, env, stale)
	}
}
