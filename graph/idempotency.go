package graph

import (
	"context"
	"encoding/json"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/graph/gqlmodel"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/idempotency"
	"github.com/einvoice-ng/einvoice/model/keys"
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

// keptKey is, for a createApiKey or rotateApiKey field of a request under
// an Idempotency-Key, the key and secret an earlier attempt of the same
// request answered for this field (its process died, or it failed, after
// the key was created or rotated), as they were answered then, or nil.
// When there is none, the returned context records the key's id and that
// answer, sealed (idempotency.Claim.BindSealedEffect), under the request's
// claim in the transaction that creates or rotates the key: a retry then
// finds them here and answers with them instead of creating another key
// or rotating it again. Without a key, ctx is returned as it is.
//
// The field's response path names its slot, as for startedRun.
func keptKey(ctx context.Context) (context.Context, *gqlmodel.APIKeySecretPayload, error) {
	c := idempotency.ClaimFrom(ctx)
	fc := graphql.GetFieldContext(ctx)
	if c == nil || fc == nil {
		return ctx, nil, nil
	}
	slot := "graphql:" + fc.Path().String()
	_, answer, err := c.SealedEffect(ctx, slot)
	if err != nil {
		return ctx, nil, err
	}
	if answer != nil {
		var out keys.WithSecret
		if err := json.Unmarshal(answer, &out); err != nil {
			return ctx, nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
		}
		return ctx, &gqlmodel.APIKeySecretPayload{Key: &out.View, ClientSecret: out.ClientSecret}, nil
	}
	return c.BindSealedEffect(ctx, slot, func(result any) (string, []byte, error) {
		k, ok := result.(*keys.WithSecret)
		if !ok || k == nil {
			return "", nil, model.Errorf(model.CodeInternal, "Internal Server Error")
		}
		answer, err := json.Marshal(k)
		if err != nil {
			return "", nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
		}
		return k.ID.String(), answer, nil
	}), nil, nil
}
