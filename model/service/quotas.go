package service

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Quotas bound what one account may create, so that no tenant can grow its
// share of the database (and of the per-key rate limits) without end. A
// zero field takes its default; a negative one imposes no bound.
type Quotas struct {
	// OrganizationsPerUser bounds the organizations a user owns (signup's
	// included); default 10.
	OrganizationsPerUser int
	// ProjectsPerOrganization bounds an organization's projects; default 20.
	ProjectsPerOrganization int
	// KeysPerProject bounds a project's active (not revoked) API keys;
	// default 20.
	KeysPerProject int
	// RunsPerProject bounds a project's certification runs that are queued
	// or running at once; default 5. A start over it is rate_limited.
	RunsPerProject int
}

// Default quotas.
const (
	DefaultOrganizationsPerUser    = 10
	DefaultProjectsPerOrganization = 20
	DefaultKeysPerProject          = 20
	DefaultRunsPerProject          = 5
)

func (q *Quotas) defaults() {
	for _, f := range []struct {
		v   *int
		def int
	}{
		{&q.OrganizationsPerUser, DefaultOrganizationsPerUser},
		{&q.ProjectsPerOrganization, DefaultProjectsPerOrganization},
		{&q.KeysPerProject, DefaultKeysPerProject},
		{&q.RunsPerProject, DefaultRunsPerProject},
	} {
		if *f.v == 0 {
			*f.v = f.def
		}
	}
}

// quotaError is the error of a create over its quota.
func quotaError(what string, limit int, remedy string) error {
	return model.Errorf(model.CodeQuotaExceeded, "quota exceeded: at most %d %s; %s", limit, what, remedy)
}

// checkOrganizationQuota fails when the user owns as many organizations as
// allowed. Call it inside the creating transaction.
func (s *Service) checkOrganizationQuota(ctx context.Context, tx *store.Store, userID uuid.UUID) error {
	limit := s.cfg.Quotas.OrganizationsPerUser
	if limit < 0 {
		return nil
	}
	if err := tx.Users().Lock(ctx, userID); err != nil {
		return err
	}
	n, err := tx.Organizations().CountOwned(ctx, userID)
	if err != nil {
		return err
	}
	if n >= limit {
		return quotaError("organizations owned per user", limit, "ask the operator for more")
	}
	return nil
}

// checkProjectQuota fails when the organization has as many projects as
// allowed. Call it inside the creating transaction.
func (s *Service) checkProjectQuota(ctx context.Context, tx *store.Store, orgID uuid.UUID) error {
	limit := s.cfg.Quotas.ProjectsPerOrganization
	if limit < 0 {
		return nil
	}
	if err := tx.Organizations().Lock(ctx, orgID); err != nil {
		return err
	}
	n, err := tx.Projects().Count(ctx, orgID)
	if err != nil {
		return err
	}
	if n >= limit {
		return quotaError("projects per organization", limit, "ask the operator for more")
	}
	return nil
}

// checkKeyQuota fails when the project has as many active keys as allowed.
// Call it inside the creating transaction.
func (s *Service) checkKeyQuota(ctx context.Context, tx *store.Store, projectID uuid.UUID) error {
	limit := s.cfg.Quotas.KeysPerProject
	if limit < 0 {
		return nil
	}
	if err := tx.Projects().Lock(ctx, projectID); err != nil {
		return err
	}
	n, err := tx.Keys().CountActive(ctx, projectID)
	if err != nil {
		return err
	}
	if n >= limit {
		return quotaError("active API keys per project", limit, "revoke a key you no longer use")
	}
	return nil
}

// RunQuotaRetryAfter is the Retry-After of a run refused over its
// project's concurrency: about the time a run takes.
const RunQuotaRetryAfter = 10 * time.Second

// activeRunWindow is how long a queued or running run counts against its
// project: a workflow runs at most this long (workflows.runTimeout).
const activeRunWindow = time.Hour

// checkRunQuota fails with rate_limited when the project has as many
// certification runs queued or running as allowed. Inside a transaction it
// holds the project's lock, so that concurrent starts cannot pass it.
func (s *Service) checkRunQuota(ctx context.Context, tx *store.Store, projectID uuid.UUID) error {
	limit := s.cfg.Quotas.RunsPerProject
	if limit < 0 {
		return nil
	}
	if err := tx.Projects().Lock(ctx, projectID); err != nil {
		return err
	}
	n, err := tx.Runs().CountActive(ctx, projectID, s.now().Add(-activeRunWindow))
	if err != nil {
		return err
	}
	if n >= limit {
		e := model.Errorf(model.CodeRateLimited,
			"this project already has %d certification runs queued or running, the most allowed at once; retry when one ends", n)
		e.RetryAfter = RunQuotaRetryAfter
		return e
	}
	return nil
}
