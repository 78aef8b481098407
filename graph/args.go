package graph

import (
	"context"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/graph/gqlmodel"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/service"
)

// errUnauthenticated answers a field that needs a user when none came.
var errUnauthenticated = model.Errorf(model.CodeUnauthenticated, "authentication required: send Authorization: Bearer <access token>")

// principal returns the authenticated user of the request, or
// errUnauthenticated.
func principal(ctx context.Context) (*service.UserPrincipal, error) {
	if u := service.UserFrom(ctx); u != nil {
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

// pageInput turns connection arguments into the service's paging input.
func pageInput(first *int, after *string) service.PageInput {
	return service.PageInput{Limit: first, Cursor: deref(after)}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// edges turns one page of a list into Relay edges and page information.
func edges[V, E any](l *service.List[V], id func(*V) uuid.UUID, edge func(cursor string, node *V) E) ([]E, *gqlmodel.PageInfo) {
	out := make([]E, len(l.Items))
	info := &gqlmodel.PageInfo{HasNextPage: l.NextCursor != nil}
	for i := range l.Items {
		node := &l.Items[i]
		c := service.PageCursor(id(node))
		out[i] = edge(c, node)
		info.EndCursor = &c
	}
	return out, info
}

func organizationConnection(l *service.List[service.OrganizationView]) *gqlmodel.OrganizationConnection {
	e, info := edges(l, func(v *service.OrganizationView) uuid.UUID { return v.ID },
		func(c string, v *service.OrganizationView) *gqlmodel.OrganizationEdge {
			return &gqlmodel.OrganizationEdge{Cursor: c, Node: v}
		})
	return &gqlmodel.OrganizationConnection{Edges: e, PageInfo: info}
}

func projectConnection(l *service.List[service.ProjectView]) *gqlmodel.ProjectConnection {
	e, info := edges(l, func(v *service.ProjectView) uuid.UUID { return v.ID },
		func(c string, v *service.ProjectView) *gqlmodel.ProjectEdge {
			return &gqlmodel.ProjectEdge{Cursor: c, Node: v}
		})
	return &gqlmodel.ProjectConnection{Edges: e, PageInfo: info}
}

func apiKeyConnection(l *service.List[service.KeyView]) *gqlmodel.APIKeyConnection {
	e, info := edges(l, func(v *service.KeyView) uuid.UUID { return v.ID },
		func(c string, v *service.KeyView) *gqlmodel.APIKeyEdge {
			return &gqlmodel.APIKeyEdge{Cursor: c, Node: v}
		})
	return &gqlmodel.APIKeyConnection{Edges: e, PageInfo: info}
}

func auditLogConnection(l *service.List[service.AuditView]) *gqlmodel.AuditLogConnection {
	e, info := edges(l, func(v *service.AuditView) uuid.UUID { return v.ID },
		func(c string, v *service.AuditView) *gqlmodel.AuditLogEdge {
			return &gqlmodel.AuditLogEdge{Cursor: c, Node: v}
		})
	return &gqlmodel.AuditLogConnection{Edges: e, PageInfo: info}
}

func certificationRunConnection(l *service.List[service.CertificationRunView]) *gqlmodel.CertificationRunConnection {
	e, info := edges(l, func(v *service.CertificationRunView) uuid.UUID { return v.RunID },
		func(c string, v *service.CertificationRunView) *gqlmodel.CertificationRunEdge {
			return &gqlmodel.CertificationRunEdge{Cursor: c, Node: v}
		})
	return &gqlmodel.CertificationRunConnection{Edges: e, PageInfo: info}
}

// pointers relays a service's stream of values as the stream of pointers a
// gqlgen subscription returns. It closes when in closes or ctx ends (the
// client unsubscribed), so that the producer, which also watches ctx, can
// stop.
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
