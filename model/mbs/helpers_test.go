package mbs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model/mbs"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb/sandboxdbtest"
)

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

// standIn is the NRS sandbox stand-in on a local server with one business.
type standIn struct {
	srv  *httptest.Server
	h    *nrssandbox.Handler
	biz  nrssandbox.Business
	keys nrs.SandboxKeys
}

func newStandIn(tb testing.TB, opts nrssandbox.Options) *standIn {
	tb.Helper()
	if opts.DB == nil {
		opts.DB = sandboxdbtest.SQLite(tb)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	h, err := nrssandbox.New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	s := &standIn{srv: srv, h: h, keys: sandboxKeys(tb)}
	s.biz = s.register(tb, "94ND90NR")
	return s
}

// register adds a business with fresh ids and credentials.
func (s *standIn) register(tb testing.TB, serviceID string) nrssandbox.Business {
	tb.Helper()
	biz := nrssandbox.Business{
		Owner: "test:" + uuid.NewString(), BusinessID: uuid.NewString(), ServiceID: serviceID, Certificate: s.keys.Certificate,
		PrivateKeyPEM: s.keys.PrivateKeyPEM, APIKey: "key-" + uuid.NewString(), APISecret: "secret-" + uuid.NewString(),
	}
	if _, err := s.h.Register(context.Background(), biz); err != nil {
		tb.Fatal(err)
	}
	return biz
}

// sleeps records the waits between attempts instead of sleeping.
type sleeps struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) recorded() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// client builds a client for the stand-in's business; edit adjusts the
// configuration. Waits are recorded, not slept, unless edit sets Sleep.
func (s *standIn) client(tb testing.TB, edit func(*mbs.Config)) (*mbs.Client, *sleeps) {
	tb.Helper()
	return newClient(tb, s.srv.URL, s.biz.APIKey, s.biz.APISecret, edit)
}

func newClient(tb testing.TB, base, key, secret string, edit func(*mbs.Config)) (*mbs.Client, *sleeps) {
	tb.Helper()
	rec := &sleeps{}
	cfg := mbs.Config{BaseURL: base, APIKey: key, APISecret: secret, Sleep: rec.sleep}
	if edit != nil {
		edit(&cfg)
	}
	c, err := mbs.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return c, rec
}

// fixture loads an invoice fixture for the business with an IRN built from
// ref.
func (s *standIn) fixture(tb testing.TB, name, ref string) (map[string]any, string) {
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
	irn := strings.ToUpper(ref) + "-" + s.biz.ServiceID + "-" + strings.ReplaceAll(inv["issue_date"].(string), "-", "")
	inv["business_id"], inv["irn"] = s.biz.BusinessID, irn
	delete(inv, "payment_status")
	return inv, irn
}

// asError fails unless err is a *mbs.Error.
func asError(tb testing.TB, err error) *mbs.Error {
	tb.Helper()
	e, ok := err.(*mbs.Error)
	if !ok {
		tb.Fatalf("want *mbs.Error, got %T %v", err, err)
	}
	return e
}
