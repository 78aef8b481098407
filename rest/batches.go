package rest

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"sort"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// Operations of the batch routes, as usage reports name them. Each
// invoice a batch accepts is also metered as one invoices.submit, so that
// invoices.submit counts the invoices accepted by either route.
const (
	opBatchSubmit = "invoices.batch.submit"
	opBatchGet    = "invoices.batch.get"
	opSubmit      = "invoices.submit"
)

// batchRoutes declares the invoice batches' routes, with the single
// submission's scopes and in-flight bound (lim).
func (a *api) batchRoutes(r chi.Router, submit, read func(op string) func(http.Handler) http.Handler) {
	r.With(submit(opBatchSubmit)).Post("/invoices/batch", a.adapt(a.submitInvoiceBatch))
	r.With(read(opBatchGet)).Get("/invoices/batches/{batch_id}", a.adapt(a.getInvoiceBatch))
}

// isBatchSubmission tells the batch route, whose body bound is
// model.MaxBatchBytes instead of the router's.
func isBatchSubmission(r *http.Request) bool {
	return r.Method == http.MethodPost && (r.URL.Path == "/api/v2/invoices/batch" || r.URL.Path == "/api/v1/invoices/batch")
}

// bodyLimitKey marks a request whose body past its bound is answered 413
// (payload_too_large) rather than 422.
type bodyLimitKey struct{}

// tooLarge is the answer to a body past limit bytes.
func tooLarge(limit int64) error {
	return model.Errorf(model.CodePayloadTooLarge,
		"request body exceeds %d bytes, the most an invoice batch may hold; send fewer or smaller invoices per batch", limit)
}

// limitBatchBody bounds the body of the batch route by
// model.MaxBatchBytes: a Content-Length past it is refused at once, and a
// body that turns out longer is refused when read, both with 413.
func (a *api) limitBatchBody(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	limit := int64(model.MaxBatchBytes)
	if r.ContentLength > limit {
		a.writeError(w, r, tooLarge(limit))
		return r, false
	}
	r = r.WithContext(context.WithValue(r.Context(), bodyLimitKey{}, limit))
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, limit)
	}
	return r, true
}

// submitInvoiceBatch submits up to model.MaxBatchItems invoices at once:
// one result per item, in order. 202 when any item was accepted, else 200
// (nothing to clear).
func (a *api) submitInvoiceBatch(w http.ResponseWriter, r *http.Request) error {
	if err := checkContentType(r); err != nil {
		return err
	}
	raw, err := readBody(r)
	if err != nil {
		return err
	}
	obj, err := parseObject(raw)
	if err != nil {
		return err
	}
	items, err := decodeBatch(obj)
	if err != nil {
		return err
	}
	k := keyFrom(r)
	if !a.chargeItems(w, r, len(items)) {
		return nil
	}
	out, err := a.app.Submissions.SubmitBatch(r.Context(), k, items)
	if err != nil {
		return at("body", err)
	}
	status := http.StatusOK
	if out.Accepted() {
		status = http.StatusAccepted
	}
	w.Header().Set("Location", out.Links.Self)
	writeJSON(w, status, out)
	for i := 0; i < out.Counts[string(model.BatchAccepted)]; i++ {
		a.app.Usage.Meter(k, opSubmit)
	}
	return nil
}

// chargeItems counts a batch of n invoices as n requests against the
// key's and the project's rate limits (the route's own request was
// counted already), at most one full burst of each limit, so that a full
// batch passes on a rested budget. Over a limit it answers 429.
func (a *api) chargeItems(w http.ResponseWriter, r *http.Request, n int) bool {
	k := keyFrom(r)
	l, pl := a.opts.RateLimits.Sandbox, a.opts.RateLimits.SandboxProject
	if k.Environment == model.EnvironmentProduction {
		l, pl = a.opts.RateLimits.Production, a.opts.RateLimits.ProductionProject
	}
	for _, c := range []limitCheck{{key: "key:" + k.KeyID.String(), limit: l}, {key: "project:" + k.ProjectID.String(), limit: pl}} {
		if c.limit.IsZero() {
			continue
		}
		extra := min(n, c.limit.Count) - 1
		if extra <= 0 {
			continue
		}
		res, err := allowN(r.Context(), a.limits, c.key, c.limit, extra)
		if err != nil {
			a.limitErrorLog(r, err)
			if !errors.Is(err, ErrLimitStoreDown) {
				continue
			}
		}
		setRateHeaders(w.Header(), c.limit, res)
		if !res.Allowed {
			w.Header().Set("Retry-After", strconv.Itoa(max(1, ceilSeconds(res.RetryAfter))))
			a.writeError(w, r, model.Errorf(model.CodeRateLimited,
				"rate limit of %s exceeded: a batch counts as its %d invoices; retry after the time in Retry-After", c.limit, n))
			return false
		}
	}
	return true
}

// decodeBatch reads a batch body: {"invoices": [...]} with 1 to
// model.MaxBatchItems items. A problem of the body itself refuses the
// whole batch (422); each item is decoded as the single submission's body
// is, its problems kept with it.
func decodeBatch(obj map[string]any) ([]submissions.BatchItemInput, error) {
	var p model.Problems
	extra := make([]string, 0)
	for name := range obj {
		if name != "invoices" {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	raw, present := obj["invoices"]
	list, isList := raw.([]any)
	switch {
	case !present || raw == nil:
		p.Add(model.ProblemMissing, "Field required", "body", "invoices")
	case !isList:
		p.Add(model.ProblemListType, "Input should be a valid list", "body", "invoices")
	default:
		if err := submissions.CheckBatchSize(len(list), "body", "invoices"); err != nil {
			p.AddAll(nil, model.AsError(err).Fields)
		}
	}
	for _, name := range extra {
		p.Add(model.ProblemExtraForbidden, "Extra inputs are not permitted", "body", name)
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	items := make([]submissions.BatchItemInput, len(list))
	for i, v := range list {
		o, ok := v.(map[string]any)
		if !ok {
			items[i].Problems = []model.FieldError{{Loc: []any{}, Msg: "Input should be a valid dictionary or object", Type: model.ProblemDictType}}
			continue
		}
		items[i].Problems = decodeItem(o, &items[i].Invoice)
	}
	return items, nil
}

// decodeItem decodes one item as decodeJSON decodes the single
// submission's body, returning its problems located from the item (none
// when its types are right; the semantic checks are the application's).
func decodeItem(obj map[string]any, dst *submissions.SubmitInput) []model.FieldError {
	var p model.Problems
	v := reflect.ValueOf(dst).Elem()
	assignStruct(&p, obj, v, nil)
	checkExtra(&p, obj, v.Type(), nil)
	if p.Len() == 0 {
		return nil
	}
	list := p.List()
	var more model.Problems
	dst.Validate(&more)
	for _, f := range more.List() {
		if !overlaps(list, f.Loc) {
			list = append(list, f)
		}
	}
	order := fieldOrderOf(v.Type())
	sort.SliceStable(list, func(i, j int) bool { return locLess(order, list[i].Loc, list[j].Loc) })
	return list
}

// getInvoiceBatch answers a batch of the key's project with each item's
// progress; another project's batch is not found.
func (a *api) getInvoiceBatch(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "batch_id")
	if err != nil {
		return err
	}
	out, err := a.app.Submissions.Batch(r.Context(), keyFrom(r), id)
	return reply(w, "path", out, err)
}
