package store

import (
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/einvoice-ng/einvoice/model"
)

// errDatabaseUnavailable is the message of every answer refused because
// the database cannot be reached.
const errDatabaseUnavailable = "the database is unavailable; try again shortly"

// errContended is the message of an answer refused because the database
// gave up the request's transaction to a concurrent one (a deadlock, a
// serialization failure, a lock it could not get in time): the transaction
// was rolled back, so nothing of it was written, and the same request may
// simply be sent again.
const errContended = "the database could not complete this request beside concurrent ones; nothing was written, try again"

// contendedRetryAfter is the Retry-After of a contended answer: the other
// transactions are done within moments.
const contendedRetryAfter = time.Second

func init() { model.RegisterClassifier(classifyUnavailable) }

// classifyUnavailable turns an error saying that the database cannot be
// reached (refused or reset connections, a server shutting down or not
// accepting connections yet) into unavailable with a Retry-After, whichever
// path it took out of the store; nil for any other error.
//
// An error saying that the database gave the transaction up to a
// concurrent one (Contended) is unavailable too, with a shorter
// Retry-After: the transaction was rolled back, and a retry succeeds.
func classifyUnavailable(err error) *model.Error {
	switch {
	case Unreachable(err):
		return &model.Error{Code: model.CodeUnavailable, Message: errDatabaseUnavailable,
			RetryAfter: model.DependencyRetryAfter, Err: err}
	case Contended(err):
		return &model.Error{Code: model.CodeUnavailable, Message: errContended,
			RetryAfter: contendedRetryAfter, Err: err}
	}
	return nil
}

// Contended reports whether err says that the database gave the
// statement's transaction up to a concurrent one: PostgreSQL's
// serialization_failure (40001), deadlock_detected (40P01) or
// lock_not_available (55P03); SQLite's SQLITE_BUSY or SQLITE_LOCKED once its
// busy timeout ran out.
func Contended(err error) bool {
	if err == nil {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "40001" || pgErr.Code == "40P01" || pgErr.Code == "55P03"
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		c := sqErr.Code() & 0xff // the primary code of an extended one
		return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED
	}
	return false
}

// Unreachable reports whether err says the database could not be reached
// or dropped the connection, rather than refusing the query itself.
func Unreachable(err error) bool {
	if err == nil {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// Class 08: connection exception; 57P01-57P05: the server is
		// shutting down, crashed or does not accept connections yet;
		// 53300: too many connections.
		return strings.HasPrefix(pgErr.Code, "08") || strings.HasPrefix(pgErr.Code, "57P") || pgErr.Code == "53300"
	}
	var connectErr *pgconn.ConnectError
	var opErr *net.OpError
	switch {
	case errors.As(err, &connectErr), errors.As(err, &opErr):
		return true
	case errors.Is(err, driver.ErrBadConn), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, net.ErrClosed):
		return true
	case pgconn.Timeout(err):
		return true
	}
	// pgx reports a connection it closed after a failure as "conn closed".
	msg := err.Error()
	return strings.Contains(msg, "conn closed") || strings.Contains(msg, "failed to connect to")
}
