package client_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/rest/client"
)

// TestMain runs the tests and examples against a real einvoice server:
// EINVOICE_URL when set (a running einvoice dev), else `einvoice dev`
// started on a temporary data directory and free loopback ports, from
// EINVOICE_BIN or built from this repository (../../cmd/einvoice).
func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if u := os.Getenv("EINVOICE_URL"); u != "" {
		baseURL = u
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "einvoice-sdk-test-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bin := os.Getenv("EINVOICE_BIN")
	if bin == "" {
		bin = filepath.Join(dir, "einvoice")
		build := exec.Command("go", "build", "-o", bin, "./cmd/einvoice")
		build.Dir = filepath.Join("..", "..")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "client tests: no einvoice server to test against: set EINVOICE_URL or EINVOICE_BIN, or run them in the einvoice repository:", err)
			return 1
		}
	}
	dev := exec.Command(bin, "dev", "--addr", "127.0.0.1:0", "--data-dir", filepath.Join(dir, "data"),
		"--temporal-addr", "127.0.0.1:0", "--temporal-ui-addr", "127.0.0.1:0", "--log-level", "warn")
	out, err := dev.StdoutPipe()
	if err != nil {
		log.Fatal(err)
	}
	dev.Stderr = os.Stderr
	if err := dev.Start(); err != nil {
		log.Fatal(err)
	}
	defer func() { _ = dev.Process.Kill(); _ = dev.Wait() }()
	api := regexp.MustCompile(`^\s*API\s+(http://\S+)/api/v2$`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := api.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case baseURL = <-found:
	case <-time.After(3 * time.Minute):
		fmt.Fprintln(os.Stderr, "client tests: einvoice dev printed no API address")
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := client.New(baseURL)
	if err != nil {
		log.Fatal(err)
	}
	for {
		if r, err := c.HealthWithResponse(ctx); err == nil && r.StatusCode() == 200 {
			break
		}
		select {
		case <-ctx.Done():
			fmt.Fprintln(os.Stderr, "client tests: einvoice dev did not answer /health at", baseURL)
			return 1
		case <-time.After(100 * time.Millisecond):
		}
	}
	return m.Run()
}

// sandbox signs a new user up (e-mail and organization slug from name,
// made unique), creates a sandbox project and an API key, as Example_signup
// shows, and returns the portal client (the user's token), the API
// client (the key) and the project.
func sandbox(name string) (portal, api *client.Client, project *client.Project) {
	ctx := context.Background()
	slug := name + "-" + strings.ToLower(rand.Text()[:8])
	c, err := client.New(baseURL)
	if err != nil {
		log.Fatal(err)
	}
	s, err := c.SignupWithResponse(ctx, client.SignupRequest{Email: slug + "@example.com", Password: "correct horse battery",
		OrganizationName: "Org " + name, OrganizationSlug: slug})
	if err != nil {
		log.Fatal(err)
	}
	portal = c.WithBearerToken(s.JSON200.AccessToken)
	p, err := portal.CreateProjectWithResponse(ctx, nil, client.ProjectRequest{OrganizationId: s.JSON200.Organization.Id, Name: "Web shop"})
	if err != nil {
		log.Fatal(err)
	}
	k, err := portal.CreateKeyWithResponse(ctx, p.JSON200.Id, nil, client.KeyRequest{KeyName: "erp"})
	if err != nil {
		log.Fatal(err)
	}
	return portal, c.WithAPIKey(k.JSON200.ClientId, k.JSON200.ClientSecret), p.JSON200
}
