// Package graph is einvoice's GraphQL transport (gqlgen): the portal's use
// cases over the same application layer as REST. Resolvers are thin (principal
// from the context, one service call, return), errors go through one
// presenter, dataloaders batch every level of the portal tree, and limits
// bound what one request can cost: the document's size, tokens and
// selections before it is parsed, its depth and complexity before it runs,
// one signup or login per request, a deadline per operation and a number
// of subscriptions per connection and per user. GraphiQL, when enabled, is
// served from embedded assets, so it works without internet access.
package graph

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	gqlcomplexity "github.com/99designs/gqlgen/complexity"
	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/coder/websocket"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
)

// Defaults of Options.
const (
	// DefaultComplexityLimit bounds the objects an operation may return
	// (see complexity): the portal's whole me tree at the default page
	// sizes (about 400,000) fits; 200 rows at each of its three levels
	// (about 16 million) does not.
	DefaultComplexityLimit = 500_000
	// DefaultDepthLimit admits me → organizations → projects → apiKeys
	// through their edges and nodes (11 levels) with one to spare.
	DefaultDepthLimit = 12
	// DefaultLoaderWait is how long a dataloader collects keys before it
	// runs its batch: long enough for the resolvers of one level, which
	// gqlgen starts together, to ask; a key that comes later costs one more
	// query, not a wrong answer.
	DefaultLoaderWait = 5 * time.Millisecond
)

// Options configure the GraphQL handler.
type Options struct {
	// Logger receives internal errors and panics, with the request id;
	// default slog.Default().
	Logger *slog.Logger
	// ComplexityLimit bounds an operation's estimated cost in objects
	// (connection page sizes multiplied down the tree); default
	// DefaultComplexityLimit.
	ComplexityLimit int
	// DepthLimit bounds how deep an operation's selections nest, not
	// counting introspection; default DefaultDepthLimit.
	DepthLimit int
	// LoaderWait is the dataloaders' batching window; default
	// DefaultLoaderWait.
	LoaderWait time.Duration
	// WebsocketOriginPatterns are the browser origins (host patterns, as
	// path.Match) allowed to open a WebSocket besides the server's own.
	WebsocketOriginPatterns []string
	// KeepAlive is the WebSocket keep-alive ping interval; default 15 s.
	KeepAlive time.Duration
	// RateLimit limits the workbench's invoice operations per project as
	// the project's API keys are limited (rest.ProjectLimiter); nil
	// imposes no rate limit.
	RateLimit RateLimiter
	// RateLimitN is RateLimit counting several requests at once: an
	// invoice batch counts as its invoices (rest.ProjectLimiterN); nil
	// counts a batch as one request.
	RateLimitN RateLimiterN
	// WorkbenchConcurrency bounds one project's workbench operations in
	// flight; default DefaultWorkbenchConcurrency.
	WorkbenchConcurrency int
	// TemporalUI is the base URL of the Temporal Web UI (such as
	// http://127.0.0.1:8233) and TemporalNamespace the namespace of
	// certification runs (default "default"), for TemporalWorkflow.uiUrl;
	// without TemporalUI that field is null.
	TemporalUI, TemporalNamespace string
	// GraphiQL serves the in-browser IDE at GET /graphql (HTML accepted);
	// off, that request gets 404. `einvoice dev` turns it on.
	GraphiQL bool
	// Introspection answers __schema and __type; off, they are refused.
	// `einvoice dev` turns it on. (__typename always works.)
	Introspection bool
	// MaxQueryBytes, MaxTokens and MaxSelections bound a query document
	// before it is parsed (DocumentLimit); defaults DefaultMaxQueryBytes,
	// DefaultMaxTokens and DefaultMaxSelections.
	MaxQueryBytes, MaxTokens, MaxSelections int
	// OperationTimeout bounds each query and mutation (over a WebSocket as
	// over HTTP); default DefaultOperationTimeout.
	OperationTimeout time.Duration
	// SubscriptionsPerConnection and SubscriptionsPerUser cap the
	// subscriptions open at once on one WebSocket and for one user (in
	// this process); defaults DefaultSubscriptionsPerConnection and
	// DefaultSubscriptionsPerUser.
	SubscriptionsPerConnection, SubscriptionsPerUser int
}

// More defaults of Options.
const (
	DefaultOperationTimeout           = 30 * time.Second
	DefaultSubscriptionsPerConnection = 10
	DefaultSubscriptionsPerUser       = 20
)

func (o *Options) defaults() {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.ComplexityLimit <= 0 {
		o.ComplexityLimit = DefaultComplexityLimit
	}
	if o.DepthLimit <= 0 {
		o.DepthLimit = DefaultDepthLimit
	}
	if o.LoaderWait <= 0 {
		o.LoaderWait = DefaultLoaderWait
	}
	if o.KeepAlive <= 0 {
		o.KeepAlive = 15 * time.Second
	}
	if o.WorkbenchConcurrency <= 0 {
		o.WorkbenchConcurrency = DefaultWorkbenchConcurrency
	}
	if o.TemporalNamespace == "" {
		o.TemporalNamespace = "default"
	}
	if o.MaxQueryBytes <= 0 {
		o.MaxQueryBytes = DefaultMaxQueryBytes
	}
	if o.MaxTokens <= 0 {
		o.MaxTokens = DefaultMaxTokens
	}
	if o.MaxSelections <= 0 {
		o.MaxSelections = DefaultMaxSelections
	}
	if o.OperationTimeout <= 0 {
		o.OperationTimeout = DefaultOperationTimeout
	}
	if o.SubscriptionsPerConnection <= 0 {
		o.SubscriptionsPerConnection = DefaultSubscriptionsPerConnection
	}
	if o.SubscriptionsPerUser <= 0 {
		o.SubscriptionsPerUser = DefaultSubscriptionsPerUser
	}
}

// NewHandler builds the GraphQL endpoint over svc: POST, GET and WebSocket
// (graphql-transport-ws, authenticated by the connection_init payload)
// transports, the limits, the dataloaders and, when enabled, introspection
// and (for browsers: GET with Accept: text/html) GraphiQL with its assets
// under <mount>/assets/. It expects the transport in front of it to have
// put an authenticated user in the context (model.WithPrincipal) when a bearer
// token came with the request, as rest.Options.GraphQL does.
func NewHandler(svc *app.App, opts Options) http.Handler {
	opts.defaults()
	srv := handler.New(NewExecutableSchema(Config{
		Resolvers:  &Resolver{app: svc, work: newWorkbench(opts.RateLimit, opts.RateLimitN, opts.WorkbenchConcurrency), temporal: temporalUI{base: opts.TemporalUI, namespace: opts.TemporalNamespace}},
		Complexity: complexity(),
	}))
	srv.AddTransport(transport.Websocket{
		InitFunc:              websocketInit(svc),
		KeepAlivePingInterval: opts.KeepAlive,
		InitTimeout:           10 * time.Second,
		Implementation: socketImplementation{transport.CoderWebsocketImplementation{
			AcceptOptions: websocket.AcceptOptions{OriginPatterns: opts.WebsocketOriginPatterns},
		}},
	})
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	cache := lru.New[*ast.QueryDocument](1000)
	srv.SetQueryCache(cache)
	// The document limits run before gqlgen parses; the parser's own token
	// limit is a second line.
	srv.SetParserTokenLimit(opts.MaxTokens)
	srv.SetValidationRulesFn(limitedRules(DefaultMaxValidationErrors))
	limits := DocumentLimit{MaxBytes: opts.MaxQueryBytes, MaxTokens: opts.MaxTokens, MaxSelections: opts.MaxSelections, Cache: cache}
	srv.Use(limits)
	if opts.Introspection {
		srv.Use(extension.Introspection{})
	} else {
		srv.Use(NoIntrospection{})
	}
	srv.Use(extension.FixedComplexityLimit(opts.ComplexityLimit, gqlcomplexity.WithFixedScalarValue(0)))
	srv.Use(DepthLimit{Limit: opts.DepthLimit})
	srv.Use(AuthMutationLimit{})
	srv.SetErrorPresenter(presenter(opts.Logger))
	srv.SetRecoverFunc(recoverer(opts.Logger))
	subs := newSubscriptionLimits(opts.SubscriptionsPerConnection, opts.SubscriptionsPerUser)
	srv.AroundOperations(subs.around)
	srv.AroundOperations(operationTimeout(opts.OperationTimeout))
	srv.AroundOperations(func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		return next(withLoaders(ctx, svc, opts.LoaderWait))
	})
	return &endpoint{graphql: srv, assets: assetHandler(), graphiql: opts.GraphiQL, limits: limits, costs: newCostCache()}
}

// endpoint routes between the GraphQL server, the GraphiQL page and its
// assets. It works under any mount path: assets live at <mount>/assets/.
// Its RequestCost weighs requests for the transport's rate limits.
type endpoint struct {
	graphql  http.Handler
	assets   http.Handler
	graphiql bool
	limits   DocumentLimit
	costs    *lru.LRU[int]
}

func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.Contains(r.URL.Path, "/assets/"), wantsGraphiQL(r):
		if !e.graphiql {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"detail":"Not Found"}` + "\n"))
			return
		}
		if wantsGraphiQL(r) {
			serveGraphiQL(w, r)
			return
		}
		e.assets.ServeHTTP(w, r)
	case isWebsocket(r):
		e.graphql.ServeHTTP(w, r.WithContext(withSocket(r.Context(), &socket{})))
	default:
		e.graphql.ServeHTTP(w, r.WithContext(withExchange(r.Context(), r, w)))
	}
}

// websocketInit authenticates the connection_init payload's
// "Authorization: Bearer <token>" with the same check as HTTP requests. A
// connection without one stays anonymous (fields that need a user say
// unauthenticated); a bad one is closed with 4403, as graphql-transport-ws
// asks. An authenticated connection lives no longer than its token: it is
// closed with 4403 and the reason when the token expires or is revoked
// (logout), ending its subscriptions.
func websocketInit(svc *app.App) transport.WebsocketInitFunc {
	return func(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
		auth := strings.TrimSpace(p.Authorization())
		if auth == "" {
			return ctx, nil, nil
		}
		scheme, token, ok := strings.Cut(auth, " ")
		token = strings.TrimSpace(token)
		var err error
		var u *model.Principal
		if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
			err = model.Errorf(model.CodeUnauthenticated, "the Authorization value must be \"Bearer <access token>\"")
		} else {
			u, err = svc.Auth.AuthenticateToken(ctx, token)
		}
		if err != nil {
			ctx = transport.WithWebsocketCloseCode(ctx, 4403)
			ctx = transport.AppendCloseReason(ctx, "Forbidden")
			return ctx, nil, model.Errorf(model.CodeUnauthenticated, "invalid or expired access token")
		}
		ctx, _ = svc.Auth.TokenContext(ctx, u) // ends with the connection at the latest
		if s := socketFrom(ctx); s != nil {
			s.setToken(ctx)
		}
		return model.WithPrincipal(ctx, u), nil, nil
	}
}
