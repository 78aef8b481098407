package graph

import (
	"context"

	"github.com/einvoice-ng/einvoice/model"
)

// inboxPrincipal is the caller acting on a project's inbox: any member
// reads, owners and admins pull and decide (write); another tenant's
// project is not found.
func (r *Resolver) inboxPrincipal(ctx context.Context, projectID string, write bool) (*model.Principal, error) {
	u, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	pid, err := parseID(projectID, "projectId")
	if err != nil {
		return nil, err
	}
	return r.app.Invoices.Workbench(ctx, u, pid, write)
}
