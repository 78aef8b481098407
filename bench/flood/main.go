// Command flood measures what one tenant's flood of certification runs costs
// another tenant, against a running einvoice (normally `einvoice dev`),
// through its REST API only. It
//
//  1. serves an "authority" that never answers, on -hang;
//  2. signs a victim up with a sandbox project and times -victim-runs runs
//     one after another (POST to the first GET showing the run over);
//  3. signs an attacker up with a production project whose base_url is the
//     hanging authority, and sends -runs starts as fast as -concurrency
//     clients can, counting the answers by status;
//  4. times the victim's runs again while the flood's runs hang.
//
// The server must accept the hanging authority as a production host: start
// it with EINVOICE_NRS_HOSTS=http://<-hang> (einvoice dev allows local
// addresses by default).
//
//	EINVOICE_NRS_HOSTS=http://127.0.0.1:18590 go run ./cmd/einvoice dev --addr 127.0.0.1:18580 ...
//	go run ./bench/flood -base http://127.0.0.1:18580 -hang 127.0.0.1:18590
package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "flood bench:", err)
		os.Exit(1)
	}
}

type client struct {
	base string
	http *http.Client
}

type key struct{ id, secret string }

func run() error {
	base := flag.String("base", "http://127.0.0.1:8080", "einvoice base URL")
	hangAddr := flag.String("hang", "127.0.0.1:18590", "address of the authority that never answers")
	runs := flag.Int("runs", 210, "runs the attacker starts")
	concurrency := flag.Int("concurrency", 32, "clients sending the attacker's starts")
	victimRuns := flag.Int("victim-runs", 5, "runs the victim times, before and during the flood")
	perRun := flag.Duration("victim-timeout", 5*time.Minute, "give up on one victim run after this long")
	flag.Parse()

	ln, err := net.Listen("tcp", *hangAddr)
	if err != nil {
		return err
	}
	release := make(chan struct{})
	go func() {
		_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}))
	}()
	defer close(release)

	c := &client{base: *base, http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: time.Minute}}
	ctx := context.Background()
	stamp := strconv.FormatInt(time.Now().UnixNano(), 36)

	victimToken, victimOrg, err := c.signup(ctx, "victim"+stamp)
	if err != nil {
		return err
	}
	victimProject, err := c.project(ctx, victimToken, victimOrg, "sandbox")
	if err != nil {
		return err
	}
	vk, err := c.key(ctx, victimToken, victimProject)
	if err != nil {
		return err
	}
	body := `{"invoice_type":"B2B","issue_date":"` + time.Now().UTC().Format(time.DateOnly) + `"}`
	before, err := c.timeRuns(ctx, vk, body, *victimRuns, *perRun)
	if err != nil {
		return fmt.Errorf("victim before the flood: %w", err)
	}
	fmt.Printf("victim alone: %d runs, median %s, max %s\n", len(before), ms(median(before)), ms(slices.Max(before)))

	attackerToken, attackerOrg, err := c.signup(ctx, "attacker"+stamp)
	if err != nil {
		return err
	}
	attackerProject, err := c.project(ctx, attackerToken, attackerOrg, "production")
	if err != nil {
		return err
	}
	if err := c.call(ctx, "PUT", "/api/v2/projects/"+attackerProject+"/authority", nil, attackerToken, map[string]any{
		"tax_authority_code": "NRS", "business_id": "0a1b2c3d-0000-4000-8000-000000000001", "service_id": "94ND90NR",
		"public_key": testPublicKey, "certificate": base64.StdEncoding.EncodeToString([]byte("certificate")),
		"api_key": "k", "api_secret": "s", "base_url": "http://" + *hangAddr,
	}, nil); err != nil {
		return fmt.Errorf("attacker's authority: %w", err)
	}
	var keys []key
	for range 2 { // two keys: the per-key rate limit is not what is measured
		k, err := c.key(ctx, attackerToken, attackerProject)
		if err != nil {
			return err
		}
		keys = append(keys, k)
	}

	began := time.Now()
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		counts = map[int]int{}
		next   = make(chan int)
	)
	for range *concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				status, _, err := c.send(ctx, "POST", "/api/v2/certification/nrs/smoke", &keys[i%len(keys)], "", json.RawMessage(body))
				if err != nil {
					status = -1
				}
				mu.Lock()
				counts[status]++
				mu.Unlock()
			}
		}()
	}
	for i := range *runs {
		next <- i
	}
	close(next)
	wg.Wait()
	fmt.Printf("flood: %d starts in %s, answers by status %v\n", *runs, ms(time.Since(began)), counts)

	during, err := c.timeRuns(ctx, vk, body, *victimRuns, *perRun)
	if err != nil {
		return fmt.Errorf("victim during the flood: %w", err)
	}
	fmt.Printf("victim during the flood: %d runs, median %s, max %s\n", len(during), ms(median(during)), ms(slices.Max(during)))
	return nil
}

func ms(d time.Duration) string { return d.Round(time.Millisecond).String() }

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// timeRuns starts n runs one after another and times each until it is
// over.
func (c *client) timeRuns(ctx context.Context, k key, body string, n int, timeout time.Duration) ([]time.Duration, error) {
	var out []time.Duration
	for range n {
		began := time.Now()
		var started struct {
			RunID string `json:"run_id"`
		}
		if err := c.call(ctx, "POST", "/api/v2/certification/nrs/smoke", &k, "", json.RawMessage(body), &started); err != nil {
			return nil, err
		}
		for {
			var r struct {
				Status string `json:"status"`
			}
			if err := c.call(ctx, "GET", "/api/v2/certification/runs/"+started.RunID, &k, "", nil, &r); err != nil {
				return nil, err
			}
			if r.Status == "passed" || r.Status == "failed" || r.Status == "cancelled" {
				if r.Status != "passed" {
					return nil, fmt.Errorf("run %s ended %s", started.RunID, r.Status)
				}
				break
			}
			if time.Since(began) > timeout {
				return nil, fmt.Errorf("run %s not over after %s", started.RunID, timeout)
			}
			time.Sleep(20 * time.Millisecond)
		}
		out = append(out, time.Since(began))
	}
	return out, nil
}

func (c *client) signup(ctx context.Context, slug string) (token, org string, err error) {
	var su struct {
		AccessToken  string `json:"access_token"`
		Organization struct {
			ID string `json:"id"`
		} `json:"organization"`
	}
	err = c.call(ctx, "POST", "/api/v2/auth/signup", nil, "", map[string]any{
		"email": slug + "@example.com", "password": "correct horse battery staple", "organization_name": slug, "organization_slug": slug,
	}, &su)
	return su.AccessToken, su.Organization.ID, err
}

func (c *client) project(ctx context.Context, token, org, env string) (string, error) {
	var pr struct {
		ID string `json:"id"`
	}
	err := c.call(ctx, "POST", "/api/v2/projects", nil, token, map[string]any{"organization_id": org, "name": "flood bench", "environment": env}, &pr)
	return pr.ID, err
}

func (c *client) key(ctx context.Context, token, project string) (key, error) {
	var k struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	err := c.call(ctx, "POST", "/api/v2/projects/"+project+"/keys", nil, token, map[string]any{"key_name": "bench"}, &k)
	return key{k.ClientID, k.ClientSecret}, err
}

// call sends one request, waiting out 429 answers, and decodes a 200 into
// out (when not nil).
func (c *client) call(ctx context.Context, method, path string, k *key, token string, in, out any) error {
	for {
		status, body, err := c.send(ctx, method, path, k, token, in)
		if err != nil {
			return err
		}
		if status == http.StatusTooManyRequests {
			time.Sleep(time.Second)
			continue
		}
		if status != http.StatusOK {
			return fmt.Errorf("%s %s: HTTP %d: %s", method, path, status, body)
		}
		if out == nil {
			return nil
		}
		return json.Unmarshal(body, out)
	}
}

func (c *client) send(ctx context.Context, method, path string, k *key, token string, in any) (int, []byte, error) {
	var raw []byte
	if in != nil {
		var err error
		if raw, err = json.Marshal(in); err != nil {
			return 0, nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(raw))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if k != nil {
		req.Header.Set("X-Client-Id", k.id)
		req.Header.Set("X-Client-Secret", k.secret)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, body, err
}

// testPublicKey is the throwaway RSA-2048 public key of
// testdata/keys/crypto_keys.txt (base64 of its PEM), for the attacker's
// authority settings.
const testPublicKey = "LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0KTUlJQklqQU5CZ2txaGtpRzl3MEJBUUVGQUFPQ0FROEFNSUlCQ2dLQ0FRRUFwOUtnQjNzNTA1VFUzSnlqYjJhZAo3dWFzOTNqUzRkaHBmTEc5cEVNUyt5NmFtVUhxTTV2OUQwNEFKZUVYLzFCTkZqZzNySWFvcFo5SFZ6dTJaazZnCnhpaDhKbHFneFZXZU9kOFhEREZuQ0tSRWlobzhnOTRVRVhxb1IyVnJwRzNiVkt5VGRyMDFTTjVsdDRYQ3lFUmgKYWwyZmRwZUxTUm10Q3hMbURERFM5Z1kxRGU2NzV4WTZlV0N3WXdPUU0rOVZyejduYzQrRTkwYzBFSnF1SXp4Swp1Q2JFMjBDVXRzOEQ1UHV3WjBoMzRrT1oyMWt0VDRBb2xRQ01HbTdtQlFoSTE0SFpyOEhjK0dmNDZFb2QvdDUwCmw2enRYQjFYNVRidm1Bb2J6MDdwNTRpRGVKTExaVDZNVUJ4OFlQR0FpbTZLYVNyNFNta3hZS3YxOHdwclh5eTEKT1FJREFRQUIKLS0tLS1FTkQgUFVCTElDIEtFWS0tLS0tCg=="
