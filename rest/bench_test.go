package rest_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
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

// BenchmarkGenerateIRNNewReference is BenchmarkGenerateIRN with a new
// invoice reference in every request, the real load: each request records
// an IRN. Serial, so every request commits a transaction of its own (the
// worst case of group commit); the Parallel variant lets concurrent
// requests share transactions, as a loaded server does:
//
//	go test -run '^$' -bench 'GenerateIRN' -cpu 1 -count 5 ./rest/
func BenchmarkGenerateIRNNewReference(b *testing.B) {
	benchIRNNewReference(b, false)
}

// BenchmarkGenerateIRNNewReferenceParallel sends new references from
// 32 goroutines per GOMAXPROCS.
func BenchmarkGenerateIRNNewReferenceParallel(b *testing.B) {
	benchIRNNewReference(b, true)
}

func benchIRNNewReference(b *testing.B, parallel bool) {
	high := rest.Limit{Count: 1 << 30, Period: time.Second}
	s := newServerWith(b, storetest.SQLite(b), func(o *rest.Options) {
		o.RateLimits = rest.RateLimits{Sandbox: high, Production: high}
	})
	tn := s.tenant("bench")
	var seq atomic.Int64
	one := func() {
		body := `{"invoice_reference":"B` + strconv.FormatInt(seq.Add(1), 10) +
			`","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`
		r := httptest.NewRequest(http.MethodPost, "/api/v2/invoices/irn/generate", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("X-Client-Id", tn.ClientID)
		r.Header.Set("X-Client-Secret", tn.Secret)
		w := httptest.NewRecorder()
		s.h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Errorf("%d %s", w.Code, w.Body)
		}
	}
	b.ReportAllocs()
	// CPU time per request, which other load on the machine does not
	// inflate as it does ns/op.
	start := cpuTime()
	b.ResetTimer()
	if parallel {
		b.SetParallelism(32)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				one()
			}
		})
	} else {
		for b.Loop() {
			one()
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkRenderPDFRoute renders the shared B2B invoice as a PDF through
// the whole router (authentication, limits, decoding, validation, the QR
// payload encrypted afresh, the PDF): what a render request costs the
// server, without the network. model/render's benchmarks measure the
// drawing alone.
//
//	go test -run '^$' -bench RenderPDFRoute -cpu 1 -count 5 ./rest/
func BenchmarkRenderPDFRoute(b *testing.B) {
	high := rest.Limit{Count: 1 << 30, Period: time.Second}
	s := newServerWith(b, storetest.SQLite(b), func(o *rest.Options) {
		o.RateLimits = rest.RateLimits{Sandbox: high, Production: high}
	})
	tn := s.tenant("bench")
	body, err := json.Marshal(map[string]any{"invoice_type": "B2B", "payload": nrsShaped(loadFixture(b, "invoice-b2b-1.1.json"))})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPost, renderPath, bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/pdf")
		r.Header.Set("X-Client-Id", tn.ClientID)
		r.Header.Set("X-Client-Secret", tn.Secret)
		w := httptest.NewRecorder()
		s.h.ServeHTTP(w, r)
		if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/pdf" {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pdfs/s")
}
