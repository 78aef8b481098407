package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	openapi_types "github.com/oapi-codegen/runtime/types"
)

// UUID and Date are the generated types' ids and calendar dates.
type (
	UUID = openapi_types.UUID
	Date = openapi_types.Date
)

// Client calls the einvoice API. Every operation of the v2 document is a
// method of the embedded, generated ClientWithResponses
// (c.GenerateIRNWithResponse(ctx, nil, body) and so on); the Client adds
// what generated code does badly:
//
//   - credentials: WithAPIKey sends X-Client-Id and X-Client-Secret,
//     WithBearerToken sends Authorization: Bearer;
//   - retries: a request the server did not run, or may safely run again,
//     is retried up to Retry.MaxAttempts times on 429, 503, a 409 of a
//     request still in flight, other 5xx and network errors, honouring
//     Retry-After. Every authenticated POST carries an Idempotency-Key,
//     generated once per call and reused by its retries, so a retry never
//     runs it twice;
//   - errors: an answer other than 2xx is returned as an *APIError with the
//     status, the error code and, for a 422, every problem; the generated
//     responses' JSON4xx and JSON5xx fields therefore stay nil;
//   - WaitForRun polls a certification run to its end, RenderPDF writes an
//     invoice's PDF.
//
// A Client is safe for concurrent use; WithAPIKey and WithBearerToken
// return copies sharing its HTTP client.
type Client struct {
	*ClientWithResponses
	base  string
	doer  *doer
	creds credentials
}

type credentials struct {
	clientID, clientSecret, token string
}

// Option configures a Client.
type Option func(*Client)

// WithAPIKey makes the client send an API key: the invoice, certification
// and usage operations.
func WithAPIKey(clientID, clientSecret string) Option {
	return func(c *Client) { c.creds.clientID, c.creds.clientSecret = clientID, clientSecret }
}

// WithBearerToken makes the client send a portal access token (from
// signup or login): the organization, project, key and audit operations.
func WithBearerToken(token string) Option {
	return func(c *Client) { c.creds.token = token }
}

// UseHTTPClient sets the HTTP client requests go through (timeouts,
// proxies, TLS); default http.DefaultClient.
func UseHTTPClient(hc HttpRequestDoer) Option {
	return func(c *Client) { c.doer.next = hc }
}

// WithRetry sets the retry policy; Retry{MaxAttempts: 1} turns retries off.
func WithRetry(r Retry) Option {
	return func(c *Client) { c.doer.retry = r.withDefaults() }
}

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option {
	return func(c *Client) { c.doer.userAgent = ua }
}

// Retry bounds retries.
type Retry struct {
	// MaxAttempts counts the first attempt; default 4.
	MaxAttempts int
	// BaseDelay is the first backoff, doubled at each retry with full
	// jitter; default 250 ms.
	BaseDelay time.Duration
	// MaxDelay caps one wait, Retry-After included: an answer asking for a
	// longer wait is returned as it is. Default 30 s.
	MaxDelay time.Duration
}

func (r Retry) withDefaults() Retry {
	if r.MaxAttempts <= 0 {
		r.MaxAttempts = 4
	}
	if r.BaseDelay <= 0 {
		r.BaseDelay = 250 * time.Millisecond
	}
	if r.MaxDelay <= 0 {
		r.MaxDelay = 30 * time.Second
	}
	return r
}

// New returns a client of the server at baseURL (such as
// "https://api.example.com", without /api/v2).
func New(baseURL string, opts ...Option) (*Client, error) {
	c := &Client{base: strings.TrimRight(baseURL, "/"), doer: &doer{next: http.DefaultClient, retry: Retry{}.withDefaults(), userAgent: "einvoice-go", sleep: sleep}}
	for _, o := range opts {
		o(c)
	}
	return c.rebuild()
}

func (c *Client) rebuild() (*Client, error) {
	d := *c.doer
	d.creds = c.creds
	c.doer = &d
	gen, err := NewClientWithResponses(c.base, WithHTTPClient(c.doer))
	if err != nil {
		return nil, err
	}
	c.ClientWithResponses = gen
	return c, nil
}

// WithAPIKey returns a copy of c that sends this API key.
func (c *Client) WithAPIKey(clientID, clientSecret string) *Client {
	cp := *c
	cp.creds.clientID, cp.creds.clientSecret = clientID, clientSecret
	out, _ := cp.rebuild() // the base URL already parsed
	return out
}

// WithBearerToken returns a copy of c that sends this access token.
func (c *Client) WithBearerToken(token string) *Client {
	cp := *c
	cp.creds.token = token
	out, _ := cp.rebuild()
	return out
}

// APIError is an answer other than 2xx.
type APIError struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// Code is the error's code (conflict, quota_exceeded, rate_limited, …);
	// empty for a 422, whose Problems say what is wrong, and for an
	// unknown route.
	Code ErrorCode
	// Message is the server's detail; for a 422, its problems' messages
	// joined.
	Message string
	// Problems are the 422's detail items: where (Loc), what (Type) and
	// why (Msg).
	Problems []ValidationProblem
	// RequestID is the X-Request-ID of the answer: quote it when reporting
	// a problem.
	RequestID string
	// RetryAfter is the answer's Retry-After, zero when absent.
	RetryAfter time.Duration
	// Body is the answer's body, at most 64 KiB of it.
	Body []byte
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "einvoice: %d", e.StatusCode)
	if e.Code != "" {
		fmt.Fprintf(&b, " %s", e.Code)
	}
	if e.Message != "" {
		fmt.Fprintf(&b, ": %s", e.Message)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " (request %s)", e.RequestID)
	}
	return b.String()
}

// Problem returns the 422 problem at loc ("body", "payload", …), if any.
func (e *APIError) Problem(loc ...string) (ValidationProblem, bool) {
	for _, p := range e.Problems {
		if len(p.Loc) < len(loc) {
			continue
		}
		match := true
		for i, want := range loc {
			if s, err := p.Loc[i].AsValidationProblemLoc0(); err != nil || s != want {
				match = false
				break
			}
		}
		if match {
			return p, true
		}
	}
	return ValidationProblem{}, false
}

// maxErrorBody bounds what an error keeps of an answer's body.
const maxErrorBody = 64 << 10

func newAPIError(resp *http.Response) *APIError {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	_ = resp.Body.Close()
	e := &APIError{StatusCode: resp.StatusCode, RequestID: resp.Header.Get("X-Request-ID"), Body: body,
		RetryAfter: retryAfter(resp.Header.Get("Retry-After"))}
	var shaped struct {
		Detail json.RawMessage `json:"detail"`
		Code   ErrorCode       `json:"code"`
	}
	if json.Unmarshal(body, &shaped) == nil {
		e.Code = shaped.Code
		if json.Unmarshal(shaped.Detail, &e.Message) != nil {
			if json.Unmarshal(shaped.Detail, &e.Problems) == nil {
				msgs := make([]string, 0, len(e.Problems))
				for _, p := range e.Problems {
					msgs = append(msgs, p.Msg)
				}
				e.Message = strings.Join(msgs, "; ")
			}
		}
	}
	if e.Message == "" {
		e.Message = http.StatusText(resp.StatusCode)
	}
	return e
}

// retryAfter reads Retry-After: seconds or an HTTP date.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}

// doer is the HTTP layer under the generated client: credentials,
// Idempotency-Key, retries and errors.
type doer struct {
	next      HttpRequestDoer
	retry     Retry
	userAgent string
	creds     credentials
	// sleep waits between attempts; tests record the waits instead.
	sleep func(ctx context.Context, d time.Duration) error
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (d *doer) Do(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	authenticated := d.creds.clientID != "" || d.creds.token != ""
	if d.creds.clientID != "" {
		req.Header.Set("X-Client-Id", d.creds.clientID)
		req.Header.Set("X-Client-Secret", d.creds.clientSecret)
	}
	if d.creds.token != "" {
		req.Header.Set("Authorization", "Bearer "+d.creds.token)
	}
	if d.userAgent != "" && req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", d.userAgent)
	}
	// An authenticated POST may run once only: one key for all its tries.
	// Signup and login take no credentials, so no key either.
	keyed := req.Method == http.MethodPost && authenticated && !public(req.URL.Path)
	if keyed && req.Header.Get("Idempotency-Key") == "" {
		req.Header.Set("Idempotency-Key", uuid.NewString())
	}
	// Whether running the request again is harmless: other methods are
	// idempotent, and an authenticated POST is replayed from its key.
	repeatable := req.Method != http.MethodPost || keyed
	for attempt := 1; ; attempt++ {
		try := req
		if attempt > 1 {
			try = req.Clone(ctx)
			if req.Body != nil && req.Body != http.NoBody {
				body, err := req.GetBody()
				if err != nil {
					return nil, err
				}
				try.Body = body
			}
		}
		resp, err := d.next.Do(try)
		var wait time.Duration
		switch {
		case err != nil:
			if ctx.Err() != nil || !(repeatable || notSent(err)) || attempt >= d.retry.MaxAttempts || !canReplay(req) {
				return nil, err
			}
		case resp.StatusCode < 400:
			return resp, nil
		default:
			apiErr := newAPIError(resp)
			if attempt >= d.retry.MaxAttempts || !retryable(apiErr, repeatable) || !canReplay(req) {
				return nil, apiErr
			}
			wait = apiErr.RetryAfter
			if wait > d.retry.MaxDelay {
				return nil, apiErr
			}
		}
		if wait == 0 {
			wait = d.backoff(attempt)
		}
		if err := d.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// public tells the operations that take no credentials and no
// Idempotency-Key.
func public(path string) bool {
	return strings.HasSuffix(path, "/auth/signup") || strings.HasSuffix(path, "/auth/login")
}

// retryable tells whether an error answer may be retried: the server did
// not run the request (429, 503, a 409 while the first request with the
// same Idempotency-Key still runs), or running it again is harmless.
func retryable(e *APIError, repeatable bool) bool {
	switch {
	case e.StatusCode == http.StatusTooManyRequests, e.StatusCode == http.StatusServiceUnavailable:
		return true
	case e.StatusCode == http.StatusConflict:
		// In flight: code conflict with Retry-After. Without Retry-After
		// the 409 is final (a duplicate, or a kept answer too large).
		return repeatable && e.Code == ErrorCodeConflict && e.RetryAfter > 0
	case e.StatusCode >= 500:
		return repeatable
	}
	return false
}

// notSent tells a network error that happened before the request left
// (the connection was never made), after which even a POST without an
// Idempotency-Key may be retried.
func notSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

func canReplay(req *http.Request) bool {
	return req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
}

func (d *doer) backoff(attempt int) time.Duration {
	max := d.retry.BaseDelay << (attempt - 1)
	if max > 5*time.Second || max <= 0 {
		max = 5 * time.Second
	}
	return time.Duration(rand.Int64N(int64(max))) + time.Millisecond
}

// Final tells whether a run has ended: passed, failed or cancelled.
func (s CertificationRunStatus) Final() bool {
	return s == CertificationRunStatusPassed || s == CertificationRunStatusFailed || s == CertificationRunStatusCancelled
}

// WaitForRun polls a certification run every interval (default 1 s)
// until it has ended, and returns it: a run that failed is a run, not an
// error (its Status and FailureReason say why). It returns early with an
// error when ctx ends or a poll fails.
func (c *Client) WaitForRun(ctx context.Context, runID UUID, interval time.Duration) (*CertificationRun, error) {
	if interval <= 0 {
		interval = time.Second
	}
	for {
		r, err := c.CertificationRunWithResponse(ctx, runID)
		if err != nil {
			return nil, err
		}
		if r.JSON200 == nil {
			return nil, fmt.Errorf("einvoice: run %s: unexpected answer %d %s", runID, r.StatusCode(), r.ContentType())
		}
		if r.JSON200.Status.Final() {
			return r.JSON200, nil
		}
		if err := sleep(ctx, interval); err != nil {
			return r.JSON200, err
		}
	}
}

// Final tells whether an invoice has reached a state it will not leave:
// confirmed or rejected by NRS, or outcome_unknown (NRS's answer was lost
// and could not be recovered; see the invoice's events).
func (s InvoiceStatus) Final() bool {
	return s == InvoiceStatusConfirmed || s == InvoiceStatusRejected || s == InvoiceStatusOutcomeUnknown
}

// WaitForInvoice polls a submitted invoice every interval (default 1 s)
// until its status is final, and returns it: a rejected invoice is an
// invoice, not an error (its NrsError says why). It returns early with an
// error when ctx ends or a poll fails.
func (c *Client) WaitForInvoice(ctx context.Context, invoiceID UUID, interval time.Duration) (*SubmittedInvoice, error) {
	if interval <= 0 {
		interval = time.Second
	}
	for {
		r, err := c.GetInvoiceWithResponse(ctx, invoiceID)
		if err != nil {
			return nil, err
		}
		if r.JSON200 == nil {
			return nil, fmt.Errorf("einvoice: invoice %s: unexpected answer %d %s", invoiceID, r.StatusCode(), r.ContentType())
		}
		if r.JSON200.Status.Final() {
			return r.JSON200, nil
		}
		if err := sleep(ctx, interval); err != nil {
			return r.JSON200, err
		}
	}
}

// RenderPDF renders an invoice as its A4 PDF, QR code included, and
// writes it to w. It returns the file name the server gives it
// ("<irn>.pdf").
func (c *Client) RenderPDF(ctx context.Context, req RenderRequest, w io.Writer) (string, error) {
	pdf := Pdf
	resp, err := c.RenderInvoice(ctx, &RenderInvoiceParams{Format: &pdf}, req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/pdf" {
		return "", fmt.Errorf("einvoice: render: a PDF expected, got %q", ct)
	}
	name := "invoice.pdf"
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil && params["filename"] != "" {
		name = params["filename"]
	}
	if _, err := io.Copy(w, resp.Body); err != nil {
		return "", err
	}
	return name, nil
}

// Settled tells whether an item of a batch read back has nothing more to
// wait for: its invoice is confirmed or rejected, or the item was refused
// (invalid, conflict).
func (s InvoiceBatchItemStatus) Settled() bool {
	switch s {
	case InvoiceBatchItemStatusConfirmed, InvoiceBatchItemStatusRejected, InvoiceBatchItemStatusInvalid, InvoiceBatchItemStatusConflict:
		return true
	}
	return false
}

// WaitForBatch polls a batch every interval (default 1 s) until every
// item is settled (each accepted invoice confirmed or rejected), and
// returns it. It returns early with an error when ctx ends or a poll
// fails.
func (c *Client) WaitForBatch(ctx context.Context, batchID UUID, interval time.Duration) (*InvoiceBatch, error) {
	if interval <= 0 {
		interval = time.Second
	}
	for {
		r, err := c.GetInvoiceBatchWithResponse(ctx, batchID)
		if err != nil {
			return nil, err
		}
		if r.JSON200 == nil {
			return nil, fmt.Errorf("einvoice: batch %s: unexpected answer %d %s", batchID, r.StatusCode(), r.ContentType())
		}
		settled := true
		for _, it := range r.JSON200.Items {
			settled = settled && it.Status.Settled()
		}
		if settled {
			return r.JSON200, nil
		}
		if err := sleep(ctx, interval); err != nil {
			return r.JSON200, err
		}
	}
}
