package graph_test

// Replays of the attacks of the security review against the GraphQL
// endpoint (run them all with `make security`). Each asserts the defence,
// never a duration.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/audit"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
	"github.com/einvoice-ng/einvoice/workflows"
)

var sqlite = storetest.Dialect{Name: "sqlite", Open: storetest.SQLite}

// post sends one anonymous or authenticated GraphQL request over HTTP and
// returns the status and the decoded body.
func (s *server) post(token, query string, header map[string]string) (int, result) {
	s.t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	r := httptest.NewRequest("POST", "/graphql", strings.NewReader(string(body)))
	r.Header.Set("Content-Type", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, r)
	var out struct {
		Data   json.RawMessage
		Errors []gqlError
	}
	_ = json.Unmarshal(w.Body.Bytes(), &out)
	return w.Code, result{Data: out.Data, Errors: out.Errors, Raw: w.Body.Bytes()}
}

// refusedBeforeRunning checks that a request was refused as a whole with
// code, before any field ran (no data at all).
func refusedBeforeRunning(t *testing.T, r result, code string) {
	t.Helper()
	if len(r.Errors) != 1 || r.Errors[0].Extensions.Code != code {
		t.Fatalf("want one %s error: %s", code, r.Raw)
	}
	if d := strings.TrimSpace(string(r.Data)); d != "" && d != "null" {
		t.Fatalf("fields ran: %s", r.Raw)
	}
}

// TestAttackRepeatedFieldValidation: `{ __typename __typename … }` cost
// validation time quadratic in the repeats, with no login. Documents over
// the size, token or selection limits are refused before they are parsed
// and validated; documents within them still run.
func TestAttackRepeatedFieldValidation(t *testing.T) {
	s := newServer(t, sqlite, graph.Options{})
	typenames := func(n int) string { return "{" + strings.Repeat(" __typename", n) + " }" }
	for _, c := range []struct {
		name, query, code string
	}{
		{"10,000 repeats (the review's attack, 110 KB)", typenames(10_000), "QUERY_SIZE_LIMIT_EXCEEDED"},
		{"over 32 KiB of spaces", "{ __typename }" + strings.Repeat(" ", 33<<10), "QUERY_SIZE_LIMIT_EXCEEDED"},
		{"4,100 short repeats", "{" + strings.Repeat(" a", 4100) + " }", "TOKEN_LIMIT_EXCEEDED"},
		{"501 repeats", typenames(501), "SELECTION_LIMIT_EXCEEDED"},
		{"aliased repeats", "{" + strings.Repeat(" a: __typename", 501) + " }", "SELECTION_LIMIT_EXCEEDED"},
		{"one fragment spread many times", "{" + strings.Repeat(" ...F", 100) + " } fragment F on Query {" + strings.Repeat(" __typename", 10) + " }", "SELECTION_LIMIT_EXCEEDED"},
		{"fragments doubling each other", "{ ...F0 }" + doubling(12), "SELECTION_LIMIT_EXCEEDED"},
		{"an unused fragment", "{ __typename } fragment F on Query {" + strings.Repeat(" __typename", 600) + " }", "SELECTION_LIMIT_EXCEEDED"},
		{"comments count as tokens", "{ __typename" + strings.Repeat("\n#", 4001) + "\n}", "TOKEN_LIMIT_EXCEEDED"},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, r := s.post("", c.query, nil)
			if status != http.StatusOK && status != http.StatusUnprocessableEntity {
				t.Fatalf("status %d: %s", status, r.Raw)
			}
			refusedBeforeRunning(t, r, c.code)
		})
	}
	t.Run("500 repeats still run", func(t *testing.T) {
		if _, r := s.post("", typenames(500), nil); len(r.Errors) != 0 || !strings.Contains(string(r.Data), "Query") {
			t.Fatalf("refused: %s", r.Raw)
		}
	})
}

// doubling returns fragments F0 … Fn where each spreads the next twice:
// n+1 short definitions that expand to 2^n fields.
func doubling(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, " fragment F%d on Query { ...F%d ...F%d }", i, i+1, i+1)
	}
	fmt.Fprintf(&b, " fragment F%d on Query { __typename }", n)
	return b.String()
}

// TestAttackAnonymousGraphQLFlood: anonymous /graphql requests are limited
// per client address; requests with a bearer token are not counted there.
func TestAttackAnonymousGraphQLFlood(t *testing.T) {
	s := newServerOn(t, storetest.SQLite(t), graph.Options{}, nil, func(o *rest.Options) {
		o.RateLimits.GraphQLAnonymous = rest.Limit{Count: 3, Period: time.Hour}
	})
	tn := s.tenant("flood") // signs up through GraphQL: one anonymous request
	for i := 0; i < 2; i++ {
		if status, r := s.post("", "{ __typename }", nil); status != http.StatusOK {
			t.Fatalf("anonymous request %d: %d %s", i+2, status, r.Raw)
		}
	}
	status, r := s.post("", "{ __typename }", nil)
	if status != http.StatusTooManyRequests || !strings.Contains(string(r.Raw), `"rate_limited"`) {
		t.Fatalf("over the anonymous limit: %d %s", status, r.Raw)
	}
	if status, r := s.post(tn.Token, "{ me { id } }", nil); status != http.StatusOK || len(r.Errors) > 0 {
		t.Fatalf("authenticated request: %d %s", status, r.Raw)
	}
}

// deadlineHook records whether every query ran under a deadline.
type deadlineHook struct {
	mu      sync.Mutex
	queries int
	without int
}

func (h *deadlineHook) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.queries++
	if _, ok := ctx.Deadline(); !ok {
		h.without++
	}
	return ctx
}

func (h *deadlineHook) AfterQuery(context.Context, *bun.QueryEvent) {}

// TestAttackOperationWithoutDeadline: every query and mutation works under
// a deadline, over HTTP and over a WebSocket.
func TestAttackOperationWithoutDeadline(t *testing.T) {
	st := storetest.SQLite(t)
	hook := &deadlineHook{}
	st.AddQueryHook(hook)
	s := newServerOn(t, st, graph.Options{}, nil, nil)
	tn := s.tenant("deadline")
	s.must(tn.Token, "{ me { id organizations { edges { node { id } } } } }", nil, nil)

	srv := httptest.NewServer(s.h)
	t.Cleanup(srv.Close)
	c := dialWS(t, srv)
	c.send(wsMessage{Type: "connection_init", Payload: json.RawMessage(`{"Authorization":"Bearer ` + tn.Token + `"}`)})
	c.must("connection_ack")
	c.send(wsMessage{ID: "1", Type: "subscribe", Payload: json.RawMessage(`{"query":"{ me { email organizations { edges { node { id } } } } }"}`)})
	if m := c.must("next"); !strings.Contains(string(m.Payload), "deadline@example.com") {
		t.Fatalf("next = %s", m.Payload)
	}
	hook.mu.Lock()
	defer hook.mu.Unlock()
	if hook.queries == 0 || hook.without > 0 {
		t.Fatalf("%d of %d queries ran without a deadline", hook.without, hook.queries)
	}
}

// loginAliases is one mutation of n login aliases for email, the right
// password at index right.
func loginAliases(email string, n, right int, password string) string {
	var b strings.Builder
	b.WriteString("mutation {")
	for i := 0; i < n; i++ {
		guess := "wrong guess " + strconv.Itoa(i)
		if i == right {
			guess = password
		}
		fmt.Fprintf(&b, " a%d: login(input: {email: %q, password: %q}) { accessToken }", i, email, guess)
	}
	b.WriteString(" }")
	return b.String()
}

// TestAttackLoginAliases: one request of 50 login aliases revealed the
// right password (its alias was the only one without an error). A second
// signup or login in one document is refused before any runs.
func TestAttackLoginAliases(t *testing.T) {
	s := newServer(t, sqlite, graph.Options{})
	victim := s.tenant("victim")
	for _, c := range []struct{ name, query string }{
		{"50 aliases", loginAliases("victim@example.com", 50, 17, "correct horse battery")},
		{"2 aliases", loginAliases("victim@example.com", 2, 1, "correct horse battery")},
		{"through a fragment", `mutation { ...Guesses } fragment Guesses on Mutation {
			a: login(input: {email: "victim@example.com", password: "wrong guess"}) { accessToken }
			b: login(input: {email: "victim@example.com", password: "correct horse battery"}) { accessToken } }`},
		{"inline fragments", `mutation { ... on Mutation { a: login(input: {email: "victim@example.com", password: "wrong guess"}) { accessToken } }
			... on Mutation { b: login(input: {email: "victim@example.com", password: "correct horse battery"}) { accessToken } } }`},
		{"signup beside login", `mutation {
			a: signup(input: {email: "other@example.com", password: "correct horse battery", organizationName: "Other", organizationSlug: "other"}) { accessToken }
			b: login(input: {email: "victim@example.com", password: "correct horse battery"}) { accessToken } }`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, r := s.post("", c.query, nil)
			refusedBeforeRunning(t, r, "AUTH_MUTATION_LIMIT_EXCEEDED")
		})
	}
	// Nothing ran: no attempt reached the audit log, and no signup either.
	logs, err := s.svc.Audit.List(context.Background(), &model.Principal{UserID: uuid.MustParse(victim.UserID)},
		audit.Input{Action: model.ActionLoginFailed})
	if err != nil || len(logs.Items) != 0 {
		t.Fatalf("failed logins recorded: %+v %v", logs, err)
	}
	if _, err := s.st.Users().ByEmail(context.Background(), "other@example.com"); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("the batched signup ran: %v", err)
	}
	// One login per request still works.
	if _, r := s.post("", loginAliases("victim@example.com", 1, 0, "correct horse battery"), nil); len(r.Errors) != 0 {
		t.Fatalf("a single login: %s", r.Raw)
	}
}

// authLimited builds a stack whose service counts signup and login
// attempts per address and per e-mail in one memory store, shared with the
// router (as cmd/einvoice wires them), trusting X-Forwarded-For so that
// tests can pick the client address.
func authLimited(t *testing.T, perIP, perAccount auth.Rate) *server {
	t.Helper()
	limits := rest.NewMemoryLimitStore(nil)
	return newServerOn(t, storetest.SQLite(t), graph.Options{}, func(c *app.Config) {
		c.Auth = auth.Limits{Limiter: rest.AttemptLimiter(limits), PerIP: perIP, PerAccount: perAccount}
	}, func(o *rest.Options) {
		o.TrustedProxies = rest.ProxyTrust{Hops: 1}
		o.RateLimits.Store = limits
	})
}

// restLogin posts a REST login from ip.
func (s *server) restLogin(ip, email, password string) *httptest.ResponseRecorder {
	s.t.Helper()
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	r := httptest.NewRequest("POST", "/api/v2/auth/login", strings.NewReader(string(body)))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-Forwarded-For", ip)
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, r)
	return w
}

// TestAttackGraphQLLoginBypassesAuthLimit: GraphQL logins were not counted
// by the login limit. Now each attempt counts, on either transport, in one
// budget per client address.
func TestAttackGraphQLLoginBypassesAuthLimit(t *testing.T) {
	s := authLimited(t, auth.Rate{Count: 3, Period: time.Hour}, auth.Rate{})
	from := map[string]string{"X-Forwarded-For": "198.51.100.7"}
	login := loginAliases("nobody@example.com", 1, -1, "")
	for i := 0; i < 2; i++ {
		if _, r := s.post("", login, from); r.code(t) != "unauthenticated" {
			t.Fatalf("attempt %d: %s", i+1, r.Raw)
		}
	}
	if w := s.restLogin("198.51.100.7", "nobody@example.com", "wrong password"); w.Code != http.StatusUnauthorized {
		t.Fatalf("third attempt, over REST: %d %s", w.Code, w.Body)
	}
	_, r := s.post("", login, from)
	if r.code(t) != "rate_limited" || !strings.Contains(string(r.Raw), `"retryAfter"`) {
		t.Fatalf("fourth attempt, over GraphQL: %s", r.Raw)
	}
	if w := s.restLogin("198.51.100.7", "nobody@example.com", "wrong password"); w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" {
		t.Fatalf("fifth attempt, over REST: %d %v %s", w.Code, w.Header(), w.Body)
	}
	if _, r := s.post("", login, map[string]string{"X-Forwarded-For": "198.51.100.8"}); r.code(t) != "unauthenticated" {
		t.Fatalf("another address: %s", r.Raw)
	}
}

// TestAttackSignupEnumeration: signup answers conflict for a taken e-mail
// or slug (the contract asks for it), so it reveals accounts; over GraphQL
// it was unlimited. Each signup attempt now counts against the address's
// and the e-mail's budgets, on both transports.
func TestAttackSignupEnumeration(t *testing.T) {
	s := authLimited(t, auth.Rate{}, auth.Rate{Count: 2, Period: time.Hour})
	s.tenant("taken")
	signup := func(email, slug string) result {
		_, r := s.post("", fmt.Sprintf(`mutation { signup(input: {email: %q, password: "correct horse battery", organizationName: "Probe", organizationSlug: %q}) { accessToken } }`, email, slug),
			map[string]string{"X-Forwarded-For": "203.0.113." + strconv.Itoa(len(slug))})
		return r
	}
	// taken@example.com: its signup by the tenant spent one attempt.
	if r := signup("taken@example.com", "probe-a"); r.code(t) != "conflict" {
		t.Fatalf("probe: %s", r.Raw)
	}
	if r := signup("taken@example.com", "probe-bb"); r.code(t) != "rate_limited" {
		t.Fatalf("second probe of one e-mail, from another address: %s", r.Raw)
	}
	// An e-mail without an account is limited alike, so a refusal says
	// nothing about which exist.
	for i, want := range []string{"", "", "rate_limited"} {
		r := s.do("", `mutation { login(input: {email: "free@example.com", password: "wrong password"}) { accessToken } }`, nil)
		if want == "" && r.code(t) != "unauthenticated" || want != "" && r.code(t) != want {
			t.Fatalf("attempt %d on an unknown e-mail: %s", i+1, r.Raw)
		}
	}
}

// stuckRuns is a RunStarter whose runs stay queued: their subscriptions
// stay open.
type stuckRuns struct{}

func (stuckRuns) StartCertificationRun(_ context.Context, in runs.WorkflowInput) (runs.Ref, error) {
	return runs.Ref{WorkflowID: workflows.WorkflowID(in.RunID), TemporalRunID: uuid.NewString()}, nil
}

func (stuckRuns) DescribeCertificationRun(context.Context, uuid.UUID) (*runs.State, error) {
	return &runs.State{Status: model.RunQueued}, nil
}

func (stuckRuns) AbandonCertificationRun(context.Context, uuid.UUID, string) error { return nil }

// subscribeRuns subscribes n times (ids first … first+n-1) to run on c.
func subscribeRuns(c *wsClient, run string, first, n int) {
	c.t.Helper()
	for i := first; i < first+n; i++ {
		payload, _ := json.Marshal(map[string]any{"query": `subscription($id: ID!) { certificationRunUpdated(id: $id) { id status } }`,
			"variables": map[string]any{"id": run}})
		c.send(wsMessage{ID: strconv.Itoa(i), Type: "subscribe", Payload: payload})
	}
}

// outcomes reads until every id in ids has answered: "ok" for data, the
// error code for a refusal.
func outcomes(c *wsClient, ids ...string) map[string]string {
	c.t.Helper()
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	got := map[string]string{}
	for len(got) < len(want) {
		m, err := c.next()
		if err != nil {
			c.t.Fatalf("read: %v (so far %v)", err, got)
		}
		if !want[m.ID] || got[m.ID] != "" || m.Type != "next" {
			continue
		}
		var body struct {
			Data   map[string]any
			Errors []gqlError
		}
		_ = json.Unmarshal(m.Payload, &body)
		if len(body.Errors) > 0 {
			got[m.ID] = body.Errors[0].Extensions.Code
		} else {
			got[m.ID] = "ok"
		}
	}
	return got
}

// TestAttackSubscriptionFlood: one socket held 500 subscriptions, each
// polling the store. Subscriptions are capped per connection and per user;
// the one over a cap gets a clear error, and a slot frees when a
// subscription completes.
func TestAttackSubscriptionFlood(t *testing.T) {
	s := newCertServerWith(t, sqlite, stuckRuns{}, graph.Options{SubscriptionsPerConnection: 2, SubscriptionsPerUser: 3})
	tn := s.tenant("flood")
	run := s.startRun(tn.Token, map[string]any{"projectId": tn.ProjectID, "invoiceType": "B2C", "issueDate": "2026-03-15"})
	srv := httptest.NewServer(s.h)
	t.Cleanup(srv.Close)
	open := func() *wsClient {
		c := dialWS(t, srv)
		c.send(wsMessage{Type: "connection_init", Payload: json.RawMessage(`{"Authorization":"Bearer ` + tn.Token + `"}`)})
		c.must("connection_ack")
		return c
	}

	// Subscriptions start concurrently: which one is refused may vary,
	// how many may not.
	count := func(got map[string]string) (ok int, refused int, okID string) {
		for id, v := range got {
			switch v {
			case "ok":
				ok++
				okID = id
			case "SUBSCRIPTION_LIMIT_EXCEEDED":
				refused++
			default:
				t.Fatalf("unexpected outcome %v", got)
			}
		}
		return ok, refused, okID
	}
	a := open()
	subscribeRuns(a, run.ID, 1, 3)
	ok, refused, held := count(outcomes(a, "1", "2", "3"))
	if ok != 2 || refused != 1 {
		t.Fatalf("per connection: %d accepted, %d refused", ok, refused)
	}
	b := open()
	subscribeRuns(b, run.ID, 1, 2)
	if ok, refused, _ := count(outcomes(b, "1", "2")); ok != 1 || refused != 1 {
		t.Fatalf("per user, on a second connection: %d accepted, %d refused", ok, refused)
	}
	// Completing a subscription frees its slot.
	a.send(wsMessage{ID: held, Type: "complete"})
	deadline := time.Now().Add(10 * time.Second)
	for i := 10; ; i++ {
		subscribeRuns(b, run.ID, i, 1)
		if got := outcomes(b, strconv.Itoa(i)); got[strconv.Itoa(i)] == "ok" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the completed subscription's slot was never freed")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestAttackMemberStartsRun: startCertificationRun lacked the owner/admin
// check of the other writes. A member may read runs but not start them;
// someone outside the organization does not see the project.
func TestAttackMemberStartsRun(t *testing.T) {
	s := newCertServer(t, sqlite, stuckRuns{})
	owner := s.tenant("owner")
	member := s.tenant("member")
	outsider := s.tenant("outsider")
	_, err := s.st.DB().NewInsert().Model(&model.Membership{
		OrganizationID: uuid.MustParse(owner.OrgID), UserID: uuid.MustParse(member.UserID), Role: model.RoleMember,
		CreatedAt: time.Now().UTC().Truncate(time.Microsecond),
	}).Exec(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	input := map[string]any{"input": map[string]any{"projectId": owner.ProjectID, "invoiceType": "B2C", "issueDate": "2026-03-15"}}
	if r := s.do(member.Token, startRunMutation, input); r.code(t) != "forbidden" {
		t.Fatalf("member: %s", r.Raw)
	}
	if r := s.do(outsider.Token, startRunMutation, input); r.code(t) != "not_found" {
		t.Fatalf("outsider: %s", r.Raw)
	}
	run := s.startRun(owner.Token, input["input"].(map[string]any))
	if got := s.runOf(member.Token, run.ID); got.ID != run.ID {
		t.Fatalf("the member cannot read the owner's run: %+v", got)
	}
}

// closeStatus reads c until the server closes it and returns the close
// status and reason; it fails when the socket stays open until c's
// deadline.
func closeStatus(t *testing.T, c *wsClient, within time.Duration) (websocket.StatusCode, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(c.ctx, within)
	defer cancel()
	for {
		_, _, err := c.conn.Read(ctx)
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		if !errors.As(err, &ce) {
			t.Fatalf("the socket was not closed by the server within %s: %v", within, err)
		}
		return ce.Code, ce.Reason
	}
}

// TestAttackWebsocketOutlivesToken: a WebSocket authenticated by a token
// stayed open after the token expired. It is closed (4403, "access token
// expired") when the token expires.
func TestAttackWebsocketOutlivesToken(t *testing.T) {
	s := newServerOn(t, storetest.SQLite(t), graph.Options{}, func(c *app.Config) { c.TokenTTL = 3 * time.Second }, nil)
	s.tenant("short")
	srv := httptest.NewServer(s.h)
	t.Cleanup(srv.Close)
	// A fresh token (the expiry has whole seconds: it lasts 2 to 3 s).
	var fresh struct{ Login struct{ AccessToken string } }
	s.must("", `mutation { login(input: {email: "short@example.com", password: "correct horse battery"}) { accessToken } }`, nil, &fresh)
	c := dialWS(t, srv)
	c.send(wsMessage{Type: "connection_init", Payload: json.RawMessage(`{"Authorization":"Bearer ` + fresh.Login.AccessToken + `"}`)})
	c.must("connection_ack")
	if code, reason := closeStatus(t, c, 10*time.Second); code != 4403 || reason != auth.ErrTokenExpired.Error() {
		t.Fatalf("closed with %d %q", code, reason)
	}
}

// TestAttackTokenAfterLogout: there was no logout. logout revokes the
// token the request was made with: it is refused afterwards on both
// transports, and the WebSocket opened with it closes (4403, "access token
// revoked"). The user's other tokens stay valid.
func TestAttackTokenAfterLogout(t *testing.T) {
	s := newServerOn(t, storetest.SQLite(t), graph.Options{}, func(c *app.Config) { c.RevocationCacheTTL = 20 * time.Millisecond }, nil)
	tn := s.tenant("leaving")
	var other struct{ Login struct{ AccessToken string } }
	s.must("", `mutation { login(input: {email: "leaving@example.com", password: "correct horse battery"}) { accessToken } }`, nil, &other)

	srv := httptest.NewServer(s.h)
	t.Cleanup(srv.Close)
	c := dialWS(t, srv)
	c.send(wsMessage{Type: "connection_init", Payload: json.RawMessage(`{"Authorization":"Bearer ` + tn.Token + `"}`)})
	c.must("connection_ack")

	var out struct{ Logout struct{ Revoked bool } }
	s.must(tn.Token, `mutation { logout { revoked revokedAt } }`, nil, &out)
	if !out.Logout.Revoked {
		t.Fatalf("logout: %+v", out)
	}
	if status, r := s.post(tn.Token, "{ me { id } }", nil); status != http.StatusUnauthorized {
		t.Fatalf("GraphQL with the revoked token: %d %s", status, r.Raw)
	}
	req := httptest.NewRequest("GET", "/api/v2/organizations", nil)
	req.Header.Set("Authorization", "Bearer "+tn.Token)
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, req)
	if w.Code != http.StatusUnauthorized {
		t.Fatalf("REST with the revoked token: %d %s", w.Code, w.Body)
	}
	if code, reason := closeStatus(t, c, 10*time.Second); code != 4403 || reason != auth.ErrTokenRevoked.Error() {
		t.Fatalf("closed with %d %q", code, reason)
	}
	s.must(other.Login.AccessToken, "{ me { id } }", nil, nil)
	// A new socket with the revoked token is refused at connection_init.
	c2 := dialWS(t, srv)
	c2.send(wsMessage{Type: "connection_init", Payload: json.RawMessage(`{"Authorization":"Bearer ` + tn.Token + `"}`)})
	if code, _ := closeStatus(t, c2, 10*time.Second); code != 4403 {
		t.Fatalf("init with a revoked token closed with %d", code)
	}
}

// TestAttackIntrospectionAndGraphiQLOpen: by default (einvoice api)
// GraphiQL is not served and introspection is refused before anything
// runs; __typename still works. `einvoice dev` turns both on.
func TestAttackIntrospectionAndGraphiQLOpen(t *testing.T) {
	s := newServer(t, sqlite, graph.Options{})
	for _, path := range []string{"/graphql", "/graphql/assets/init.js"} {
		r := httptest.NewRequest("GET", path, nil)
		r.Header.Set("Accept", "text/html")
		w := httptest.NewRecorder()
		s.h.ServeHTTP(w, r)
		body, _ := io.ReadAll(w.Body)
		if w.Code != http.StatusNotFound || strings.Contains(string(body), "graphiql") {
			t.Fatalf("GET %s: %d %s", path, w.Code, body)
		}
	}
	for _, q := range []string{`{ __schema { types { name } } }`, `{ __type(name: "Query") { name } }`,
		`query { ...I } fragment I on Query { __schema { queryType { name } } }`} {
		_, r := s.post("", q, nil)
		refusedBeforeRunning(t, r, "INTROSPECTION_DISABLED")
	}
	if _, r := s.post("", "{ __typename }", nil); len(r.Errors) != 0 {
		t.Fatalf("__typename: %s", r.Raw)
	}
}

// TestAttackAliasConflicts: fields that share one alias but differ (`{ a:
// __typename a: apiKeyScopes a: auditActions … }`) made the
// overlapping-fields rule report every conflicting pair: 166 triples (7.6
// KB) answered 82,668 errors, 22 MB. Aliases now count in the selection
// budget, and no answer carries more than DefaultMaxValidationErrors
// validation errors plus one saying the rest were left out, for anonymous
// and authenticated callers alike.
func TestAttackAliasConflicts(t *testing.T) {
	s := newServer(t, sqlite, graph.Options{})
	tn := s.tenant("aliases")
	triples := func(n int) string {
		return "{" + strings.Repeat(" a: __typename a: apiKeyScopes a: auditActions", n) + " }"
	}
	pairs := func(n int) string { return "{" + strings.Repeat(" a: __typename a: apiKeyScopes", n) + " }" }
	var unknown strings.Builder
	unknown.WriteString("{")
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&unknown, " x%d", i)
	}
	unknown.WriteString(" }")
	const maxAnswer = 8 << 10
	for _, who := range []struct{ name, token string }{{"anonymous", ""}, {"authenticated", tn.Token}} {
		t.Run(who.name, func(t *testing.T) {
			for _, c := range []struct {
				name, query, code string
				errors            int // exactly this many errors
			}{
				{"166 triples (the review's document)", triples(166), "SELECTION_LIMIT_EXCEEDED", 1},
				{"250 pairs", pairs(250), "SELECTION_LIMIT_EXCEEDED", 1},
				// 125 pairs fill the budget: 15,625 conflicting pairs.
				{"125 pairs, within the budget", pairs(125), "GRAPHQL_VALIDATION_FAILED", graph.DefaultMaxValidationErrors + 1},
				{"500 unknown fields", unknown.String(), "GRAPHQL_VALIDATION_FAILED", graph.DefaultMaxValidationErrors + 1},
			} {
				t.Run(c.name, func(t *testing.T) {
					status, r := s.post(who.token, c.query, nil)
					if status != http.StatusOK && status != http.StatusUnprocessableEntity {
						t.Fatalf("status %d: %.500s", status, r.Raw)
					}
					if len(r.Errors) != c.errors || len(r.Raw) > maxAnswer {
						t.Fatalf("%d errors, %d bytes; want %d errors in at most %d bytes: %.500s", len(r.Errors), len(r.Raw), c.errors, maxAnswer, r.Raw)
					}
					for _, e := range r.Errors {
						if e.Extensions.Code != c.code {
							t.Fatalf("error code %q, want %q: %.500s", e.Extensions.Code, c.code, r.Raw)
						}
					}
					if d := strings.TrimSpace(string(r.Data)); d != "" && d != "null" {
						t.Fatalf("fields ran: %.500s", r.Raw)
					}
					if c.errors > 1 && !strings.Contains(r.Errors[len(r.Errors)-1].Message, "the rest were left out") {
						t.Fatalf("no error says the rest were left out: %.500s", r.Raw)
					}
				})
			}
		})
	}
	t.Run("a document with a few errors reports them all", func(t *testing.T) {
		_, r := s.post("", "{ a: __typename a: apiKeyScopes nope }", nil)
		if len(r.Errors) != 2 {
			t.Fatalf("want the conflict and the unknown field: %s", r.Raw)
		}
	})
}

// postFrom is post with the answer's headers, from the client address addr.
func (s *server) postFrom(addr, token, query string) (*httptest.ResponseRecorder, result) {
	s.t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	r := httptest.NewRequest("POST", "/graphql", strings.NewReader(string(body)))
	r.RemoteAddr = addr
	r.Header.Set("Content-Type", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, r)
	var out struct {
		Data   json.RawMessage
		Errors []gqlError
	}
	_ = json.Unmarshal(w.Body.Bytes(), &out)
	return w, result{Data: out.Data, Errors: out.Errors, Raw: w.Body.Bytes()}
}

// rateLimited checks a 429 in the contract's shape with Retry-After.
func rateLimited(t *testing.T, w *httptest.ResponseRecorder) {
	t.Helper()
	var body struct {
		Detail string `json:"detail"`
		Code   string `json:"code"`
	}
	_ = json.Unmarshal(w.Body.Bytes(), &body)
	if w.Code != http.StatusTooManyRequests || body.Code != "rate_limited" || body.Detail == "" {
		t.Fatalf("want 429 rate_limited: %d %s", w.Code, w.Body)
	}
	if ra, err := strconv.Atoi(w.Header().Get("Retry-After")); err != nil || ra < 1 {
		t.Fatalf("Retry-After %q", w.Header().Get("Retry-After"))
	}
}

// TestAttackAuthenticatedGraphQLFlood: authenticated /graphql requests
// had no rate limit (70 documents of conflicting aliases: 70 × 422, 41.5
// CPU s). Every request now counts, weighted by its document's cost,
// against its user's budget and its address's, whoever sends it.
func TestAttackAuthenticatedGraphQLFlood(t *testing.T) {
	t.Run("600 back-to-back requests at the default limits", func(t *testing.T) {
		s := newServerOn(t, storetest.SQLite(t), graph.Options{}, nil, func(o *rest.Options) {
			o.RateLimits.GraphQLUser, o.RateLimits.GraphQLAddress = rest.DefaultGraphQLUserLimit, rest.DefaultGraphQLAddressLimit
		})
		tn := s.tenant("flood600")
		var refused *httptest.ResponseRecorder
		answered := 0
		began := time.Now()
		for i := 0; i < 600 && refused == nil; i++ {
			w, r := s.postFrom("192.0.2.10:1234", tn.Token, "{ me { id } }")
			switch w.Code {
			case http.StatusOK:
				if len(r.Errors) > 0 {
					t.Fatalf("request %d: %s", i, r.Raw)
				}
				answered++
			default:
				refused = w
			}
		}
		if refused == nil {
			t.Fatal("600 requests from one user, none refused")
		}
		rateLimited(t, refused)
		// The bucket refills while the requests are sent (Count per Period):
		// the budget is the full bucket plus what refilled meanwhile.
		lim := rest.DefaultGraphQLUserLimit
		budget := lim.Count + int(time.Since(began)*time.Duration(lim.Count)/lim.Period) + 1
		if answered > budget {
			t.Fatalf("%d answered before the first 429, over the user's budget of %d (%d and what refilled)", answered, budget, lim.Count)
		}
	})
	t.Run("weighted by the document's cost, per user and per address", func(t *testing.T) {
		s := newServerOn(t, storetest.SQLite(t), graph.Options{}, nil, func(o *rest.Options) {
			o.RateLimits.GraphQLUser = rest.Limit{Count: 20, Period: time.Hour}
			o.RateLimits.GraphQLAddress = rest.Limit{Count: 40, Period: time.Hour}
		})
		a := s.tenant("weighta") // the signup requests come from httptest's default address
		b := s.tenant("weightb")
		heavy := "{" + strings.Repeat(" a: __typename a: apiKeyScopes a: auditActions", 166) + " }" // over the selection limit: the most a document costs
		cost := 1 + (graph.DefaultMaxSelections+1)/graph.SelectionsPerCost
		sent := 2 // tenant spent two of a's budget: createProject and createApiKey
		for ; sent+cost <= 20; sent += cost {
			if w, r := s.postFrom("192.0.2.20:1", a.Token, heavy); w.Code == http.StatusTooManyRequests || len(r.Errors) != 1 {
				t.Fatalf("heavy request within the budget: %d %.300s", w.Code, r.Raw)
			}
		}
		for ; sent < 20; sent++ {
			if w, r := s.postFrom("192.0.2.20:1", a.Token, "{ __typename }"); w.Code != http.StatusOK {
				t.Fatalf("light request within the budget: %d %s", w.Code, r.Raw)
			}
		}
		w, _ := s.postFrom("192.0.2.20:1", a.Token, "{ __typename }")
		rateLimited(t, w)
		// Another user from another address is not affected.
		if w, r := s.postFrom("192.0.2.21:1", b.Token, "{ __typename }"); w.Code != http.StatusOK {
			t.Fatalf("another user: %d %s", w.Code, r.Raw)
		}
		// The address's budget holds whatever users (or none) send from it:
		// 18 spent there by a, 22 more by b and anonymous callers.
		for i := 0; i < 22; i++ {
			token := b.Token
			if i%2 == 1 {
				token = ""
			}
			if w, r := s.postFrom("192.0.2.20:1", token, "{ __typename }"); w.Code != http.StatusOK {
				t.Fatalf("request %d within the address's budget: %d %s", i, w.Code, r.Raw)
			}
		}
		w, _ = s.postFrom("192.0.2.20:1", "", "{ __typename }")
		rateLimited(t, w)
		w, _ = s.postFrom("192.0.2.20:1", b.Token, "{ __typename }")
		rateLimited(t, w)
	})
}

// hostsResolver resolves hooks.example.test to a public address and no
// other name, so that tests never query DNS.
type hostsResolver struct{}

func (hostsResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if host == "hooks.example.test" {
		return []netip.Addr{netip.MustParseAddr("41.58.1.1")}, nil
	}
	return nil, errors.New("no such host")
}

// TestAttackWebhookHostForms: over GraphQL as over REST, webhook URLs
// with numeric hosts in inet_aton forms, or hosts that do not resolve,
// are refused when saved, with the reason, even where private addresses
// are allowed.
func TestAttackWebhookHostForms(t *testing.T) {
	s := newServerOn(t, storetest.SQLite(t), graph.Options{}, func(c *app.Config) {
		c.Webhooks.AllowPrivate, c.Webhooks.Resolver = true, hostsResolver{}
	}, nil)
	a := s.tenant("hosts")
	create := `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`
	update := `mutation($input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $input) { id } }`
	var cr struct {
		CreateWebhookEndpoint struct{ Endpoint struct{ ID string } }
	}
	s.must(a.Token, create, map[string]any{"input": map[string]any{"projectId": a.ProjectID, "url": "http://hooks.example.test/hooks"}}, &cr)
	for _, c := range []struct{ url, reason string }{
		{"http://2130706433/hooks", "non-canonical"},
		{"http://0x7f.1/hooks", "non-canonical"},
		{"http://127.1/hooks", "non-canonical"},
		{"http://0/hooks", "non-canonical"},
		{"http://0177.0.0.1/hooks", "non-canonical"},
		{"http://hooks.invalid/hooks", "does not resolve"},
	} {
		for name, r := range map[string]result{
			"create": s.do(a.Token, create, map[string]any{"input": map[string]any{"projectId": a.ProjectID, "url": c.url}}),
			"update": s.do(a.Token, update, map[string]any{"input": map[string]any{"projectId": a.ProjectID, "endpointId": cr.CreateWebhookEndpoint.Endpoint.ID, "url": c.url}}),
		} {
			if locs := r.locs(t); len(locs) != 1 || locs[0] != "value_error@input/url" || !strings.Contains(string(r.Raw), c.reason) {
				t.Fatalf("%s %s: %s", name, c.url, r.Raw)
			}
		}
	}
}

// TestAttackEmptyScopes: over GraphQL as over REST, `scopes: []` created a
// key with every scope. It is now refused, naming the scopes allowed;
// omitting scopes keeps every scope.
func TestAttackEmptyScopes(t *testing.T) {
	s := newServer(t, sqlite, graph.Options{})
	tn := s.tenant("scopes")
	r := s.do(tn.Token, createKeyMutation, map[string]any{"input": map[string]any{"projectId": tn.ProjectID, "keyName": "nothing", "scopes": []any{}}})
	if locs := r.locs(t); len(locs) != 1 || locs[0] != "value_error@input/scopes" {
		t.Fatalf("empty scopes: %s", r.Raw)
	}
	for _, sc := range model.ScopeNames() {
		if !strings.Contains(string(r.Raw), sc) {
			t.Fatalf("the refusal does not name %s: %s", sc, r.Raw)
		}
	}
	var out struct {
		CreateAPIKey struct{ Key struct{ Scopes []string } } `json:"createApiKey"`
	}
	s.must(tn.Token, createKeyMutation, map[string]any{"input": map[string]any{"projectId": tn.ProjectID, "keyName": "default"}}, &out)
	if len(out.CreateAPIKey.Key.Scopes) != len(model.ScopeNames()) {
		t.Fatalf("omitted scopes: %v", out.CreateAPIKey.Key.Scopes)
	}
}
