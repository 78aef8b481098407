package nrssandbox_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
)

// BenchmarkConfirm is an authenticated read: key lookup, rate limits and
// one invoice read, on SQLite.
func BenchmarkConfirm(b *testing.B) {
	e := newEnv(b, nrssandbox.Options{BusinessRate: nrssandbox.RateLimit{Count: -1}, IPRate: nrssandbox.RateLimit{Count: -1}})
	_, irn := e.sign(&e.biz, "b2b", "BENCH1")
	req := httptest.NewRequest(http.MethodGet, "/api/v1/invoice/confirm/"+irn, nil)
	req.Header.Set("x-api-key", e.biz.APIKey)
	req.Header.Set("x-api-secret", e.biz.APISecret)
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code, rec.Body)
		}
	}
}

// BenchmarkSign is validate and sign of a fresh B2C invoice: the rules of
// model/nrs and two writes, on SQLite.
func BenchmarkSign(b *testing.B) {
	e := newEnv(b, nrssandbox.Options{BusinessRate: nrssandbox.RateLimit{Count: -1}, IPRate: nrssandbox.RateLimit{Count: -1},
		MaxInvoicesPerBusiness: 1 << 30})
	i := 0
	for b.Loop() {
		i++
		inv, _ := fixture(b, "b2c", e.biz, "BENCH"+strconv.Itoa(i))
		e.must(&e.biz, 201, "POST", "/api/v1/invoice/sign", inv)
	}
}
