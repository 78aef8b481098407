package mbs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const redacted = "[REDACTED]"

// Error is a failed MBS call: an error answer of NRS (HTTPStatus set, with
// the fields of NRS's error envelope) or a transport failure (HTTPStatus 0,
// Err set). Every text field is redacted: the API key and secret never
// appear in it.
type Error struct {
	// Operation, Method and Path say which call failed. Path holds no
	// credentials.
	Operation Operation
	Method    string
	Path      string
	// HTTPStatus is the status of the last answer; 0 when none came.
	HTTPStatus int
	// Code is the envelope's "code" (usually equal to HTTPStatus).
	Code int
	// Message is the envelope's "message" ("error has occurred").
	Message string
	// ID, Handler, Details and PublicMessage are the envelope's "error"
	// object. Details is the text of error.details (a JSON string as is,
	// anything else as compact JSON); RawDetails keeps it as sent.
	ID            string
	Handler       string
	Details       string
	RawDetails    json.RawMessage
	PublicMessage string
	// RetryAfter is the server's Retry-After, when it sent one.
	RetryAfter time.Duration
	// Attempts is how many requests the call made.
	Attempts int
	// Timeout is set when an attempt or the caller's context ran out of
	// time; Canceled when the caller's context was cancelled.
	Timeout  bool
	Canceled bool
	// BreakerOpen is set when the call was not sent because the circuit
	// breaker of its environment and operation is open; RetryAfter says
	// when it probes. Paced is set when it was not sent because a 429's
	// Retry-After still holds calls back for longer than the client waits;
	// RetryAfter says how long. Environment names the breaker's
	// environment.
	BreakerOpen bool
	Paced       bool
	Environment string
	// Err is the transport cause, when there is one.
	Err error
}

// Error implements error.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("mbs: ")
	b.WriteString(e.Method)
	b.WriteByte(' ')
	b.WriteString(e.Path)
	b.WriteString(": ")
	switch {
	case e.HTTPStatus != 0:
		b.WriteString("HTTP ")
		b.WriteString(strconv.Itoa(e.HTTPStatus))
		msg := e.PublicMessage
		if msg == "" {
			msg = e.Message
		}
		if msg != "" {
			b.WriteString(": ")
			b.WriteString(msg)
		}
		if d := e.Details; d != "" && d != msg {
			if len(d) > maxDetailsInText {
				d = d[:maxDetailsInText] + "..."
			}
			b.WriteString(" (")
			b.WriteString(d)
			b.WriteByte(')')
		}
		if e.ID != "" {
			b.WriteString(" [error id ")
			b.WriteString(e.ID)
			b.WriteByte(']')
		}
	case e.BreakerOpen:
		fmt.Fprintf(&b, "not sent: the circuit breaker of %s %s is open (NRS failing); it probes in %s",
			e.Environment, e.Operation, e.RetryAfter.Round(time.Second))
	case e.Paced:
		fmt.Fprintf(&b, "not sent: NRS asked to slow down (429); next call in %s", e.RetryAfter.Round(time.Second))
	case e.Timeout:
		b.WriteString("timeout")
	case e.Canceled:
		b.WriteString("cancelled")
	default:
		b.WriteString("request failed")
	}
	if e.Err != nil && e.HTTPStatus == 0 {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d HTTP requests within this call)", e.Attempts)
	}
	return b.String()
}

// Unwrap exposes the transport cause (context.DeadlineExceeded, a
// *net.OpError, ...).
func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether trying again later may succeed: an answer of
// 429 or 5xx, a timeout or a connection error, a call held back by an open
// circuit breaker or a 429's pace. Errors of 4xx, a cancelled
// context and unreadable answers are final.
func (e *Error) Retryable() bool {
	switch {
	case e.Canceled:
		return false
	case e.BreakerOpen, e.Paced:
		return true
	case e.HTTPStatus != 0:
		return retryableStatus(e.HTTPStatus)
	case e.Timeout:
		return true
	default:
		return e.Err != nil && !errors.Is(e.Err, errMalformed)
	}
}

// IsRetryable reports whether err is a *Error that is Retryable.
func IsRetryable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Retryable()
}

func retryableStatus(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// errMalformed marks answers that could not be read: trying again will not
// help.
var errMalformed = errors.New("malformed answer")

// redactedError keeps the cause for errors.Is/As but shows a redacted text.
type redactedError struct {
	msg string
	err error
}

func (r *redactedError) Error() string { return r.msg }
func (r *redactedError) Unwrap() error { return r.err }

func (c *Client) redactErr(err error) error {
	if err == nil {
		return nil
	}
	return &redactedError{msg: c.redact.Replace(err.Error()), err: err}
}

// errorEnvelope is NRS's error answer:
// {"code":400,"data":null,"message":"error has occurred","error":{...}}.
type errorEnvelope struct {
	Code    json.Number `json:"code"`
	Message string      `json:"message"`
	Error   *struct {
		ID            json.RawMessage `json:"id"`
		Handler       string          `json:"handler"`
		Details       json.RawMessage `json:"details"`
		PublicMessage string          `json:"public_message"`
	} `json:"error"`
}

// maxDetailsInText bounds how much of Details the error text shows; the
// field itself keeps everything.
const maxDetailsInText = 300

// maxPlainDetails bounds how much of a non-JSON error body goes into
// Details.
const maxPlainDetails = 512

// fillFromBody reads an error answer's envelope into e. A body that is not
// NRS's envelope (an HTML page from a proxy) becomes Details, cut short.
func (c *Client) fillFromBody(e *Error, body []byte) {
	var env errorEnvelope
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&env); err != nil || (env.Error == nil && env.Message == "" && env.Code == "") {
		text := strings.TrimSpace(string(body))
		if len(text) > maxPlainDetails {
			text = text[:maxPlainDetails] + "..."
		}
		e.Details = c.redact.Replace(text)
		return
	}
	if n, err := env.Code.Int64(); err == nil {
		e.Code = int(n)
	}
	e.Message = c.redact.Replace(env.Message)
	if env.Error == nil {
		return
	}
	e.ID = c.redact.Replace(jsonText(env.Error.ID))
	e.Handler = c.redact.Replace(env.Error.Handler)
	e.PublicMessage = c.redact.Replace(env.Error.PublicMessage)
	if d := bytes.TrimSpace(env.Error.Details); len(d) > 0 && !bytes.Equal(d, []byte("null")) {
		e.RawDetails = json.RawMessage(c.redact.Replace(string(d)))
		e.Details = c.redact.Replace(jsonText(d))
	}
}

// jsonText returns a JSON string's value, or any other JSON value as compact
// text.
func jsonText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return string(raw)
	}
	return buf.String()
}

// parseRetryAfter reads Retry-After as seconds (fractions tolerated) or an
// HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 || secs > 1e6 {
			return 0, false
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(now)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}
