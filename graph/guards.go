package graph

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/google/uuid"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/auth"
)

// Extension codes of the guards below.
const (
	authMutationLimitCode = "AUTH_MUTATION_LIMIT_EXCEEDED"
	subscriptionLimitCode = "SUBSCRIPTION_LIMIT_EXCEEDED"
	introspectionOffCode  = "INTROSPECTION_DISABLED"
)

// introspectionFields are the root fields that describe the schema.
var introspectionFields = map[string]bool{"__schema": true, "__type": true}

// NoIntrospection refuses, before anything runs, a query asking for
// __schema or __type, where introspection is off (gqlgen's own refusal
// happens while resolving, as an error without a code). __typename stays
// available.
type NoIntrospection struct{}

var (
	_ graphql.HandlerExtension        = NoIntrospection{}
	_ graphql.OperationContextMutator = NoIntrospection{}
)

// ExtensionName implements graphql.HandlerExtension.
func (NoIntrospection) ExtensionName() string { return "NoIntrospection" }

// Validate implements graphql.HandlerExtension.
func (NoIntrospection) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext implements graphql.OperationContextMutator.
func (NoIntrospection) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil || oc.Operation.Operation != ast.Query {
		return nil
	}
	if countRootFields(oc.Operation.SelectionSet, introspectionFields, map[string]bool{}) > 0 {
		return limitError(introspectionOffCode, "introspection is disabled on this server")
	}
	return nil
}

// authMutations are the root mutation fields that check or set a password.
var authMutations = map[string]bool{"login": true, "signup": true}

// AuthMutationLimit refuses, before any field runs, an operation that asks
// for more than one signup or login (aliases and fragments included): one
// document must not batch password guesses. Each attempt is also counted
// by model/auth's per-address and per-e-mail limits.
type AuthMutationLimit struct{}

var (
	_ graphql.HandlerExtension        = AuthMutationLimit{}
	_ graphql.OperationContextMutator = AuthMutationLimit{}
)

// ExtensionName implements graphql.HandlerExtension.
func (AuthMutationLimit) ExtensionName() string { return "AuthMutationLimit" }

// Validate implements graphql.HandlerExtension.
func (AuthMutationLimit) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext implements graphql.OperationContextMutator.
func (AuthMutationLimit) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil || oc.Operation.Operation != ast.Mutation {
		return nil
	}
	if n := countRootFields(oc.Operation.SelectionSet, authMutations, map[string]bool{}); n > 1 {
		return limitError(authMutationLimitCode, "one request may carry one signup or login, this one carries %d; send them one at a time", n)
	}
	return nil
}

// countRootFields counts the fields named in names at the root of set,
// through inline fragments and fragment spreads (each spread of a fragment
// once; validation has refused cycles).
func countRootFields(set ast.SelectionSet, names map[string]bool, seen map[string]bool) int {
	n := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if names[s.Name] {
				n++
			}
		case *ast.InlineFragment:
			n += countRootFields(s.SelectionSet, names, seen)
		case *ast.FragmentSpread:
			if s.Definition != nil && !seen[s.Name] {
				seen[s.Name] = true
				n += countRootFields(s.Definition.SelectionSet, names, seen)
				delete(seen, s.Name)
			}
		}
	}
	return n
}

// socket is the state of one WebSocket connection, put in its request's
// context before gqlgen accepts it: the subscriptions it holds and, once
// connection_init authenticated it, the context that ends with its token.
type socket struct {
	subs  atomic.Int64
	mu    sync.Mutex
	token context.Context
}

type socketKey struct{}

func withSocket(ctx context.Context, s *socket) context.Context {
	return context.WithValue(ctx, socketKey{}, s)
}

func socketFrom(ctx context.Context) *socket {
	s, _ := ctx.Value(socketKey{}).(*socket)
	return s
}

func (s *socket) setToken(ctx context.Context) {
	s.mu.Lock()
	s.token = ctx
	s.mu.Unlock()
}

// tokenEnd says why the connection's token ended, or nil while it holds.
func (s *socket) tokenEnd() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.token == nil {
		return nil
	}
	if cause := context.Cause(s.token); errors.Is(cause, auth.ErrTokenExpired) || errors.Is(cause, auth.ErrTokenRevoked) {
		return cause
	}
	return nil
}

// closeCodeTokenEnded is the close code of a connection whose token
// expired or was revoked: the graphql-transport-ws code for a refused
// connection_init, so that clients treat it alike (reconnect with a fresh
// token).
const closeCodeTokenEnded = 4403

// socketImplementation accepts WebSockets with coder/websocket and makes a
// connection closed because its token ended say so (4403 and the reason)
// instead of gqlgen's normal closure.
type socketImplementation struct {
	transport.CoderWebsocketImplementation
}

func (i socketImplementation) Accept(w http.ResponseWriter, r *http.Request, opts transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	c, err := i.CoderWebsocketImplementation.Accept(w, r, opts)
	if err != nil {
		return nil, err
	}
	return &socketConn{WebsocketConn: c, socket: socketFrom(r.Context())}, nil
}

// socketConn forwards to the accepted connection, including the optional
// read limit and read deadline gqlgen relies on.
type socketConn struct {
	transport.WebsocketConn
	socket *socket
}

func (c *socketConn) WriteClose(code int, reason string) error {
	if c.socket != nil && code == transport.WebsocketCloseNormalClosure {
		if end := c.socket.tokenEnd(); end != nil {
			code, reason = closeCodeTokenEnded, end.Error()
		}
	}
	return c.WebsocketConn.WriteClose(code, reason)
}

func (c *socketConn) SetReadLimit(limit int64) {
	if l, ok := c.WebsocketConn.(transport.WebsocketReadLimiter); ok {
		l.SetReadLimit(limit)
	}
}

func (c *socketConn) SetReadDeadline(t time.Time) error {
	if d, ok := c.WebsocketConn.(transport.WebsocketReadDeadliner); ok {
		return d.SetReadDeadline(t)
	}
	return nil
}

// isWebsocket tells a WebSocket upgrade request.
func isWebsocket(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// subscriptionLimits caps the subscriptions open at once on one WebSocket
// and for one user across every connection of this process. Each
// subscription polls the store while it lives, so an unbounded number is
// unbounded load; a refused one gets one error naming the limit and
// completes.
type subscriptionLimits struct {
	perConnection, perUser int
	mu                     sync.Mutex
	users                  map[uuid.UUID]int
}

func newSubscriptionLimits(perConnection, perUser int) *subscriptionLimits {
	return &subscriptionLimits{perConnection: perConnection, perUser: perUser, users: map[uuid.UUID]int{}}
}

// around is an operation middleware: a subscription takes a slot of its
// connection and of its user for as long as it runs (until its context
// ends), or is refused.
func (l *subscriptionLimits) around(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	if oc == nil || oc.Operation == nil || oc.Operation.Operation != ast.Subscription {
		return next(ctx)
	}
	release, err := l.acquire(socketFrom(ctx), model.PrincipalFrom(ctx))
	if err != nil {
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{err}})
	}
	context.AfterFunc(ctx, release)
	return next(ctx)
}

func (l *subscriptionLimits) acquire(s *socket, u *model.Principal) (func(), *gqlerror.Error) {
	if s != nil {
		if s.subs.Add(1) > int64(l.perConnection) {
			s.subs.Add(-1)
			return nil, limitError(subscriptionLimitCode, "this connection already holds %d subscriptions, the limit; complete one before starting another", l.perConnection)
		}
	}
	if u != nil {
		l.mu.Lock()
		if l.users[u.UserID] >= l.perUser {
			l.mu.Unlock()
			if s != nil {
				s.subs.Add(-1)
			}
			return nil, limitError(subscriptionLimitCode, "you already hold %d subscriptions, the limit per user; complete one before starting another", l.perUser)
		}
		l.users[u.UserID]++
		l.mu.Unlock()
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if s != nil {
				s.subs.Add(-1)
			}
			if u != nil {
				l.mu.Lock()
				if l.users[u.UserID]--; l.users[u.UserID] <= 0 {
					delete(l.users, u.UserID)
				}
				l.mu.Unlock()
			}
		})
	}, nil
}

// operationTimeout bounds queries and mutations (over HTTP the router's
// request deadline applies too; over a WebSocket this is the only one).
// Subscriptions live as long as their connection and token.
func operationTimeout(d time.Duration) graphql.OperationMiddleware {
	return func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		oc := graphql.GetOperationContext(ctx)
		if d <= 0 || oc == nil || oc.Operation == nil || oc.Operation.Operation == ast.Subscription {
			return next(ctx)
		}
		parent := ctx
		ctx, cancel := context.WithTimeout(ctx, d)
		// The response is produced after this returns, so the timeout
		// cannot be cancelled here; it ends with the request instead.
		context.AfterFunc(parent, cancel)
		return next(ctx)
	}
}
