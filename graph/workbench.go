package graph

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"sync"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// DefaultWorkbenchConcurrency is how many workbench operations (invoice
// validation, IRN, QR, rendering) one project may have in flight at once.
const DefaultWorkbenchConcurrency = 4

// RateLimiter counts one request of a project under key against the limit
// of its environment; it answers a rate_limited model.Error when over.
// rest.ProjectLimiter builds one over the API keys' limits and store.
type RateLimiter func(ctx context.Context, key string, env model.Environment) error

// RateLimiterN is a RateLimiter counting n requests at once.
type RateLimiterN func(ctx context.Context, key string, env model.Environment, n int) error

// workbench bounds the invoice operations portal users run on their
// projects: the project's rate limit (the one its API keys have) and a
// per-project cap on operations in flight.
type workbench struct {
	limit  RateLimiter
	limitN RateLimiterN
	max    int

	mu       sync.Mutex
	inflight map[uuid.UUID]int
}

func newWorkbench(limit RateLimiter, limitN RateLimiterN, max int) *workbench {
	return &workbench{limit: limit, limitN: limitN, max: max, inflight: map[uuid.UUID]int{}}
}

// acquire authorizes u on a project as invoices.Service.Workbench does,
// applies the limits and returns the principal with a release function.
func (r *Resolver) acquire(ctx context.Context, projectID string, write bool) (*model.Principal, func(), error) {
	return r.acquireN(ctx, projectID, write, 1)
}

// acquireN is acquire for an operation counting as n requests against the
// project's rate limit (an invoice batch of n invoices).
func (r *Resolver) acquireN(ctx context.Context, projectID string, write bool, n int) (*model.Principal, func(), error) {
	u, err := principal(ctx)
	if err != nil {
		return nil, nil, err
	}
	pid, err := parseID(projectID, "projectId")
	if err != nil {
		return nil, nil, err
	}
	k, err := r.app.Invoices.Workbench(ctx, u, pid, write)
	if err != nil {
		return nil, nil, err
	}
	w := r.work
	switch {
	case n > 1 && w.limitN != nil:
		if err := w.limitN(ctx, "portal:"+k.ProjectID.String(), k.Environment, n); err != nil {
			return nil, nil, err
		}
	case w.limit != nil:
		if err := w.limit(ctx, "portal:"+k.ProjectID.String(), k.Environment); err != nil {
			return nil, nil, err
		}
	}
	w.mu.Lock()
	if w.inflight[k.ProjectID] >= w.max {
		w.mu.Unlock()
		return nil, nil, model.Errorf(model.CodeRateLimited, "this project already has %d invoice operations in flight; retry when one ends", w.max)
	}
	w.inflight[k.ProjectID]++
	w.mu.Unlock()
	release := func() {
		w.mu.Lock()
		if w.inflight[k.ProjectID]--; w.inflight[k.ProjectID] <= 0 {
			delete(w.inflight, k.ProjectID)
		}
		w.mu.Unlock()
	}
	return k, release, nil
}

// inputIssues moves issue locations from the REST body ("body", ...) to
// the GraphQL argument ("input", ...).
func inputIssues(list []model.Issue) {
	for i := range list {
		if len(list[i].Loc) > 0 && list[i].Loc[0] == "body" {
			list[i].Loc[0] = "input"
		}
	}
}

// viewJSON turns a rendered view into the JSON value REST answers.
func viewJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, model.Wrap(model.CodeInternal, err, internalMessage)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, model.Wrap(model.CodeInternal, err, internalMessage)
	}
	return out, nil
}

// temporalUI builds links to workflow executions in the Temporal Web UI.
type temporalUI struct {
	base, namespace string
}

// link is the page of a workflow execution ("" without a UI).
func (t temporalUI) link(workflowID string, runID *string) string {
	if t.base == "" {
		return ""
	}
	u := strings.TrimRight(t.base, "/") + "/namespaces/" + url.PathEscape(t.namespace) + "/workflows/" + url.PathEscape(workflowID)
	if runID != nil && *runID != "" {
		u += "/" + url.PathEscape(*runID) + "/history"
	}
	return u
}
