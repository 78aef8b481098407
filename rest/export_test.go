package rest

import (
	"net/http"
	"testing"
)

// DieAfterHandler makes the API behave, for the rest of tb, as a process
// that dies after the handler of a request for which die is true answered,
// before the request's Idempotency-Key claim is ended.
func DieAfterHandler(tb testing.TB, die func(*http.Request) bool) {
	dies = die
	tb.Cleanup(func() { dies = nil })
}
