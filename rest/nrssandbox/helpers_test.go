package nrssandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
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
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb/sandboxdbtest"
)

// adminToken enables the admin endpoints of every test stand-in.
const adminToken = "test-admin-token"

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

var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// env is a stand-in over a database with one registered business.
type env struct {
	t   testing.TB
	db  *sandboxdb.DB
	h   *nrssandbox.Handler
	biz nrssandbox.Business
}

// newEnv builds a stand-in over a fresh SQLite database.
func newEnv(tb testing.TB, opts nrssandbox.Options) *env {
	tb.Helper()
	return newEnvOn(tb, sandboxdbtest.SQLite(tb), opts)
}

// newEnvOn builds a stand-in over db and registers one business.
func newEnvOn(tb testing.TB, db *sandboxdb.DB, opts nrssandbox.Options) *env {
	tb.Helper()
	opts.DB = db
	if opts.AdminToken == "" {
		opts.AdminToken = adminToken
	}
	if opts.Logger == nil {
		opts.Logger = quietLog
	}
	h, err := nrssandbox.New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	e := &env{t: tb, db: db, h: h}
	e.biz = e.register("94ND90NR")
	return e
}

// forDialects runs fn with a stand-in on every test database.
func forDialects(t *testing.T, opts nrssandbox.Options, fn func(t *testing.T, e *env)) {
	for _, d := range sandboxdbtest.Dialects() {
		t.Run(d.Name, func(t *testing.T) {
			fn(t, newEnvOn(t, d.Open(t), opts))
		})
	}
}

// newBusiness is a registration with fresh ids and credentials.
func newBusiness(tb testing.TB, serviceID string) nrssandbox.Business {
	tb.Helper()
	k := sandboxKeys(tb)
	return nrssandbox.Business{
		Owner: "test:" + uuid.NewString(), BusinessID: uuid.NewString(), ServiceID: serviceID, Name: "Sango Building Supplies",
		Certificate: k.Certificate, PrivateKeyPEM: k.PrivateKeyPEM, PublicKey: k.PublicKey,
		APIKey: uuid.NewString(), APISecret: "secret-" + uuid.NewString(),
	}
}

// register adds a business with fresh ids and credentials.
func (e *env) register(serviceID string) nrssandbox.Business {
	e.t.Helper()
	b := newBusiness(e.t, serviceID)
	if _, err := e.h.Register(context.Background(), b); err != nil {
		e.t.Fatal(err)
	}
	return b
}

// info returns a registered business as the admin endpoint lists it.
func (e *env) info(b nrssandbox.Business) nrssandbox.BusinessInfo {
	e.t.Helper()
	row, err := e.db.Businesses().ByID(context.Background(), b.BusinessID)
	if err != nil {
		e.t.Fatal(err)
	}
	return nrssandbox.BusinessInfo{BusinessID: row.BusinessID, EntityID: row.EntityID, TIN: row.TIN, Name: row.Name,
		Email: row.Email, ServiceID: row.ServiceID, Owner: row.Owner}
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

// list returns the success envelope's data as a list.
func (a answer) list(tb testing.TB) []any {
	tb.Helper()
	d, ok := a.Body["data"].([]any)
	if !ok {
		tb.Fatalf("no data list: %d %s", a.Status, a.Raw)
	}
	return d
}

// items returns the items of a page.
func (a answer) items(tb testing.TB) []any {
	tb.Helper()
	d, ok := a.data(tb)["items"].([]any)
	if !ok {
		tb.Fatalf("no items: %s", a.Raw)
	}
	return d
}

// errorField returns a field of the error object.
func (a answer) errorField(name string) string {
	e, _ := a.Body["error"].(map[string]any)
	s, _ := e[name].(string)
	return s
}

// call sends a request as biz (nil: no credentials). body is JSON-encoded
// unless it is a string.
func (e *env) call(biz *nrssandbox.Business, method, path string, body any) answer {
	e.t.Helper()
	return e.send(context.Background(), biz, method, path, body, nil)
}

func (e *env) send(ctx context.Context, biz *nrssandbox.Business, method, path string, body any, h http.Header) answer {
	e.t.Helper()
	return serve(e.t, e.h, ctx, biz, method, path, body, h)
}

func serve(tb testing.TB, h http.Handler, ctx context.Context, biz *nrssandbox.Business, method, path string, body any, hd http.Header) answer {
	tb.Helper()
	var rd *bytes.Reader
	switch b := body.(type) {
	case nil:
		rd = bytes.NewReader(nil)
	case string:
		rd = bytes.NewReader([]byte(b))
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			tb.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequestWithContext(ctx, method, path, rd)
	if biz != nil {
		req.Header.Set("x-api-key", biz.APIKey)
		req.Header.Set("x-api-secret", biz.APISecret)
	}
	for k, v := range hd {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	a := answer{Status: rec.Code, Header: rec.Header(), Raw: rec.Body.String()}
	_ = json.Unmarshal(rec.Body.Bytes(), &a.Body)
	return a
}

// must sends a request as biz and fails unless the status is want.
func (e *env) must(biz *nrssandbox.Business, want int, method, path string, body any) answer {
	e.t.Helper()
	a := e.call(biz, method, path, body)
	if a.Status != want {
		e.t.Fatalf("%s %s: want %d, got %d %s", method, path, want, a.Status, a.Raw)
	}
	return a
}

// refusedWith checks an error answer: status, handler, public message and
// (unless "") details.
func refusedWith(tb testing.TB, a answer, status int, handler, public, details string) {
	tb.Helper()
	if a.Status != status || a.errorField("handler") != handler || a.errorField("public_message") != public ||
		(details != "" && a.errorField("details") != details) {
		tb.Fatalf("want %d %s %q %q, got %d %s", status, handler, public, details, a.Status, a.Raw)
	}
	if a.Body["message"] != "error has occurred" || a.Body["data"] != nil {
		tb.Fatalf("not MBS's error envelope: %s", a.Raw)
	}
	if _, err := uuid.Parse(a.errorField("id")); err != nil {
		tb.Fatalf("error.id is not a UUID: %s", a.Raw)
	}
}

// fixture loads an invoice fixture of kind (b2b, b2g, b2c) for biz with an
// IRN built from ref.
func fixture(tb testing.TB, kind string, biz nrssandbox.Business, ref string) (map[string]any, string) {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", "invoice-"+kind+"-1.1.json"))
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

// sign validates and signs an invoice of kind for biz.
func (e *env) sign(biz *nrssandbox.Business, kind, ref string) (map[string]any, string) {
	e.t.Helper()
	inv, irn := fixture(e.t, kind, *biz, ref)
	e.must(biz, http.StatusCreated, http.MethodPost, "/api/v1/invoice/validate", inv)
	e.must(biz, http.StatusCreated, http.MethodPost, "/api/v1/invoice/sign", inv)
	return inv, irn
}

// opened opens a download's sealed data with biz's API key and returns the
// invoice it holds; it fails when the data is not an envelope.
func opened(tb testing.TB, biz nrssandbox.Business, a answer) []byte {
	tb.Helper()
	var body struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal([]byte(a.Raw), &body); err != nil {
		tb.Fatalf("download: %v %s", err, a.Raw)
	}
	env, ok := nrs.ReadDownloadEnvelope(body.Data)
	if !ok {
		tb.Fatalf("the download is not sealed: %s", a.Raw)
	}
	plain, err := nrs.OpenDownload(env, biz.APIKey)
	if err != nil {
		tb.Fatalf("open: %v", err)
	}
	return plain
}
