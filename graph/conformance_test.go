package graph_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/client"
	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	signin "github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
	"github.com/einvoice-ng/einvoice/workflows"
)

// startNothing is a RunStarter that starts nothing and says every workflow
// is running.
type startNothing struct{}

func (startNothing) StartCertificationRun(_ context.Context, in runs.WorkflowInput) (runs.Ref, error) {
	return runs.Ref{WorkflowID: workflows.WorkflowID(in.RunID), TemporalRunID: uuid.NewString()}, nil
}

func (startNothing) DescribeCertificationRun(context.Context, uuid.UUID) (*runs.State, error) {
	return &runs.State{Status: model.RunRunning}, nil
}

func (startNothing) AbandonCertificationRun(context.Context, uuid.UUID, string) error { return nil }

// conformanceServer is the whole HTTP stack over d whose certification
// runs start nothing and whose sandbox projects count as configured.
func conformanceServer(t *testing.T, d storetest.Dialect) *server {
	t.Helper()
	st := d.Open(t)
	logs := &apptest.LogBuffer{}
	cfg := apptest.Config(t, logs)
	cfg.Runs, cfg.SandboxBaseURL = startNothing{}, "http://127.0.0.1:9"
	// Every accepted run stays queued: bounds, not the concurrency quota,
	// are under test.
	cfg.Quotas.RunsPerProject = -1
	svc, err := app.New(st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	h := rest.New(svc, rest.Options{Version: "test", Logger: cfg.Logger, GraphQL: graph.NewHandler(svc, graph.Options{Logger: cfg.Logger})})
	return &server{t: t, h: h, c: client.New(h, client.Path("/graphql")), svc: svc, st: st, logs: logs}
}

// gqlRequest is how one request body of the interface document is sent
// over GraphQL.
type gqlRequest struct {
	// input is the GraphQL input type, op the operation's field and
	// selection what it asks back.
	input, op, selection string
	authed               bool
	// extra are input fields the REST body takes from the path.
	extra  map[string]any
	values apptest.Values
	// echo maps a field (REST name) to where the answer shows it, under op.
	echo    map[string]string
	prepare func(t *testing.T, body map[string]any)
}

// camel turns a snake_case name into camelCase, as the schema names
// input fields.
func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
}

// gqlRequests describes the GraphQL inputs for s, for a tenant whose
// token it returns.
func gqlRequests(t *testing.T, s *server) (map[string]gqlRequest, string) {
	t.Helper()
	tn := s.tenant("conformance")
	text := func(field string, n int) (string, bool) {
		switch field {
		case "email":
			return apptest.Email(n), true
		case "organization_slug", "slug":
			return apptest.Slug(n), true
		}
		return "", false
	}
	auth := `accessToken user { email } organization { name slug }`
	return map[string]gqlRequest{
		"SignupRequest": {input: "SignupInput", op: "signup", selection: auth,
			values: apptest.Values{Text: text, Base: func() map[string]any {
				return map[string]any{"email": apptest.Email(20), "password": "correct horse battery",
					"organization_name": "Conformance Ltd", "organization_slug": apptest.Slug(12)}
			}},
			echo: map[string]string{"email": "user.email", "organization_name": "organization.name", "organization_slug": "organization.slug"}},
		"LoginRequest": {input: "LoginInput", op: "login", selection: `accessToken user { email }`,
			values: apptest.Values{Text: text, Base: func() map[string]any {
				return map[string]any{"email": apptest.Email(20), "password": "correct horse battery"}
			}},
			echo: map[string]string{"email": "user.email"},
			prepare: func(t *testing.T, body map[string]any) {
				_, err := s.svc.Auth.Signup(context.Background(), signin.SignupInput{Email: body["email"].(string),
					Password: body["password"].(string), OrganizationName: "Login Ltd", OrganizationSlug: apptest.Slug(12)})
				if err != nil {
					t.Fatalf("create the account to log in to: %v", err)
				}
			}},
		"OrganizationCreate": {input: "CreateOrganizationInput", op: "createOrganization", selection: `name slug`, authed: true,
			values: apptest.Values{Text: text, Base: func() map[string]any {
				return map[string]any{"name": "Second Org", "slug": apptest.Slug(12)}
			}},
			echo: map[string]string{"name": "name", "slug": "slug"}},
		"ProjectCreate": {input: "CreateProjectInput", op: "createProject", selection: `organizationId name environment`, authed: true,
			values: apptest.Values{Base: func() map[string]any {
				return map[string]any{"organization_id": tn.OrgID, "name": "Web shop", "environment": "sandbox"}
			}},
			echo: map[string]string{"organization_id": "organizationId", "name": "name", "environment": "environment"}},
		"ApiKeyCreate": {input: "CreateApiKeyInput", op: "createApiKey", selection: `key { keyName scopes }`, authed: true,
			extra: map[string]any{"projectId": tn.ProjectID},
			values: apptest.Values{Base: func() map[string]any {
				return map[string]any{"key_name": "erp", "scopes": []any{"usage:read"}}
			}},
			echo: map[string]string{"key_name": "key.keyName", "scopes": "key.scopes"}},
		"CertificationRunRequest": {input: "StartCertificationRunInput", op: "startCertificationRun", selection: `invoiceType issueDate`, authed: true,
			extra: map[string]any{"projectId": tn.ProjectID},
			values: apptest.Values{Base: func() map[string]any {
				return map[string]any{"invoice_type": "B2B", "issue_date": "2026-03-15", "invoice_payload": map[string]any{"note": "x"}}
			}},
			echo: map[string]string{"invoice_type": "invoiceType", "issue_date": "issueDate"}},
	}, tn.Token
}

// gqlRequestBodies lists the request bodies the GraphQL API takes; the
// invoice operations are REST only.
var gqlRequestBodies = []string{"SignupRequest", "LoginRequest", "OrganizationCreate", "ProjectCreate", "ApiKeyCreate", "CertificationRunRequest"}

// gqlEnumField reports whether a field is a GraphQL enum (its values are
// the upper-case names).
func gqlEnumField(f model.RequestField) bool { return f.Name == "environment" }

// TestConformance sends, for every field of the GraphQL inputs that carry
// a request body of the interface document, its boundary values, allowed
// values and absence, on SQLite and PostgreSQL: the limit itself and every
// allowed value are accepted (and shown back), one past a limit is the
// error code invalid with extensions.detail at exactly input/<field>, an
// absent optional field takes its default, and an absent required field is
// refused by GraphQL itself before any resolver runs.
func TestConformance(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := conformanceServer(t, d)
			s.t = t
			requests, token := gqlRequests(t, s)
			for _, name := range gqlRequestBodies {
				spec, ok := model.RequestNamed(name)
				if !ok {
					t.Fatalf("no request %s", name)
				}
				gr := requests[name]
				t.Run(name, func(t *testing.T) {
					for _, c := range apptest.BoundCases(spec, gr.values) {
						t.Run(c.Name, func(t *testing.T) {
							gqlConformanceCase(t, s, token, gr, c)
						})
					}
				})
			}
			// GraphQL also takes an explicit null for environment: the default.
			gr := requests["ProjectCreate"]
			body := gr.values.Base()
			body["environment"] = nil
			res := s.do(token, mutationOf(gr), map[string]any{"input": gqlInput(gr, body)})
			if got := dataAt(t, res, gr.op, "environment"); got != "SANDBOX" {
				t.Fatalf("environment null: %v %s", got, res.Raw)
			}
		})
	}
}

func mutationOf(gr gqlRequest) string {
	return `mutation($input: ` + gr.input + `!) { ` + gr.op + `(input: $input) { ` + gr.selection + ` } }`
}

// gqlInput turns a REST body into the GraphQL input.
func gqlInput(gr gqlRequest, body map[string]any) map[string]any {
	in := map[string]any{}
	for k, v := range gr.extra {
		in[k] = v
	}
	for k, v := range body {
		if k == "environment" {
			if s, ok := v.(string); ok {
				v = strings.ToUpper(s)
			}
		}
		in[camel(k)] = v
	}
	return in
}

// dataAt reads data.<op>.<dotted path> of a result.
func dataAt(t *testing.T, r result, op, path string) any {
	t.Helper()
	var data map[string]any
	if err := json.Unmarshal(r.Data, &data); err != nil {
		t.Fatalf("data: %v: %s", err, r.Raw)
	}
	var cur any = data[op]
	for _, p := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}

func gqlConformanceCase(t *testing.T, s *server, token string, gr gqlRequest, c apptest.BoundCase) {
	if c.Want == "" && gr.prepare != nil {
		gr.prepare(t, c.Body)
	}
	tok := ""
	if gr.authed {
		tok = token
	}
	res := s.do(tok, mutationOf(gr), map[string]any{"input": gqlInput(gr, c.Body)})
	field := camel(c.Field.Name)
	switch {
	case c.Want == model.ProblemMissing || (c.Want == model.ProblemEnum && gqlEnumField(c.Field)):
		// The schema types these: GraphQL refuses the variables before
		// any resolver runs, at the field.
		if len(res.Errors) != 1 || string(res.Data) != "null" || res.Errors[0].Extensions.Code != "GRAPHQL_VALIDATION_FAILED" ||
			!slices.Equal(res.Errors[0].Path, []any{"variable", "input", field}) {
			t.Fatalf("want a GraphQL validation error at variable/input/%s: %s", field, res.Raw)
		}
		return
	case c.Want != "":
		got := res.locs(t)
		want := string(c.Want) + "@input/" + field
		if !slices.Equal(got, []string{want}) {
			t.Fatalf("problems %v, want exactly [%s]: %s", got, want, res.Raw)
		}
		return
	}
	if len(res.Errors) > 0 {
		t.Fatalf("want no error: %s", res.Raw)
	}
	path, ok := gr.echo[c.Field.Name]
	if !ok {
		return
	}
	var want any
	switch {
	case c.Field.Name == "scopes" && c.Absent:
		want = toAny(model.ScopeNames())
	case c.Absent && c.Field.Default == "":
		return
	case c.Absent:
		want = c.Field.Default
	default:
		want = c.Value
	}
	if s, ok := want.(string); ok {
		if k, kind := model.ParseInvoiceKind(s); kind && slices.Equal(c.Field.Enum, model.InvoiceKinds) {
			want = string(k)
		}
		if gqlEnumField(c.Field) {
			want = strings.ToUpper(s)
		}
	}
	got := dataAt(t, res, gr.op, path)
	wj, _ := json.Marshal(want)
	gj, _ := json.Marshal(got)
	if string(wj) != string(gj) {
		t.Fatalf("%s is %.80s, want %.80s", path, gj, wj)
	}
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
