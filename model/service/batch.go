package service

import (
	"context"
	"sort"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// Batch use cases answer for many parents at once, so that a GraphQL
// dataloader can resolve a whole level of a tree (every project of every
// organization, every key of every project) in one query. They apply the
// same tenant checks as their one-parent counterparts: a parent outside the
// caller's organizations gets an empty list or no entry, never its rows.

// PageCursor returns the cursor of the item with id, the same value a
// List's NextCursor holds when that item ends a page. GraphQL connections
// give it to every edge.
func PageCursor(id uuid.UUID) string { return *cursorFor(id) }

// OrganizationsByID returns the caller's organizations among ids, by id;
// an id that is not one of them has no entry.
func (s *Service) OrganizationsByID(ctx context.Context, u *UserPrincipal, ids []uuid.UUID) (map[uuid.UUID]*OrganizationView, error) {
	rows, err := s.store.Organizations().GetMany(ctx, u.UserID, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]*OrganizationView, len(rows))
	for i := range rows {
		v := orgView(&rows[i])
		out[v.ID] = &v
	}
	return out, nil
}

// ProjectsByOrganization lists one page of projects of each organization in
// orgIDs, by organization id. Every id gets a list; one that is not the
// caller's gets an empty list.
func (s *Service) ProjectsByOrganization(ctx context.Context, u *UserPrincipal, orgIDs []uuid.UUID, in PageInput) (map[uuid.UUID]*List[ProjectView], error) {
	var p model.Problems
	page := in.validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	rows, err := s.store.Projects().ListForOrganizations(ctx, u.UserID, orgIDs, page)
	if err != nil {
		return nil, err
	}
	return group(orgIDs, rows, page.Limit,
		func(r *model.Project) uuid.UUID { return r.OrganizationID },
		func(r *model.Project) uuid.UUID { return r.ID },
		func(r *model.Project) ProjectView { return *s.projectView(r) }), nil
}

// KeysByProject lists one page of keys (without secrets) of each project in
// projectIDs, by project id. Every id gets a list; one that is not the
// caller's gets an empty list.
func (s *Service) KeysByProject(ctx context.Context, u *UserPrincipal, projectIDs []uuid.UUID, in PageInput) (map[uuid.UUID]*List[KeyView], error) {
	var p model.Problems
	page := in.validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	rows, err := s.store.Keys().ListForProjects(ctx, u.UserID, projectIDs, page)
	if err != nil {
		return nil, err
	}
	return group(projectIDs, rows, page.Limit,
		func(r *model.APIKey) uuid.UUID { return r.ProjectID },
		func(r *model.APIKey) uuid.UUID { return r.ID },
		func(r *model.APIKey) KeyView { return s.withPendingUse(keyView(r)) }), nil
}

// group splits rows (at most limit+1 per parent, ordered by parent then id)
// into one List per parent. NextCursor names the last item shown, as the
// one-parent lists do.
func group[R, V any](parents []uuid.UUID, rows []R, limit int, parentOf, idOf func(*R) uuid.UUID, view func(*R) V) map[uuid.UUID]*List[V] {
	out := make(map[uuid.UUID]*List[V], len(parents))
	for _, id := range parents {
		out[id] = &List[V]{Items: []V{}}
	}
	last := make(map[uuid.UUID]uuid.UUID, len(parents))
	for i := range rows {
		r := &rows[i]
		parent := parentOf(r)
		l, ok := out[parent]
		if !ok {
			continue
		}
		if len(l.Items) >= limit {
			l.NextCursor = cursorFor(last[parent])
			continue
		}
		l.Items = append(l.Items, view(r))
		last[parent] = idOf(r)
	}
	return out
}

// ProjectUsage reports a portal user's project usage per operation and day,
// as Usage does for the project's own API keys: the same defaults (the last
// 30 days), bounds and pending counts. Another tenant's project is not found.
func (s *Service) ProjectUsage(ctx context.Context, u *UserPrincipal, projectID uuid.UUID, in UsageInput) (*UsageReport, error) {
	reps, err := s.UsageByProject(ctx, u, []uuid.UUID{projectID}, in)
	if err != nil {
		return nil, err
	}
	rep, ok := reps[projectID]
	if !ok {
		return nil, model.NotFound("project")
	}
	return rep, nil
}

// UsageByProject reports the usage of several of the caller's projects at
// once, by project id, with ProjectUsage's rules; a project that is not the
// caller's has no entry. It costs two queries whatever the number of
// projects: the tenant check and the counters.
func (s *Service) UsageByProject(ctx context.Context, u *UserPrincipal, projectIDs []uuid.UUID, in UsageInput) (map[uuid.UUID]*UsageReport, error) {
	from, to, keyID, err := s.usageRange(in)
	if err != nil {
		return nil, err
	}
	ids, err := s.store.Projects().IDs(ctx, u.UserID, projectIDs)
	if err != nil {
		return nil, err
	}
	rows, err := s.store.Usage().ListForProjects(ctx, u.UserID, ids, keyID, from, to)
	if err != nil {
		return nil, err
	}
	byProject := make(map[uuid.UUID][]model.UsageCounter, len(ids))
	for _, r := range rows {
		byProject[r.ProjectID] = append(byProject[r.ProjectID], r)
	}
	out := make(map[uuid.UUID]*UsageReport, len(ids))
	for _, id := range ids {
		counters := append(byProject[id], s.usage.pending(id, keyID, from, to)...)
		out[id] = usageReport(id, keyID, from, to, counters)
	}
	return out, nil
}

// usageRange checks a usage query the way Usage does and returns its days
// (YYYY-MM-DD) and key filter.
func (s *Service) usageRange(in UsageInput) (from, to string, keyID uuid.UUID, err error) {
	var p model.Problems
	today := s.now().Truncate(24 * time.Hour)
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
		} else if t.Sub(f) > maxUsageDays*24*time.Hour {
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

// usageReport sums counters into a report, as Usage does.
func usageReport(projectID, keyID uuid.UUID, from, to string, rows []model.UsageCounter) *UsageReport {
	type dayOp struct{ day, op string }
	daily := map[dayOp]int64{}
	rep := &UsageReport{ProjectID: projectID, From: from, To: to, ByOperation: map[string]int64{}, Daily: []DailyUsage{}}
	if keyID != uuid.Nil {
		rep.KeyID = &keyID
	}
	for _, r := range rows {
		rep.Total += r.Count
		rep.ByOperation[r.Operation] += r.Count
		daily[dayOp{r.Day, r.Operation}] += r.Count
	}
	for k, n := range daily {
		rep.Daily = append(rep.Daily, DailyUsage{Date: k.day, Operation: k.op, Count: n})
	}
	sort.Slice(rep.Daily, func(i, j int) bool {
		if rep.Daily[i].Date != rep.Daily[j].Date {
			return rep.Daily[i].Date < rep.Daily[j].Date
		}
		return rep.Daily[i].Operation < rep.Daily[j].Operation
	})
	return rep
}
