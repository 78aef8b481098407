package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// DefaultProductionBaseURL is NRS's production API host: the only place
// production code lists are refreshed from.
const DefaultProductionBaseURL = "https://einvoice1.nrs.gov.ng"

// CodeListFetcher fetches one of a tax authority's code lists as its API
// serves it: for NRS the "data" array of GET
// /api/v1/invoice/resources/{name}. The service declares it; the workflows
// package implements it over the MBS client.
type CodeListFetcher interface {
	FetchCodeList(ctx context.Context, name string) ([]byte, error)
}

// CodeListRefresh is the outcome of a refresh.
type CodeListRefresh struct {
	ProjectID   uuid.UUID         `json:"project_id"`
	Environment model.Environment `json:"environment"`
	// Stored says whether the lists fetched were stored (and are now used
	// by every process of the environment).
	Stored bool             `json:"stored"`
	Lists  []CodeListResult `json:"lists"`
}

// CodeListResult is what a refresh got for one list.
type CodeListResult struct {
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
func (r *CodeListRefresh) Fetched() (ok []string, failed []string) {
	for _, l := range r.Lists {
		if l.Err != nil {
			failed = append(failed, l.Name+": "+l.Err.Error())
		} else {
			ok = append(ok, l.Name)
		}
	}
	return ok, failed
}

// OfficialBaseURL is the authority host code lists of env may be stored
// from: the configured sandbox for sandbox, NRS's production host for
// production.
func (s *Service) OfficialBaseURL(env model.Environment) string {
	switch env {
	case model.EnvironmentSandbox:
		return strings.TrimRight(s.cfg.SandboxBaseURL, "/")
	case model.EnvironmentProduction:
		return strings.TrimRight(s.cfg.ProductionBaseURL, "/")
	}
	return ""
}

// RefreshCodeLists fetches every code list of the project's authority with
// f, checks each, and, when store is set, stores those the authority
// served (each replacing the stored list of its name in the project's
// environment) and uses them at once in this process. A list that cannot
// be fetched or parsed is reported and left as it was. The caller decides
// store: lists are shared by every project of the environment, so they may
// only be stored when f talks to the environment's official host
// (OfficialBaseURL).
func (s *Service) RefreshCodeLists(ctx context.Context, projectID uuid.UUID, f CodeListFetcher, store bool) (*CodeListRefresh, error) {
	pr, err := s.store.Projects().ByID(ctx, projectID)
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
	stored, err := s.store.CodeLists().List(ctx, a.Code(), pr.Environment)
	if err != nil {
		return nil, err
	}
	before := make(map[string]string, len(stored))
	for _, l := range stored {
		before[l.Name] = l.SHA256
	}
	out := &CodeListRefresh{ProjectID: pr.ID, Environment: pr.Environment}
	var rows []model.AuthorityCodeList
	for _, name := range ca.CodeListNames() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res := CodeListResult{Name: name}
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
			Data: data, SHA256: res.SHA256, Entries: res.Entries, FetchedAt: s.now(),
		})
	}
	if !store || len(rows) == 0 {
		return out, nil
	}
	if err := s.store.CodeLists().Save(ctx, rows); err != nil {
		return nil, err
	}
	out.Stored = true
	if err := s.codeLists.reload(ctx, s); err != nil {
		s.cfg.Logger.WarnContext(ctx, "refreshed code lists not loaded", "error", err.Error())
	}
	return out, nil
}

// codeListKeeper loads the stored code lists into the authorities (each
// compiles them into lookup sets): at start, after a refresh made here,
// and every poll interval when another process refreshed them. Validation
// itself never reads the database.
type codeListKeeper struct {
	mu   sync.Mutex
	seen map[codeListGroup]string // signature of the rows in use
	stop chan struct{}
	done chan struct{}
}

// codeListGroup is the lists of one authority in one environment.
type codeListGroup struct {
	authority string
	env       model.Environment
}

func newCodeListKeeper() *codeListKeeper {
	return &codeListKeeper{seen: map[codeListGroup]string{}, stop: make(chan struct{}), done: make(chan struct{})}
}

// start loads the lists once (a failure is logged: validation then uses
// the lists shipped with einvoice) and polls for refreshes made elsewhere.
func (k *codeListKeeper) start(s *Service, every time.Duration) {
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

func (k *codeListKeeper) close() {
	select {
	case <-k.stop:
	default:
		close(k.stop)
	}
	<-k.done
}

// reload reads the versions of the stored lists (no bodies) and loads the
// groups that changed since the last load.
func (k *codeListKeeper) reload(ctx context.Context, s *Service) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	versions, err := s.store.CodeLists().Versions(ctx)
	if err != nil {
		return err
	}
	sigs := map[codeListGroup][]string{}
	for _, v := range versions {
		g := codeListGroup{v.TaxAuthorityCode, v.Environment}
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
			if ca := codeListAuthority(s, g.authority); ca != nil {
				_ = ca.UseCodeLists(g.env, nil)
			}
			delete(k.seen, g)
		}
	}
	return nil
}

// load hands one group's stored lists to its authority. Lists the
// authority cannot use are logged and left out; the others are used.
func (k *codeListKeeper) load(ctx context.Context, s *Service, g codeListGroup) error {
	ca := codeListAuthority(s, g.authority)
	if ca == nil {
		return nil
	}
	rows, err := s.store.CodeLists().List(ctx, g.authority, g.env)
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

func codeListAuthority(s *Service, code string) model.CodeListAuthority {
	a, ok := s.cfg.Authorities.Lookup(code)
	if !ok {
		return nil
	}
	ca, _ := a.(model.CodeListAuthority)
	return ca
}
