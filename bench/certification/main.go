// Command certification measures certification runs against a running
// einvoice (normally `einvoice dev`) through its REST API only: it signs a
// user up, creates a sandbox project with API keys, then
//
//  1. starts -runs runs one after another and times each from the moment
//     the POST is sent to the first GET that shows the run passed, polling
//     GET /api/v2/certification/runs/{id} every -poll; it prints the median,
//     the 90th percentile, the minimum and the maximum;
//  2. starts -concurrent runs at once and waits until every one of them is
//     over, polling each every -concurrent-poll; it prints the total time,
//     how many passed and how many did not (lost or failed).
//
// Runs are spread over -keys API keys so that the per-key rate limit does
// not throttle the polling; a 429 is waited out as its Retry-After says.
//
//	go run ./bench/certification -base http://127.0.0.1:8080
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "certification bench:", err)
		os.Exit(1)
	}
}

type bench struct {
	base string
	http *http.Client
}

type key struct{ id, secret string }

func run() error {
	base := flag.String("base", "http://127.0.0.1:8080", "einvoice base URL")
	runs := flag.Int("runs", 21, "sequential runs timed for the median")
	concurrent := flag.Int("concurrent", 100, "runs started at once")
	kind := flag.String("type", "B2B", "invoice_type of the runs: B2B, B2C or B2G")
	poll := flag.Duration("poll", 20*time.Millisecond, "poll interval of a sequential run")
	cpoll := flag.Duration("concurrent-poll", 250*time.Millisecond, "poll interval of each concurrent run")
	nkeys := flag.Int("keys", 20, "API keys the runs are spread over")
	timeout := flag.Duration("timeout", 10*time.Minute, "give up after this long")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()

	b := &bench{base: *base, http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: time.Minute}}
	keys, err := b.setup(ctx, *nkeys)
	if err != nil {
		return err
	}
	body := `{"invoice_type":"` + *kind + `","issue_date":"` + time.Now().UTC().Format(time.DateOnly) + `"}`

	if *runs > 0 {
		var times []time.Duration
		for i := 0; i < *runs; i++ {
			k := keys[i%len(keys)]
			began := time.Now()
			status, err := b.runOne(ctx, k, body, *poll, nil)
			if err != nil {
				return err
			}
			if status != "passed" {
				return fmt.Errorf("sequential run %d ended %s", i, status)
			}
			times = append(times, time.Since(began))
		}
		slices.Sort(times)
		fmt.Printf("sequential %s runs: %d, median %s, p90 %s, min %s, max %s (poll every %s)\n", *kind, len(times),
			ms(times[len(times)/2]), ms(times[len(times)*9/10]), ms(times[0]), ms(times[len(times)-1]), *poll)
	}

	if *concurrent > 0 {
		began := time.Now()
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			counts  = map[string]int{}
			slowest time.Duration
			posted  time.Duration
		)
		for i := 0; i < *concurrent; i++ {
			wg.Add(1)
			go func(k key) {
				defer wg.Done()
				status, err := b.runOne(ctx, k, body, *cpoll, func() {
					mu.Lock()
					posted = max(posted, time.Since(began))
					mu.Unlock()
				})
				if err != nil {
					status = "error: " + err.Error()
				}
				mu.Lock()
				counts[status]++
				slowest = max(slowest, time.Since(began))
				mu.Unlock()
			}(keys[i%len(keys)])
		}
		wg.Wait()
		fmt.Printf("concurrent %s runs: %d started at once (every POST answered after %s), all over after %s (poll every %s): %v\n",
			*kind, *concurrent, ms(posted), ms(slowest), *cpoll, counts)
		if counts["passed"] != *concurrent {
			return errors.New("not every concurrent run passed")
		}
	}
	return nil
}

func ms(d time.Duration) string { return d.Round(time.Millisecond).String() }

// setup signs a user up and creates a sandbox project with n API keys.
func (b *bench) setup(ctx context.Context, n int) ([]key, error) {
	slug := "bench" + strconv.FormatInt(time.Now().UnixNano(), 36)
	var su struct {
		AccessToken  string `json:"access_token"`
		Organization struct {
			ID string `json:"id"`
		} `json:"organization"`
	}
	if err := b.call(ctx, "POST", "/api/v2/auth/signup", nil, "", map[string]any{
		"email": slug + "@example.com", "password": "correct horse battery staple", "organization_name": slug, "organization_slug": slug,
	}, &su); err != nil {
		return nil, fmt.Errorf("signup: %w", err)
	}
	var pr struct {
		ID string `json:"id"`
	}
	if err := b.call(ctx, "POST", "/api/v2/projects", nil, su.AccessToken, map[string]any{
		"organization_id": su.Organization.ID, "name": "certification bench", "environment": "sandbox",
	}, &pr); err != nil {
		return nil, fmt.Errorf("create project: %w", err)
	}
	keys := make([]key, 0, n)
	for i := 0; i < n; i++ {
		var k struct {
			ClientID     string `json:"client_id"`
			ClientSecret string `json:"client_secret"`
		}
		if err := b.call(ctx, "POST", "/api/v2/projects/"+pr.ID+"/keys", nil, su.AccessToken,
			map[string]any{"key_name": "bench " + strconv.Itoa(i)}, &k); err != nil {
			return nil, fmt.Errorf("create key: %w", err)
		}
		keys = append(keys, key{k.ClientID, k.ClientSecret})
	}
	return keys, nil
}

// runOne starts a run and polls it until it is over; it returns its status.
// posted, when set, is called once the start is answered.
func (b *bench) runOne(ctx context.Context, k key, body string, poll time.Duration, posted func()) (string, error) {
	var started struct {
		RunID string `json:"run_id"`
	}
	if err := b.call(ctx, "POST", "/api/v2/certification/nrs/smoke", &k, "", json.RawMessage(body), &started); err != nil {
		return "", fmt.Errorf("start: %w", err)
	}
	if posted != nil {
		posted()
	}
	for {
		var r struct {
			Status string `json:"status"`
		}
		if err := b.call(ctx, "GET", "/api/v2/certification/runs/"+started.RunID, &k, "", nil, &r); err != nil {
			return "", fmt.Errorf("run %s: %w", started.RunID, err)
		}
		switch r.Status {
		case "passed", "failed", "cancelled":
			return r.Status, nil
		}
		select {
		case <-ctx.Done():
			return "lost", nil
		case <-time.After(poll):
		}
	}
}

// call sends one request, waiting out 429 answers, and decodes a 200.
func (b *bench) call(ctx context.Context, method, path string, k *key, token string, in, out any) error {
	var raw []byte
	if in != nil {
		var err error
		if raw, err = json.Marshal(in); err != nil {
			return err
		}
	}
	for {
		req, err := http.NewRequestWithContext(ctx, method, b.base+path, bytes.NewReader(raw))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		if k != nil {
			req.Header.Set("X-Client-Id", k.id)
			req.Header.Set("X-Client-Secret", k.secret)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := b.http.Do(req)
		if err != nil {
			return err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			wait := time.Second
			if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
				wait = time.Duration(s) * time.Second
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
			continue
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, body)
		}
		return json.Unmarshal(body, out)
	}
}
