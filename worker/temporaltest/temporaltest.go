// Package temporaltest gives tests a real Temporal server running as a
// process of its own: cmd/einvoice-temporal, the server `einvoice dev`
// embeds, built without the race detector. A test binary that uses it does
// not compile or link the Temporal server, which is most of the build of a
// test binary built with -race.
//
// The binary is the one EINVOICE_TEST_TEMPORAL_BIN names (make test builds
// it once for every package); when the variable is unset, Start builds it
// with the go command into a temporary directory, so that a plain
// `go test ./worker/` works too.
package temporaltest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// BinEnv names the environment variable holding the path of a built
// cmd/einvoice-temporal.
const BinEnv = "EINVOICE_TEST_TEMPORAL_BIN"

// pkg is the command Start builds when BinEnv is unset.
const pkg = "github.com/einvoice-ng/einvoice/cmd/einvoice-temporal"

// stopGrace is how long Stop waits for the server to exit after SIGINT
// before it kills it.
const stopGrace = 30 * time.Second

// Server is a running einvoice-temporal process.
type Server struct {
	cmd       *exec.Cmd
	frontend  string
	namespace string
	buildDir  string // removed by Stop; empty when BinEnv named the binary
	exited    chan struct{}
	waitErr   error
	out       *tail
	stopOnce  sync.Once
	stopErr   error
}

// Start starts a server with its SQLite database under dataDir, its
// frontend on a free loopback port and the namespace "default" registered,
// and returns once the frontend accepts calls. ctx bounds the start, not
// the build (a cold build of the server takes minutes) nor the server's
// life: call Stop.
func Start(ctx context.Context, dataDir string) (*Server, error) {
	bin, buildDir, err := binary()
	if err != nil {
		return nil, err
	}
	s := &Server{buildDir: buildDir, exited: make(chan struct{}), out: &tail{max: 16 << 10}}
	s.cmd = exec.Command(bin, "--addr", "127.0.0.1:0", "--data-dir", dataDir)
	ready := make(chan readyLine, 1)
	s.cmd.Stdout = s.out
	s.cmd.Stderr = &lineWriter{out: s.out, ready: ready}
	s.cmd.SysProcAttr = sysProcAttr()
	if err := s.cmd.Start(); err != nil {
		s.cleanup()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	go func() {
		s.waitErr = s.cmd.Wait()
		close(s.exited)
	}()
	select {
	case r := <-ready:
		s.frontend, s.namespace = r.Frontend, r.Namespace
		return s, nil
	case <-s.exited:
		s.cleanup()
		return nil, fmt.Errorf("einvoice-temporal exited before it was ready (%v):\n%s", s.waitErr, s.out)
	case <-ctx.Done():
		_ = s.Stop()
		return nil, fmt.Errorf("einvoice-temporal not ready: %w\n%s", ctx.Err(), s.out)
	}
}

// FrontendAddr is the host:port of the gRPC frontend.
func (s *Server) FrontendAddr() string { return s.frontend }

// Namespace is the namespace registered at start.
func (s *Server) Namespace() string { return s.namespace }

// Stop stops the server (SIGINT, then SIGKILL after a grace period) and
// removes the binary Start built. It may be called more than once.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		_ = s.cmd.Process.Signal(os.Interrupt)
		select {
		case <-s.exited:
		case <-time.After(stopGrace):
			_ = s.cmd.Process.Kill()
			<-s.exited
			s.stopErr = fmt.Errorf("einvoice-temporal did not stop within %s of SIGINT:\n%s", stopGrace, s.out)
		}
		if s.stopErr == nil && s.waitErr != nil {
			s.stopErr = fmt.Errorf("einvoice-temporal: %w\n%s", s.waitErr, s.out)
		}
		s.cleanup()
	})
	return s.stopErr
}

func (s *Server) cleanup() {
	if s.buildDir != "" {
		_ = os.RemoveAll(s.buildDir)
	}
}

// readyLine is the JSON log line einvoice-temporal writes once it serves.
type readyLine struct {
	Msg       string `json:"msg"`
	Frontend  string `json:"frontend"`
	Namespace string `json:"namespace"`
}

// lineWriter takes the server's stderr: it keeps it in out and reports
// the ready line once. os/exec copies into it, so Wait returns only once
// everything the server wrote is here.
type lineWriter struct {
	out     *tail
	ready   chan<- readyLine
	partial []byte
	sent    bool
}

func (w *lineWriter) Write(p []byte) (int, error) {
	_, _ = w.out.Write(p)
	if w.sent {
		return len(p), nil
	}
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		var l readyLine
		if json.Unmarshal(w.partial[:i], &l) == nil && l.Msg == "temporal server ready" && l.Frontend != "" {
			w.ready <- l
			w.sent, w.partial = true, nil
			break
		}
		w.partial = w.partial[i+1:]
	}
	if len(w.partial) > 1<<20 { // no line is that long; keep memory bounded
		w.partial = nil
	}
	return len(p), nil
}

// binary returns the path of einvoice-temporal: BinEnv's, or one built into
// a new temporary directory (returned too, for removal).
func binary() (bin, dir string, err error) {
	if p := os.Getenv(BinEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", "", fmt.Errorf("%s: %w", BinEnv, err)
		}
		return p, "", nil
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		return "", "", fmt.Errorf("set %s or put the go command on PATH to build %s: %w", BinEnv, pkg, err)
	}
	dir, err = os.MkdirTemp("", "einvoice-temporal-")
	if err != nil {
		return "", "", err
	}
	bin = filepath.Join(dir, "einvoice-temporal")
	// Built without the race detector whatever GOFLAGS says: the server is
	// not the code under test, and instrumenting it is what makes a build
	// with -race slow.
	cmd := exec.Command(gobin, "build", "-o", bin, pkg)
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		os.RemoveAll(dir)
		return "", "", fmt.Errorf("go build %s: %w\n%s", pkg, err, out.String())
	}
	return bin, dir, nil
}

// tail keeps the last max bytes written to it, for error messages.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
