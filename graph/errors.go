package graph

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"runtime/debug"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/einvoice-ng/einvoice/model"
)

// codes is the one table from model error code to extensions.code. Every
// code of the closed set appears; anything else is presented as internal.
var codes = map[model.ErrorCode]string{
	model.CodeInvalid:                "invalid",
	model.CodeUnauthenticated:        "unauthenticated",
	model.CodeForbidden:              "forbidden",
	model.CodeNotFound:               "not_found",
	model.CodeConflict:               "conflict",
	model.CodeRateLimited:            "rate_limited",
	model.CodeUnavailable:            "unavailable",
	model.CodeInternal:               "internal",
	model.CodeAuthorityNotConfigured: "authority_not_configured",
	model.CodeIdempotencyKeyReuse:    "idempotency_key_reuse",
	model.CodeQuotaExceeded:          "quota_exceeded",
	model.CodeUnsupportedMediaType:   "unsupported_media_type",
	model.CodePayloadTooLarge:        "payload_too_large",
}

// internalMessage is all a client learns of an internal error.
const internalMessage = "Internal Server Error"

// presenter is the one error presenter: it turns a resolver's error into a
// GraphQL error whose extensions.code comes from codes and, for invalid,
// whose extensions.detail lists every problem as {loc, msg, type}. Internal
// causes are logged with the request id and never shown. Errors raised by
// GraphQL itself (parse, validation, limits) keep their own codes.
func presenter(log *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		var gerr *gqlerror.Error
		if !errors.As(err, &gerr) {
			gerr = gqlerror.WrapPath(graphql.GetPath(ctx), err)
		}
		var me *model.Error
		if !errors.As(err, &me) {
			if gerr.Err == nil {
				return gerr // raised by GraphQL itself, before any resolver
			}
			me = model.AsError(gerr.Err)
		}
		code, ok := codes[me.Code]
		if !ok || me.Code == model.CodeInternal {
			log.ErrorContext(ctx, "graphql request failed", "request_id", model.RequestMetaFrom(ctx).RequestID,
				"path", gerr.Path.String(), "code", me.Code, "error", err)
			return &gqlerror.Error{
				Message:    internalMessage,
				Path:       gerr.Path,
				Locations:  gerr.Locations,
				Extensions: map[string]any{"code": codes[model.CodeInternal]},
			}
		}
		if me.Code == model.CodeUnavailable {
			log.WarnContext(ctx, "graphql request failed", "request_id", model.RequestMetaFrom(ctx).RequestID,
				"path", gerr.Path.String(), "code", me.Code, "error", err)
		}
		ext := map[string]any{"code": code}
		if me.RetryAfter > 0 {
			ext["retryAfter"] = int(math.Ceil(me.RetryAfter.Seconds()))
		}
		if me.Code == model.CodeInvalid {
			ext["detail"] = detail(me)
		}
		if me.RetryAfter > 0 {
			ext["retryAfter"] = int(math.Ceil(me.RetryAfter.Seconds()))
		}
		return &gqlerror.Error{Message: me.Message, Path: gerr.Path, Locations: gerr.Locations, Extensions: ext}
	}
}

// detail renders the problems of an invalid error with GraphQL names: the
// application's snake_case locations become the camelCase names of the schema.
func detail(e *model.Error) []model.FieldError {
	fields := e.Fields
	if len(fields) == 0 {
		fields = []model.FieldError{{Loc: []any{}, Msg: e.Message, Type: model.ProblemValueError}}
	}
	out := make([]model.FieldError, len(fields))
	for i, f := range fields {
		loc := make([]any, len(f.Loc))
		for j, l := range f.Loc {
			if s, ok := l.(string); ok {
				l = camel(s)
			}
			loc[j] = l
		}
		out[i] = model.FieldError{Loc: loc, Msg: f.Msg, Type: f.Type}
	}
	return out
}

// camel turns a snake_case name into camelCase.
func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// at prefixes the locations of an invalid error with the argument its input
// came in (e.g. "input"), as REST prefixes "body" or "query". rename maps a
// service name to the argument's name where they differ (limit → first).
func at(err error, prefix []any, rename map[string]string) error {
	var e *model.Error
	if !errors.As(err, &e) || e.Code != model.CodeInvalid || len(e.Fields) == 0 {
		return err
	}
	fields := make([]model.FieldError, len(e.Fields))
	for i, f := range e.Fields {
		loc := append([]any(nil), f.Loc...)
		if len(loc) > 0 {
			if s, ok := loc[0].(string); ok {
				if r, ok := rename[s]; ok {
					loc[0] = r
				}
			}
		}
		fields[i] = model.FieldError{Loc: loc, Msg: f.Msg, Type: f.Type}
	}
	var p model.Problems
	p.AddAll(prefix, fields)
	return p.Err()
}

// inInput places an input object's problems under its argument.
func inInput(err error) error { return at(err, []any{"input"}, nil) }

// pageArgs names a list's paging problems after the connection arguments.
var pageArgs = map[string]string{"limit": "first", "cursor": "after"}

// inPage places paging problems under first and after.
func inPage(err error) error { return at(err, nil, pageArgs) }

// recoverer turns a resolver panic into an internal error, logged with the
// request id and the stack.
func recoverer(log *slog.Logger) graphql.RecoverFunc {
	return func(ctx context.Context, v any) error {
		log.ErrorContext(ctx, "graphql resolver panic", "request_id", model.RequestMetaFrom(ctx).RequestID,
			"panic", v, "stack", string(debug.Stack()))
		return model.Errorf(model.CodeInternal, internalMessage)
	}
}
