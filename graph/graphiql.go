package graph

import (
	_ "embed"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/einvoice-ng/einvoice/graph/portal"
)

// graphiqlInit starts GraphiQL on the page (ours). GraphiQL, React and
// React DOM are the npm packages' browser builds as the portal's build
// copies them (portal.ThirdParty), so the in-browser IDE needs no internet
// access.
//
//go:embed graphiql/init.js
var graphiqlInit []byte

// graphiqlBuilds are GraphiQL's, React's and React DOM's browser builds.
var graphiqlBuilds = portal.ThirdParty("graphiql")

// assetHandler serves the embedded files at <anything>/assets/<name>, with
// a long cache lifetime for the third-party builds.
func assetHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
			return
		}
		name := path.Base(r.URL.Path)
		var b []byte
		switch ext := path.Ext(name); {
		case name == "init.js":
			b = graphiqlInit
		case ext == ".js" || ext == ".css":
			b, _ = fs.ReadFile(graphiqlBuilds, name)
		}
		if b == nil {
			http.NotFound(w, r)
			return
		}
		switch path.Ext(name) {
		case ".js":
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		case ".css":
			w.Header().Set("Content-Type", "text/css; charset=utf-8")
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if name == "init.js" {
			w.Header().Set("Cache-Control", "no-cache")
		} else {
			w.Header().Set("Cache-Control", "public, max-age=86400")
		}
		if r.Method == http.MethodHead {
			return
		}
		_, _ = w.Write(b)
	})
}

// wantsGraphiQL tells a browser opening the endpoint (GET, HTML accepted,
// no query) from an API client.
func wantsGraphiQL(r *http.Request) bool {
	return r.Method == http.MethodGet &&
		r.Header.Get("Upgrade") == "" &&
		r.URL.Query().Get("query") == "" &&
		strings.Contains(r.Header.Get("Accept"), "text/html")
}

// graphiqlPage loads only same-origin assets; init.js starts GraphiQL
// against the page's own URL.
var graphiqlPage = template.Must(template.New("graphiql").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>einvoice GraphQL</title>
<link rel="stylesheet" href="{{.Assets}}/graphiql.min.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="{{.Assets}}/react.production.min.js"></script>
<script src="{{.Assets}}/react-dom.production.min.js"></script>
<script src="{{.Assets}}/graphiql.min.js"></script>
<script src="{{.Assets}}/init.js"></script>
</body>
</html>
`))

// serveGraphiQL answers the IDE's page. Asset URLs are relative to the
// endpoint (/graphql → graphql/assets/...), so the page works under any
// mount path and host, and the CSP keeps everything same-origin.
func serveGraphiQL(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "+
		"img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'")
	assets := path.Base(r.URL.Path) + "/assets"
	if strings.HasSuffix(r.URL.Path, "/") {
		assets = "assets"
	}
	_ = graphiqlPage.Execute(w, struct{ Assets string }{assets})
}
