package rest_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

// BenchmarkGenerateIRN measures the full router on the hot path (a warm
// key cache, limits that do not trigger), without the network: the cost of
// the middleware, the handler and the service. bench/middleware/run.sh
// measures the same over HTTP against a bare handler.
func BenchmarkGenerateIRN(b *testing.B) {
	high := rest.Limit{Count: 1 << 30, Period: time.Second}
	s := newServerWith(b, storetest.SQLite(b), func(o *rest.Options) {
		o.RateLimits = rest.RateLimits{Sandbox: high, Production: high}
	})
	tn := s.tenant("bench")
	const body = `{"invoice_reference":"INV001","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPost, "/api/v2/invoices/irn/generate", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("X-Client-Id", tn.ClientID)
		r.Header.Set("X-Client-Secret", tn.Secret)
		w := httptest.NewRecorder()
		s.h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
}
