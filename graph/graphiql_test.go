package graph_test

import (
	"bytes"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/graph/portal"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

var assetRef = regexp.MustCompile(`(?:src|href)="([^"]+)"`)

// TestGraphiQL checks that a browser gets GraphiQL from local assets only,
// that every asset is served, and that API clients still get GraphQL.
func TestGraphiQL(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite}, graph.Options{GraphiQL: true})
	get := func(path, accept string) *httptest.ResponseRecorder {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		rec := httptest.NewRecorder()
		s.h.ServeHTTP(rec, req)
		return rec
	}

	page := get("/graphql", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	body := page.Body.String()
	if page.Code != http.StatusOK || !strings.HasPrefix(page.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("GET /graphql as a browser: %d %s: %s", page.Code, page.Header().Get("Content-Type"), body)
	}
	if strings.Contains(body, "https://") || strings.Contains(body, "http://") || strings.Contains(body, "//cdn") {
		t.Fatalf("the page refers to another origin: %s", body)
	}
	if csp := page.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "script-src 'self'") {
		t.Fatalf("Content-Security-Policy = %q", csp)
	}
	refs := assetRef.FindAllStringSubmatch(body, -1)
	if len(refs) != 5 {
		t.Fatalf("want 5 asset references (css, react, react-dom, graphiql, init), got %v", refs)
	}
	served := map[string]bool{}
	for _, ref := range refs {
		u := ref[1]
		if !strings.HasPrefix(u, "graphql/assets/") {
			t.Fatalf("asset %q is not under the endpoint's assets", u)
		}
		a := get("/"+u, "")
		want := "text/javascript"
		if strings.HasSuffix(u, ".css") {
			want = "text/css"
		}
		if a.Code != http.StatusOK || !strings.HasPrefix(a.Header().Get("Content-Type"), want) || a.Body.Len() < 100 {
			t.Fatalf("GET /%s: %d %q, %d bytes", u, a.Code, a.Header().Get("Content-Type"), a.Body.Len())
		}
		// Everything but init.js is the portal build's copy of an npm
		// package's file (graph/portal checks the copies against the
		// lockfile).
		if name := path.Base(u); name != "init.js" {
			built, err := fs.ReadFile(portal.ThirdParty("graphiql"), name)
			if err != nil || !bytes.Equal(built, a.Body.Bytes()) {
				t.Fatalf("GET /%s is not the build's %s (%v)", u, name, err)
			}
			served[name] = true
		}
	}
	for _, name := range []string{"graphiql.min.js", "graphiql.min.css", "react.production.min.js", "react-dom.production.min.js"} {
		if !served[name] {
			t.Errorf("the page does not load %s", name)
		}
	}

	for _, path := range []string{"/graphql/assets/nope.js", "/graphql/assets/", "/graphql/assets/../handler.go", "/graphql/assets/LICENSE.react"} {
		if rec := get(path, ""); rec.Code != http.StatusNotFound {
			t.Fatalf("GET %s: %d, want 404", path, rec.Code)
		}
	}

	// API clients: a GET with a query, and a POST, get GraphQL answers.
	rec := get("/graphql?query=%7B__typename%7D", "application/json")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"__typename":"Query"`) {
		t.Fatalf("GET with a query: %d %s", rec.Code, rec.Body.String())
	}
	s.must("", `{ __typename }`, nil, nil)
}
