package graph

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/graph-gophers/dataloader/v7"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/model/usage"
)

// loaderBatchCapacity bounds the keys of one batch. The complexity limit
// keeps real operations well below it, so each level of the portal tree
// stays one query.
const loaderBatchCapacity = 1000

// pageKey asks for one page of a parent's children. first is -1 when the
// client left it out; after is the raw cursor.
type pageKey struct {
	parent uuid.UUID
	first  int
	after  string
}

func newPageKey(parent uuid.UUID, first *int, after *string) pageKey {
	k := pageKey{parent: parent, first: -1}
	if first != nil {
		k.first = *first
	}
	if after != nil {
		k.after = *after
	}
	return k
}

// page turns the key's arguments back into the application's paging input.
func (k pageKey) page() model.PageInput {
	in := model.PageInput{Cursor: k.after}
	if k.first >= 0 {
		first := k.first
		in.Limit = &first
	}
	return in
}

// usageKey asks for one project's usage over a range.
type usageKey struct {
	project         uuid.UUID
	from, to, keyID string
}

// loaders batch the portal tree's levels: every organization by id, the
// projects of every organization, the keys, usage and certification runs of
// every project. One
// set is made per operation, so nothing is cached across requests or users.
type loaders struct {
	organization *dataloader.Loader[uuid.UUID, *portal.OrganizationView]
	projects     *dataloader.Loader[pageKey, *model.List[portal.ProjectView]]
	keys         *dataloader.Loader[pageKey, *model.List[keys.View]]
	usage        *dataloader.Loader[usageKey, *usage.Report]
	runs         *dataloader.Loader[pageKey, *model.List[runs.View]]
}

type loadersKey struct{}

// withLoaders puts a fresh set of loaders over svc in ctx.
func withLoaders(ctx context.Context, svc *app.App, wait time.Duration) context.Context {
	l := &loaders{
		organization: newLoader(wait, func(ctx context.Context, u *model.Principal, ids []uuid.UUID) ([]*dataloader.Result[*portal.OrganizationView], error) {
			found, err := svc.Portal.OrganizationsByID(ctx, u, ids)
			if err != nil {
				return nil, err
			}
			out := make([]*dataloader.Result[*portal.OrganizationView], len(ids))
			for i, id := range ids {
				if o, ok := found[id]; ok {
					out[i] = &dataloader.Result[*portal.OrganizationView]{Data: o}
				} else {
					out[i] = &dataloader.Result[*portal.OrganizationView]{Error: model.NotFound("organization")}
				}
			}
			return out, nil
		}),
		projects: newPagedLoader(wait, svc.Portal.ProjectsByOrganization),
		keys:     newPagedLoader(wait, svc.Keys.ByProject),
		runs:     newPagedLoader(wait, svc.Runs.ByProject),
		usage: newLoader(wait, func(ctx context.Context, u *model.Principal, keys []usageKey) ([]*dataloader.Result[*usage.Report], error) {
			type rangeKey struct{ from, to, keyID string }
			groups := map[rangeKey][]uuid.UUID{}
			for _, k := range keys {
				r := rangeKey{k.from, k.to, k.keyID}
				groups[r] = append(groups[r], k.project)
			}
			reports := map[usageKey]*usage.Report{}
			errs := map[rangeKey]error{}
			for r, ids := range groups {
				found, err := svc.Usage.ByProject(ctx, u, ids, usage.Input{From: r.from, To: r.to, KeyID: r.keyID})
				if err != nil {
					errs[r] = err
					continue
				}
				for id, rep := range found {
					reports[usageKey{id, r.from, r.to, r.keyID}] = rep
				}
			}
			out := make([]*dataloader.Result[*usage.Report], len(keys))
			for i, k := range keys {
				if err := errs[rangeKey{k.from, k.to, k.keyID}]; err != nil {
					out[i] = &dataloader.Result[*usage.Report]{Error: err}
				} else if rep, ok := reports[k]; ok {
					out[i] = &dataloader.Result[*usage.Report]{Data: rep}
				} else {
					out[i] = &dataloader.Result[*usage.Report]{Error: model.NotFound("project")}
				}
			}
			return out, nil
		}),
	}
	return context.WithValue(ctx, loadersKey{}, l)
}

// loadersFrom returns the operation's loaders.
func loadersFrom(ctx context.Context) *loaders {
	l, _ := ctx.Value(loadersKey{}).(*loaders)
	return l
}

// newLoader wraps a batch function that needs the principal and answers
// all keys at once; an error of the whole batch goes to every key.
func newLoader[K comparable, V any](wait time.Duration, fn func(context.Context, *model.Principal, []K) ([]*dataloader.Result[V], error)) *dataloader.Loader[K, V] {
	return dataloader.NewBatchedLoader(func(ctx context.Context, keys []K) []*dataloader.Result[V] {
		u := model.PrincipalFrom(ctx)
		var out []*dataloader.Result[V]
		var err error = errUnauthenticated
		if u != nil {
			out, err = fn(ctx, u, keys)
		}
		if err != nil {
			out = make([]*dataloader.Result[V], len(keys))
			for i := range out {
				out[i] = &dataloader.Result[V]{Error: err}
			}
		}
		return out
	}, dataloader.WithWait[K, V](wait), dataloader.WithBatchCapacity[K, V](loaderBatchCapacity))
}

// newPagedLoader batches one page of children per parent. Keys asking for
// the same page arguments (nearly always all of them) share one query.
func newPagedLoader[V any](wait time.Duration, fetch func(context.Context, *model.Principal, []uuid.UUID, model.PageInput) (map[uuid.UUID]*model.List[V], error)) *dataloader.Loader[pageKey, *model.List[V]] {
	return newLoader(wait, func(ctx context.Context, u *model.Principal, keys []pageKey) ([]*dataloader.Result[*model.List[V]], error) {
		type args struct {
			first int
			after string
		}
		groups := map[args][]uuid.UUID{}
		for _, k := range keys {
			a := args{k.first, k.after}
			groups[a] = append(groups[a], k.parent)
		}
		lists := map[pageKey]*model.List[V]{}
		errs := map[args]error{}
		for a, parents := range groups {
			found, err := fetch(ctx, u, parents, pageKey{first: a.first, after: a.after}.page())
			if err != nil {
				errs[a] = err
				continue
			}
			for parent, l := range found {
				lists[pageKey{parent, a.first, a.after}] = l
			}
		}
		out := make([]*dataloader.Result[*model.List[V]], len(keys))
		for i, k := range keys {
			if err := errs[args{k.first, k.after}]; err != nil {
				out[i] = &dataloader.Result[*model.List[V]]{Error: err}
				continue
			}
			l := lists[k]
			if l == nil {
				l = &model.List[V]{Items: []V{}}
			}
			out[i] = &dataloader.Result[*model.List[V]]{Data: l}
		}
		return out, nil
	})
}
