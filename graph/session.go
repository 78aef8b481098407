package graph

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/auth"
)

// SessionCookie is the name of the refresh cookie of portal sign-ins.
const SessionCookie = "einvoice_session"

// exchange is the HTTP request and response of a GraphQL operation, for the
// resolvers that read and set the session cookie. WebSocket operations have
// none.
type exchange struct {
	r *http.Request
	w http.ResponseWriter
}

type exchangeKey struct{}

func withExchange(ctx context.Context, r *http.Request, w http.ResponseWriter) context.Context {
	return context.WithValue(ctx, exchangeKey{}, &exchange{r: r, w: w})
}

func exchangeFrom(ctx context.Context) *exchange {
	x, _ := ctx.Value(exchangeKey{}).(*exchange)
	return x
}

// cookie reads the session cookie ("" when absent).
func (x *exchange) cookie() string {
	c, err := x.r.Cookie(SessionCookie)
	if err != nil {
		return ""
	}
	return c.Value
}

// setCookie sets (or, with a nil token, clears) the session cookie: HttpOnly,
// SameSite=Strict, scoped to the GraphQL endpoint's path so that no other
// route ever receives it, and Secure unless the request came over plain HTTP
// to a loopback address (local development, where browsers would drop it).
func (x *exchange) setCookie(t *auth.SessionToken) {
	c := &http.Cookie{
		Name: SessionCookie, Path: x.r.URL.Path, HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: x.r.TLS != nil || !loopbackHost(x.r.Host),
	}
	if t == nil {
		c.MaxAge = -1
	} else {
		c.Value = t.Value
		c.Expires = t.ExpiresAt
		c.MaxAge = max(1, int(time.Until(t.ExpiresAt)/time.Second))
	}
	x.w.Header().Add("Set-Cookie", c.String())
	// The answer carries an access token: no cache may keep it.
	x.w.Header().Set("Cache-Control", "no-store")
}

// sameOrigin refuses requests a page of another site made: SameSite=Strict
// already keeps the cookie off them, and the Origin check covers browsers
// that do not honour it. Requests without Origin (not from a browser page)
// pass; they cannot carry a browser's cookie without its holder.
func (x *exchange) sameOrigin() error {
	o := x.r.Header.Get("Origin")
	if o == "" {
		return nil
	}
	u, err := url.Parse(o)
	if err != nil || !strings.EqualFold(u.Host, x.r.Host) {
		return model.Errorf(model.CodeForbidden, "a session can only be used from the portal's own pages")
	}
	return nil
}

func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// errNoExchange answers session operations sent over a WebSocket.
var errNoExchange = model.Errorf(model.CodeInvalid, "sessions are kept by cookies: send this operation over HTTP")

// startSession gives the browser a refresh cookie after a signup or login
// made over HTTP.
func (r *Resolver) startSession(ctx context.Context, userID uuid.UUID) error {
	x := exchangeFrom(ctx)
	if x == nil {
		return nil
	}
	t, err := r.app.Auth.StartSession(ctx, userID)
	if err != nil {
		return err
	}
	x.setCookie(t)
	return nil
}
