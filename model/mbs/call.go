package mbs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"time"
)

// Call describes one client call as it happened on the wire, for evidence:
// a certification step records it whether the call succeeded or not. It
// holds no credentials and no bodies.
type Call struct {
	Operation Operation `json:"operation"`
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	// StartedAt is when the first attempt started.
	StartedAt time.Time `json:"started_at"`
	// Duration is the whole call, waits between attempts included.
	Duration time.Duration `json:"duration"`
	// Attempts is the number of requests sent.
	Attempts int `json:"attempts"`
	// Waited is the total time spent waiting between attempts.
	Waited time.Duration `json:"waited"`
	// HTTPStatus is the status of the last answer; 0 when none came.
	HTTPStatus int `json:"http_status"`
	// Code is the envelope's "code" of the last answer, when it had one.
	Code int `json:"code,omitempty"`
	// ErrorID is NRS's error.id of the last answer, when it was an error.
	ErrorID string `json:"error_id,omitempty"`
	// Partial is set when the answer said it holds only part of a list
	// (the stand-in's PartialListHeader).
	Partial bool `json:"partial,omitempty"`
}

// request is one call to make.
type request struct {
	op     Operation
	method string
	path   string
	query  string // encoded, without "?"; not recorded in Call or Error
	body   []byte // nil: no body
	// base overrides the client's base URL (reports on their own host).
	base string
	// anonymous sends no credentials (the health check).
	anonymous bool
}

// do sends r with retries and returns the body of a 2xx answer. Any other
// outcome is a *Error. The returned Call is always filled.
func (c *Client) do(ctx context.Context, r request) ([]byte, Call, error) {
	call := Call{Operation: r.op, Method: r.method, Path: r.path, StartedAt: time.Now()}
	finish := func(body []byte, err *Error) ([]byte, Call, error) {
		call.Duration = time.Since(call.StartedAt)
		if err != nil {
			err.Attempts = call.Attempts
			call.ErrorID = err.ID
			if err.Code != 0 {
				call.Code = err.Code
			}
			return nil, call, err
		}
		return body, call, nil
	}
	for {
		var release func(outcome)
		if c.breakers != nil {
			if e := c.admit(ctx, r, &call); e != nil {
				return finish(nil, e)
			}
			var wait time.Duration
			var ok bool
			if release, wait, ok = c.breakers.allow(c.env, r.op); !ok {
				return finish(nil, &Error{Operation: r.op, Method: r.method, Path: r.path, BreakerOpen: true,
					Environment: c.env, RetryAfter: wait})
			}
		}
		call.Attempts++
		body, status, header, err := c.attempt(ctx, r)
		if release != nil {
			release(outcomeOf(status, err, ctx.Err() != nil))
		}
		call.HTTPStatus = status
		if err == nil && status >= 200 && status < 300 {
			call.Partial = header.Get(PartialListHeader) == "partial"
			return finish(body, nil)
		}
		e := &Error{Operation: r.op, Method: r.method, Path: r.path, HTTPStatus: status}
		hasRetryAfter := false
		if err != nil {
			e.Err = c.redactErr(err)
			switch {
			case ctx.Err() != nil:
				e.Timeout = errors.Is(ctx.Err(), context.DeadlineExceeded)
				e.Canceled = !e.Timeout
			case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
				e.Timeout = true
			}
		} else {
			c.fillFromBody(e, body)
			e.RetryAfter, hasRetryAfter = parseRetryAfter(header.Get("Retry-After"), time.Now())
		}
		wait := c.backoff(call.Attempts)
		if status == http.StatusTooManyRequests && c.breakers != nil {
			pace := wait
			if hasRetryAfter {
				pace = e.RetryAfter
			}
			c.breakers.throttle(c.env, c.creds, r.op, pace)
		}
		if e.Canceled || call.Attempts >= c.retry.MaxAttempts || !c.shouldRetry(e) {
			return finish(nil, e)
		}
		if hasRetryAfter {
			if e.RetryAfter > c.retry.MaxRetryAfter {
				return finish(nil, e)
			}
			wait = e.RetryAfter
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			// Waiting would outlive the caller: give the answer back now.
			return finish(nil, e)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return finish(nil, e)
		}
		call.Waited += wait
	}
}

// admit waits out the pace a 429 set for the client's credentials and the
// operation, or fails when that wait is longer than MaxRetryAfter or than
// the caller's deadline allows (Error.Paced, with RetryAfter).
func (c *Client) admit(ctx context.Context, r request, call *Call) *Error {
	wait := c.breakers.paceWait(c.env, c.creds, r.op)
	if wait <= 0 {
		return nil
	}
	paced := &Error{Operation: r.op, Method: r.method, Path: r.path, Paced: true, Environment: c.env, RetryAfter: wait}
	if wait > c.retry.MaxRetryAfter {
		return paced
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
		return paced
	}
	if err := c.sleep(ctx, wait); err != nil {
		paced.Canceled = true
		return paced
	}
	call.Waited += wait
	return nil
}

func (c *Client) shouldRetry(e *Error) bool {
	if e.HTTPStatus != 0 {
		return retryableStatus(e.HTTPStatus)
	}
	return c.retry.RetryNetworkErrors && e.Retryable()
}

// backoff is the wait after the given attempt (1-based): InitialBackoff ×
// Multiplier^(attempt−1), capped, then reduced by up to Jitter at random.
func (c *Client) backoff(attempt int) time.Duration {
	p := c.retry
	d := float64(p.InitialBackoff) * math.Pow(p.Multiplier, float64(attempt-1))
	if d > float64(p.MaxBackoff) || math.IsInf(d, 0) || math.IsNaN(d) {
		d = float64(p.MaxBackoff)
	}
	if p.Jitter > 0 {
		d -= d * p.Jitter * rand.Float64()
	}
	return time.Duration(d)
}

// attempt sends one request under the per-attempt timeout and reads the
// whole answer.
func (c *Client) attempt(ctx context.Context, r request) (body []byte, status int, header http.Header, err error) {
	actx, cancel := context.WithTimeout(ctx, c.timeoutFor(r.op))
	defer cancel()
	var rd io.Reader
	if r.body != nil {
		rd = bytes.NewReader(r.body)
	}
	target := c.base + r.path
	if r.base != "" {
		target = r.base + r.path
	}
	if r.query != "" {
		target += "?" + r.query
	}
	req, err := http.NewRequestWithContext(actx, r.method, target, rd)
	if err != nil {
		return nil, 0, nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.agent)
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if !r.anonymous {
		req.Header.Set("x-api-key", c.key)
		req.Header.Set("x-api-secret", c.secret)
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		c.logAttempt(ctx, r, 0, time.Since(start), err)
		return nil, 0, nil, err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(io.LimitReader(resp.Body, c.maxBody+1))
	if err == nil && int64(len(body)) > c.maxBody {
		err = fmt.Errorf("%w: answer larger than %d bytes", errMalformed, c.maxBody)
	}
	c.logAttempt(ctx, r, resp.StatusCode, time.Since(start), err)
	if err != nil {
		return nil, 0, nil, err
	}
	return body, resp.StatusCode, resp.Header, nil
}

func (c *Client) logAttempt(ctx context.Context, r request, status int, d time.Duration, err error) {
	if c.log == nil {
		return
	}
	attrs := []any{"operation", string(r.op), "method", r.method, "path", r.path,
		"status", status, "duration_ms", d.Milliseconds()}
	if err != nil {
		attrs = append(attrs, "error", c.redact.Replace(err.Error()))
	}
	c.log.DebugContext(ctx, "mbs attempt", attrs...)
}

// isTimeout reports a transport error that says it timed out.
func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// envelope is NRS's success answer: {"code":200,"data":{...}}.
type envelope struct {
	Code json.Number     `json:"code"`
	Data json.RawMessage `json:"data"`
}

// enveloped makes a call and returns the data of NRS's success envelope.
// An envelope whose code says error, inside a 2xx answer, is an error too.
func (c *Client) enveloped(ctx context.Context, r request) (json.RawMessage, Call, error) {
	body, call, err := c.do(ctx, r)
	if err != nil {
		return nil, call, err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, call, nil // an empty 2xx answer carries no data
	}
	var env envelope
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&env); err != nil {
		return nil, call, c.malformed(r, call, "answer is not NRS's JSON envelope")
	}
	if n, err := env.Code.Int64(); err == nil {
		call.Code = int(n)
		if n >= 400 {
			e := &Error{Operation: r.op, Method: r.method, Path: r.path, HTTPStatus: call.HTTPStatus, Attempts: call.Attempts}
			c.fillFromBody(e, body)
			call.ErrorID = e.ID
			return nil, call, e
		}
	}
	return env.Data, call, nil
}

// malformed is the error of a 2xx answer that cannot be read.
func (c *Client) malformed(r request, call Call, what string) *Error {
	return &Error{Operation: r.op, Method: r.method, Path: r.path, HTTPStatus: 0, Attempts: call.Attempts,
		Err: fmt.Errorf("%w: HTTP %d: %s", errMalformed, call.HTTPStatus, what)}
}

// encodeBody turns a request body into JSON: json.RawMessage and []byte are
// sent as they are, anything else is marshalled.
func encodeBody(v any) ([]byte, error) {
	switch b := v.(type) {
	case nil:
		return nil, errors.New("mbs: a request body is required")
	case json.RawMessage:
		return b, nil
	case []byte:
		return b, nil
	}
	return json.Marshal(v)
}
