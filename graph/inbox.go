package graph

import (
	"context"

	"github.com/einvoice-ng/einvoice/model"
)

// inboxPrincipal is a member of the project's organization reading its
// inbox; another tenant's project is not found. Pulling and deciding take
// acquire's principal (owners and admins, the project's rate limit and
// in-flight bound), as REST's routes take the key's scope, its limits and
// the invoices' in-flight bound.
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
