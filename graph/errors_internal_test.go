package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/einvoice-ng/einvoice/model"
)

// TestPresenter covers the whole code table, including the codes the
// portal's fields cannot produce today (rate_limited, unavailable,
// authority_not_configured), and the hiding of internal causes.
func TestPresenter(t *testing.T) {
	var logs bytes.Buffer
	present := presenter(slog.New(slog.NewJSONHandler(&logs, nil)))
	ctx := model.WithRequestMeta(context.Background(), model.RequestMeta{RequestID: "req-123"})

	cases := []struct {
		name    string
		err     error
		code    string
		message string
	}{
		{"invalid", model.Invalid(model.ProblemMissing, "Field required", "key_name"), "invalid", "Field required"},
		{"unauthenticated", model.Errorf(model.CodeUnauthenticated, "no token"), "unauthenticated", "no token"},
		{"forbidden", model.Errorf(model.CodeForbidden, "owners only"), "forbidden", "owners only"},
		{"not_found", model.NotFound("project"), "not_found", "project not found"},
		{"conflict", model.Errorf(model.CodeConflict, "taken"), "conflict", "taken"},
		{"rate_limited", model.Errorf(model.CodeRateLimited, "slow down"), "rate_limited", "slow down"},
		{"unavailable", model.Wrap(model.CodeUnavailable, errors.New("dial tcp"), "database unavailable"), "unavailable", "database unavailable"},
		{"authority_not_configured", model.Errorf(model.CodeAuthorityNotConfigured, "configure it"), "authority_not_configured", "configure it"},
		{"internal", model.Wrap(model.CodeInternal, errors.New("secret cause 1"), "pq: relation"), "internal", internalMessage},
		{"foreign error", errors.New("secret cause 2"), "internal", internalMessage},
		{"wrapped model error", fmt.Errorf("load: %w", model.NotFound("API key")), "not_found", "API key not found"},
		{"unknown code", &model.Error{Code: "bogus", Message: "secret cause 3"}, "internal", internalMessage},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := present(ctx, c.err)
			if got.Extensions["code"] != c.code || got.Message != c.message {
				t.Fatalf("presented %q %v, want %q %q", got.Message, got.Extensions, c.message, c.code)
			}
			if strings.Contains(fmt.Sprint(got.Extensions), "secret") || strings.Contains(got.Error(), "secret") {
				t.Fatalf("the cause leaked: %v", got)
			}
		})
	}
	for _, cause := range []string{"secret cause 1", "secret cause 2", "secret cause 3"} {
		if !strings.Contains(logs.String(), cause) {
			t.Errorf("cause %q not logged: %s", cause, logs.String())
		}
	}
	if !strings.Contains(logs.String(), `"request_id":"req-123"`) {
		t.Errorf("request id not logged: %s", logs.String())
	}

	t.Run("GraphQL's own errors keep their code", func(t *testing.T) {
		own := gqlerror.Errorf("Cannot query field")
		own.Extensions = map[string]any{"code": "GRAPHQL_VALIDATION_FAILED"}
		if got := present(ctx, own); got.Extensions["code"] != "GRAPHQL_VALIDATION_FAILED" || got.Message != "Cannot query field" {
			t.Fatalf("presented %v", got)
		}
	})

	t.Run("invalid detail speaks GraphQL names", func(t *testing.T) {
		var p model.Problems
		p.Add(model.ProblemStringTooShort, "too short", "organization_slug")
		p.Add(model.ProblemEnum, "bad", "scopes", 2)
		got := present(ctx, inInput(p.Err()))
		detail, ok := got.Extensions["detail"].([]model.FieldError)
		if !ok || len(detail) != 2 {
			t.Fatalf("detail = %#v", got.Extensions["detail"])
		}
		if fmt.Sprint(detail[0].Loc) != "[input organizationSlug]" || fmt.Sprint(detail[1].Loc) != "[input scopes 2]" {
			t.Fatalf("locs = %v, %v", detail[0].Loc, detail[1].Loc)
		}
	})
}

func TestCamel(t *testing.T) {
	for in, want := range map[string]string{
		"name": "name", "organization_id": "organizationId", "grace_seconds": "graceSeconds", "a__b": "aB", "": "",
	} {
		if got := camel(in); got != want {
			t.Errorf("camel(%q) = %q, want %q", in, got, want)
		}
	}
}
