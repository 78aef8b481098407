package graph

import (
	"context"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// endpointArgs reads the caller and a webhook endpoint's ids.
func endpointArgs(ctx context.Context, projectID, endpointID string) (*model.Principal, uuid.UUID, uuid.UUID, error) {
	u, err := principal(ctx)
	if err != nil {
		return nil, uuid.Nil, uuid.Nil, err
	}
	pid, err := parseID(projectID, "projectId")
	if err != nil {
		return nil, uuid.Nil, uuid.Nil, err
	}
	eid, err := parseID(endpointID, "endpointId")
	if err != nil {
		return nil, uuid.Nil, uuid.Nil, err
	}
	return u, pid, eid, nil
}

// limitSend limits a user's test pings and redeliveries, which make
// outbound calls, with the limiter of the workbench (the sandbox key
// limit), under a key of their own.
func (r *Resolver) limitSend(ctx context.Context, u *model.Principal) error {
	if r.work == nil || r.work.limit == nil {
		return nil
	}
	return r.work.limit(ctx, "webhook-send:"+u.UserID.String(), model.EnvironmentSandbox)
}
