package service

import (
	"context"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// CertificationRunsByProject lists one page of runs (newest first, without
// their steps) of each project in projectIDs, by project id, for a GraphQL
// dataloader. Every id gets a list; one that is not the caller's gets an
// empty list. One query reads every project's page, tenant check included.
func (s *Service) CertificationRunsByProject(ctx context.Context, u *UserPrincipal, projectIDs []uuid.UUID, in PageInput) (map[uuid.UUID]*List[CertificationRunView], error) {
	var p model.Problems
	page := in.validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	rows, err := s.store.Runs().ListForProjects(ctx, u.UserID, projectIDs, page)
	if err != nil {
		return nil, err
	}
	return group(projectIDs, rows, page.Limit,
		func(r *model.CertificationRun) uuid.UUID { return r.ProjectID },
		func(r *model.CertificationRun) uuid.UUID { return r.ID },
		func(r *model.CertificationRun) CertificationRunView { return *runView(r, nil) }), nil
}

// CertificationRunCounts counts every project's runs by status, for
// operators' metrics; every status is present, zero when no run has it.
func (s *Service) CertificationRunCounts(ctx context.Context) (map[model.RunStatus]int64, error) {
	counts, err := s.store.Runs().CountByStatus(ctx)
	if err != nil {
		return nil, err
	}
	for _, st := range model.RunStatuses {
		if _, ok := counts[st]; !ok {
			counts[st] = 0
		}
	}
	return counts, nil
}
