package rest

import (
	"net/http"
	"testing"

	"github.com/go-chi/chi/v5"
)

// TestPrefixedRefusesRootSettings checks that the router of a prefix
// refuses what would reach routes outside it (Use, NotFound,
// MethodNotAllowed), while its groups take middleware, and that its routes
// take the prefix.
func TestPrefixedRefusesRootSettings(t *testing.T) {
	root := chi.NewRouter()
	p := prefixed{Router: root, prefix: "/api/v2"}
	noop := func(next http.Handler) http.Handler { return next }
	for name, f := range map[string]func(){
		"Use":              func() { p.Use(noop) },
		"NotFound":         func() { p.NotFound(nil) },
		"MethodNotAllowed": func() { p.MethodNotAllowed(nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s on a prefixed router did not panic", name)
				}
			}()
			f()
		}()
	}
	p.Group(func(r chi.Router) {
		r.Use(noop)
		r.Get("/x", func(http.ResponseWriter, *http.Request) {})
	})
	p.With(noop).Post("/y", func(http.ResponseWriter, *http.Request) {})
	var got []string
	_ = chi.Walk(root, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		got = append(got, method+" "+route)
		return nil
	})
	if len(got) != 2 || got[0] != "GET /api/v2/x" || got[1] != "POST /api/v2/y" {
		t.Errorf("routes %v", got)
	}
}
