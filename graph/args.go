package graph

import (
	"context"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/graph/gqlmodel"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/audit"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/runs"
)

// errUnauthenticated answers a field that needs a user when none came.
var errUnauthenticated = model.Errorf(model.CodeUnauthenticated, "authentication required: send Authorization: Bearer <access token>")

// principal returns the authenticated user of the request, or
// errUnauthenticated.
func principal(ctx context.Context) (*model.Principal, error) {
	if u := model.PrincipalFrom(ctx); u != nil {
		return u, nil
	}
	return nil, errUnauthenticated
}

// parseID decodes an ID argument, invalid (uuid_parsing) at loc when it is
// not a UUID.
func parseID(v string, loc ...any) (uuid.UUID, error) {
	id, err := model.ParseUUID(v)
	if err != nil {
		return uuid.Nil, model.Invalid(model.ProblemUUIDParsing, "Input should be a valid UUID", loc...)
	}
	return id, nil
}

// pageInput turns connection arguments into the application's paging input.
func pageInput(first *int, after *string) model.PageInput {
	return model.PageInput{Limit: first, Cursor: deref(after)}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// edges turns one page of a list into Relay edges and page information.
func edges[V, E any](l *model.List[V], id func(*V) uuid.UUID, edge func(cursor string, node *V) E) ([]E, *gqlmodel.PageInfo) {
	out := make([]E, len(l.Items))
	info := &gqlmodel.PageInfo{HasNextPage: l.NextCursor != nil}
	for i := range l.Items {
		node := &l.Items[i]
		c := model.PageCursor(id(node))
		out[i] = edge(c, node)
		info.EndCursor = &c
	}
	return out, info
}

func organizationConnection(l *model.List[portal.OrganizationView]) *gqlmodel.OrganizationConnection {
	e, info := edges(l, func(v *portal.OrganizationView) uuid.UUID { return v.ID },
		func(c string, v *portal.OrganizationView) *gqlmodel.OrganizationEdge {
			return &gqlmodel.OrganizationEdge{Cursor: c, Node: v}
		})
	return &gqlmodel.OrganizationConnection{Edges: e, PageInfo: info}
}

func projectConnection(l *model.List[portal.ProjectView]) *gqlmodel.ProjectConnection {
	e, info := edges(l, func(v *portal.ProjectView) uuid.UUID { return v.ID },
		func(c string, v *portal.ProjectView) *gqlmodel.ProjectEdge {
			return &gqlmodel.ProjectEdge{Cursor: c, Node: v}
		})
	return &gqlmodel.ProjectConnection{Edges: e, PageInfo: info}
}

func apiKeyConnection(l *model.List[keys.View]) *gqlmodel.APIKeyConnection {
	e, info := edges(l, func(v *keys.View) uuid.UUID { return v.ID },
		func(c string, v *keys.View) *gqlmodel.APIKeyEdge {
			return &gqlmodel.APIKeyEdge{Cursor: c, Node: v}
		})
	return &gqlmodel.APIKeyConnection{Edges: e, PageInfo: info}
}

func auditLogConnection(l *model.List[audit.View]) *gqlmodel.AuditLogConnection {
	e, info := edges(l, func(v *audit.View) uuid.UUID { return v.ID },
		func(c string, v *audit.View) *gqlmodel.AuditLogEdge {
			return &gqlmodel.AuditLogEdge{Cursor: c, Node: v}
		})
	return &gqlmodel.AuditLogConnection{Edges: e, PageInfo: info}
}

func certificationRunConnection(l *model.List[runs.View]) *gqlmodel.CertificationRunConnection {
	e, info := edges(l, func(v *runs.View) uuid.UUID { return v.RunID },
		func(c string, v *runs.View) *gqlmodel.CertificationRunEdge {
			return &gqlmodel.CertificationRunEdge{Cursor: c, Node: v}
		})
	return &gqlmodel.CertificationRunConnection{Edges: e, PageInfo: info}
}

// pointers relays the application's stream of values as the stream of
// pointers a gqlgen subscription returns. It closes when in closes or ctx
// ends (the client unsubscribed), so that the producer, which also watches
// ctx, can stop.
func pointers[T any](ctx context.Context, in <-chan T) <-chan *T {
	out := make(chan *T)
	go func() {
		defer close(out)
		for v := range in {
			select {
			case out <- &v:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}
