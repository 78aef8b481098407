package rest

import (
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/events"
	"github.com/einvoice-ng/einvoice/model/webhooks"
)

// Rate limits of the event and webhook routes, per portal user: reads and
// changes, and the test pings and redeliveries that make outbound calls.
var (
	DefaultEventsUserLimit  = Limit{Count: 20, Period: time.Second}
	DefaultWebhookSendLimit = Limit{Count: 30, Period: time.Minute}
)

// eventRoutes declares the events (API key with events:read, or a portal
// bearer token) and the webhook endpoints (portal bearer token).
func (a *api) eventRoutes(r chi.Router) {
	r.With(a.keyOrUser(model.ScopeEventsRead, "events.read")).Get("/events", a.adapt(a.listEvents))
	r.With(a.keyOrUser(model.ScopeEventsRead, "events.read")).Get("/events/{event_id}", a.adapt(a.getEvent))
	r.Group(func(r chi.Router) {
		r.Use(a.requireUser, a.limitUser)
		r.With(a.limitSend).Post("/events/{event_id}/redeliver", a.adapt(a.redeliverEvent))
		r.Post("/projects/{project_id}/webhook-endpoints", a.adapt(a.createEndpoint))
		r.Get("/projects/{project_id}/webhook-endpoints", a.adapt(a.listEndpoints))
		r.Get("/projects/{project_id}/webhook-endpoints/{endpoint_id}", a.adapt(a.getEndpoint))
		r.Patch("/projects/{project_id}/webhook-endpoints/{endpoint_id}", a.adapt(a.updateEndpoint))
		r.Delete("/projects/{project_id}/webhook-endpoints/{endpoint_id}", a.adapt(a.deleteEndpoint))
		r.Post("/projects/{project_id}/webhook-endpoints/{endpoint_id}/rotate-secret", a.adapt(a.rotateEndpointSecret))
		r.With(a.limitSend).Post("/projects/{project_id}/webhook-endpoints/{endpoint_id}/test", a.adapt(a.testEndpoint))
		r.Get("/projects/{project_id}/webhook-endpoints/{endpoint_id}/deliveries", a.adapt(a.endpointDeliveries))
	})
}

// keyOrUser authenticates an API key (X-Client-Id present, with scope) or
// else a portal bearer token, each with its rate limit.
func (a *api) keyOrUser(scope model.Scope, op string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		key := a.requireKey(scope, op)(next)
		user := a.requireUser(a.limitUser(next))
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-Client-Id") != "" || r.Header.Get("X-Client-Secret") != "" {
				key.ServeHTTP(w, r)
				return
			}
			user.ServeHTTP(w, r)
		})
	}
}

// limitUser limits a portal user's requests on these routes.
func (a *api) limitUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := userFrom(r)
		if u == nil || a.allow(w, r, "events-user:"+u.UserID.String(), DefaultEventsUserLimit) {
			next.ServeHTTP(w, r)
		}
	})
}

// limitSend limits a user's test pings and redeliveries.
func (a *api) limitSend(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := userFrom(r)
		if u == nil || a.allow(w, r, "webhook-send:"+u.UserID.String(), DefaultWebhookSendLimit) {
			next.ServeHTTP(w, r)
		}
	})
}

func principalOf(r *http.Request) *model.Principal { return model.PrincipalFrom(r.Context()) }

func (a *api) listEvents(w http.ResponseWriter, r *http.Request) error {
	page, err := pageQuery(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	in := events.ListInput{PageInput: page, ProjectID: q.Get("project_id"), Types: q["type"],
		CreatedGTE: q.Get("created_gte"), CreatedLT: q.Get("created_lt")}
	out, err := a.app.Events.List(r.Context(), principalOf(r), in)
	return reply(w, "query", out, err)
}

func (a *api) getEvent(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "event_id")
	if err != nil {
		return err
	}
	out, err := a.app.Events.Get(r.Context(), principalOf(r), r.URL.Query().Get("project_id"), id)
	return reply(w, "query", out, err)
}

func (a *api) redeliverEvent(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "event_id")
	if err != nil {
		return err
	}
	var in webhooks.RedeliverInput
	if r.ContentLength != 0 {
		if err := decodeJSON(r, &in, in.Validate); err != nil {
			return err
		}
	}
	out, err := a.app.Webhooks.Redeliver(r.Context(), userFrom(r), id, in)
	return reply(w, "body", out, err)
}

func endpointPath(r *http.Request) (project, endpoint uuid.UUID, err error) {
	p, err := pathUUID(r, "project_id")
	if err != nil {
		return p, p, err
	}
	e, err := pathUUID(r, "endpoint_id")
	return p, e, err
}

func (a *api) createEndpoint(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "project_id")
	if err != nil {
		return err
	}
	var in webhooks.EndpointInput
	if err := decodeJSON(r, &in, in.Validate); err != nil {
		return err
	}
	out, err := a.app.Webhooks.Create(answerInTx(r), userFrom(r), projectID, in)
	return reply(w, "body", out, err)
}

func (a *api) listEndpoints(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "project_id")
	if err != nil {
		return err
	}
	page, err := pageQuery(r)
	if err != nil {
		return err
	}
	out, err := a.app.Webhooks.List(r.Context(), userFrom(r), projectID, page)
	return reply(w, "query", out, err)
}

func (a *api) getEndpoint(w http.ResponseWriter, r *http.Request) error {
	p, e, err := endpointPath(r)
	if err != nil {
		return err
	}
	out, err := a.app.Webhooks.Get(r.Context(), userFrom(r), p, e)
	return reply(w, "path", out, err)
}

func (a *api) updateEndpoint(w http.ResponseWriter, r *http.Request) error {
	p, e, err := endpointPath(r)
	if err != nil {
		return err
	}
	var in webhooks.EndpointPatch
	if err := decodeJSON(r, &in, in.Validate); err != nil {
		return err
	}
	out, err := a.app.Webhooks.Update(r.Context(), userFrom(r), p, e, in)
	return reply(w, "body", out, err)
}

func (a *api) deleteEndpoint(w http.ResponseWriter, r *http.Request) error {
	p, e, err := endpointPath(r)
	if err != nil {
		return err
	}
	out, err := a.app.Webhooks.Delete(r.Context(), userFrom(r), p, e)
	return reply(w, "path", out, err)
}

func (a *api) rotateEndpointSecret(w http.ResponseWriter, r *http.Request) error {
	p, e, err := endpointPath(r)
	if err != nil {
		return err
	}
	grace := webhooks.DefaultGraceSeconds
	if v := r.URL.Query().Get("grace_seconds"); v != "" {
		if grace, err = strconv.Atoi(v); err != nil {
			return model.Invalid(model.ProblemIntType, "Input should be a valid integer", "query", "grace_seconds")
		}
	}
	out, err := a.app.Webhooks.RotateSecret(answerInTx(r), userFrom(r), p, e, grace)
	return reply(w, "query", out, err)
}

func (a *api) testEndpoint(w http.ResponseWriter, r *http.Request) error {
	p, e, err := endpointPath(r)
	if err != nil {
		return err
	}
	out, err := a.app.Webhooks.Test(r.Context(), userFrom(r), p, e)
	return reply(w, "path", out, err)
}

func (a *api) endpointDeliveries(w http.ResponseWriter, r *http.Request) error {
	p, e, err := endpointPath(r)
	if err != nil {
		return err
	}
	page, err := pageQuery(r)
	if err != nil {
		return err
	}
	in := webhooks.AttemptsInput{PageInput: page, EventID: r.URL.Query().Get("event_id")}
	out, err := a.app.Webhooks.Attempts(r.Context(), userFrom(r), p, e, in)
	return reply(w, "query", out, err)
}
