package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// embeddedOnlyInDev are the modules that only `einvoice dev` needs: the
// Temporal server and its Web UI.
var embeddedOnlyInDev = []string{"go.temporal.io/server/", "github.com/temporalio/ui-server/"}

// goTool runs the go command in the module's root and returns its stdout.
func goTool(t *testing.T, args ...string) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to check the production build: %v", err)
	}
	cmd := exec.Command(gobin, args...)
	cmd.Dir = filepath.Join("..", "..")
	// The build settings of the test run's own (GOFLAGS cleared: never
	// -race), so that the build reuses what `go vet` and the test build
	// already compiled; whether cgo is on changes no import of the
	// production build.
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// Issue 20: production builds (-tags prod: make build, the Dockerfile) leave
// out the embedded Temporal server and its UI, which the default build keeps
// for `go run ./cmd/einvoice dev`; the dev subcommand of a production binary
// answers a clear error.
func TestProdBuildLeavesOutTheDevServer(t *testing.T) {
	deps := map[string]string{
		"default": goTool(t, "list", "-deps", "./cmd/einvoice"),
		"prod":    goTool(t, "list", "-tags", "prod", "-deps", "./cmd/einvoice"),
	}
	for _, mod := range embeddedOnlyInDev {
		if !strings.Contains(deps["default"], "\n"+mod) {
			t.Errorf("the default build should embed %s for einvoice dev", mod)
		}
		if strings.Contains(deps["prod"], "\n"+mod) {
			t.Errorf("the production build imports %s", mod)
		}
	}

	bin := filepath.Join(t.TempDir(), "einvoice")
	goTool(t, "build", "-tags", "prod", "-o", bin, "./cmd/einvoice")
	cmd := exec.Command(bin, "dev", "--data-dir", t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("einvoice dev in a production build: %v, want exit status 1", err)
	}
	if msg := stderr.String(); !strings.Contains(msg, "einvoice: the dev subcommand is not in this build") || !strings.Contains(msg, "-tags prod") {
		t.Errorf("stderr = %q, want the dev subcommand's refusal", msg)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout = %q, want nothing", stdout.String())
	}
	// The rest of the binary is there: the api subcommand starts checking
	// its configuration.
	out, err := exec.Command(bin, "api").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "EINVOICE_DATABASE_URL") {
		t.Errorf("einvoice api without configuration: %v, %q; want the missing variables named", err, out)
	}
}
