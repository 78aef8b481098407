package devtemporal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"

	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/log/tag"
)

// serverLogFile is the name, inside Options.DataDir, of the file that receives
// the Temporal server's own logs at info level and above.
const serverLogFile = "temporal-server.log"

// fatalError is the value serverLogger panics with when the Temporal server
// logs at fatal level. Start recovers it and turns it into an error.
type fatalError struct{ msg string }

func (e fatalError) Error() string { return "temporal server fatal error: " + e.msg }

// serverLogger adapts a *slog.Logger to the Temporal server's log.Logger.
//
// The Temporal server treats Fatal as "log and exit" and Panic as "log and
// panic". Exiting the whole einvoice process from inside a library is not
// acceptable, so Fatal logs and panics with a fatalError instead: during Start
// that panic is recovered and reported as an error; in a background goroutine
// it crashes the process much as the server's own logger would have.
type serverLogger struct {
	l *slog.Logger
}

var (
	_ log.Logger     = serverLogger{}
	_ log.WithLogger = serverLogger{}
)

func (s serverLogger) Debug(msg string, tags ...tag.Tag) { s.log(slog.LevelDebug, msg, tags) }
func (s serverLogger) Info(msg string, tags ...tag.Tag)  { s.log(slog.LevelInfo, msg, tags) }
func (s serverLogger) Warn(msg string, tags ...tag.Tag)  { s.log(slog.LevelWarn, msg, tags) }
func (s serverLogger) Error(msg string, tags ...tag.Tag) { s.log(slog.LevelError, msg, tags) }

// DPanic only panics in development builds of the server; log it as an error.
func (s serverLogger) DPanic(msg string, tags ...tag.Tag) { s.log(slog.LevelError, msg, tags) }

func (s serverLogger) Panic(msg string, tags ...tag.Tag) {
	s.log(slog.LevelError, msg, tags)
	panic(fatalError{msg: msg})
}

func (s serverLogger) Fatal(msg string, tags ...tag.Tag) {
	s.log(slog.LevelError, msg, tags)
	panic(fatalError{msg: fatalMessage(msg, tags)})
}

// With returns a logger that adds tags to every record.
func (s serverLogger) With(tags ...tag.Tag) log.Logger {
	return serverLogger{l: slog.New(s.l.Handler().WithAttrs(tagsToAttrs(tags)))}
}

func (s serverLogger) log(level slog.Level, msg string, tags []tag.Tag) {
	ctx := context.Background()
	if !s.l.Enabled(ctx, level) {
		return
	}
	s.l.LogAttrs(ctx, level, msg, tagsToAttrs(tags)...)
}

func tagsToAttrs(tags []tag.Tag) []slog.Attr {
	attrs := make([]slog.Attr, 0, len(tags))
	for _, t := range tags {
		attrs = append(attrs, slog.Any(t.Key(), t.Value()))
	}
	return attrs
}

// fatalMessage appends the error tag, if any, to msg so that the error
// returned by Start says why the server gave up.
func fatalMessage(msg string, tags []tag.Tag) string {
	for _, t := range tags {
		if err, ok := t.Value().(error); ok {
			return fmt.Sprintf("%s: %v", msg, err)
		}
	}
	return msg
}

// teeHandler sends each record to every handler that accepts its level.
type teeHandler []slog.Handler

func (t teeHandler) Enabled(ctx context.Context, level slog.Level) bool {
	for _, h := range t {
		if h.Enabled(ctx, level) {
			return true
		}
	}
	return false
}

func (t teeHandler) Handle(ctx context.Context, r slog.Record) error {
	var errs []error
	for _, h := range t {
		if h.Enabled(ctx, r.Level) {
			errs = append(errs, h.Handle(ctx, r.Clone()))
		}
	}
	return errors.Join(errs...)
}

func (t teeHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	out := make(teeHandler, len(t))
	for i, h := range t {
		out[i] = h.WithAttrs(attrs)
	}
	return out
}

func (t teeHandler) WithGroup(name string) slog.Handler {
	out := make(teeHandler, len(t))
	for i, h := range t {
		out[i] = h.WithGroup(name)
	}
	return out
}

// consoleHandler forwards records at or above min to h until it is muted.
// Stop mutes it first: shutting the services down makes the server log a
// burst of expected "context canceled" warnings and errors.
type consoleHandler struct {
	min   slog.Level
	muted *atomic.Bool
	h     slog.Handler
}

func (c consoleHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return level >= c.min && !c.muted.Load() && c.h.Enabled(ctx, level)
}

func (c consoleHandler) Handle(ctx context.Context, r slog.Record) error {
	if c.muted.Load() {
		return nil
	}
	return c.h.Handle(ctx, r)
}

func (c consoleHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return consoleHandler{min: c.min, muted: c.muted, h: c.h.WithAttrs(attrs)}
}

func (c consoleHandler) WithGroup(name string) slog.Handler {
	return consoleHandler{min: c.min, muted: c.muted, h: c.h.WithGroup(name)}
}
