package store

import (
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/einvoice-ng/einvoice/model"
)

// errDatabaseUnavailable is the message of every answer refused because
// the database cannot be reached.
const errDatabaseUnavailable = "the database is unavailable; try again shortly"

func init() { model.RegisterClassifier(classifyUnavailable) }

// classifyUnavailable turns an error saying that the database cannot be
// reached (refused or reset connections, a server shutting down or not
// accepting connections yet) into unavailable with a Retry-After, whichever
// path it took out of the store; nil for any other error.
func classifyUnavailable(err error) *model.Error {
	if !Unreachable(err) {
		return nil
	}
	return &model.Error{Code: model.CodeUnavailable, Message: errDatabaseUnavailable,
		RetryAfter: model.DependencyRetryAfter, Err: err}
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
