package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

// testSandboxKeys is the one sandbox key set of the test binary.
var testSandboxKeys = apptest.SandboxKeys

type server struct {
	t    testing.TB
	h    http.Handler
	svc  *app.App
	st   *store.Store
	logs *apptest.LogBuffer
}

// build makes a server over st; editService and editRouter, when not nil,
// change the service's and the router's configuration.
func build(t testing.TB, st *store.Store, editService func(*app.Config), editRouter func(*rest.Options)) *server {
	t.Helper()
	logs := &apptest.LogBuffer{}
	cfg := apptest.Config(t, logs)
	if editService != nil {
		editService(&cfg)
	}
	svc, err := app.New(st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	opts := rest.Options{Version: "test", Logger: cfg.Logger}
	if editRouter != nil {
		editRouter(&opts)
	}
	return &server{t: t, h: rest.New(svc, opts), svc: svc, st: st, logs: logs}
}

// newServerOn builds a server over st with a clock (nil: the real one).
func newServerOn(t testing.TB, st *store.Store, now func() time.Time) *server {
	t.Helper()
	return build(t, st, func(c *app.Config) { c.Now = now }, nil)
}

// newServerWith builds a server over st whose router options opt may
// change (rate limits, collectors).
func newServerWith(t testing.TB, st *store.Store, opt func(*rest.Options)) *server {
	t.Helper()
	return build(t, st, nil, opt)
}

func newServer(t testing.TB, d storetest.Dialect) *server {
	t.Helper()
	return newServerOn(t, d.Open(t), nil)
}

// response is a recorded answer.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r response) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("response is not a JSON object: %v: %s", err, r.Body)
	}
	return m
}

// req is one request to the router.
type req struct {
	method, path string
	body         any // string is sent raw; anything else is JSON-encoded
	token        string
	clientID     string
	secret       string
	header       map[string]string
}

func (s *server) do(r req) response {
	s.t.Helper()
	var body io.Reader
	switch b := r.body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	case []byte:
		body = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			s.t.Fatal(err)
		}
		body = bytes.NewReader(raw)
	}
	hr := httptest.NewRequest(r.method, r.path, body)
	hr.Header.Set("Content-Type", "application/json")
	if r.token != "" {
		hr.Header.Set("Authorization", "Bearer "+r.token)
	}
	if r.clientID != "" {
		hr.Header.Set("X-Client-Id", r.clientID)
		hr.Header.Set("X-Client-Secret", r.secret)
	}
	for k, v := range r.header {
		hr.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, hr)
	return response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// must sends r and fails unless the status is want.
func (s *server) must(want int, r req) map[string]any {
	s.t.Helper()
	res := s.do(r)
	if res.Status != want {
		s.t.Fatalf("%s %s: status %d, want %d: %s", r.method, r.path, res.Status, want, res.Body)
	}
	return res.json(s.t)
}

// tenant is a signed-up user with an organization, a sandbox project and a key.
type tenant struct {
	Token, OrgID, ProjectID, KeyID, ClientID, Secret string
}

func (s *server) tenant(slug string) tenant {
	s.t.Helper()
	su := s.must(200, req{method: "POST", path: "/api/v2/auth/signup", body: map[string]any{
		"email": slug + "@example.com", "password": "correct horse battery", "organization_name": slug, "organization_slug": slug,
	}})
	tok := su["access_token"].(string)
	org := su["organization"].(map[string]any)["id"].(string)
	pr := s.must(200, req{method: "POST", path: "/api/v2/projects", token: tok, body: map[string]any{
		"organization_id": org, "name": slug + " shop", "environment": "sandbox",
	}})
	pid := pr["id"].(string)
	k := s.must(200, req{method: "POST", path: "/api/v2/projects/" + pid + "/keys", token: tok, body: map[string]any{"key_name": "default"}})
	return tenant{Token: tok, OrgID: org, ProjectID: pid, KeyID: k["id"].(string), ClientID: k["client_id"].(string), Secret: k["client_secret"].(string)}
}

// detail returns the 422 problems of a response.
func detail(t testing.TB, r response) []map[string]any {
	t.Helper()
	if r.Status != 422 {
		t.Fatalf("status %d, want 422: %s", r.Status, r.Body)
	}
	var body struct {
		Detail []map[string]any `json:"detail"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil || len(body.Detail) == 0 {
		t.Fatalf("422 body not in the contract's shape: %v: %s", err, r.Body)
	}
	for _, d := range body.Detail {
		if _, ok := d["loc"].([]any); !ok {
			t.Fatalf("problem without loc array: %s", r.Body)
		}
		if _, ok := d["msg"].(string); !ok {
			t.Fatalf("problem without msg: %s", r.Body)
		}
		typ, _ := d["type"].(string)
		known := false
		for _, k := range model.ProblemTypes {
			if string(k) == typ {
				known = true
			}
		}
		if !known {
			t.Fatalf("problem type %q outside the documented set: %s", typ, r.Body)
		}
	}
	return body.Detail
}

// locs renders problems as "type@loc/loc" strings for comparison.
func locs(ds []map[string]any) []string {
	var out []string
	for _, d := range ds {
		parts := []string{}
		for _, l := range d["loc"].([]any) {
			switch v := l.(type) {
			case string:
				parts = append(parts, v)
			case float64:
				parts = append(parts, strconv.Itoa(int(v)))
			}
		}
		out = append(out, d["type"].(string)+"@"+strings.Join(parts, "/"))
	}
	return out
}

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}
