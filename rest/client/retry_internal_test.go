package client

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// script is an HttpRequestDoer answering from a list, recording requests.
type script struct {
	mu      sync.Mutex
	answers []func(*http.Request) (*http.Response, error)
	got     []*http.Request
	bodies  []string
}

func (s *script) Do(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var body string
	if r.Body != nil {
		b, _ := io.ReadAll(r.Body)
		body = string(b)
	}
	s.got = append(s.got, r)
	s.bodies = append(s.bodies, body)
	a := s.answers[min(len(s.got), len(s.answers))-1]
	return a(r)
}

func answer(status int, header map[string]string, body string) func(*http.Request) (*http.Response, error) {
	return func(r *http.Request) (*http.Response, error) {
		h := http.Header{"Content-Type": {"application/json"}}
		for k, v := range header {
			h.Set(k, v)
		}
		return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	}
}

func networkError(op string) func(*http.Request) (*http.Response, error) {
	return func(*http.Request) (*http.Response, error) {
		return nil, &net.OpError{Op: op, Net: "tcp", Err: errors.New("connection reset")}
	}
}

const irnJSON = `{"irn":"INV1-94ND90NR-20260315","invoice_reference":"INV1","service_id":"94ND90NR","business_id":"b","issue_date":"2026-03-15","invoice_type_code":"381","tax_authority_code":"NRS"}`

// client returns a client over s whose waits are recorded, not slept.
func client(t *testing.T, s *script, opts ...Option) (*Client, *[]time.Duration) {
	t.Helper()
	var waits []time.Duration
	c, err := New("http://einvoice.test", append([]Option{UseHTTPClient(s)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	c.doer.sleep = func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}
	out, err := c.rebuild()
	if err != nil {
		t.Fatal(err)
	}
	return out, &waits
}

func irnRequest() IRNRequest {
	return IRNRequest{InvoiceReference: "INV1", InvoiceTypeCode: "381", TaxAuthorityCode: "NRS", IssueDate: Date{Time: time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC)}}
}

func TestRetries(t *testing.T) {
	ctx := context.Background()
	inFlight := answer(409, map[string]string{"Retry-After": "2"}, `{"detail":"a request with this Idempotency-Key is in progress","code":"conflict"}`)
	cases := []struct {
		name      string
		answers   []func(*http.Request) (*http.Response, error)
		keyed     bool
		signup    bool
		wantTries int
		wantErr   int             // status of the *APIError; 0: success; -1: a network error
		wantWaits []time.Duration // nil: not checked
	}{
		{"429 then 200, Retry-After honoured", []func(*http.Request) (*http.Response, error){
			answer(429, map[string]string{"Retry-After": "3"}, `{"detail":"slow down","code":"rate_limited"}`), answer(200, nil, irnJSON)},
			true, false, 2, 0, []time.Duration{3 * time.Second}},
		{"409 in flight then 200", []func(*http.Request) (*http.Response, error){inFlight, inFlight, answer(200, nil, irnJSON)},
			true, false, 3, 0, []time.Duration{2 * time.Second, 2 * time.Second}},
		{"409 final is not retried", []func(*http.Request) (*http.Response, error){
			answer(409, nil, `{"detail":"the first response was too large to keep","code":"conflict"}`)},
			true, false, 1, 409, nil},
		{"500 with a key is retried", []func(*http.Request) (*http.Response, error){
			answer(500, nil, `{"detail":"Internal Server Error","code":"internal"}`), answer(200, nil, irnJSON)},
			true, false, 2, 0, nil},
		{"a reset connection with a key is retried", []func(*http.Request) (*http.Response, error){
			networkError("read"), answer(200, nil, irnJSON)},
			true, false, 2, 0, nil},
		{"bounded: 503 four times", []func(*http.Request) (*http.Response, error){
			answer(503, map[string]string{"Retry-After": "1"}, `{"detail":"NRS is unavailable","code":"unavailable"}`)},
			true, false, 4, 503, []time.Duration{time.Second, time.Second, time.Second}},
		{"Retry-After past MaxDelay is returned", []func(*http.Request) (*http.Response, error){
			answer(429, map[string]string{"Retry-After": "3600"}, `{"detail":"slow down","code":"rate_limited"}`)},
			true, false, 1, 429, nil},
		{"422 is not retried", []func(*http.Request) (*http.Response, error){
			answer(422, nil, `{"detail":[{"loc":["body","issue_date"],"msg":"Input should be a valid date","type":"date_from_datetime_parsing"}]}`)},
			true, false, 1, 422, nil},
		{"signup: 500 is not retried (no key)", []func(*http.Request) (*http.Response, error){
			answer(500, nil, `{"detail":"Internal Server Error","code":"internal"}`)},
			false, true, 1, 500, nil},
		{"signup: a reset connection is not retried", []func(*http.Request) (*http.Response, error){networkError("read")},
			false, true, 1, -1, nil},
		{"signup: a refused connection is retried", []func(*http.Request) (*http.Response, error){
			networkError("dial"), answer(200, nil, `{}`)},
			false, true, 2, 0, nil},
		{"signup: 503 busy is retried", []func(*http.Request) (*http.Response, error){
			answer(503, map[string]string{"Retry-After": "1"}, `{"detail":"busy","code":"unavailable"}`), answer(200, nil, `{}`)},
			false, true, 2, 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{answers: tc.answers}
			var opts []Option
			if tc.keyed {
				opts = append(opts, WithAPIKey("ck_sandbox_x", "cs_sandbox_y"))
			}
			c, waits := client(t, s, opts...)
			var err error
			if tc.signup {
				_, err = c.Signup(ctx, SignupRequest{Email: "a@example.com", Password: "correct horse battery", OrganizationName: "A", OrganizationSlug: "a"})
			} else {
				_, err = c.GenerateIRNWithResponse(ctx, nil, irnRequest())
			}
			var apiErr *APIError
			switch {
			case tc.wantErr == 0 && err != nil:
				t.Fatalf("error %v", err)
			case tc.wantErr > 0 && (!errors.As(err, &apiErr) || apiErr.StatusCode != tc.wantErr):
				t.Fatalf("error %v, want an *APIError %d", err, tc.wantErr)
			case tc.wantErr < 0 && (err == nil || errors.As(err, &apiErr)):
				t.Fatalf("error %v, want a network error", err)
			}
			if len(s.got) != tc.wantTries {
				t.Fatalf("%d attempts, want %d", len(s.got), tc.wantTries)
			}
			key := s.got[0].Header.Get("Idempotency-Key")
			if tc.keyed == (key == "") {
				t.Errorf("Idempotency-Key %q on a request keyed=%v", key, tc.keyed)
			}
			for i, r := range s.got {
				if r.Header.Get("Idempotency-Key") != key || s.bodies[i] != s.bodies[0] || s.bodies[0] == "" {
					t.Errorf("attempt %d: key %q body %q, first %q %q", i+1, r.Header.Get("Idempotency-Key"), s.bodies[i], key, s.bodies[0])
				}
			}
			if tc.wantWaits != nil && !equalDurations(*waits, tc.wantWaits) {
				t.Errorf("waits %v, want %v", *waits, tc.wantWaits)
			}
			if len(*waits) != len(s.got)-1 {
				t.Errorf("%d waits for %d attempts", len(*waits), len(s.got))
			}
		})
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestCallersKeyAndCredentials(t *testing.T) {
	s := &script{answers: []func(*http.Request) (*http.Response, error){answer(200, nil, irnJSON)}}
	c, _ := client(t, s, WithBearerToken("tok"), WithAPIKey("ck", "cs"), WithUserAgent("erp/1"))
	mine := IdempotencyKey("order-42")
	if _, err := c.GenerateIRNWithResponse(context.Background(), &GenerateIRNParams{IdempotencyKey: &mine}, irnRequest()); err != nil {
		t.Fatal(err)
	}
	h := s.got[0].Header
	if h.Get("Idempotency-Key") != "order-42" || h.Get("Authorization") != "Bearer tok" || h.Get("X-Client-Id") != "ck" ||
		h.Get("X-Client-Secret") != "cs" || h.Get("User-Agent") != "erp/1" {
		t.Errorf("headers %v", h)
	}
	// A copy with other credentials leaves the original alone.
	other := c.WithAPIKey("ck2", "cs2")
	if _, err := other.UsageWithResponse(context.Background(), nil); err != nil { // any JSON object decodes
		t.Fatal(err)
	}
	if got := s.got[1].Header.Get("X-Client-Id"); got != "ck2" {
		t.Errorf("copy sent %q", got)
	}
	if _, err := c.UsageWithResponse(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if got := s.got[2].Header.Get("X-Client-Id"); got != "ck" {
		t.Errorf("original sent %q after the copy", got)
	}
	if s.got[1].Header.Get("Idempotency-Key") != "" {
		t.Error("a GET carried an Idempotency-Key")
	}
}

func TestRetryAfter(t *testing.T) {
	for v, want := range map[string]time.Duration{"": 0, "7": 7 * time.Second, "-1": 0, "soon": 0,
		time.Now().Add(time.Hour).UTC().Format(http.TimeFormat): time.Hour} {
		got := retryAfter(v)
		if want == time.Hour {
			if got < 59*time.Minute || got > time.Hour {
				t.Errorf("%q: %v", v, got)
			}
			continue
		}
		if got != want {
			t.Errorf("%q: %v, want %v", v, got, want)
		}
	}
}

// TestSignupTakesNoKey: signup and login go without an Idempotency-Key
// even from a client holding credentials, so an ambiguous failure is not
// retried (it may have created the account).
func TestSignupTakesNoKey(t *testing.T) {
	s := &script{answers: []func(*http.Request) (*http.Response, error){answer(500, nil, `{"detail":"Internal Server Error","code":"internal"}`)}}
	c, _ := client(t, s, WithBearerToken("tok"), WithAPIKey("ck", "cs"))
	_, err := c.Login(context.Background(), LoginRequest{Email: "a@example.com", Password: "correct horse battery"})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 500 || len(s.got) != 1 || s.got[0].Header.Get("Idempotency-Key") != "" {
		t.Fatalf("error %v after %d attempts, key %q", err, len(s.got), s.got[0].Header.Get("Idempotency-Key"))
	}
}
