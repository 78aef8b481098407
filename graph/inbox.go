package graph

import (
	"context"

	"github.com/einvoice-ng/einvoice/model"
)

// inboxPrincipal is a member of the project's organization reading its
// inbox; another tenant's project is not found.
func (r *Resolver) inboxPrincipal(ctx context.Context, projectID string) (*model.Principal, error) {
	u, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	pid, err := parseID(projectID, "projectId")
	if err != nil {
		return nil, err
	}
	return r.app.Invoices.Workbench(ctx, u, pid, false)
}
