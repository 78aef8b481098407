// Package events records what happened to a project's resources, one event
// per state change, and lists them. An event is written by the package
// that makes the change, in the change's own transaction, with Append, so
// that a change is never committed without its event nor an event without
// its change:
//
//	err := st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
//		... change the resource ...
//		return events.Append(ctx, tx, events.Source{ProjectID: p, OrganizationID: o}, model.EventAPIKeyRevoked, view, now)
//	})
//
// The event table is also the webhooks' outbox: model/webhooks' dispatcher
// picks up every event not dispatched yet, so an event committed just
// before a process dies is still delivered.
package events

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Source is the project an event belongs to.
type Source struct {
	ProjectID      uuid.UUID
	OrganizationID uuid.UUID
}

// MaxDataBytes bounds the JSON of an event's resource.
const MaxDataBytes = 64 << 10

// Append records an event of type typ about object (the resource as the
// API shows it, marshalled to JSON) in tx, the transaction of the change.
func Append(ctx context.Context, tx *store.Store, src Source, typ string, object any, at time.Time) error {
	_, err := AppendEvent(ctx, tx, src, typ, object, at)
	return err
}

// AppendEvent is Append answering the recorded event.
func AppendEvent(ctx context.Context, tx *store.Store, src Source, typ string, object any, at time.Time) (*model.Event, error) {
	data, err := json.Marshal(object)
	if err != nil {
		return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	if len(data) > MaxDataBytes {
		return nil, model.Errorf(model.CodeInternal, "event %s: resource of %d bytes exceeds %d", typ, len(data), MaxDataBytes)
	}
	e := &model.Event{
		ID: model.NewID(), ProjectID: src.ProjectID, OrganizationID: src.OrganizationID, Type: typ,
		Data: data, CreatedAt: model.StoredTime(at),
	}
	if err := tx.Events().Append(ctx, e); err != nil {
		return nil, err
	}
	return e, nil
}

// View is an event as the API shows it.
type View struct {
	ID        uuid.UUID `json:"id"`
	Object    string    `json:"object"`
	Type      string    `json:"type"`
	ProjectID uuid.UUID `json:"project_id"`
	CreatedAt time.Time `json:"created_at"`
	Data      Data      `json:"data"`
}

// Data holds the resource an event is about.
type Data struct {
	Object json.RawMessage `json:"object"`
}

// ViewOf is the view of an event.
func ViewOf(e *model.Event) View {
	data := e.Data
	if len(data) == 0 {
		data = json.RawMessage("{}")
	}
	return View{ID: e.ID, Object: "event", Type: e.Type, ProjectID: e.ProjectID, CreatedAt: e.CreatedAt.UTC(), Data: Data{Object: data}}
}

// Service lists and reads events.
type Service struct {
	st *store.Store
}

// New builds the service over st.
func New(st *store.Store) *Service { return &Service{st: st} }

// MaxTypeFilters bounds the types one listing may filter on.
const MaxTypeFilters = 20

// ListInput asks for one page of a project's events.
type ListInput struct {
	model.PageInput
	// ProjectID names the project; an API key's is its own (it may be
	// omitted), a portal user must give one.
	ProjectID string
	// Types, when given, are the only types listed (exact types, or a
	// resource's prefix such as "invoice.*").
	Types []string
	// CreatedGTE and CreatedLT bound the creation time (RFC 3339).
	CreatedGTE, CreatedLT string
}

// List lists a project's events, newest first. API keys read their own
// project's; portal users any project of their organizations.
func (s *Service) List(ctx context.Context, who *model.Principal, in ListInput) (*model.List[View], error) {
	var p model.Problems
	page := in.Validate(&p)
	projectID := projectOf(&p, who, in.ProjectID)
	f := store.EventFilter{}
	if len(in.Types) > MaxTypeFilters {
		p.Add(model.ProblemValueError, "at most 20 types", "type")
	}
	for _, t := range in.Types {
		for _, one := range strings.Split(t, ",") {
			one = strings.TrimSpace(one)
			if one == "" {
				continue
			}
			if !ValidFilter(one) {
				p.Add(model.ProblemValueError, "Input should be an event type such as certification_run.passed, or resource.*", "type")
				continue
			}
			f.Types = append(f.Types, expand(one)...)
		}
	}
	f.From = parseTime(&p, in.CreatedGTE, "created_gte")
	f.Until = parseTime(&p, in.CreatedLT, "created_lt")
	if err := p.Err(); err != nil {
		return nil, err
	}
	if _, err := access.Project(ctx, s.st, who, projectID, access.Read); err != nil {
		return nil, err
	}
	if len(in.Types) > 0 && len(f.Types) == 0 {
		return &model.List[View]{Items: []View{}}, nil
	}
	rows, more, err := s.st.Events().List(ctx, projectID, f, page)
	if err != nil {
		return nil, err
	}
	return model.ListOf(rows, more, func(e *model.Event) uuid.UUID { return e.ID }, ViewOf), nil
}

// Get reads one event of the caller's project (API key) or of any project
// of the user's organizations.
func (s *Service) Get(ctx context.Context, who *model.Principal, projectID string, eventID uuid.UUID) (*View, error) {
	e, err := Find(ctx, s.st, who, projectID, eventID, access.Read)
	if err != nil {
		return nil, err
	}
	v := ViewOf(e)
	return &v, nil
}

// Find loads an event who may reach with need, answering not_found for
// any other. A portal user names the project (or leaves it empty: the
// event's own project is then checked).
func Find(ctx context.Context, st *store.Store, who *model.Principal, projectID string, eventID uuid.UUID, need access.Need) (*model.Event, error) {
	if who == nil {
		return nil, model.NotFound("event")
	}
	var pid uuid.UUID
	switch {
	case who.IsKey():
		pid = who.ProjectID
	case projectID != "":
		id, err := model.ParseUUID(projectID)
		if err != nil {
			return nil, model.Invalid(model.ProblemUUIDParsing, "Input should be a valid UUID", "project_id")
		}
		pid = id
	default:
		e, err := st.Events().ByID(ctx, eventID)
		if err != nil {
			return nil, model.NotFound("event")
		}
		pid = e.ProjectID
	}
	if _, err := access.Project(ctx, st, who, pid, need); err != nil {
		if model.AsError(err).Code == model.CodeNotFound {
			return nil, model.NotFound("event")
		}
		return nil, err
	}
	return st.Events().Get(ctx, pid, eventID)
}

// projectOf is the project a listing is about.
func projectOf(p *model.Problems, who *model.Principal, projectID string) uuid.UUID {
	if who != nil && who.IsKey() {
		if projectID == "" {
			return who.ProjectID
		}
		id, err := model.ParseUUID(projectID)
		if err != nil {
			p.Add(model.ProblemUUIDParsing, "Input should be a valid UUID", "project_id")
		}
		return id
	}
	if projectID == "" {
		p.Add(model.ProblemMissing, "Field required", "project_id")
		return uuid.Nil
	}
	return p.CheckUUID(projectID, "project_id")
}

func parseTime(p *model.Problems, v, field string) *time.Time {
	if v == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		p.Add(model.ProblemValueError, "Input should be an RFC 3339 date-time", field)
		return nil
	}
	t = model.StoredTime(t)
	return &t
}

// ValidFilter reports whether f names event types: "*", a known type, a
// resource's prefix with ".*" (invoice.*), or a type of a resource whose
// events are known (resource.action, for invoice lifecycle states added
// later).
func ValidFilter(f string) bool {
	if f == "*" {
		return true
	}
	res, action, ok := strings.Cut(f, ".")
	if !ok || action == "" || !isName(res) {
		return false
	}
	if _, known := resources()[res]; !known {
		return false
	}
	return action == "*" || isName(action)
}

// Matches reports whether an event type is selected by any of filters.
func Matches(filters []string, typ string) bool {
	for _, f := range filters {
		if f == "*" || f == typ {
			return true
		}
		if res, ok := strings.CutSuffix(f, ".*"); ok && strings.HasPrefix(typ, res+".") {
			return true
		}
	}
	return false
}

// expand turns a filter into the exact types it lists for a query.
func expand(f string) []string {
	if f == "*" {
		return append([]string(nil), model.EventTypes...)
	}
	res, ok := strings.CutSuffix(f, ".*")
	if !ok {
		return []string{f}
	}
	var out []string
	for _, t := range model.EventTypes {
		if strings.HasPrefix(t, res+".") {
			out = append(out, t)
		}
	}
	return out
}

func resources() map[string]struct{} {
	m := map[string]struct{}{}
	for _, t := range model.EventTypes {
		res, _, _ := strings.Cut(t, ".")
		m[res] = struct{}{}
	}
	m["test"] = struct{}{}
	return m
}

func isName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	return true
}
