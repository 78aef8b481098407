package rest

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/graph/portal"
)

// docsFiles holds the /docs page, its script and its style sheet. Swagger
// UI itself is the npm package swagger-ui-dist as the portal's build
// copies it (portal.ThirdParty), served under /docs/assets/swagger-ui/.
//
//go:embed docs
var docsFiles embed.FS

// docsCSP keeps the documentation page on this origin: scripts, styles,
// images and the OpenAPI documents all come from the API itself.
const docsCSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// docsRoutes serves the OpenAPI documents and Swagger UI.
func (a *api) docsRoutes(r chi.Router) {
	r.Get("/openapi/v2.json", a.adapt(openAPIHandler("v2")))
	r.Get("/openapi/v1.json", a.adapt(openAPIHandler("v1")))

	index, err := docsFiles.ReadFile("docs/index.html")
	if err != nil {
		panic("rest: docs/index.html not embedded: " + err.Error())
	}
	r.Get("/docs", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", docsCSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-cache")
		_, _ = w.Write(index)
	})
	r.Get("/docs/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/docs", http.StatusMovedPermanently)
	})
	assets, err := fs.Sub(docsFiles, "docs")
	if err != nil {
		panic("rest: docs not embedded: " + err.Error())
	}
	files := http.StripPrefix("/docs/assets/", http.FileServerFS(assets))
	swaggerUI := http.StripPrefix("/docs/assets/swagger-ui/", http.FileServerFS(portal.ThirdParty("swagger-ui")))
	r.Get("/docs/assets/*", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/docs/assets/")
		if name == "" || strings.HasSuffix(name, "/") || name == "index.html" {
			writeJSON(w, http.StatusNotFound, map[string]string{"detail": "Not Found"})
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if strings.HasPrefix(name, "swagger-ui/") {
			swaggerUI.ServeHTTP(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})
}

func openAPIHandler(version string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		doc, err := OpenAPI(version)
		if err != nil {
			return err
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "public, max-age=300")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		_, _ = w.Write(doc)
		return nil
	}
}
