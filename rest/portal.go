package rest

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/audit"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/usage"
)

func (a *api) signup(w http.ResponseWriter, r *http.Request) error {
	privateAnswer(w) // the answer carries an access token
	var in auth.SignupInput
	if err := decodeJSON(r, &in, in.Validate); err != nil {
		return err
	}
	out, err := a.app.Auth.Signup(withRateHeaders(w, r), in)
	return reply(w, "body", out, err)
}

func (a *api) login(w http.ResponseWriter, r *http.Request) error {
	privateAnswer(w) // the answer carries an access token
	var in auth.LoginInput
	if err := decodeJSON(r, &in, in.Validate); err != nil {
		return err
	}
	out, err := a.app.Auth.Login(withRateHeaders(w, r), in)
	return reply(w, "body", out, err)
}

// withRateHeaders makes model/auth's per-address decision on a signup or
// login attempt show in the RateLimit-* headers, as on other limited routes.
func withRateHeaders(w http.ResponseWriter, r *http.Request) context.Context {
	return auth.WithRateObserver(r.Context(), func(rate auth.Rate, d auth.RateDecision) {
		setRateHeaders(w.Header(), Limit{Count: rate.Count, Period: rate.Period},
			LimitResult{Allowed: d.Allowed, Remaining: d.Remaining, RetryAfter: d.RetryAfter, ResetAfter: d.ResetAfter})
	})
}

func (a *api) logout(w http.ResponseWriter, r *http.Request) error {
	out, err := a.app.Auth.Logout(r.Context(), userFrom(r))
	return reply(w, "body", out, err)
}

func (a *api) createOrganization(w http.ResponseWriter, r *http.Request) error {
	var in portal.OrganizationInput
	if err := decodeJSON(r, &in, in.Validate); err != nil {
		return err
	}
	out, err := a.app.Portal.CreateOrganization(r.Context(), userFrom(r), in)
	return reply(w, "body", out, err)
}

// pageQuery reads limit and cursor from the query string.
func pageQuery(r *http.Request) (model.PageInput, error) {
	q := r.URL.Query()
	in := model.PageInput{Cursor: q.Get("cursor")}
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
	out, err := a.app.Portal.Organizations(r.Context(), userFrom(r), page)
	return reply(w, "query", out, err)
}

func (a *api) createProject(w http.ResponseWriter, r *http.Request) error {
	var in portal.ProjectInput
	if err := decodeJSON(r, &in, func(p *model.Problems) { in.Validate(p) }); err != nil {
		return err
	}
	out, err := a.app.Portal.CreateProject(r.Context(), userFrom(r), in)
	return reply(w, "body", out, err)
}

func (a *api) listProjects(w http.ResponseWriter, r *http.Request) error {
	page, err := pageQuery(r)
	if err != nil {
		return err
	}
	in := portal.ProjectsInput{OrganizationID: r.URL.Query().Get("organization_id"), PageInput: page}
	out, err := a.app.Portal.Projects(r.Context(), userFrom(r), in)
	return reply(w, "query", out, err)
}

func (a *api) updateProject(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "project_id")
	if err != nil {
		return err
	}
	var in portal.ProjectUpdate
	if err := decodeJSON(r, &in, in.Validate); err != nil {
		return err
	}
	out, err := a.app.Portal.UpdateProject(r.Context(), userFrom(r), projectID, in)
	return reply(w, "body", out, err)
}

func (a *api) updateAuthority(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "project_id")
	if err != nil {
		return err
	}
	var in portal.AuthorityInput
	if err := decodeJSON(r, &in, nil); err != nil {
		return err
	}
	out, err := a.app.Portal.UpdateAuthority(r.Context(), userFrom(r), projectID, in)
	return reply(w, "body", out, err)
}

func (a *api) createKey(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "project_id")
	if err != nil {
		return err
	}
	var in keys.Input
	if err := decodeJSON(r, &in, func(p *model.Problems) { in.Validate(p) }); err != nil {
		return err
	}
	out, err := a.app.Keys.Create(answerInTx(r), userFrom(r), projectID, in)
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
	out, err := a.app.Keys.List(r.Context(), userFrom(r), projectID, page)
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
	out, err := a.app.Keys.Rotate(answerInTx(r), userFrom(r), projectID, keyID, grace)
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
	out, err := a.app.Keys.Revoke(r.Context(), userFrom(r), projectID, keyID)
	return reply(w, "path", out, err)
}

func (a *api) auditLogs(w http.ResponseWriter, r *http.Request) error {
	page, err := pageQuery(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	out, err := a.app.Audit.List(r.Context(), userFrom(r), audit.Input{
		OrganizationID: q.Get("organization_id"), Action: q.Get("action"), PageInput: page,
	})
	if err != nil {
		return at("query", err)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *api) auditChain(w http.ResponseWriter, r *http.Request) error {
	orgID, err := pathUUID(r, "organization_id")
	if err != nil {
		return err
	}
	out, err := a.app.Audit.Chain(r.Context(), userFrom(r), orgID)
	return reply(w, "path", out, err)
}

func (a *api) usage(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	k := keyFrom(r)
	out, err := a.app.Usage.Report(r.Context(), k, k.ProjectID, usage.Input{From: q.Get("from"), To: q.Get("to"), KeyID: q.Get("key_id")})
	return reply(w, "query", out, err)
}

// sandboxFaultLimit bounds each user's fault changes and reads of one
// project: they reach the NRS sandbox stand-in.
var sandboxFaultLimit = Limit{Count: 60, Period: time.Minute}

func (a *api) limitSandboxFaults(w http.ResponseWriter, r *http.Request) bool {
	u := userFrom(r)
	return a.allow(w, r, "sandbox-faults:"+u.UserID.String()+":"+chi.URLParam(r, "project_id"), sandboxFaultLimit)
}

func (a *api) setSandboxFault(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "project_id")
	if err != nil {
		return err
	}
	var in model.SandboxFault
	if err := decodeJSON(r, &in, nil); err != nil {
		return err
	}
	if !a.limitSandboxFaults(w, r) {
		return nil
	}
	out, err := a.app.Portal.SetSandboxFault(r.Context(), userFrom(r), projectID, in)
	return reply(w, "body", out, err)
}

func (a *api) listSandboxFaults(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "project_id")
	if err != nil {
		return err
	}
	if !a.limitSandboxFaults(w, r) {
		return nil
	}
	out, err := a.app.Portal.SandboxFaults(r.Context(), userFrom(r), projectID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": out})
	return nil
}

func (a *api) clearSandboxFaults(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "project_id")
	if err != nil {
		return err
	}
	if !a.limitSandboxFaults(w, r) {
		return nil
	}
	q := r.URL.Query()
	n, err := a.app.Portal.ClearSandboxFaults(r.Context(), userFrom(r), projectID, q.Get("kind"), q.Get("endpoint"))
	if err != nil {
		return at("query", err)
	}
	writeJSON(w, http.StatusOK, map[string]int{"cleared": n})
	return nil
}
