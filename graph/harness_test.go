package graph_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/client"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

// server is the whole HTTP stack (REST router with the GraphQL handler
// mounted, as the binary wires it) over a real service and database.
type server struct {
	t       testing.TB
	h       http.Handler
	c       *client.Client
	svc     *app.App
	st      *store.Store
	logs    *apptest.LogBuffer
	queries *store.QueryCounter
}

func newServer(t testing.TB, d storetest.Dialect, opts graph.Options) *server {
	t.Helper()
	return newServerOn(t, d.Open(t), opts, nil, nil)
}

// newServerOn builds the stack over st; editService and editRouter, when
// not nil, change the service's and the router's configuration.
func newServerOn(t testing.TB, st *store.Store, opts graph.Options, editService func(*app.Config), editRouter func(*rest.Options)) *server {
	t.Helper()
	queries := &store.QueryCounter{}
	st.AddQueryHook(queries)
	logs := &apptest.LogBuffer{}
	cfg := apptest.Config(t, logs)
	if editService != nil {
		editService(&cfg)
	}
	log := cfg.Logger
	svc, err := app.New(st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	if opts.Logger == nil {
		opts.Logger = log
	}
	ropts := rest.Options{Version: "test", Logger: log, GraphQL: graph.NewHandler(svc, opts)}
	if editRouter != nil {
		editRouter(&ropts)
	}
	h := rest.New(svc, ropts)
	return &server{t: t, h: h, c: client.New(h, client.Path("/graphql")), svc: svc, st: st, logs: logs, queries: queries}
}

// forEachDialect runs fn against SQLite and, when configured, PostgreSQL.
func forEachDialect(t *testing.T, fn func(t *testing.T, d storetest.Dialect)) {
	t.Helper()
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) { fn(t, d) })
	}
}

// gqlError is one entry of a response's errors.
type gqlError struct {
	Message    string `json:"message"`
	Path       []any  `json:"path"`
	Extensions struct {
		Code   string `json:"code"`
		Detail []struct {
			Loc  []any  `json:"loc"`
			Msg  string `json:"msg"`
			Type string `json:"type"`
		} `json:"detail"`
	} `json:"extensions"`
}

// result is a decoded GraphQL response.
type result struct {
	Data   json.RawMessage
	Errors []gqlError
	Raw    []byte
}

// decode unmarshals the data into v.
func (r result) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("decode data: %v: %s", err, r.Data)
	}
}

// code returns the only error's code, failing when there is not exactly one.
func (r result) code(t testing.TB) string {
	t.Helper()
	if len(r.Errors) != 1 {
		t.Fatalf("want exactly one error, got %d: %s", len(r.Errors), r.Raw)
	}
	return r.Errors[0].Extensions.Code
}

// locs renders the detail of the only error as "type@loc/loc" strings.
func (r result) locs(t testing.TB) []string {
	t.Helper()
	if r.code(t) != "invalid" {
		t.Fatalf("want an invalid error: %s", r.Raw)
	}
	var out []string
	for _, d := range r.Errors[0].Extensions.Detail {
		parts := make([]string, len(d.Loc))
		for i, l := range d.Loc {
			b, _ := json.Marshal(l)
			parts[i] = strings.Trim(string(b), `"`)
		}
		out = append(out, d.Type+"@"+strings.Join(parts, "/"))
	}
	return out
}

// do posts one operation with gqlgen's client, as token (none when empty).
func (s *server) do(token, query string, vars map[string]any) result {
	s.t.Helper()
	var opts []client.Option
	if token != "" {
		opts = append(opts, client.AddHeader("Authorization", "Bearer "+token))
	}
	for k, v := range vars {
		opts = append(opts, client.Var(k, v))
	}
	resp, err := s.c.RawPost(query, opts...)
	if err != nil {
		// gqlgen's client turns a non-200 answer (422 for an operation
		// that fails validation) into "http <status>: <body>".
		_, body, ok := strings.Cut(err.Error(), ": ")
		resp = &client.Response{}
		if !strings.HasPrefix(err.Error(), "http ") || !ok || json.Unmarshal([]byte(body), resp) != nil {
			s.t.Fatalf("post: %v", err)
		}
	}
	data, err := json.Marshal(resp.Data)
	if err != nil {
		s.t.Fatal(err)
	}
	out := result{Data: data}
	if len(resp.Errors) > 0 {
		if err := json.Unmarshal(resp.Errors, &out.Errors); err != nil {
			s.t.Fatalf("decode errors: %v: %s", err, resp.Errors)
		}
	}
	out.Raw, _ = json.Marshal(map[string]any{"data": resp.Data, "errors": json.RawMessage(orNull(resp.Errors))})
	return out
}

func orNull(b []byte) []byte {
	if len(b) == 0 {
		return []byte("null")
	}
	return b
}

// must posts an operation that must succeed and decodes its data into v.
func (s *server) must(token, query string, vars map[string]any, v any) result {
	s.t.Helper()
	r := s.do(token, query, vars)
	if len(r.Errors) > 0 {
		s.t.Fatalf("unexpected errors: %s", r.Raw)
	}
	if v != nil {
		r.decode(s.t, v)
	}
	return r
}

// tenant is a signed-up user with an organization, a sandbox project and a
// key, made through GraphQL.
type tenant struct {
	Token, UserID, OrgID, ProjectID, KeyID, ClientID, Secret string
}

const signupMutation = `mutation($input: SignupInput!) {
  signup(input: $input) { accessToken tokenType expiresIn user { id email createdAt } organization { id name slug role createdAt } organizations { id } }
}`

func (s *server) tenant(slug string) tenant {
	s.t.Helper()
	var su struct {
		Signup struct {
			AccessToken  string
			User         struct{ ID string }
			Organization struct{ ID string }
		}
	}
	s.must("", signupMutation, map[string]any{"input": map[string]any{
		"email": slug + "@example.com", "password": "correct horse battery", "organizationName": slug, "organizationSlug": slug,
	}}, &su)
	tn := tenant{Token: su.Signup.AccessToken, UserID: su.Signup.User.ID, OrgID: su.Signup.Organization.ID}
	tn.ProjectID = s.project(tn.Token, tn.OrgID, slug+" shop")
	k := s.key(tn.Token, tn.ProjectID, "default")
	tn.KeyID, tn.ClientID, tn.Secret = k.Key.ID, k.Key.ClientID, k.ClientSecret
	return tn
}

const createProjectMutation = `mutation($input: CreateProjectInput!) {
  createProject(input: $input) { id organizationId name environment createdAt authority { taxAuthorityCode businessId serviceId configured } }
}`

// project creates a sandbox project and returns its id.
func (s *server) project(token, orgID, name string) string {
	s.t.Helper()
	var out struct{ CreateProject struct{ ID string } }
	s.must(token, createProjectMutation, map[string]any{"input": map[string]any{
		"organizationId": orgID, "name": name, "environment": "SANDBOX",
	}}, &out)
	return out.CreateProject.ID
}

const createKeyMutation = `mutation($input: CreateApiKeyInput!) {
  createApiKey(input: $input) { key { id projectId keyName clientId secretLast4 scopes status createdAt lastUsedAt } clientSecret }
}`

// keyPayload is createApiKey's and rotateApiKey's answer.
type keyPayload struct {
	Key struct {
		ID, ProjectID, KeyName, ClientID, SecretLast4, Status, CreatedAt string
		Scopes                                                           []string
		LastUsedAt                                                       *string
	}
	ClientSecret string
}

func (s *server) key(token, projectID, name string) keyPayload {
	s.t.Helper()
	var out struct{ CreateAPIKey keyPayload }
	s.must(token, createKeyMutation, map[string]any{"input": map[string]any{"projectId": projectID, "keyName": name}}, &out)
	return out.CreateAPIKey
}
