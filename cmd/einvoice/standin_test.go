package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model/mbs"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
)

// output is a concurrency-safe writer a test can poll.
type output struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(p)
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// process is a subcommand running in this test.
type process struct {
	stdout, stderr *output
	cancel         context.CancelFunc
	done           chan error
}

// start runs a subcommand until the test (or stop) ends it.
func start(t *testing.T, args []string, vars map[string]string) *process {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	p := &process{stdout: &output{}, stderr: &output{}, cancel: cancel, done: make(chan error, 1)}
	go func() { p.done <- run(ctx, args, env(vars), p.stdout, p.stderr) }()
	t.Cleanup(p.stop)
	return p
}

// stop ends the process and waits for it.
func (p *process) stop() {
	p.cancel()
	select {
	case <-p.done:
	case <-time.After(60 * time.Second):
	}
	p.done <- nil // stop may be called again
}

// wait polls what the process wrote until re matches, and returns the
// first group.
func (p *process) wait(t *testing.T, re *regexp.Regexp, timeout time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(p.stdout.String() + p.stderr.String()); m != nil {
			return m[1]
		}
		select {
		case err := <-p.done:
			p.done <- err
			t.Fatalf("the process ended: %v\n%s\n%s", err, p.stdout, p.stderr)
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("no %s within %s:\n%s\n%s", re, timeout, p.stdout, p.stderr)
	return ""
}

var (
	sandboxBanner = regexp.MustCompile(`NRS API\s+(http://\S+)/api`)
	apiListening  = regexp.MustCompile(`"msg":"einvoice api listening","addr":"([^"]+)"`)
	devBanner     = regexp.MustCompile(`API\s+(http://\S+)/api/v2`)
)

// The stand-in as its own process keeps its businesses and invoices in its
// database: registered through its admin endpoint, it answers the same after
// a restart.
func TestNRSSandboxSubcommandSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	const token = "stand-in-admin-token-0123456789"
	args := []string{"nrs-sandbox", "--addr", "127.0.0.1:0", "--data-dir", dir, "--admin-token", token, "--demo"}
	first := start(t, args, nil)
	base := first.wait(t, sandboxBanner, 30*time.Second)
	demoID := first.wait(t, regexp.MustCompile(`business_id\s+(\S+)`), time.Second)

	keys, err := nrs.GenerateSandboxKeys(nil)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := nrssandbox.NewAdminClient(base, token, nil)
	if err != nil {
		t.Fatal(err)
	}
	biz := nrssandbox.Business{Owner: "project:" + uuid.NewString(), BusinessID: uuid.NewString(), ServiceID: "94ND90NR",
		Certificate: keys.Certificate, PrivateKeyPEM: keys.PrivateKeyPEM, APIKey: uuid.NewString(), APISecret: "secret-" + uuid.NewString()}
	ctx := context.Background()
	if _, err := admin.Register(ctx, biz); err != nil {
		t.Fatal(err)
	}
	c, err := mbs.New(mbs.Config{BaseURL: base, APIKey: biz.APIKey, APISecret: biz.APISecret})
	if err != nil {
		t.Fatal(err)
	}
	inv := invoiceFixture(t, biz.BusinessID, "RESTART1-94ND90NR-20260315")
	if _, _, err := c.SignInvoice(ctx, inv); err != nil {
		t.Fatal(err)
	}
	first.stop()

	second := start(t, args, nil)
	base = second.wait(t, sandboxBanner, 30*time.Second)
	if again := second.wait(t, regexp.MustCompile(`business_id\s+(\S+)`), time.Second); again != demoID {
		t.Fatalf("the demo business changed across a restart: %s, then %s", demoID, again)
	}
	c, _ = mbs.New(mbs.Config{BaseURL: base, APIKey: biz.APIKey, APISecret: biz.APISecret})
	if _, _, err := c.Transmit(ctx, "RESTART1-94ND90NR-20260315"); err != nil {
		t.Fatalf("transmit after a restart: %v", err)
	}
	st, _, err := c.ConfirmInvoice(ctx, "RESTART1-94ND90NR-20260315")
	if err != nil || !st.Transmitted {
		t.Fatalf("confirm after a restart: %+v %v", st, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "nrs-sandbox.db")); err != nil {
		t.Fatalf("state not under the data dir: %v", err)
	}
}

func invoiceFixture(t *testing.T, businessID, irn string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", "invoice-b2b-1.1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var inv map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&inv); err != nil {
		t.Fatal(err)
	}
	inv["business_id"], inv["irn"] = businessID, irn
	return inv
}

// callREST calls einvoice's REST API and decodes the answer.
func callREST(t *testing.T, method, url string, headers map[string]string, body any) map[string]any {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s %s: %s", method, url, b)
	}
	return out
}

// tenant signs up on an einvoice API and creates a sandbox project; it
// returns the access token and the project.
func tenant(t *testing.T, base string) (string, map[string]any) {
	t.Helper()
	slug := "t" + uuid.NewString()[:8]
	su := callREST(t, "POST", base+"/api/v2/auth/signup", nil, map[string]string{"email": slug + "@example.com",
		"password": "correct horse battery", "organization_name": "Org " + slug, "organization_slug": slug})
	token := su["access_token"].(string)
	org := su["organization"].(map[string]any)["id"].(string)
	pr := callREST(t, "POST", base+"/api/v2/projects", map[string]string{"Authorization": "Bearer " + token},
		map[string]string{"organization_id": org, "name": "Shop", "environment": "sandbox"})
	return token, pr
}

// Issue 20: the stand-in embedded in one api process; a second api process
// registers its sandbox projects through the first's admin endpoint, and the
// stand-in knows projects of both at once.
func TestAPIsShareTheEmbeddedStandIn(t *testing.T) {
	dir := t.TempDir()
	const token = "stand-in-admin-token-0123456789"
	common := map[string]string{
		"EINVOICE_DATABASE_URL": filepath.Join(dir, "einvoice.db"), "EINVOICE_JWT_SECRET": strings.Repeat("j", 32),
		"EINVOICE_ENCRYPTION_KEY": strings.Repeat("0f", 32), "EINVOICE_HTTP_ADDR": "127.0.0.1:0",
		"EINVOICE_NRS_SANDBOX_ADMIN_TOKEN": token,
	}
	withVars := func(extra map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range common {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	// The first api serves the stand-in; it must know its own address, so
	// its port is fixed here (a free one, found by listening).
	addr := freeAddr(t)
	one := start(t, []string{"api"}, withVars(map[string]string{"EINVOICE_HTTP_ADDR": addr,
		"EINVOICE_NRS_SANDBOX_EMBEDDED": "true", "EINVOICE_NRS_SANDBOX_URL": "http://" + addr + "/nrs-sandbox"}))
	one.wait(t, apiListening, 60*time.Second)
	two := start(t, []string{"api"}, withVars(map[string]string{"EINVOICE_NRS_SANDBOX_URL": "http://" + addr + "/nrs-sandbox"}))
	addrTwo := two.wait(t, apiListening, 60*time.Second)

	_, p1 := tenant(t, "http://"+addr)
	_, p2 := tenant(t, "http://"+addrTwo)
	if _, err := os.Stat(filepath.Join(dir, "einvoice-nrs-sandbox.db")); err != nil {
		t.Fatalf("the stand-in's own SQLite file: %v", err)
	}
	list := callREST(t, "GET", "http://"+addr+"/nrs-sandbox/sandbox/businesses", map[string]string{"Authorization": "Bearer " + token}, nil)
	owners := fmt.Sprint(list["data"])
	for _, p := range []map[string]any{p1, p2} {
		biz := p["authority"].(map[string]any)["business_id"].(string)
		if !strings.Contains(owners, "project:"+p["id"].(string)) || !strings.Contains(owners, biz) {
			t.Fatalf("project %s (business %s) is not registered: %s", p["id"], biz, owners)
		}
	}
}

// freeAddr finds a free loopback port.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
