package graph

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/einvoice-ng/einvoice/model"
)

// depthLimitCode is the extensions.code of an operation nested too deeply,
// beside gqlgen's COMPLEXITY_LIMIT_EXCEEDED.
const depthLimitCode = "DEPTH_LIMIT_EXCEEDED"

// DepthLimit rejects operations whose selections nest deeper than Limit
// (fragments are followed; introspection fields are not counted, so tools
// can always load the schema). It complements the complexity limit, which
// bounds breadth.
type DepthLimit struct {
	Limit int
}

var (
	_ graphql.HandlerExtension        = DepthLimit{}
	_ graphql.OperationContextMutator = DepthLimit{}
)

// ExtensionName implements graphql.HandlerExtension.
func (DepthLimit) ExtensionName() string { return "DepthLimit" }

// Validate implements graphql.HandlerExtension.
func (DepthLimit) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext implements graphql.OperationContextMutator.
func (d DepthLimit) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	if depth := selectionDepth(oc.Operation.SelectionSet, 0, d.Limit); depth > d.Limit {
		err := gqlerror.Errorf("operation nests deeper than the limit of %d", d.Limit)
		errcode.Set(err, depthLimitCode)
		return err
	}
	return nil
}

// selectionDepth returns the depth of set below depth, stopping as soon as
// it passes limit.
func selectionDepth(set ast.SelectionSet, depth, limit int) int {
	deepest := depth
	for _, sel := range set {
		if deepest > limit {
			break
		}
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			if strings.HasPrefix(s.Name, "__") {
				continue
			}
			d = selectionDepth(s.SelectionSet, depth+1, limit)
		case *ast.InlineFragment:
			d = selectionDepth(s.SelectionSet, depth, limit)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				d = selectionDepth(s.Definition.SelectionSet, depth, limit)
			}
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// pageCost is how many items a connection is expected to return: its first
// argument, or the default page size.
func pageCost(first *int) int {
	if first != nil && *first > 0 {
		return min(*first, model.MaxPageLimit)
	}
	return model.DefaultPageLimit
}

// complexity makes the complexity limit count objects: with scalars free
// (see NewHandler), every object field costs one plus its selection, and a
// connection costs its page size (first, default 50) times its selection.
// The portal's whole me tree at the default page sizes, 50 organizations ×
// 50 projects × 50 keys with their edges, pages and usage, costs about
// 400,000.
func complexity() ComplexityRoot {
	var c ComplexityRoot
	conn := func(child int, first *int) int { return pageCost(first) * child }
	c.Viewer.Organizations = func(child int, first *int, _ *string) int { return conn(child, first) }
	c.Organization.Projects = func(child int, first *int, _ *string) int { return conn(child, first) }
	c.Project.APIKeys = func(child int, first *int, _ *string) int { return conn(child, first) }
	c.Project.CertificationRuns = func(child int, first *int, _ *string) int { return conn(child, first) }
	c.Query.AuditLogs = func(child int, _ *string, _ *string, first *int, _ *string) int { return conn(child, first) }
	return c
}
