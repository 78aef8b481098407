package rest

import (
	"context"
	"net/http"
	"strconv"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/service"
)

func (a *api) signup(w http.ResponseWriter, r *http.Request) error {
	var in service.SignupInput
	if err := decodeJSON(r, &in, in.Validate); err != nil {
		return err
	}
	out, err := a.svc.Signup(withRateHeaders(w, r), in)
	return reply(w, "body", out, err)
}

func (a *api) login(w http.ResponseWriter, r *http.Request) error {
	var in service.LoginInput
	if err := decodeJSON(r, &in, in.Validate); err != nil {
		return err
	}
	out, err := a.svc.Login(withRateHeaders(w, r), in)
	return reply(w, "body", out, err)
}

// withRateHeaders makes the service's per-address decision on a signup or
// login attempt show in the RateLimit-* headers, as on other limited routes.
func withRateHeaders(w http.ResponseWriter, r *http.Request) context.Context {
	return service.WithRateObserver(r.Context(), func(rate service.Rate, d service.RateDecision) {
		setRateHeaders(w.Header(), Limit{Count: rate.Count, Period: rate.Period},
			LimitResult{Allowed: d.Allowed, Remaining: d.Remaining, RetryAfter: d.RetryAfter, ResetAfter: d.ResetAfter})
	})
}

func (a *api) logout(w http.ResponseWriter, r *http.Request) error {
	out, err := a.svc.Logout(r.Context(), userFrom(r))
	return reply(w, "body", out, err)
}

func (a *api) createOrganization(w http.ResponseWriter, r *http.Request) error {
	var in service.OrganizationInput
	if err := decodeJSON(r, &in, in.Validate); err != nil {
		return err
	}
	out, err := a.svc.CreateOrganization(r.Context(), userFrom(r), in)
	return reply(w, "body", out, err)
}

// pageQuery reads limit and cursor from the query string.
func pageQuery(r *http.Request) (service.PageInput, error) {
	q := r.URL.Query()
	in := service.PageInput{Cursor: q.Get("cursor")}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return in, model.Invalid(model.ProblemIntType, "Input should be a valid integer", "query", "limit")
		}
		in.Limit = &n
	}
	return in, nil
}

func (a *api) listOrganizations(w http.ResponseWriter, r *http.Request) error {
	page, err := pageQuery(r)
	if err != nil {
		return err
	}
	out, err := a.svc.Organizations(r.Context(), userFrom(r), page)
	return reply(w, "query", out, err)
}

func (a *api) createProject(w http.ResponseWriter, r *http.Request) error {
	var in service.ProjectInput
	if err := decodeJSON(r, &in, func(p *model.Problems) { in.Validate(p) }); err != nil {
		return err
	}
	out, err := a.svc.CreateProject(r.Context(), userFrom(r), in)
	return reply(w, "body", out, err)
}

func (a *api) listProjects(w http.ResponseWriter, r *http.Request) error {
	page, err := pageQuery(r)
	if err != nil {
		return err
	}
	in := service.ProjectsInput{OrganizationID: r.URL.Query().Get("organization_id"), PageInput: page}
	out, err := a.svc.Projects(r.Context(), userFrom(r), in)
	return reply(w, "query", out, err)
}

func (a *api) updateProject(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "project_id")
	if err != nil {
		return err
	}
	var in service.ProjectUpdate
	if err := decodeJSON(r, &in, in.Validate); err != nil {
		return err
	}
	out, err := a.svc.UpdateProject(r.Context(), userFrom(r), projectID, in)
	return reply(w, "body", out, err)
}

func (a *api) updateAuthority(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "project_id")
	if err != nil {
		return err
	}
	var in service.AuthorityInput
	if err := decodeJSON(r, &in, nil); err != nil {
		return err
	}
	out, err := a.svc.UpdateAuthority(r.Context(), userFrom(r), projectID, in)
	return reply(w, "body", out, err)
}

func (a *api) createKey(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "project_id")
	if err != nil {
		return err
	}
	var in service.KeyInput
	if err := decodeJSON(r, &in, func(p *model.Problems) { in.Validate(p) }); err != nil {
		return err
	}
	out, err := a.svc.CreateKey(r.Context(), userFrom(r), projectID, in)
	return reply(w, "body", out, err)
}

func (a *api) listKeys(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "project_id")
	if err != nil {
		return err
	}
	page, err := pageQuery(r)
	if err != nil {
		return err
	}
	out, err := a.svc.Keys(r.Context(), userFrom(r), projectID, page)
	return reply(w, "query", out, err)
}

func (a *api) rotateKey(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "project_id")
	if err != nil {
		return err
	}
	keyID, err := pathUUID(r, "key_id")
	if err != nil {
		return err
	}
	grace := 0
	if v := r.URL.Query().Get("grace_seconds"); v != "" {
		if grace, err = strconv.Atoi(v); err != nil {
			return model.Invalid(model.ProblemIntType, "Input should be a valid integer", "query", "grace_seconds")
		}
	}
	out, err := a.svc.RotateKey(r.Context(), userFrom(r), projectID, keyID, grace)
	return reply(w, "query", out, err)
}

func (a *api) revokeKey(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "project_id")
	if err != nil {
		return err
	}
	keyID, err := pathUUID(r, "key_id")
	if err != nil {
		return err
	}
	out, err := a.svc.RevokeKey(r.Context(), userFrom(r), projectID, keyID)
	return reply(w, "path", out, err)
}

func (a *api) auditLogs(w http.ResponseWriter, r *http.Request) error {
	page, err := pageQuery(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	out, err := a.svc.AuditLogs(r.Context(), userFrom(r), service.AuditInput{
		OrganizationID: q.Get("organization_id"), Action: q.Get("action"), PageInput: page,
	})
	if err != nil {
		return at("query", err)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *api) usage(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	out, err := a.svc.Usage(r.Context(), keyFrom(r), service.UsageInput{From: q.Get("from"), To: q.Get("to"), KeyID: q.Get("key_id")})
	return reply(w, "query", out, err)
}
