// Package portal serves the web portal: the single-page app in this folder,
// built by Vite into dist/ (committed, so that the binary embeds it without
// Node) and talking to the GraphQL API only. `make portal` rebuilds dist/
// from the sources; CI fails when the committed build differs from a fresh
// one.
package portal

import (
	"bytes"
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed all:dist
var dist embed.FS

// ContentSecurityPolicy is the policy of every portal response: scripts,
// styles and fonts from this origin only (no inline code), API calls and
// the GraphQL WebSocket to this origin, images from this origin or data
// (QR codes), and blob frames for the inline PDF preview.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"font-src 'self'; connect-src 'self'; frame-src blob:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Handler serves the portal: files under assets/ (content-hashed names)
// with a year-long immutable cache, and index.html, never cached, for
// every other path without a file extension, so that the app's own routes
// (/projects/…) load it on a reload. Other missing files are 404.
func Handler() http.Handler {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic("portal: " + err.Error())
	}
	index, err := fs.ReadFile(sub, "index.html")
	if err != nil {
		panic("portal: the build has no index.html; run make portal")
	}
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if strings.HasPrefix(name, "assets/") {
			if _, err := fs.Stat(sub, name); err == nil {
				h.Set("Cache-Control", "public, max-age=31536000, immutable")
				files.ServeHTTP(w, r)
				return
			}
		}
		if name != "" && name != "index.html" && path.Ext(name) != "" {
			// The third-party bundles are served behind /docs and /graphql.
			if st, err := fs.Stat(sub, name); err == nil && !st.IsDir() && !strings.HasPrefix(name, thirdPartyDir) {
				h.Set("Cache-Control", "public, max-age=3600")
				files.ServeHTTP(w, r)
				return
			}
			h.Set("Cache-Control", "no-cache")
			http.Error(w, "Not Found", http.StatusNotFound)
			return
		}
		h.Set("Cache-Control", "no-cache")
		h.Set("Content-Type", "text/html; charset=utf-8")
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(index))
	})
}
