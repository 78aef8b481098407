// Package model holds einvoice's domain types, the one Error type that crosses
// from storage and services to the transports, and the validation collector.
// It is pure: no HTTP, no SQL, no Temporal.
package model

import (
	"errors"
	"fmt"
	"time"
)

// ErrorCode is the closed set of error classes every transport maps to its own
// status (REST) or extension code (GraphQL).
type ErrorCode string

// The error codes. Transports must handle every one of them.
const (
	CodeInvalid                ErrorCode = "invalid"
	CodeUnauthenticated        ErrorCode = "unauthenticated"
	CodeForbidden              ErrorCode = "forbidden"
	CodeNotFound               ErrorCode = "not_found"
	CodeConflict               ErrorCode = "conflict"
	CodeRateLimited            ErrorCode = "rate_limited"
	CodeUnavailable            ErrorCode = "unavailable"
	CodeInternal               ErrorCode = "internal"
	CodeAuthorityNotConfigured ErrorCode = "authority_not_configured"
	CodeIdempotencyKeyReuse    ErrorCode = "idempotency_key_reuse"
	// CodeQuotaExceeded: creating one more organization, project or API
	// key would pass the account's quota; removing one (revoking a key)
	// makes room.
	CodeQuotaExceeded ErrorCode = "quota_exceeded"
	// CodeUnsupportedMediaType refuses a request body that is not sent
	// as JSON.
	CodeUnsupportedMediaType ErrorCode = "unsupported_media_type"
	// CodePayloadTooLarge refuses a request body larger than its route's
	// byte bound (model.MaxBatchBytes for an invoice batch), before any of
	// it is decoded.
	CodePayloadTooLarge ErrorCode = "payload_too_large"
)

// Error is the error type that crosses package boundaries. Message is safe to
// show to a client; Err is the internal cause and is only ever logged.
type Error struct {
	Code    ErrorCode
	Message string
	// Fields lists every validation problem when Code is CodeInvalid.
	Fields []FieldError
	// RetryAfter, when set on a rate_limited or unavailable error, is how
	// long the client should wait before trying again (REST sends it as
	// Retry-After, GraphQL as extensions.retryAfter in seconds).
	RetryAfter time.Duration
	Err        error
}

// Error implements error.
func (e *Error) Error() string {
	msg := string(e.Code)
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap exposes the internal cause to errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error with a client-safe formatted message.
func Errorf(code ErrorCode, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap builds an Error carrying an internal cause.
func Wrap(code ErrorCode, err error, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Err: err}
}

// NotFound is the error for a missing object, or one owned by another tenant:
// the message never reveals which.
func NotFound(what string) *Error {
	return &Error{Code: CodeNotFound, Message: what + " not found"}
}

// AsError returns err as *Error. Errors of another type become CodeInternal
// with the original kept as the hidden cause.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	for _, classify := range classifiers {
		if e := classify(err); e != nil {
			return e
		}
	}
	return &Error{Code: CodeInternal, Message: "Internal Server Error", Err: err}
}

// classifiers turn foreign errors that are not internal failures (a
// database that cannot be reached) into their Error; registered at init by
// the packages that know those errors, so that this package stays pure.
var classifiers []func(error) *Error

// RegisterClassifier adds a classifier of foreign errors to AsError: it
// returns the Error err stands for, or nil when it does not know err. Call
// it from an init function only.
func RegisterClassifier(fn func(error) *Error) { classifiers = append(classifiers, fn) }

// DependencyRetryAfter is the Retry-After of an unavailable answer caused
// by a dependency that is down (the database, Temporal): long enough not to
// hammer it, short enough to notice its return.
const DependencyRetryAfter = 5 * time.Second

// ErrorCodeOf returns the code of err, CodeInternal for foreign errors and ""
// for nil.
func ErrorCodeOf(err error) ErrorCode {
	if err == nil {
		return ""
	}
	return AsError(err).Code
}
