// Package devtemporal runs a real Temporal server and the Temporal Web UI
// inside the current process, for local development (`einvoice dev`).
//
// The server is the one from go.temporal.io/server with all four services
// (frontend, history, matching, worker) in one process, talking to each other
// over loopback on free ports chosen at start. All its state, history and
// visibility alike, lives in a SQLite file under Options.DataDir, so
// workflows survive a restart of the process. Nothing is downloaded at run
// time: the server and the UI assets are compiled into the binary.
//
// The namespace is registered with the same settings as the Temporal CLI's
// dev server uses, among them a retention of 24 hours: a closed workflow's
// history is deleted a day after it closes. Custom search attributes can be
// added through the operator API; basic visibility queries (WorkflowType,
// WorkflowId, ExecutionStatus, ...) work out of the box.
//
// Typical use:
//
//	srv, err := devtemporal.Start(ctx, devtemporal.Options{
//		DataDir:      ".einvoice/temporal",
//		FrontendAddr: "127.0.0.1:7233",
//		UIAddr:       "127.0.0.1:8233",
//		Logger:       logger,
//	})
//	if err != nil {
//		return err
//	}
//	defer srv.Stop()
//	c, err := client.Dial(client.Options{HostPort: srv.FrontendAddr(), Namespace: srv.Namespace()})
//
// Stop the SDK workers and clients before the server, or they log connection
// errors while retrying.
package devtemporal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/server/temporal"
)

const (
	// DefaultFrontendAddr is the frontend address used when
	// Options.FrontendAddr is empty: Temporal's usual port, on loopback.
	DefaultFrontendAddr = "127.0.0.1:7233"
	// DefaultNamespace is the namespace used when Options.Namespace is empty.
	DefaultNamespace = "default"
)

// stopTimeout bounds how long Stop waits for in-flight Web UI requests.
const stopTimeout = 5 * time.Second

// Options configures Start.
type Options struct {
	// DataDir holds the SQLite database (DataDir/temporal.db) and the
	// server's log of the current run (DataDir/temporal-server.log, rewritten
	// at each Start). It is created if missing. Required.
	DataDir string
	// FrontendAddr is the host:port of the gRPC frontend that SDK clients
	// and workers dial, e.g. "127.0.0.1:7233". Port 0 picks a free port;
	// an empty value means DefaultFrontendAddr. The host must be an IP
	// address or "localhost".
	FrontendAddr string
	// UIAddr is the host:port of the Web UI, e.g. "127.0.0.1:8233". Port 0
	// picks a free port; an empty value disables the UI.
	UIAddr string
	// Namespace is registered at start if missing and preselected in the
	// UI. Empty means DefaultNamespace.
	Namespace string
	// Codec, when set, is the payload codec the clients encrypt with: the
	// Web UI decodes payloads through it (served on the UI's origin, at
	// /codec), so that histories read in clear in the dev UI.
	Codec converter.PayloadCodec
	// InternalPorts, when set, are the loopback ports of the server's
	// internal services (frontend HTTP, history, matching, worker), for
	// hosts where only a given port range may be used; default: free ports.
	InternalPorts *[4]int
	// Logger receives a few lines about the server's life cycle and the
	// server's own warnings and errors. Its info and debug output goes to
	// DataDir/temporal-server.log only. Nil discards the lines.
	Logger *slog.Logger
}

// Server is a running Temporal dev server, with its Web UI if requested.
// Its methods are safe for concurrent use.
type Server struct {
	frontendAddr string
	uiAddr       string
	namespace    string
	logger       *slog.Logger

	temporal temporal.Server
	ui       *uiServer
	logFile  *os.File
	muted    atomic.Bool // stops server logs reaching Options.Logger

	stopOnce sync.Once
	stopErr  error
}

// Start runs a Temporal server with SQLite persistence under opts.DataDir
// and, if opts.UIAddr is set, the Web UI. It returns once SDK clients can
// use the namespace on FrontendAddr and the UI is listening. ctx bounds
// that wait. On error, everything Start had started is stopped again.
//
// A database written by an earlier Start is reused as is, so workflows
// started before survive; only the service ports change from run to run.
func Start(ctx context.Context, opts Options) (_ *Server, err error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("devtemporal: %w", err)
	}
	if opts.DataDir == "" {
		return nil, errors.New("devtemporal: DataDir is required")
	}
	if opts.FrontendAddr == "" {
		opts.FrontendAddr = DefaultFrontendAddr
	}
	if opts.Namespace == "" {
		opts.Namespace = DefaultNamespace
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	frontendHost, frontendPort, err := splitAddr(opts.FrontendAddr)
	if err != nil {
		return nil, fmt.Errorf("devtemporal: FrontendAddr %q: %w", opts.FrontendAddr, err)
	}
	dataDir, err := filepath.Abs(opts.DataDir)
	if err != nil {
		return nil, fmt.Errorf("devtemporal: DataDir: %w", err)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("devtemporal: create DataDir: %w", err)
	}
	// Its own folder: readable by the owner only, like its files.
	if err := os.Chmod(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("devtemporal: DataDir: %w", err)
	}

	began := time.Now()
	s := &Server{namespace: opts.Namespace, logger: opts.Logger}
	logPath := filepath.Join(dataDir, serverLogFile)
	defer func() {
		if err != nil {
			if cerr := s.shutdown(); cerr != nil {
				opts.Logger.Warn("temporal dev server: cleanup after failed start", "error", cerr)
			}
			if s.logFile != nil {
				err = fmt.Errorf("devtemporal: %w (server log: %s)", err, logPath)
			} else {
				err = fmt.Errorf("devtemporal: %w", err)
			}
		}
	}()

	// The log is rewritten at each Start, so it holds one run's output.
	s.logFile, err = os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open server log: %w", err)
	}
	logger := serverLogger{l: slog.New(teeHandler{
		slog.NewTextHandler(s.logFile, &slog.HandlerOptions{Level: slog.LevelInfo}),
		consoleHandler{min: slog.LevelWarn, muted: &s.muted, h: opts.Logger.With("component", "temporal-server").Handler()},
	})}

	// Bind the UI first: a taken UI port then fails fast, before the
	// server's comparatively slow start.
	var uiListener net.Listener
	if opts.UIAddr != "" {
		uiListener, err = net.Listen("tcp", opts.UIAddr)
		if err != nil {
			return nil, fmt.Errorf("web UI: %w", err)
		}
		s.uiAddr = uiListener.Addr().String()
	}

	// Until s.ui owns it, the listener is closed here on failure.
	defer func() {
		if err != nil && uiListener != nil && s.ui == nil {
			_ = uiListener.Close()
		}
	}()

	ports, err := choosePorts(frontendHost, frontendPort)
	if err == nil && opts.InternalPorts != nil {
		ip := opts.InternalPorts
		ports.frontendHTTP, ports.history, ports.matching, ports.worker = ip[0], ip[1], ip[2], ip[3]
	}
	if err != nil {
		return nil, err
	}
	s.frontendAddr = ports.frontendDialAddr()

	sql := sqlConfig(filepath.Join(dataDir, dbFile))
	if err := prepareDatabase(sql, s.namespace); err != nil {
		return nil, err
	}
	if err := ownerOnly(sql.DatabaseName); err != nil {
		return nil, err
	}

	cfg := serverConfig(ports, sql)
	if err := runGuarded(func() error {
		srv, err := temporal.NewServer(serverOptions(cfg, ports, logger)...)
		if err != nil {
			return err
		}
		s.temporal = srv
		return srv.Start()
	}); err != nil {
		return nil, fmt.Errorf("start temporal server: %w", err)
	}

	if err := waitReady(ctx, s.frontendAddr, s.namespace); err != nil {
		return nil, err
	}
	// The UI's gRPC connection is made only now: one dialled before the
	// frontend listens would sit in reconnect backoff and fail requests.
	if uiListener != nil {
		ui, err := newUIServer(uiListener, s.frontendAddr, s.namespace, opts.Codec)
		if err != nil {
			return nil, err
		}
		s.ui = ui
		s.ui.serve()
	}

	attrs := []any{"frontend", s.frontendAddr, "namespace", s.namespace,
		"db", sql.DatabaseName, "took", time.Since(began).Round(time.Millisecond)}
	if s.uiAddr != "" {
		attrs = append(attrs, "ui", "http://"+s.uiAddr)
	}
	opts.Logger.Info("temporal dev server started", attrs...)
	return s, nil
}

// FrontendAddr returns the host:port of the gRPC frontend, with the port
// actually in use. Pass it as client.Options.HostPort.
func (s *Server) FrontendAddr() string { return s.frontendAddr }

// UIAddr returns the host:port the Web UI listens on, with the port actually
// in use, or "" when the UI is disabled.
func (s *Server) UIAddr() string { return s.uiAddr }

// Namespace returns the namespace registered at start.
func (s *Server) Namespace() string { return s.namespace }

// Stop shuts down the Web UI, then the Temporal server, and frees their
// ports. Workflows keep their state in the database for the next Start.
// Calling Stop again does nothing and returns the first call's result.
//
// Two things outlive Stop until the process exits, both idle: the SQLite
// connection, which the server's sqlite plugin keeps in a process-wide pool
// and never closes (a later Start on the same DataDir reuses it; SQLite
// holds no lock on the file between transactions, so other processes can
// still open it), and a few dozen goroutines of internal gRPC client
// connections that the server does not close.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		s.stopErr = s.shutdown()
		if s.stopErr != nil {
			s.logger.Warn("temporal dev server stopped with errors", "frontend", s.frontendAddr, "error", s.stopErr)
			return
		}
		s.logger.Info("temporal dev server stopped", "frontend", s.frontendAddr)
	})
	return s.stopErr
}

// shutdown stops whatever has been started so far.
func (s *Server) shutdown() error {
	s.muted.Store(true)
	var errs []error
	if s.ui != nil {
		ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
		errs = append(errs, s.ui.shutdown(ctx))
		cancel()
	}
	if s.temporal != nil {
		errs = append(errs, runGuarded(s.temporal.Stop))
	}
	if s.logFile != nil {
		errs = append(errs, s.logFile.Close())
	}
	return errors.Join(errs...)
}

// choosePorts picks the frontend port when frontendPort is 0, a free port
// for the frontend's HTTP API on the same host, and free loopback ports for
// the internal services. A fixed frontend port is checked first, because
// the server treats a failed bind as fatal.
func choosePorts(frontendHost string, frontendPort int) (servicePorts, error) {
	p := servicePorts{frontendHost: frontendHost, frontend: frontendPort}
	hosts := []string{frontendHost, loopback, loopback, loopback}
	if frontendPort == 0 {
		hosts = append(hosts, frontendHost)
	} else if err := checkFree(frontendHost, frontendPort); err != nil {
		return p, fmt.Errorf("frontend: %w", err)
	}
	ports, err := freePorts(hosts...)
	if err != nil {
		return p, err
	}
	p.frontendHTTP, p.history, p.matching, p.worker = ports[0], ports[1], ports[2], ports[3]
	if frontendPort == 0 {
		p.frontend = ports[4]
	}
	for _, port := range ports {
		if frontendPort != 0 && port == frontendPort {
			// Only possible when the fixed port lies in the ephemeral range
			// and was released between the check and the probes.
			return p, fmt.Errorf("frontend port %d was also picked for an internal service", port)
		}
	}
	return p, nil
}

// runGuarded runs f and turns a panic raised by the server's fatal logging
// into an error.
func runGuarded(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if fe, ok := r.(fatalError); ok {
				err = fe
				return
			}
			panic(r)
		}
	}()
	return f()
}

// waitReady dials the frontend until it answers for namespace.
func waitReady(ctx context.Context, frontendAddr, namespace string) error {
	quiet := sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))
	delay := 10 * time.Millisecond
	for {
		err := probe(ctx, frontendAddr, namespace, quiet)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("temporal frontend %s not ready: %w (last error: %v)", frontendAddr, ctx.Err(), err)
		case <-time.After(delay):
		}
		delay = min(2*delay, 500*time.Millisecond)
	}
}

// probe succeeds when an SDK client can connect to the frontend and the
// namespace is known to it.
func probe(ctx context.Context, frontendAddr, namespace string, logger sdklog.Logger) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	c, err := client.DialContext(ctx, client.Options{
		HostPort:  frontendAddr,
		Namespace: namespace,
		Logger:    logger,
	})
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: namespace})
	return err
}
