package devtemporal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/temporalio/ui-server/v2/server/api"
	"github.com/temporalio/ui-server/v2/server/auth"
	uiconfig "github.com/temporalio/ui-server/v2/server/config"
	"github.com/temporalio/ui-server/v2/server/cors"
	"github.com/temporalio/ui-server/v2/server/csrf"
	"github.com/temporalio/ui-server/v2/server/headers"
	"github.com/temporalio/ui-server/v2/server/route"
	"github.com/temporalio/ui-server/v2/ui"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/grpc"
)

// uiServer serves the Temporal Web UI and its HTTP API.
//
// It assembles the same routes and middleware as ui-server's server.NewServer,
// but serves them with a net/http server on a listener opened by Start. The
// packaged server.Server cannot do that: it binds its address itself (so the
// chosen port of ":0" is never known), exits the process when the bind fails,
// and never closes its gRPC connection to the frontend.
type uiServer struct {
	http   *http.Server
	ln     net.Listener
	conn   io.Closer // gRPC connection to the Temporal frontend
	served bool      // serve was called
	done   chan error
}

// codecPath is where the dev UI's codec endpoint is served.
const codecPath = "/codec"

// uiConfigProvider hands a fixed configuration to the ui-server packages.
type uiConfigProvider struct{ cfg *uiconfig.Config }

func (p uiConfigProvider) GetConfig() (*uiconfig.Config, error) { return p.cfg, nil }

// newUIServer prepares the UI on ln for the frontend at frontendAddr, with
// namespace preselected. Serving starts with serve.
// With a codec, the UI decodes payloads through it, served on the UI's own
// origin at /codec (the UI's host needs no CORS, and whoever reaches the UI
// could read the histories anyway).
func newUIServer(ln net.Listener, frontendAddr, namespace string, codec converter.PayloadCodec) (_ *uiServer, err error) {
	addr := ln.Addr().(*net.TCPAddr)
	cfg := &uiconfig.Config{
		TemporalGRPCAddress: frontendAddr,
		Host:                addr.IP.String(),
		Port:                addr.Port,
		EnableUI:            true,
		DefaultNamespace:    namespace,
		// Plain HTTP on a developer machine: the CSRF cookie must not be
		// marked Secure or the browser drops it.
		CORS:             uiconfig.CORS{CookieInsecure: true},
		HideLogs:         true,
		DisableNewsFetch: true,
	}
	if codec != nil {
		cfg.Codec.Endpoint = "http://" + ln.Addr().String() + codecPath
	}
	// RefreshInterval is zero, so no refresh goroutine is started.
	provider, err := uiconfig.NewConfigProviderWithRefresh(uiConfigProvider{cfg: cfg})
	if err != nil {
		return nil, err
	}

	conn, err := api.CreateGRPCConnection(provider)
	if err != nil {
		return nil, fmt.Errorf("connect web UI to %s: %w", frontendAddr, err)
	}
	if conn == nil {
		return nil, fmt.Errorf("connect web UI to %s: no connection", frontendAddr)
	}
	defer func() {
		if err != nil {
			_ = conn.Close()
		}
	}()

	assets, err := ui.Assets()
	if err != nil {
		return nil, fmt.Errorf("web UI assets: %w", err)
	}
	assets, err = fs.Sub(assets, "local")
	if err != nil {
		return nil, fmt.Errorf("web UI assets: %w", err)
	}

	apiMiddleware := []api.Middleware{
		headers.WithForwardHeaders([]string{auth.AuthorizationExtrasHeader, "Caller-Type"}),
	}

	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.Use(middleware.Recover())
	e.Use(middleware.Gzip())
	e.Use(cors.CORSMiddleware(cors.CORSConfig{
		AllowHeaders: []string{
			echo.HeaderOrigin, echo.HeaderContentType, echo.HeaderAccept,
			echo.HeaderXCSRFToken, echo.HeaderAuthorization, auth.AuthorizationExtrasHeader,
			"Caller-Type",
		},
		AllowCredentials: true,
		ConfigProvider:   provider,
	}))
	e.Use(middleware.Secure())
	cookieSecure := !cfg.CORS.CookieInsecure
	e.Use(csrf.EnsureTokenCookie(cookieSecure))
	e.Use(middleware.CSRFWithConfig(csrf.MiddlewareConfig(provider, cookieSecure)))
	e.Pre(route.PublicPath(cfg.PublicPath))

	route.SetHealthRoute(e)
	setUIAPIRoutes(e, provider, apiMiddleware, conn)
	route.SetAuthRoutes(e, provider)
	if err := route.SetUIRoutes(e, cfg.PublicPath, assets, provider); err != nil {
		return nil, fmt.Errorf("web UI routes: %w", err)
	}
	route.SetRenderRoute(e, "/")

	var handler http.Handler = e
	if codec != nil {
		codecHandler := http.StripPrefix(codecPath, converter.NewPayloadCodecHTTPHandler(codec))
		handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, codecPath+"/") {
				codecHandler.ServeHTTP(w, r)
				return
			}
			e.ServeHTTP(w, r)
		})
	}
	return &uiServer{
		http: &http.Server{
			Handler:           handler,
			ReadHeaderTimeout: 10 * time.Second,
		},
		ln:   ln,
		conn: conn,
		done: make(chan error, 1),
	}, nil
}

// setUIAPIRoutes registers the /api/v1 routes as route.SetAPIRoutes does,
// but on a gRPC connection owned by the caller so that Stop can close it.
func setUIAPIRoutes(e *echo.Echo, provider *uiconfig.ConfigProviderWithRefresh, mw []api.Middleware, conn *grpc.ClientConn) {
	g := e.Group("/api/v1")
	g.GET("/settings", api.GetSettings(provider))
	g.GET("/releases", api.GetLatestReleases(provider, api.NewReleaseChecker()))
	g.GET("/ui-extensions", api.GetUIExtensions(provider, api.TemporalAccessCheck(conn, mw)))
	writeControl := route.DisableWriteMiddleware(provider)
	g.GET(api.WorkflowRawHistoryUrl,
		api.WorkflowRawHistoryHandler(workflowservice.NewWorkflowServiceClient(conn)),
		writeControl)
	g.Match([]string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete},
		"/*", api.TemporalAPIHandler(provider, mw, conn), writeControl)
}

// serve starts answering requests in the background.
func (u *uiServer) serve() {
	u.served = true
	go func() {
		err := u.http.Serve(u.ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		u.done <- err
	}()
}

// shutdown stops accepting requests, waits up to the context deadline for
// running ones, then closes the listener and the gRPC connection.
func (u *uiServer) shutdown(ctx context.Context) error {
	var errs []error
	if u.served {
		if err := u.http.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("web UI shutdown: %w", err))
			_ = u.http.Close()
		}
		if err := <-u.done; err != nil {
			errs = append(errs, fmt.Errorf("web UI: %w", err))
		}
	} else if err := u.ln.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		errs = append(errs, err)
	}
	if err := u.conn.Close(); err != nil {
		errs = append(errs, fmt.Errorf("web UI gRPC connection: %w", err))
	}
	return errors.Join(errs...)
}
