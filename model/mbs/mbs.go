// Package mbs is the client of the NRS e-invoicing platform's API (MBS, the
// "Merchant Buyer Solution" that the Nigeria Revenue Service, formerly FIRS,
// runs). It covers the endpoints NRS documents (../shared/nrs/mbs-api.md):
// health; entity search and lookup; IRN and invoice validation, signing,
// parties, confirmation, download, search and payment updates; transmission
// between businesses (transmit, receipt, lookups by IRN, TIN and party,
// self-health-check, pull); the VAT payment report; TIN verification and
// taxpayer authentication; and the code lists published as resources, both
// typed and raw (Resource) for code-list refreshes.
//
// Requests and answers are Go types. Where NRS does not publish an answer,
// the types hold the fields integrators read (the NRS sandbox stand-in,
// rest/nrssandbox, answers with them) and keep the whole data as sent in
// Data, read leniently: a field of another JSON type than expected does not
// fail the call.
//
// Every method returns its typed result, a Call describing what happened on
// the wire (for certification evidence: HTTP status, duration, attempts, NRS
// error id) and an error, which is a *Error whenever the request reached the
// transport: NRS's error envelope (id, handler, details, public_message) with
// the HTTP status. Answers of 429 and 5xx are retried with exponential
// backoff and jitter, honouring Retry-After, within a bounded number of
// attempts; the caller's context bounds the whole call and Config.Timeout
// each attempt.
//
// The API key and secret travel only in the x-api-key and x-api-secret
// headers (on every call but the health check) and never appear in errors,
// Calls or logs.
package mbs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Operation names one MBS endpoint, as recorded in Call and Error.
type Operation string

// The operations, one per MBS endpoint (numbered as in mbs-api.md), plus the
// stand-in's QR verification.
const (
	OpHealth             Operation = "health"                     // 1
	OpSearchEntity       Operation = "entity_search"              // 2
	OpGetEntity          Operation = "entity_get"                 // 3
	OpValidateIRN        Operation = "irn_validate"               // 4
	OpValidateInvoice    Operation = "invoice_validate"           // 5
	OpSignInvoice        Operation = "invoice_sign"               // 6
	OpCreateParty        Operation = "party_create"               // 7
	OpSearchParty        Operation = "party_search"               // 8
	OpConfirmInvoice     Operation = "invoice_confirm"            // 9
	OpDownloadInvoice    Operation = "invoice_download"           // 10
	OpSearchInvoice      Operation = "invoice_search"             // 11
	OpUpdatePayment      Operation = "invoice_update"             // 12
	OpLookupTransmission Operation = "transmit_lookup"            // 13
	OpLookupByTIN        Operation = "transmit_lookup_tin"        // 14
	OpLookupByParty      Operation = "transmit_lookup_party"      // 15
	OpTransmit           Operation = "transmit"                   // 16
	OpConfirmReceipt     Operation = "transmit_confirm_receipt"   // 17
	OpSelfHealthCheck    Operation = "transmit_self_health_check" // 18
	OpPull               Operation = "transmit_pull"              // 19
	OpPostPayment        Operation = "post_payment"               // 20
	OpVerifyTIN          Operation = "verify_tin"                 // 21
	OpAuthenticate       Operation = "authenticate"               // 22
	OpResource           Operation = "resource"                   // 23-33
	OpVerifyQR           Operation = "qr_verify"                  // the stand-in's extra
)

// Defaults of Config and RetryPolicy.
const (
	DefaultTimeout          = 30 * time.Second
	DefaultMaxAttempts      = 4
	DefaultInitialBackoff   = 500 * time.Millisecond
	DefaultMaxBackoff       = 10 * time.Second
	DefaultMultiplier       = 2.0
	DefaultJitter           = 0.2
	DefaultMaxRetryAfter    = 30 * time.Second
	DefaultMaxResponseBytes = 8 << 20
)

// RetryPolicy says how answers of 429 and 5xx are retried. The zero value
// gives the defaults; MaxAttempts 1 disables retries.
type RetryPolicy struct {
	// MaxAttempts bounds the attempts of one call, the first included;
	// default 4.
	MaxAttempts int
	// InitialBackoff is the wait before the second attempt; default 500 ms.
	InitialBackoff time.Duration
	// MaxBackoff caps the computed wait; default 10 s.
	MaxBackoff time.Duration
	// Multiplier grows the wait between attempts; default 2.
	Multiplier float64
	// Jitter is the fraction of each wait drawn at random, 0 to 1: a wait w
	// becomes a value in [w·(1−Jitter), w]; default 0.2. Negative means none.
	Jitter float64
	// MaxRetryAfter caps an honoured Retry-After. A longer Retry-After ends
	// the call at once with Error.RetryAfter set, so that a scheduler (a
	// Temporal retry) waits instead of this goroutine; default 30 s.
	MaxRetryAfter time.Duration
	// RetryNetworkErrors also retries timeouts and connection errors. It is
	// off by default: a POST that timed out may have been applied, and the
	// caller (an idempotent activity) is the better judge. Such errors are
	// Retryable either way.
	RetryNetworkErrors bool
}

// Config configures a Client.
type Config struct {
	// BaseURL is the MBS root, e.g. https://eivc-k6z6d.ondigitalocean.app or
	// the sandbox stand-in's address. It carries no credentials.
	BaseURL string
	// APIKey and APISecret are sent as x-api-key and x-api-secret.
	APIKey    string
	APISecret string
	// HTTPClient does the requests; default a client with no overall
	// timeout (Timeout bounds each attempt instead).
	HTTPClient *http.Client
	// Timeout bounds one attempt, from sending the request to reading the
	// whole answer; default 30 s.
	Timeout time.Duration
	// Timeouts overrides Timeout per operation (signing may be slower than
	// a health check).
	Timeouts map[Operation]time.Duration
	// Retry is the retry policy for 429 and 5xx answers.
	Retry RetryPolicy
	// MaxResponseBytes bounds a response body; default 8 MiB.
	MaxResponseBytes int64
	// UserAgent is sent as User-Agent; default "einvoice-mbs".
	UserAgent string
	// Logger receives one debug record per attempt (operation, method, path,
	// status, duration), never headers or bodies; default none.
	Logger *slog.Logger
	// Environment names the deployment for the circuit breakers ("sandbox"
	// or "production").
	Environment string
	// Breakers, when set, holds the process's circuit breakers and paces
	// (breaker.go): share one across every client of a process.
	Breakers *Breakers
	// ConfirmReceiptEmptyBody sends ConfirmReceipt without a body, as NRS's
	// collection shows it. By default it carries {"message":"ACKNOWLEDGED"},
	// as live integrations send it (integrator-evidence.md E3).
	ConfirmReceiptEmptyBody bool
	// ReportBaseURL is the host reports go to (Report), when NRS's reports
	// live on a host of their own (integrations name one; unconfirmed);
	// default BaseURL.
	ReportBaseURL string
	// LegacyReportRoute sends Report as FIRS-MBS 1.0.0 documents it: the
	// camelCase body to /v1/vat/postPayment (PostPayment), which NRS's
	// sandbox answered with its no-route 404. By default Report posts the
	// snake_case body to /api/v1/vat/postpayment, as four integrations do
	// (integrator-evidence.md E2).
	LegacyReportRoute bool
	// Sleep waits between attempts; default a timer that returns early with
	// ctx.Err() when ctx ends. Tests replace it to observe the waits.
	Sleep func(ctx context.Context, d time.Duration) error
}

// String describes the configuration with the credentials redacted, so that
// a Config printed by mistake reveals nothing.
func (c Config) String() string {
	return fmt.Sprintf("mbs.Config{BaseURL:%q APIKey:%s APISecret:%s Timeout:%s}",
		c.BaseURL, redactedMark(c.APIKey), redactedMark(c.APISecret), c.Timeout)
}

// GoString is String, for %#v.
func (c Config) GoString() string { return c.String() }

// LogValue logs the configuration without credentials.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(slog.String("base_url", c.BaseURL),
		slog.String("api_key", redactedMark(c.APIKey)), slog.String("api_secret", redactedMark(c.APISecret)))
}

func redactedMark(s string) string {
	if s == "" {
		return `""`
	}
	return redacted
}

// Client talks to one MBS deployment with one pair of credentials. It is
// safe for concurrent use.
type Client struct {
	base     string
	key      string
	secret   string
	http     *http.Client
	timeout  time.Duration
	timeouts map[Operation]time.Duration
	retry    RetryPolicy
	maxBody  int64
	agent    string
	log      *slog.Logger
	sleep    func(ctx context.Context, d time.Duration) error
	redact   *strings.Replacer
	env      string
	creds    string
	breakers *Breakers
	// exchange settings (Config)
	confirmEmpty bool
	reportBase   string
	legacyReport bool
}

// New checks the configuration and builds a Client.
func New(cfg Config) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(cfg.BaseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("mbs: base URL must be an absolute http or https URL")
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, errors.New("mbs: base URL must not carry user info, a query or a fragment; credentials go in APIKey and APISecret")
	}
	if cfg.APIKey == "" || cfg.APISecret == "" {
		return nil, errors.New("mbs: an API key and an API secret are required")
	}
	c := &Client{
		base:     strings.TrimRight(u.String(), "/"),
		key:      cfg.APIKey,
		secret:   cfg.APISecret,
		http:     cfg.HTTPClient,
		timeout:  cfg.Timeout,
		timeouts: make(map[Operation]time.Duration, len(cfg.Timeouts)),
		retry:    cfg.Retry,
		maxBody:  cfg.MaxResponseBytes,
		agent:    cfg.UserAgent,
		log:      cfg.Logger,
		sleep:    cfg.Sleep,
		env:      cfg.Environment,
		breakers: cfg.Breakers,
	}
	c.confirmEmpty, c.legacyReport = cfg.ConfirmReceiptEmptyBody, cfg.LegacyReportRoute
	c.reportBase = c.base
	if rb := strings.TrimSpace(cfg.ReportBaseURL); rb != "" {
		ru, err := url.Parse(rb)
		if err != nil || (ru.Scheme != "http" && ru.Scheme != "https") || ru.Host == "" || ru.User != nil || ru.RawQuery != "" || ru.Fragment != "" {
			return nil, errors.New("mbs: the report base URL must be an absolute http or https URL without user info, query or fragment")
		}
		c.reportBase = strings.TrimRight(ru.String(), "/")
	}
	c.creds = credsKey(strings.TrimRight(u.String(), "/"), cfg.APIKey)
	for op, d := range cfg.Timeouts {
		if d > 0 {
			c.timeouts[op] = d
		}
	}
	if c.http == nil {
		c.http = &http.Client{}
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.maxBody <= 0 {
		c.maxBody = DefaultMaxResponseBytes
	}
	if c.agent == "" {
		c.agent = "einvoice-mbs"
	}
	if c.sleep == nil {
		c.sleep = sleepCtx
	}
	r := &c.retry
	if r.MaxAttempts <= 0 {
		r.MaxAttempts = DefaultMaxAttempts
	}
	if r.InitialBackoff <= 0 {
		r.InitialBackoff = DefaultInitialBackoff
	}
	if r.MaxBackoff <= 0 {
		r.MaxBackoff = DefaultMaxBackoff
	}
	if r.MaxBackoff < r.InitialBackoff {
		r.MaxBackoff = r.InitialBackoff
	}
	if r.Multiplier < 1 {
		r.Multiplier = DefaultMultiplier
	}
	switch {
	case r.Jitter == 0:
		r.Jitter = DefaultJitter
	case r.Jitter < 0:
		r.Jitter = 0
	case r.Jitter > 1:
		r.Jitter = 1
	}
	if r.MaxRetryAfter <= 0 {
		r.MaxRetryAfter = DefaultMaxRetryAfter
	}
	c.redact = strings.NewReplacer(c.key, redacted, c.secret, redacted)
	return c, nil
}

// BaseURL returns the MBS root the client talks to.
func (c *Client) BaseURL() string { return c.base }

func (c *Client) timeoutFor(op Operation) time.Duration {
	if d, ok := c.timeouts[op]; ok {
		return d
	}
	return c.timeout
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
