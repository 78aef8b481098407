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
	"github.com/einvoice-ng/einvoice/model/webhooks"
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
// answer, sealed, under the request's claim in the transaction that
// creates or rotates the key (keptSealed): a retry then finds them here and
// answers with them instead of creating another key or rotating it again.
// Without a key, ctx is returned as it is.
func keptKey(ctx context.Context) (context.Context, *gqlmodel.APIKeySecretPayload, error) {
	ctx, out, err := keptSealed(ctx, func(k *keys.WithSecret) string { return k.ID.String() })
	if err != nil || out == nil {
		return ctx, nil, err
	}
	return ctx, &gqlmodel.APIKeySecretPayload{Key: &out.View, ClientSecret: out.ClientSecret}, nil
}

// keptEndpoint is keptKey for a createWebhookEndpoint or
// rotateWebhookEndpointSecret field: a retry after the process died
// answers with the endpoint and signing secret first answered, and never
// creates a second endpoint (every event would be delivered twice) or
// rotates the secret again.
func keptEndpoint(ctx context.Context) (context.Context, *gqlmodel.WebhookEndpointSecretPayload, error) {
	ctx, out, err := keptSealed(ctx, func(e *webhooks.EndpointWithSecret) string { return e.ID.String() })
	if err != nil || out == nil {
		return ctx, nil, err
	}
	return ctx, &gqlmodel.WebhookEndpointSecretPayload{Endpoint: &out.EndpointView, Secret: out.Secret}, nil
}

// keptSealed is, for a field of a request under an Idempotency-Key whose
// use case answers a *T holding a secret shown once, the *T an earlier
// attempt of the same request answered for this field, as it was answered
// then, or nil. When there is none, the returned context records id of
// the use case's result and the result as JSON, sealed
// (idempotency.Claim.BindSealedEffect), under the request's claim in the
// transaction of its effect: a retry then finds them here. Without a key,
// ctx is returned as it is.
//
// The field's response path names its slot, as for startedRun.
func keptSealed[T any](ctx context.Context, id func(*T) string) (context.Context, *T, error) {
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
		out := new(T)
		if err := json.Unmarshal(answer, out); err != nil {
			return ctx, nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
		}
		return ctx, out, nil
	}
	return c.BindSealedEffect(ctx, slot, func(result any) (string, []byte, error) {
		v, ok := result.(*T)
		if !ok || v == nil {
			return "", nil, model.Errorf(model.CodeInternal, "Internal Server Error")
		}
		answer, err := json.Marshal(v)
		if err != nil {
			return "", nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
		}
		return id(v), answer, nil
	}), nil, nil
}
