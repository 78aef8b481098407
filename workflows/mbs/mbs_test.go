package mbs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/workflows/mbs"
)

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  mbs.Config
		ok   bool
	}{
		{"valid", mbs.Config{BaseURL: "https://nrs.example/", APIKey: "k", APISecret: "s"}, true},
		{"no scheme", mbs.Config{BaseURL: "nrs.example", APIKey: "k", APISecret: "s"}, false},
		{"ftp", mbs.Config{BaseURL: "ftp://nrs.example", APIKey: "k", APISecret: "s"}, false},
		{"user info", mbs.Config{BaseURL: "https://k:s@nrs.example", APIKey: "k", APISecret: "s"}, false},
		{"query", mbs.Config{BaseURL: "https://nrs.example?key=k", APIKey: "k", APISecret: "s"}, false},
		{"no key", mbs.Config{BaseURL: "https://nrs.example", APISecret: "s"}, false},
		{"no secret", mbs.Config{BaseURL: "https://nrs.example", APIKey: "k"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := mbs.New(tc.cfg)
			if (err == nil) != tc.ok {
				t.Fatalf("want ok=%v, got %v", tc.ok, err)
			}
			if tc.ok && c.BaseURL() != "https://nrs.example" {
				t.Fatalf("base URL %q", c.BaseURL())
			}
		})
	}
}

// TestEndpoints drives every endpoint through the stand-in and checks the
// typed results and the call records.
func TestEndpoints(t *testing.T) {
	s := newStandIn(t, nrssandbox.Options{})
	c, _ := s.client(t, nil)
	ctx := context.Background()
	check := func(t *testing.T, call mbs.Call, op mbs.Operation, method string, status int) {
		t.Helper()
		if call.Operation != op || call.Method != method || call.HTTPStatus != status || call.Attempts != 1 ||
			call.ErrorID != "" || call.StartedAt.IsZero() || call.Duration <= 0 {
			t.Fatalf("call record: %+v", call)
		}
	}

	t.Run("health", func(t *testing.T) {
		h, call, err := c.Health(ctx)
		if err != nil || !h.Healthy {
			t.Fatalf("%+v %v", h, err)
		}
		check(t, call, mbs.OpHealth, "GET", 200)
	})

	t.Run("resources", func(t *testing.T) {
		for _, name := range mbs.Resources {
			list, call, err := c.Resource(ctx, name)
			if err != nil || len(list) == 0 || list[0].Code == "" || list[0].Name == "" || len(list[0].Data) == 0 {
				t.Fatalf("%s: %v %v", name, list, err)
			}
			check(t, call, mbs.OpResource, "GET", 200)
			if call.Path != "/api/v1/invoice/resources/"+name || call.Code != 200 {
				t.Fatalf("%s: call %+v", name, call)
			}
		}
		if _, _, err := c.Resource(ctx, "planets"); err == nil {
			t.Fatal("unknown resource accepted")
		}
	})

	for _, tc := range []struct {
		fixture  string
		transmit bool
	}{
		{"invoice-b2b-1.1.json", true},
		{"invoice-b2g-1.1.json", true},
		{"invoice-b2c-1.1.json", false},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			ref := "FLOW" + strings.ToUpper(tc.fixture[8:11])
			inv, irn := s.fixture(t, tc.fixture, ref)

			ack, call, err := c.ValidateIRN(ctx, mbs.ValidateIRNRequest{InvoiceReference: ref, BusinessID: s.biz.BusinessID, IRN: irn})
			if err != nil || !ack.OK {
				t.Fatalf("irn validate: %+v %v", ack, err)
			}
			check(t, call, mbs.OpValidateIRN, "POST", 200)

			raw, _ := json.Marshal(inv)
			if ack, call, err = c.ValidateInvoice(ctx, json.RawMessage(raw)); err != nil || !ack.OK || len(ack.Data) == 0 {
				t.Fatalf("validate: %+v %v", ack, err)
			}
			check(t, call, mbs.OpValidateInvoice, "POST", 200)

			if ack, call, err = c.SignInvoice(ctx, inv); err != nil || !ack.OK {
				t.Fatalf("sign: %+v %v", ack, err)
			}
			check(t, call, mbs.OpSignInvoice, "POST", 201)
			if call.Code != 201 {
				t.Fatalf("sign envelope code: %+v", call)
			}

			if tc.transmit {
				if ack, call, err = c.Transmit(ctx, irn); err != nil || !ack.OK {
					t.Fatalf("transmit: %v", err)
				}
				check(t, call, mbs.OpTransmit, "POST", 200)
				if call.Path != "/api/v1/invoice/transmit/"+irn {
					t.Fatalf("path %q", call.Path)
				}
				tr, call, err := c.LookupTransmission(ctx, irn)
				if err != nil || tr.IRN != irn || tr.Status != "TRANSMITTED" || tr.TransmittedAt == "" || tr.AcknowledgedAt != "" {
					t.Fatalf("lookup: %+v %v", tr, err)
				}
				check(t, call, mbs.OpLookupTransmission, "GET", 200)
				if ack, call, err = c.ConfirmReceipt(ctx, irn); err != nil || !ack.OK {
					t.Fatalf("confirm receipt: %v", err)
				}
				check(t, call, mbs.OpConfirmReceipt, "PATCH", 200)
				if tr, _, _ = c.LookupTransmission(ctx, irn); tr.Status != "ACKNOWLEDGED" || tr.AcknowledgedAt == "" {
					t.Fatalf("lookup after receipt: %+v", tr)
				}
			}

			st, call, err := c.ConfirmInvoice(ctx, irn)
			if err != nil || st.IRN != irn || st.Status != "CONFIRMED" || st.PaymentStatus != mbs.PaymentPending ||
				st.BusinessID != s.biz.BusinessID || st.InvoiceTypeCode != "381" || st.SignedAt == "" || st.ConfirmedAt == "" {
				t.Fatalf("confirm: %+v %v", st, err)
			}
			check(t, call, mbs.OpConfirmInvoice, "GET", 200)

			doc, call, err := c.DownloadInvoice(ctx, irn)
			if err != nil || doc.IRN != irn || !bytes.Contains(doc.Invoice, []byte(irn)) {
				t.Fatalf("download: %+v %v", doc, err)
			}
			check(t, call, mbs.OpDownloadInvoice, "GET", 200)

			if ack, call, err = c.UpdatePaymentStatus(ctx, irn, mbs.PaymentUpdate{PaymentStatus: mbs.PaymentPaid, Reference: "TRF-42"}); err != nil || !ack.OK {
				t.Fatalf("update: %v", err)
			}
			check(t, call, mbs.OpUpdatePayment, "PATCH", 200)
			if st, _, err = c.ConfirmInvoice(ctx, irn); err != nil || st.PaymentStatus != mbs.PaymentPaid {
				t.Fatalf("confirm after payment: %+v %v", st, err)
			}

			rules, err := nrs.New(nrs.Options{})
			if err != nil {
				t.Fatal(err)
			}
			pub, err := nrs.ParsePublicKey(s.keys.PublicKey)
			if err != nil {
				t.Fatal(err)
			}
			payload, err := rules.QRPayload(model.QRInput{IRN: irn, Timestamp: 1773568800, PublicKey: pub, Certificate: s.keys.Certificate})
			if err != nil {
				t.Fatal(err)
			}
			v, call, err := c.VerifyQR(ctx, mbs.QRVerifyRequest{IRN: irn, QRPayload: payload})
			if err != nil || !v.Valid || v.IRN != irn || v.Timestamp != 1773568800 || len(v.Checks) != 4 {
				t.Fatalf("qr verify: %+v %v", v, err)
			}
			check(t, call, mbs.OpVerifyQR, "POST", 200)
		})
	}
}

func TestTypedErrors(t *testing.T) {
	s := newStandIn(t, nrssandbox.Options{})
	c, rec := s.client(t, nil)
	ctx := context.Background()
	b2b := func(ref string) (map[string]any, string) { return s.fixture(t, "invoice-b2b-1.1.json", ref) }
	bad, _ := s.fixture(t, "invalid-missing-supplier-tin.json", "BADTIN1")
	signFail, _ := b2b(nrssandbox.ScenarioSignFail + "1")
	if _, _, err := c.ValidateInvoice(ctx, signFail); err != nil {
		t.Fatal(err)
	}
	dup, _ := b2b(nrssandbox.ScenarioDuplicate + "1")
	fresh, freshIRN := b2b("FRESH1")
	wrong, _ := s.client(t, func(cfg *mbs.Config) { cfg.APISecret = "not-the-secret" })

	for _, tc := range []struct {
		name    string
		call    func() (mbs.Call, error)
		status  int
		public  string
		handler string
		details string
	}{
		{"wrong service id", func() (mbs.Call, error) {
			_, call, err := c.ValidateIRN(ctx, mbs.ValidateIRNRequest{InvoiceReference: "INV1", BusinessID: s.biz.BusinessID, IRN: "INV1-F3A3A0CF-20260315"})
			return call, err
		}, 400, nrssandbox.MsgIRNValidationFailed, "validate_irn", "service_id"},
		{"invalid invoice", func() (mbs.Call, error) {
			_, call, err := c.ValidateInvoice(ctx, bad)
			return call, err
		}, 400, nrssandbox.MsgInvoiceValidationFailed, "validate_invoice", "/accounting_supplier_party/tin"},
		{"sign before validate", func() (mbs.Call, error) {
			_, call, err := c.SignInvoice(ctx, fresh)
			return call, err
		}, 400, nrssandbox.MsgNotValidated, "sign_invoice", ""},
		{"transmit unknown", func() (mbs.Call, error) {
			_, call, err := c.Transmit(ctx, freshIRN)
			return call, err
		}, 404, nrssandbox.MsgInvoiceNotFound, "transmit_invoice", ""},
		{"sign rejected", func() (mbs.Call, error) {
			_, call, err := c.SignInvoice(ctx, signFail)
			return call, err
		}, 400, nrssandbox.MsgSigningFailed, "sign_invoice", nrssandbox.ScenarioSignFail},
		{"duplicate", func() (mbs.Call, error) {
			_, call, err := c.ValidateInvoice(ctx, dup)
			return call, err
		}, 400, nrssandbox.MsgDuplicateIRN, "validate_invoice", ""},
		{"wrong credentials", func() (mbs.Call, error) {
			_, call, err := wrong.ConfirmInvoice(ctx, freshIRN)
			return call, err
		}, 400, nrssandbox.MsgInvalidCredentials, "confirm_invoice", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			call, err := tc.call()
			e := asError(t, err)
			if e.HTTPStatus != tc.status || e.Code != tc.status || e.PublicMessage != tc.public || e.Handler != tc.handler ||
				e.Message != "error has occurred" || e.ID == "" || e.Details == "" || len(e.RawDetails) == 0 {
				t.Fatalf("error: %+v", e)
			}
			if !strings.Contains(e.Details, tc.details) {
				t.Fatalf("details %q lack %q", e.Details, tc.details)
			}
			if e.Retryable() || mbs.IsRetryable(err) || e.Attempts != 1 {
				t.Fatalf("a %d is final and tried once: %+v", tc.status, e)
			}
			if call.HTTPStatus != tc.status || call.ErrorID != e.ID || call.Attempts != 1 || call.Code != tc.status {
				t.Fatalf("call record: %+v", call)
			}
			if !strings.Contains(err.Error(), tc.public) || !strings.Contains(err.Error(), e.ID) {
				t.Fatalf("error text: %s", err)
			}
		})
	}
	if w := rec.recorded(); len(w) != 0 {
		t.Fatalf("4xx answers were retried: %v", w)
	}
}

func TestRetry(t *testing.T) {
	t.Run("503 then success, honouring Retry-After", func(t *testing.T) {
		s := newStandIn(t, nrssandbox.Options{})
		c, rec := s.client(t, nil)
		inv, irn := s.fixture(t, "invoice-b2c-1.1.json", nrssandbox.ScenarioRetry+"INV1")
		ack, call, err := c.ValidateInvoice(context.Background(), inv)
		if err != nil || !ack.OK {
			t.Fatalf("validate: %v", err)
		}
		if call.Attempts != 3 || call.HTTPStatus != 200 || call.Waited != 2*time.Second {
			t.Fatalf("call: %+v", call)
		}
		if w := rec.recorded(); fmt.Sprint(w) != "[1s 1s]" {
			t.Fatalf("waits: %v (Retry-After is 1)", w)
		}
		// Each endpoint fails on its own first calls.
		if _, call, err := c.SignInvoice(context.Background(), inv); err != nil || call.Attempts != 3 {
			t.Fatalf("sign: %+v %v", call, err)
		}
		if _, call, err := c.ConfirmInvoice(context.Background(), irn); err != nil || call.Attempts != 3 {
			t.Fatalf("confirm: %+v %v", call, err)
		}
	})

	t.Run("exponential backoff with jitter without Retry-After", func(t *testing.T) {
		s := newStandIn(t, nrssandbox.Options{RetryAfter: -1})
		c, rec := s.client(t, func(cfg *mbs.Config) {
			cfg.Retry = mbs.RetryPolicy{MaxAttempts: 4, InitialBackoff: 100 * time.Millisecond, Multiplier: 2, Jitter: 0.5}
		})
		inv, _ := s.fixture(t, "invoice-b2c-1.1.json", nrssandbox.ScenarioRetry+"3INV")
		_, call, err := c.ValidateInvoice(context.Background(), inv)
		if err != nil || call.Attempts != 4 {
			t.Fatalf("validate: %+v %v", call, err)
		}
		w := rec.recorded()
		if len(w) != 3 {
			t.Fatalf("waits: %v", w)
		}
		var sum time.Duration
		for i, d := range w {
			hi := (100 * time.Millisecond) << i
			if d < hi/2 || d > hi {
				t.Fatalf("wait %d is %s, want within [%s, %s]", i+1, d, hi/2, hi)
			}
			sum += d
		}
		if call.Waited != sum {
			t.Fatalf("waited %s, recorded %s", call.Waited, sum)
		}
	})

	t.Run("always down: bounded attempts", func(t *testing.T) {
		s := newStandIn(t, nrssandbox.Options{})
		c, rec := s.client(t, func(cfg *mbs.Config) { cfg.Retry.MaxAttempts = 3 })
		_, call, err := c.ConfirmInvoice(context.Background(), nrssandbox.ScenarioDown+"1-94ND90NR-20260315")
		e := asError(t, err)
		if e.HTTPStatus != 503 || !e.Retryable() || e.Attempts != 3 || call.Attempts != 3 || e.RetryAfter != time.Second || e.PublicMessage != nrssandbox.MsgUnavailable {
			t.Fatalf("error: %+v call %+v", e, call)
		}
		if len(rec.recorded()) != 2 {
			t.Fatalf("waits: %v", rec.recorded())
		}
		if !strings.Contains(err.Error(), "after 3 attempts") {
			t.Fatalf("error text: %s", err)
		}
	})

	t.Run("no wait past the caller's deadline", func(t *testing.T) {
		s := newStandIn(t, nrssandbox.Options{RetryAfter: 30 * time.Second})
		c, rec := s.client(t, nil)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute/4)
		t.Cleanup(cancel)
		_, call, err := c.ConfirmInvoice(ctx, nrssandbox.ScenarioDown+"2-94ND90NR-20260315")
		if e := asError(t, err); e.HTTPStatus != 503 || call.Attempts != 1 || len(rec.recorded()) != 0 {
			t.Fatalf("error %+v call %+v", e, call)
		}
	})
}

// scripted answers a fixed sequence of responses, then repeats the last.
type scripted struct {
	calls   atomic.Int32
	answers []func(w http.ResponseWriter, r *http.Request)
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	i := int(s.calls.Add(1)) - 1
	if i >= len(s.answers) {
		i = len(s.answers) - 1
	}
	s.answers[i](w, r)
}

func answer(status int, header map[string]string, body string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

const okBody = `{"code":200,"data":{"ok":true}}`

func serve(tb testing.TB, h http.Handler) string {
	tb.Helper()
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	return srv.URL
}

func TestRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		name       string
		first      func(w http.ResponseWriter, r *http.Request)
		attempts   int
		waits      string
		retryAfter time.Duration
		realSleep  bool
	}{
		{"429 with a short Retry-After", answer(429, map[string]string{"Retry-After": "1"}, `{"code":429}`), 2, "[1s]", 0, false},
		{"503 with Retry-After 0, really slept", answer(503, map[string]string{"Retry-After": "0"}, ""), 2, "[]", 0, true},
		{"Retry-After as an HTTP date in the past", answer(503, map[string]string{"Retry-After": "Mon, 02 Jan 2006 15:04:05 GMT"}, ""), 2, "[0s]", 0, false},
		{"Retry-After beyond the cap ends the call", answer(429, map[string]string{"Retry-After": "120"}, `{"code":429}`), 1, "[]", 2 * time.Minute, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := serve(t, &scripted{answers: []func(http.ResponseWriter, *http.Request){tc.first, answer(200, nil, okBody)}})
			c, rec := newClient(t, url, "k", "s", func(cfg *mbs.Config) {
				if tc.realSleep {
					cfg.Sleep = nil
				}
			})
			ack, call, err := c.Transmit(context.Background(), "INV1-94ND90NR-20260315")
			if call.Attempts != tc.attempts || fmt.Sprint(rec.recorded()) != tc.waits {
				t.Fatalf("call %+v waits %v err %v", call, rec.recorded(), err)
			}
			if tc.retryAfter == 0 {
				if err != nil || !ack.OK {
					t.Fatalf("want success, got %v", err)
				}
				return
			}
			if e := asError(t, err); e.RetryAfter != tc.retryAfter || !e.Retryable() {
				t.Fatalf("error %+v", e)
			}
		})
	}
}

func TestTimeouts(t *testing.T) {
	s := newStandIn(t, nrssandbox.Options{SlowDelay: time.Hour})
	slow := nrssandbox.ScenarioSlow + "1-94ND90NR-20260315"
	for _, tc := range []struct {
		name     string
		edit     func(*mbs.Config)
		attempts int
	}{
		{"per-operation timeout", func(cfg *mbs.Config) {
			cfg.Timeouts = map[mbs.Operation]time.Duration{mbs.OpConfirmInvoice: 20 * time.Millisecond}
		}, 1},
		{"default timeout, network errors retried on request", func(cfg *mbs.Config) {
			cfg.Timeout = 20 * time.Millisecond
			cfg.Retry = mbs.RetryPolicy{MaxAttempts: 2, RetryNetworkErrors: true}
		}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, rec := s.client(t, tc.edit)
			_, call, err := c.ConfirmInvoice(context.Background(), slow)
			e := asError(t, err)
			if !e.Timeout || e.Canceled || !e.Retryable() || e.HTTPStatus != 0 || call.Attempts != tc.attempts || call.HTTPStatus != 0 {
				t.Fatalf("error %+v call %+v", e, call)
			}
			if len(rec.recorded()) != tc.attempts-1 {
				t.Fatalf("waits %v", rec.recorded())
			}
			if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "timeout") {
				t.Fatalf("error text %q", err)
			}
		})
	}
}

func TestTransportFailures(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	for _, tc := range []struct {
		name      string
		url       string
		ctx       func() context.Context
		retryable bool
		canceled  bool
	}{
		{"connection refused", closedURL, context.Background, true, false},
		{"cancelled by the caller", serve(t, http.NotFoundHandler()), func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newClient(t, tc.url, "k", "s", nil)
			_, call, err := c.Health(tc.ctx())
			e := asError(t, err)
			if e.HTTPStatus != 0 || e.Retryable() != tc.retryable || e.Canceled != tc.canceled || call.Attempts != 1 || e.Err == nil {
				t.Fatalf("error %+v call %+v", e, call)
			}
		})
	}
}

func TestUnexpectedAnswers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter, r *http.Request)
		status int
		public string
	}{
		{"error code inside a 200", answer(200, nil, `{"code":400,"data":null,"message":"error has occurred","error":{"id":"e1","handler":"h","details":"d","public_message":"p"}}`), 200, "p"},
		{"HTML from a proxy", answer(200, nil, "<html>maintenance</html>"), 0, ""},
		{"HTML error page", answer(400, nil, "<html>bad gateway</html>"), 400, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newClient(t, serve(t, &scripted{answers: []func(http.ResponseWriter, *http.Request){tc.answer}}), "k", "s", nil)
			_, call, err := c.SignInvoice(context.Background(), map[string]any{"irn": "X"})
			e := asError(t, err)
			if e.HTTPStatus != tc.status || e.PublicMessage != tc.public || e.Retryable() || call.Attempts != 1 {
				t.Fatalf("error %+v", e)
			}
		})
	}
}

// echo answers with the request's credentials everywhere NRS could put
// text, as a hostile or buggy server might.
func echo(status int, envelope bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		k, s := r.Header.Get("x-api-key"), r.Header.Get("x-api-secret")
		w.WriteHeader(status)
		if !envelope {
			_, _ = fmt.Fprintf(w, "upstream rejected key=%s secret=%s", k, s)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"code": status, "data": nil, "message": "error has occurred " + s,
			"error": map[string]any{"id": k, "handler": s, "details": map[string]string{"key": k, "secret": s}, "public_message": "bad key " + k + " secret " + s},
		})
	}
}

func TestSecretsRedacted(t *testing.T) {
	const key, secret = "live-api-key-0123456789", "live-api-secret-abcdefghijklmnop"
	var logs bytes.Buffer
	for _, tc := range []struct {
		name string
		h    http.Handler
	}{
		{"echoed in the envelope", echo(400, true)},
		{"echoed in a plain body", echo(502, false)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newClient(t, serve(t, tc.h), key, secret, func(cfg *mbs.Config) {
				cfg.Retry.MaxAttempts = 1
				cfg.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			})
			_, call, err := c.ValidateInvoice(context.Background(), map[string]string{"irn": "X"})
			e := asError(t, err)
			shown := fmt.Sprintf("%v|%+v|%#v|%s|%s|%+v", err, *e, *e, e.Details, e.RawDetails, call)
			if strings.Contains(shown, key) || strings.Contains(shown, secret) {
				t.Fatalf("credentials leak: %s", shown)
			}
			if !strings.Contains(shown, "[REDACTED]") {
				t.Fatalf("nothing was redacted: %s", shown)
			}
		})
	}
	cfg := mbs.Config{BaseURL: "https://nrs.example", APIKey: key, APISecret: secret}
	var cfgLog bytes.Buffer
	slog.New(slog.NewJSONHandler(&cfgLog, nil)).Info("config", "cfg", cfg)
	for _, shown := range []string{fmt.Sprint(cfg), fmt.Sprintf("%+v %#v", cfg, cfg), cfgLog.String(), logs.String()} {
		if strings.Contains(shown, key) || strings.Contains(shown, secret) {
			t.Fatalf("credentials leak: %s", shown)
		}
	}
}

func TestLenientSuccessAnswers(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		ok   bool
	}{
		{"empty body", "", true},
		{"ok as a string", `{"code":200,"data":{"ok":"true"}}`, true},
		{"no ok field", `{"code":200,"data":{"irn":"X"}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newClient(t, serve(t, http.HandlerFunc(answer(200, nil, tc.body))), "k", "s", nil)
			ack, _, err := c.ConfirmReceipt(context.Background(), "INV1-94ND90NR-20260315")
			if err != nil || ack.OK != tc.ok {
				t.Fatalf("ack %+v err %v", ack, err)
			}
		})
	}
}
