package rest

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

func TestLimitKeyOf(t *testing.T) {
	for _, id := range []uuid.UUID{uuid.Nil, uuid.Max, uuid.New(), uuid.MustParse("0123abcd-ef45-6789-abcd-ef0123456789")} {
		for _, prefix := range []string{"key:", "project:", "", strings.Repeat("p", 40)} {
			if got, want := limitKeyOf(prefix, id), prefix+id.String(); got != want {
				t.Errorf("limitKeyOf(%q, %s) = %q, want %q", prefix, id, got, want)
			}
		}
	}
}

func TestSetRateHeaders(t *testing.T) {
	h := http.Header{}
	setRateHeaders(h, Limit{Count: 1 << 30, Period: time.Second}, LimitResult{Remaining: 0, ResetAfter: 1500 * time.Millisecond})
	for k, want := range map[string]string{"Ratelimit-Limit": "1073741824", "Ratelimit-Remaining": "0", "Ratelimit-Reset": "2"} {
		if got := h[k]; len(got) != 1 || got[0] != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	h.Add("Ratelimit-Limit", "x") // appending must not run into the next header
	if h["Ratelimit-Remaining"][0] != "0" {
		t.Error("headers share a backing array beyond their length")
	}
}
