// Command irnload sends POST /api/v2/invoices/irn/generate at a fixed rate,
// each request with an invoice reference of its own, and prints the
// latencies. It is open-loop: request i is due at start + i/rate whatever
// the answers before it, and its latency counts from when it was due, so a
// server that falls behind shows in the percentiles instead of slowing the
// load (no coordinated omission). bench/middleware/run.sh runs it at half
// the rate wrk measured.
//
//	irnload -url http://127.0.0.1:19282/api/v2/invoices/irn/generate \
//	  -client-id ... -client-secret ... -rate 2000 -duration 10s
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "irnload:", err)
		os.Exit(1)
	}
}

func run() error {
	target := flag.String("url", "", "the IRN generation URL (required)")
	id := flag.String("client-id", "", "X-Client-Id")
	secret := flag.String("client-secret", "", "X-Client-Secret")
	rate := flag.Float64("rate", 1000, "requests per second")
	duration := flag.Duration("duration", 10*time.Second, "how long to send")
	conns := flag.Int("conns", 64, "connections (and requests in flight at most)")
	prefix := flag.String("prefix", fmt.Sprintf("L%d", time.Now().UnixNano()%1e9), "invoice reference prefix (letters and digits), unique per run")
	flag.Parse()
	if *target == "" || *rate <= 0 || *conns < 1 {
		return errors.New("-url, a positive -rate and -conns are required")
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns, DisableCompression: true,
	}}

	type result struct {
		latency time.Duration
		ok      bool
	}
	due := make(chan time.Time, 1<<16)
	results := make([][]result, *conns)
	var wg sync.WaitGroup
	var seq struct {
		sync.Mutex
		n int
	}
	for w := range *conns {
		wg.Go(func() {
			for at := range due {
				seq.Lock()
				seq.n++
				n := seq.n
				seq.Unlock()
				body := fmt.Sprintf(`{"invoice_reference":"%sN%d","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`, *prefix, n)
				req, _ := http.NewRequest(http.MethodPost, *target, bytes.NewReader([]byte(body)))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Client-Id", *id)
				req.Header.Set("X-Client-Secret", *secret)
				resp, err := client.Do(req)
				ok := err == nil && resp.StatusCode == http.StatusOK
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
				}
				results[w] = append(results[w], result{time.Since(at), ok})
			}
		})
	}
	interval := time.Duration(float64(time.Second) / *rate)
	start := time.Now()
	total := int(duration.Seconds() * *rate)
	for i := range total {
		at := start.Add(time.Duration(i) * interval)
		if d := time.Until(at); d > 0 {
			time.Sleep(d)
		}
		due <- at
	}
	close(due)
	wg.Wait()
	elapsed := time.Since(start)

	var lat []time.Duration
	failed := 0
	for _, rs := range results {
		for _, r := range rs {
			if !r.ok {
				failed++
			}
			lat = append(lat, r.latency)
		}
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	fmt.Printf("%d requests at %.0f/s (achieved %.0f/s), %d failed; latency p50 %v p90 %v p99 %v max %v\n",
		len(lat), *rate, float64(len(lat))/elapsed.Seconds(), failed,
		pct(0.50).Round(10*time.Microsecond), pct(0.90).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond), lat[len(lat)-1].Round(10*time.Microsecond))
	if failed > 0 {
		return fmt.Errorf("%d requests failed", failed)
	}
	return nil
}
