// Command webhooks measures webhook delivery against a running einvoice
// (normally `einvoice dev`, which runs the worker and the dispatcher in
// process) through its REST API: it signs a user up, creates a sandbox
// project, an API key and a webhook endpoint pointing at a receiver it
// serves on loopback, then makes -events state changes (key rotations,
// each an api_key.rotated event) from -concurrency goroutines and waits
// until every event has arrived, verified with the Go SDK's VerifyWebhook.
// It prints the events delivered per second (first change to last
// arrival) and the delay from each change (the event's created_at) to its
// arrival: p50, p99 and max.
//
//	go run ./bench/webhooks -base http://127.0.0.1:8080 -listen 127.0.0.1:19301
package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/einvoice-ng/einvoice/model/webhooks"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "webhooks bench:", err)
		os.Exit(1)
	}
}

type receiver struct {
	secret atomic.Value
	mu     sync.Mutex
	delays map[string]time.Duration
	last   time.Time
	bad    int
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	body, _ := io.ReadAll(r.Body)
	sec, _ := rc.secret.Load().(string)
	var ev struct {
		ID        string    `json:"id"`
		Type      string    `json:"type"`
		CreatedAt time.Time `json:"created_at"`
	}
	err := verifySignature(body, r.Header.Get("Einvoice-Signature"), sec, at)
	if err == nil {
		err = json.Unmarshal(body, &ev)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if err != nil {
		rc.bad++
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if _, dup := rc.delays[ev.ID]; !dup && ev.Type == "api_key.rotated" {
		rc.delays[ev.ID] = at.Sub(ev.CreatedAt)
		rc.last = at
	}
	w.WriteHeader(http.StatusNoContent)
}

func (rc *receiver) count() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.delays)
}

func run() error {
	base := flag.String("base", "http://127.0.0.1:8080", "einvoice base URL")
	listen := flag.String("listen", "127.0.0.1:19301", "address of the receiver")
	n := flag.Int("events", 2000, "state changes (key rotations) to make")
	conc := flag.Int("concurrency", 8, "goroutines making them")
	timeout := flag.Duration("timeout", 10*time.Minute, "give up after this long")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()

	rc := &receiver{delays: map[string]time.Duration{}}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: rc, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	c := &http.Client{Timeout: 30 * time.Second}
	slug := fmt.Sprintf("wh%d", time.Now().UnixNano()%1e9)
	var su struct {
		AccessToken  string `json:"access_token"`
		Organization struct {
			ID string `json:"id"`
		} `json:"organization"`
	}
	if err := call(ctx, c, *base, "POST", "/api/v2/auth/signup", "", map[string]any{"email": slug + "@example.com",
		"password": "correct horse battery", "organization_name": "Bench " + slug, "organization_slug": slug}, &su); err != nil {
		return err
	}
	tok := su.AccessToken
	var pr struct{ ID string }
	if err := call(ctx, c, *base, "POST", "/api/v2/projects", tok, map[string]any{"organization_id": su.Organization.ID, "name": "bench"}, &pr); err != nil {
		return err
	}
	var ep struct{ Secret string }
	if err := call(ctx, c, *base, "POST", "/api/v2/projects/"+pr.ID+"/webhook-endpoints", tok,
		map[string]any{"url": "http://" + ln.Addr().String() + "/hooks", "event_types": []string{"api_key.rotated"}}, &ep); err != nil {
		return err
	}
	rc.secret.Store(ep.Secret)
	keys := make([]string, *conc)
	for i := range keys {
		var k struct{ ID string }
		if err := call(ctx, c, *base, "POST", "/api/v2/projects/"+pr.ID+"/keys", tok, map[string]any{"key_name": fmt.Sprintf("bench %d", i)}, &k); err != nil {
			return err
		}
		keys[i] = k.ID
	}

	began := time.Now()
	var wg sync.WaitGroup
	var next atomic.Int64
	errs := make(chan error, *conc)
	for i := range *conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(*n) {
				if err := call(ctx, c, *base, "POST", "/api/v2/projects/"+pr.ID+"/keys/"+keys[i]+"/rotate", tok, nil, nil); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	made := time.Since(began)
	close(errs)
	for err := range errs {
		return err
	}
	for rc.count() < *n {
		if ctx.Err() != nil {
			return fmt.Errorf("only %d of %d events arrived", rc.count(), *n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	total := rc.last.Sub(began)
	ds := make([]time.Duration, 0, len(rc.delays))
	for _, d := range rc.delays {
		ds = append(ds, d)
	}
	slices.Sort(ds)
	pct := func(p float64) time.Duration { return ds[min(len(ds)-1, int(p*float64(len(ds))))] }
	fmt.Printf("events: %d changes made in %s (%.0f/s); all delivered after %s: %.0f events/s\n",
		*n, made.Round(time.Millisecond), float64(*n)/made.Seconds(), total.Round(time.Millisecond), float64(*n)/total.Seconds())
	fmt.Printf("delay change → delivery: p50 %s, p99 %s, max %s; bad signatures %d\n",
		pct(0.50).Round(time.Millisecond), pct(0.99).Round(time.Millisecond), ds[len(ds)-1].Round(time.Millisecond), rc.bad)
	return nil
}

func call(ctx context.Context, c *http.Client, base, method, path, token string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, _ := json.Marshal(in)
		body = bytes.NewReader(b)
	}
	for {
		req, err := http.NewRequestWithContext(ctx, method, base+path, body)
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := c.Do(req)
		if err != nil {
			return err
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode == http.StatusTooManyRequests {
			time.Sleep(200 * time.Millisecond)
			if in != nil {
				bb, _ := json.Marshal(in)
				body = bytes.NewReader(bb)
			}
			continue
		}
		if res.StatusCode != http.StatusOK {
			return errors.New(method + " " + path + ": " + res.Status + " " + string(b))
		}
		if out != nil {
			return json.Unmarshal(b, out)
		}
		return nil
	}
}

// verifySignature checks an Einvoice-Signature header the way receivers
// do (the SDK's VerifyWebhook, a module of its own): one of its v1 values
// is the signature of the body under secret at its t, and t is within 5
// minutes of now.
func verifySignature(body []byte, header, secret string, now time.Time) error {
	var (
		ts  int64
		v1s []string
	)
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return fmt.Errorf("signature timestamp %q", v)
			}
			ts = n
		case "v1":
			v1s = append(v1s, v)
		}
	}
	if ts == 0 || len(v1s) == 0 {
		return fmt.Errorf("signature header %q malformed", header)
	}
	if d := now.Sub(time.Unix(ts, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return fmt.Errorf("signature timestamp %d outside the tolerance", ts)
	}
	_, want, _ := strings.Cut(webhooks.Sign(time.Unix(ts, 0), body, secret), ",v1=")
	for _, v := range v1s {
		if hmac.Equal([]byte(v), []byte(want)) {
			return nil
		}
	}
	return fmt.Errorf("no signature matches the secret")
}
