package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/idempotency"
	"github.com/einvoice-ng/einvoice/model/runs"
)

// startedRun is, for a startCertificationRun field of a request under an
// Idempotency-Key, the run an earlier attempt of the same request started
// for this field (its process died, or it failed, after the run was
// recorded), as who sees it now, or nil. When there is none, the returned context
// records the run the field starts under the request's claim, in the
// transaction that records the run: a retry then finds it here and answers
// with that run instead of starting another. Without a key, ctx is
// returned as it is.
//
// The field's response path (its alias or name) names its slot: a
// document starting several runs records each under its own field, and
// the same document retried finds each field's run.
func (r *mutationResolver) startedRun(ctx context.Context, who *model.Principal) (context.Context, *runs.View, error) {
	c := idempotency.ClaimFrom(ctx)
	fc := graphql.GetFieldContext(ctx)
	if c == nil || fc == nil {
		return ctx, nil, nil
	}
	slot := "graphql:" + fc.Path().String()
	ref, err := c.Effect(ctx, slot)
	if err != nil {
		return ctx, nil, err
	}
	if ref != "" {
		id, err := uuid.Parse(ref)
		if err != nil {
			return ctx, nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
		}
		v, err := r.app.Runs.Get(ctx, who, id)
		return ctx, v, err
	}
	return c.BindEffect(ctx, slot, func(result any) (string, error) {
		v, ok := result.(*runs.View)
		if !ok || v == nil {
			return "", model.Errorf(model.CodeInternal, "Internal Server Error")
		}
		return v.RunID.String(), nil
	}), nil, nil
}
