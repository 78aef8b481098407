package graph

import (
	"context"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// faultAccess checks that the user may reach the project (write: owners and
// admins), then applies the project's rate limit and in-flight cap, as the
// workbench does: the faults' calls reach the NRS sandbox stand-in.
func (r *Resolver) faultAccess(ctx context.Context, projectID string, write bool) (*model.Principal, uuid.UUID, func(), error) {
	u, err := principal(ctx)
	if err != nil {
		return nil, uuid.Nil, nil, err
	}
	k, release, err := r.acquire(ctx, projectID, write)
	if err != nil {
		return nil, uuid.Nil, nil, err
	}
	return u, k.ProjectID, release, nil
}

// inFaultInput places a fault's problems under the input argument.
func inFaultInput(err error) error { return at(err, []any{"input"}, nil) }
