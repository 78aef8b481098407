package rest

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// V1Deprecated is when the /api/v1 prefix was deprecated in favour of
// /api/v2, and V1Sunset when it stops answering. Both are announced on
// every v1 response (RFC 9745 Deprecation, RFC 8594 Sunset).
var (
	V1Deprecated = time.Date(2026, time.November, 21, 0, 0, 0, 0, time.UTC)
	V1Sunset     = time.Date(2027, time.November, 30, 0, 0, 0, 0, time.UTC)
)

var (
	v1Deprecation = "@" + strconv.FormatInt(V1Deprecated.Unix(), 10)
	v1Sunset      = V1Sunset.Format(http.TimeFormat)
)

// deprecated marks a v1 response: Deprecation and Sunset headers, and a
// Link to the v2 twin (successor-version) and to the documentation.
func deprecated(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Deprecation", v1Deprecation)
		h.Set("Sunset", v1Sunset)
		link := `</docs>; rel="deprecation"; type="text/html"`
		if rest, ok := strings.CutPrefix(r.URL.Path, "/api/v1/"); ok {
			link = `</api/v2/` + rest + `>; rel="successor-version", ` + link
		}
		h.Set("Link", link)
		next.ServeHTTP(w, r)
	})
}
