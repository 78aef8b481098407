package service

import (
	"context"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// CertificationRunsByProject lists one page of runs (newest first, without
// their steps) of each project in projectIDs, by project id, for a GraphQL
// dataloader. Every id gets a list; one that is not the caller's gets an
// empty list. The tenant check is one query for all projects; the runs are
// still read project by project, as ProjectCertificationRuns reads them.
func (s *Service) CertificationRunsByProject(ctx context.Context, u *UserPrincipal, projectIDs []uuid.UUID, in PageInput) (map[uuid.UUID]*List[CertificationRunView], error) {
	var p model.Problems
	page := in.validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]*List[CertificationRunView], len(projectIDs))
	for _, id := range projectIDs {
		out[id] = &List[CertificationRunView]{Items: []CertificationRunView{}}
	}
	mine, err := s.store.ProjectIDsForUser(ctx, u.UserID, projectIDs)
	if err != nil {
		return nil, err
	}
	for _, id := range mine {
		rows, more, err := s.store.CertificationRunsForProject(ctx, id, page)
		if err != nil {
			return nil, err
		}
		l := out[id]
		for i := range rows {
			l.Items = append(l.Items, *runView(&rows[i], nil))
		}
		if more {
			l.NextCursor = cursorFor(rows[len(rows)-1].ID)
		}
	}
	return out, nil
}
