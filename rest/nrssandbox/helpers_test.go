package nrssandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
)

// Key generation is slow and says nothing about the code under test: one
// key set per test binary.
var (
	keysOnce sync.Once
	keys     nrs.SandboxKeys
	keysErr  error
)

func sandboxKeys(tb testing.TB) nrs.SandboxKeys {
	tb.Helper()
	keysOnce.Do(func() { keys, keysErr = nrs.GenerateSandboxKeys(nil) })
	if keysErr != nil {
		tb.Fatal(keysErr)
	}
	return keys
}

// env is a stand-in with one registered business.
type env struct {
	t   testing.TB
	h   *nrssandbox.Handler
	biz nrssandbox.Business
}

func newEnv(tb testing.TB, opts nrssandbox.Options) *env {
	tb.Helper()
	h, err := nrssandbox.New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	e := &env{t: tb, h: h}
	e.biz = e.register("94ND90NR")
	return e
}

// register adds a business with fresh ids and credentials.
func (e *env) register(serviceID string) nrssandbox.Business {
	e.t.Helper()
	k := sandboxKeys(e.t)
	b := nrssandbox.Business{
		BusinessID: uuid.NewString(), ServiceID: serviceID, Name: "Sango Building Supplies",
		Certificate: k.Certificate, PrivateKeyPEM: k.PrivateKeyPEM, PublicKey: k.PublicKey,
		APIKey: uuid.NewString(), APISecret: "secret-" + uuid.NewString(),
	}
	if err := e.h.Registry().Register(b); err != nil {
		e.t.Fatal(err)
	}
	return b
}

// answer is a recorded response.
type answer struct {
	Status int
	Header http.Header
	Body   map[string]any
	Raw    string
}

// data returns the success envelope's data as an object.
func (a answer) data(tb testing.TB) map[string]any {
	tb.Helper()
	d, ok := a.Body["data"].(map[string]any)
	if !ok {
		tb.Fatalf("no data object: %d %s", a.Status, a.Raw)
	}
	return d
}

// publicMessage returns error.public_message of an error envelope.
func (a answer) publicMessage() string {
	e, _ := a.Body["error"].(map[string]any)
	s, _ := e["public_message"].(string)
	return s
}

// call sends a request as biz (nil: no credentials). body is JSON-encoded
// unless it is a string.
func (e *env) call(biz *nrssandbox.Business, method, path string, body any) answer {
	e.t.Helper()
	return e.callCtx(context.Background(), biz, method, path, body)
}

// callHeader sends a request without API credentials, with extra headers.
func (e *env) callHeader(method, path string, body any, h http.Header) answer {
	e.t.Helper()
	return e.send(context.Background(), nil, method, path, body, h)
}

func (e *env) callCtx(ctx context.Context, biz *nrssandbox.Business, method, path string, body any) answer {
	e.t.Helper()
	return e.send(ctx, biz, method, path, body, nil)
}

func (e *env) send(ctx context.Context, biz *nrssandbox.Business, method, path string, body any, h http.Header) answer {
	e.t.Helper()
	var rd *bytes.Reader
	switch b := body.(type) {
	case nil:
		rd = bytes.NewReader(nil)
	case string:
		rd = bytes.NewReader([]byte(b))
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequestWithContext(ctx, method, path, rd)
	if biz != nil {
		req.Header.Set("x-api-key", biz.APIKey)
		req.Header.Set("x-api-secret", biz.APISecret)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	a := answer{Status: rec.Code, Header: rec.Header(), Raw: rec.Body.String()}
	_ = json.Unmarshal(rec.Body.Bytes(), &a.Body)
	return a
}

// must sends a request as the env's business and fails unless the status is
// want.
func (e *env) must(want int, method, path string, body any) answer {
	e.t.Helper()
	a := e.call(&e.biz, method, path, body)
	if a.Status != want {
		e.t.Fatalf("%s %s: want %d, got %d %s", method, path, want, a.Status, a.Raw)
	}
	return a
}

// fixture loads an invoice fixture of kind (b2b, b2g, b2c) for biz with an
// IRN built from ref.
func fixture(tb testing.TB, kind string, biz nrssandbox.Business, ref string) (map[string]any, string) {
	tb.Helper()
	return fixtureFile(tb, "invoice-"+kind+"-1.1.json", biz, ref)
}

func fixtureFile(tb testing.TB, name string, biz nrssandbox.Business, ref string) (map[string]any, string) {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", name))
	if err != nil {
		tb.Fatal(err)
	}
	var inv map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&inv); err != nil {
		tb.Fatal(err)
	}
	day := "20260315"
	if d, ok := inv["issue_date"].(string); ok && len(d) == 10 {
		day = strings.ReplaceAll(d, "-", "")
	}
	irn := strings.ToUpper(ref) + "-" + biz.ServiceID + "-" + day
	inv["business_id"] = biz.BusinessID
	inv["irn"] = irn
	return inv, irn
}
