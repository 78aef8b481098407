// Package codelists keeps the tax authorities' code lists that validation
// uses: Refresh fetches every list an authority publishes, checks each and
// stores the ones its official host served, and every process loads the
// stored lists into the authorities (at start, after a refresh made here,
// and every PollInterval when another process refreshed them), so that
// validation itself never reads the database.
package codelists

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Config configures New.
type Config struct {
	// Authorities is the registry whose code lists are kept.
	Authorities model.Authorities
	// PollInterval bounds how late this process sees code lists another
	// process refreshed; default 30 s.
	PollInterval time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives failures to load lists; default slog.Default().
	Logger *slog.Logger
}

// Service refreshes and loads code lists.
type Service struct {
	st     *store.Store
	cfg    Config
	keeper *keeper
}

// New builds the service over st, loads the stored lists into the
// authorities and starts watching for refreshes made elsewhere; call Close
// to stop.
func New(st *store.Store, cfg Config) *Service {
	if cfg.Authorities == nil {
		cfg.Authorities = model.Authorities{}
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 30 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Service{st: st, cfg: cfg, keeper: newKeeper()}
	s.keeper.start(s, cfg.PollInterval)
	return s
}

// Close stops watching for refreshes.
func (s *Service) Close() { s.keeper.close() }

// Fetcher fetches one of a tax authority's code lists as its API
// serves it: for NRS the "data" array of GET
// /api/v1/invoice/resources/{name}. The workflows package implements it
// over the MBS client.
type Fetcher interface {
	FetchCodeList(ctx context.Context, name string) ([]byte, error)
}

// Result is the outcome of a refresh.
type Result struct {
	ProjectID   uuid.UUID         `json:"project_id"`
	Environment model.Environment `json:"environment"`
	// Stored says whether the lists fetched were stored (and are now used
	// by every process of the environment).
	Stored bool         `json:"stored"`
	Lists  []ListResult `json:"lists"`
}

// ListResult is what a refresh got for one list.
type ListResult struct {
	Name    string `json:"name"`
	Entries int    `json:"entries,omitempty"`
	SHA256  string `json:"sha256,omitempty"`
	// Changed is true when the list differs from the one stored before.
	Changed bool `json:"changed,omitempty"`
	// Err says why the list was not fetched or not usable; nil when it was.
	Err error `json:"-"`
}

// Fetched lists the names of the lists fetched and the failures, for
// messages.
func (r *Result) Fetched() (ok []string, failed []string) {
	for _, l := range r.Lists {
		if l.Err != nil {
			failed = append(failed, l.Name+": "+l.Err.Error())
		} else {
			ok = append(ok, l.Name)
		}
	}
	return ok, failed
}

// Refresh fetches every code list of the project's authority with
// f, checks each, and, when store is set, stores those the authority
// served (each replacing the stored list of its name in the project's
// environment) and uses them at once in this process. A list that cannot
// be fetched or parsed is reported and left as it was. The caller decides
// store: lists are shared by every project of the environment, so they may
// only be stored when f talks to the environment's official host
// (authority.Directory.OfficialBaseURL).
func (s *Service) Refresh(ctx context.Context, projectID uuid.UUID, f Fetcher, store bool) (*Result, error) {
	pr, err := s.st.Projects().ByID(ctx, projectID)
	if err != nil {
		return nil, err
	}
	a, ok := s.cfg.Authorities.Lookup(pr.TaxAuthorityCode)
	if !ok {
		return nil, model.Errorf(model.CodeInvalid, "tax authority %q is not supported", pr.TaxAuthorityCode)
	}
	ca, ok := a.(model.CodeListAuthority)
	if !ok {
		return nil, model.Errorf(model.CodeInvalid, "tax authority %s publishes no code lists einvoice can refresh", a.Code())
	}
	stored, err := s.st.CodeLists().List(ctx, a.Code(), pr.Environment)
	if err != nil {
		return nil, err
	}
	before := make(map[string]string, len(stored))
	for _, l := range stored {
		before[l.Name] = l.SHA256
	}
	out := &Result{ProjectID: pr.ID, Environment: pr.Environment}
	var rows []model.AuthorityCodeList
	for _, name := range ca.CodeListNames() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res := ListResult{Name: name}
		data, err := f.FetchCodeList(ctx, name)
		if err == nil {
			res.Entries, err = ca.CheckCodeList(name, data)
		}
		if err != nil {
			res.Err = err
			out.Lists = append(out.Lists, res)
			continue
		}
		sum := sha256.Sum256(data)
		res.SHA256 = hex.EncodeToString(sum[:])
		res.Changed = before[name] != res.SHA256
		out.Lists = append(out.Lists, res)
		rows = append(rows, model.AuthorityCodeList{
			TaxAuthorityCode: a.Code(), Environment: pr.Environment, Name: name,
			Data: data, SHA256: res.SHA256, Entries: res.Entries, FetchedAt: model.StoredTime(s.cfg.Now()),
		})
	}
	if !store || len(rows) == 0 {
		return out, nil
	}
	if err := s.st.CodeLists().Save(ctx, rows); err != nil {
		return nil, err
	}
	out.Stored = true
	if err := s.keeper.reload(ctx, s); err != nil {
		s.cfg.Logger.WarnContext(ctx, "refreshed code lists not loaded", "error", err.Error())
	}
	return out, nil
}

// keeper loads the stored code lists into the authorities (each
// compiles them into lookup sets): at start, after a refresh made here,
// and every poll interval when another process refreshed them. Validation
// itself never reads the database.
type keeper struct {
	mu   sync.Mutex
	seen map[group]string // signature of the rows in use
	stop chan struct{}
	done chan struct{}
}

// group is the lists of one authority in one environment.
type group struct {
	authority string
	env       model.Environment
}

func newKeeper() *keeper {
	return &keeper{seen: map[group]string{}, stop: make(chan struct{}), done: make(chan struct{})}
}

// start loads the lists once (a failure is logged: validation then uses
// the lists shipped with einvoice) and polls for refreshes made elsewhere.
func (k *keeper) start(s *Service, every time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	if err := k.reload(ctx, s); err != nil {
		s.cfg.Logger.Warn("code lists not loaded; validation uses the lists shipped with einvoice until they are", "error", err.Error())
	}
	cancel()
	go func() {
		defer close(k.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-k.stop:
				return
			case <-t.C:
				ctx, cancel := context.WithTimeout(context.Background(), every)
				if err := k.reload(ctx, s); err != nil {
					s.cfg.Logger.Warn("code lists not reloaded", "error", err.Error())
				}
				cancel()
			}
		}
	}()
}

func (k *keeper) close() {
	select {
	case <-k.stop:
	default:
		close(k.stop)
	}
	<-k.done
}

// reload reads the versions of the stored lists (no bodies) and loads the
// groups that changed since the last load.
func (k *keeper) reload(ctx context.Context, s *Service) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	versions, err := s.st.CodeLists().Versions(ctx)
	if err != nil {
		return err
	}
	sigs := map[group][]string{}
	for _, v := range versions {
		g := group{v.TaxAuthorityCode, v.Environment}
		sigs[g] = append(sigs[g], v.Name+":"+v.SHA256+":"+v.FetchedAt.UTC().Format(time.RFC3339Nano))
	}
	for g, parts := range sigs {
		sort.Strings(parts)
		sig := strings.Join(parts, ",")
		if k.seen[g] == sig {
			continue
		}
		if err := k.load(ctx, s, g); err != nil {
			return err
		}
		k.seen[g] = sig
	}
	for g := range k.seen {
		if _, ok := sigs[g]; !ok {
			// The stored lists are gone: back to the shipped ones.
			if ca := listAuthority(s, g.authority); ca != nil {
				_ = ca.UseCodeLists(g.env, nil)
			}
			delete(k.seen, g)
		}
	}
	return nil
}

// load hands one group's stored lists to its authority. Lists the
// authority cannot use are logged and left out; the others are used.
func (k *keeper) load(ctx context.Context, s *Service, g group) error {
	ca := listAuthority(s, g.authority)
	if ca == nil {
		return nil
	}
	rows, err := s.st.CodeLists().List(ctx, g.authority, g.env)
	if err != nil {
		return err
	}
	lists := make([]model.CodeList, 0, len(rows))
	for _, r := range rows {
		if _, err := ca.CheckCodeList(r.Name, r.Data); err != nil {
			s.cfg.Logger.Warn("stored code list unusable, left out", "authority", g.authority, "environment", string(g.env), "list", r.Name, "error", err.Error())
			continue
		}
		lists = append(lists, model.CodeList{Name: r.Name, Data: r.Data, FetchedAt: r.FetchedAt})
	}
	return ca.UseCodeLists(g.env, lists)
}

func listAuthority(s *Service, code string) model.CodeListAuthority {
	a, ok := s.cfg.Authorities.Lookup(code)
	if !ok {
		return nil
	}
	ca, _ := a.(model.CodeListAuthority)
	return ca
}
