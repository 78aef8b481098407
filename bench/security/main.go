// Command security replays the GraphQL and authentication attacks of the
// security review against a running einvoice (normally `einvoice dev` on a
// fresh data directory) and reports what each cost the server process: CPU
// seconds (user plus system, from /proc/<pid>/stat) and memory (resident
// set now and its peak, from /proc/<pid>/status), read before and after the
// attack. It runs on the server's own machine, over loopback.
//
//	go run ./bench/security -base http://127.0.0.1:18400 -pid $(pgrep -n einvoice) -attack typename
//
// Attacks (-attack):
//
//   - typename: one anonymous POST /graphql of `{ __typename __typename … }`
//     with -n repeats (the quadratic validation of repeated fields);
//   - login-aliases: signs a victim up, then sends -requests anonymous
//     GraphQL documents of -n `login` aliases each, every alias guessing
//     another password and one of them the right one; it reports how many
//     guesses the server answered and whether one revealed the password;
//   - subscriptions: signs a user up, starts a slow certification run
//     (an SBXSLOW invoice, which the NRS sandbox stand-in answers late) and
//     subscribes to it -n times on one WebSocket for -hold, reporting how
//     many subscriptions the server accepted;
//   - alias-conflicts: sends -requests GraphQL documents (-concurrency at a
//     time) of -n triples `a: __typename a: apiKeyScopes a: auditActions`,
//     fields that share one response name but differ, which the
//     overlapping-fields rule reports pairwise (with -pairs, -n pairs
//     `a: __typename a: apiKeyScopes`); with -auth it signs a user
//     up and sends them with its token. It reports the HTTP statuses, the
//     errors answered and the bytes of the answers.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "security bench:", err)
		os.Exit(1)
	}
}

type bench struct {
	base string
	http *http.Client
	pid  int
}

func run() error {
	base := flag.String("base", "http://127.0.0.1:18400", "einvoice base URL (loopback)")
	pid := flag.Int("pid", 0, "pid of the server process, to read its CPU and memory from /proc")
	attack := flag.String("attack", "typename", "typename, login-aliases, subscriptions or alias-conflicts")
	authenticated := flag.Bool("auth", false, "alias-conflicts: send the documents with a fresh user's token")
	pairs := flag.Bool("pairs", false, "alias-conflicts: pairs `a: __typename a: apiKeyScopes` instead of triples")
	n := flag.Int("n", 10000, "typename: repeats; login-aliases: aliases per request; subscriptions: subscriptions; alias-conflicts: triples per request")
	requests := flag.Int("requests", 60, "login-aliases, alias-conflicts: requests sent")
	concurrency := flag.Int("concurrency", 10, "login-aliases, alias-conflicts: requests in flight at once")
	hold := flag.Duration("hold", 10*time.Second, "subscriptions: how long the subscriptions are held")
	fixture := flag.String("fixture", "testdata/fixtures/invoice-b2b-1.1.json", "subscriptions: the invoice the slow run certifies")
	timeout := flag.Duration("timeout", 5*time.Minute, "give up after this long")
	flag.Parse()
	if *pid == 0 {
		return errors.New("-pid is required")
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	b := &bench{base: strings.TrimRight(*base, "/"), http: &http.Client{Timeout: 5 * time.Minute}, pid: *pid}

	before, err := b.stats()
	if err != nil {
		return err
	}
	began := time.Now()
	var outcome string
	switch *attack {
	case "typename":
		outcome, err = b.typename(ctx, *n)
	case "login-aliases":
		outcome, err = b.loginAliases(ctx, *requests, *n, *concurrency)
	case "subscriptions":
		outcome, err = b.subscriptions(ctx, *n, *hold, *fixture)
	case "alias-conflicts":
		token := ""
		if *authenticated {
			if token, _, err = b.signup(ctx, "alias-"+strconv.FormatUint(rand.Uint64(), 36)+"@example.com", "correct horse battery"); err != nil {
				return err
			}
			if before, err = b.stats(); err != nil { // the signup is not the attack
				return err
			}
		}
		outcome, err = b.aliasConflicts(ctx, token, *n, *requests, *concurrency, *pairs)
	default:
		return fmt.Errorf("unknown attack %q", *attack)
	}
	if err != nil {
		return err
	}
	after, err := b.stats()
	if err != nil {
		return err
	}
	fmt.Printf("attack %s: %s\n", *attack, outcome)
	fmt.Printf("  wall %.2f s, server CPU %.2f s (user+system), RSS %d -> %d MiB, peak RSS %d -> %d MiB\n",
		time.Since(began).Seconds(), after.cpu-before.cpu, before.rss>>20, after.rss>>20, before.hwm>>20, after.hwm>>20)
	return nil
}

// procStats is a process's CPU time and memory.
type procStats struct {
	cpu      float64 // seconds, user plus system
	rss, hwm int64   // bytes: resident set now and its peak
}

// stats reads the server's /proc entries. Clock ticks are 100 a second on
// Linux (USER_HZ).
func (b *bench) stats() (procStats, error) {
	var s procStats
	raw, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(b.pid), "stat"))
	if err != nil {
		return s, err
	}
	// Fields after the command name, which is in parentheses.
	rest := string(raw[bytes.LastIndexByte(raw, ')')+2:])
	f := strings.Fields(rest)
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	s.cpu = (utime + stime) / 100
	status, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(b.pid), "status"))
	if err != nil {
		return s, err
	}
	for _, line := range strings.Split(string(status), "\n") {
		name, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch name {
		case "VmRSS":
			s.rss = kb << 10
		case "VmHWM":
			s.hwm = kb << 10
		}
	}
	return s, nil
}

// gqlResponse is a GraphQL answer.
type gqlResponse struct {
	Data   map[string]json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

func (b *bench) graphql(ctx context.Context, token, query string, vars map[string]any) (int, *gqlResponse, error) {
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, err := http.NewRequestWithContext(ctx, "POST", b.base+"/graphql", bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := b.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := new(gqlResponse)
	if err := json.Unmarshal(raw, out); err != nil {
		return res.StatusCode, nil, fmt.Errorf("graphql answer %d: %s", res.StatusCode, raw)
	}
	return res.StatusCode, out, nil
}

func (b *bench) typename(ctx context.Context, n int) (string, error) {
	q := "{" + strings.Repeat(" __typename", n) + " }"
	began := time.Now()
	status, res, err := b.graphql(ctx, "", q, nil)
	if err != nil {
		return "", err
	}
	outcome := fmt.Sprintf("%d repeats (%d bytes): HTTP %d in %.2f s", n, len(q), status, time.Since(began).Seconds())
	if len(res.Errors) > 0 {
		outcome += fmt.Sprintf(", error %q (%v)", res.Errors[0].Message, res.Errors[0].Extensions["code"])
	}
	return outcome, nil
}

// signup makes a user with an organization over REST and returns its token
// and organization id.
func (b *bench) signup(ctx context.Context, email, password string) (string, string, error) {
	slug := "s" + strconv.FormatUint(rand.Uint64(), 36)
	var out struct {
		AccessToken  string `json:"access_token"`
		Organization struct {
			ID string `json:"id"`
		} `json:"organization"`
	}
	err := b.rest(ctx, "POST", "/api/v2/auth/signup", "", nil, map[string]any{
		"email": email, "password": password, "organization_name": "Security bench", "organization_slug": slug,
	}, &out)
	return out.AccessToken, out.Organization.ID, err
}

func (b *bench) rest(ctx context.Context, method, path, token string, header map[string]string, in, out any) error {
	body, _ := json.Marshal(in)
	req, err := http.NewRequestWithContext(ctx, method, b.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := b.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, raw)
	}
	return json.Unmarshal(raw, out)
}

func (b *bench) loginAliases(ctx context.Context, requests, aliases, concurrency int) (string, error) {
	email := "victim-" + strconv.FormatUint(rand.Uint64(), 36) + "@example.com"
	password := "the right password " + strconv.Itoa(rand.IntN(1000))
	if _, _, err := b.signup(ctx, email, password); err != nil {
		return "", err
	}
	right := rand.IntN(aliases)
	var mu sync.Mutex
	var answered, refused, found int
	statuses := map[int]int{}
	sem := make(chan struct{}, max(1, concurrency))
	var wg sync.WaitGroup
	var firstErr error
	for r := 0; r < requests; r++ {
		var q strings.Builder
		q.WriteString("mutation {")
		for i := 0; i < aliases; i++ {
			guess := "guess " + strconv.Itoa(r) + "-" + strconv.Itoa(i)
			if r == 0 && i == right {
				guess = password
			}
			g, _ := json.Marshal(guess)
			em, _ := json.Marshal(email)
			fmt.Fprintf(&q, " a%d: login(input: {email: %s, password: %s}) { accessToken }", i, em, g)
		}
		q.WriteString(" }")
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			status, res, err := b.graphql(ctx, "", q.String(), nil)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				firstErr = err
				return
			}
			statuses[status]++
			if status != http.StatusOK {
				refused += aliases // refused by the anonymous request limit
				return
			}
			// A failed login nulls the whole answer (AuthPayload! is
			// non-null), but every failing alias has its own error: an
			// alias without one is the right password.
			failed := map[string]bool{}
			for _, e := range res.Errors {
				if len(e.Path) == 0 {
					continue
				}
				alias := fmt.Sprint(e.Path[0])
				failed[alias] = true
				if e.Extensions["code"] == "unauthenticated" {
					answered++
				} else {
					refused++
				}
			}
			if len(res.Errors) > 0 && len(failed) == 0 {
				refused += aliases // refused as a whole, before any login ran
				return
			}
			for i := 0; i < aliases; i++ {
				alias := "a" + strconv.Itoa(i)
				if !failed[alias] && len(res.Data[alias]) > 0 && string(res.Data[alias]) != "null" {
					answered++
					found++
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return "", firstErr
	}
	return fmt.Sprintf("%d requests of %d aliases (%d at once): %d guesses answered, %d refused, password revealed by %d alias(es), HTTP statuses %v",
		requests, aliases, concurrency, answered, refused, found, statuses), nil
}

func (b *bench) subscriptions(ctx context.Context, n int, hold time.Duration, fixture string) (string, error) {
	token, org, err := b.signup(ctx, "subs-"+strconv.FormatUint(rand.Uint64(), 36)+"@example.com", "correct horse battery")
	if err != nil {
		return "", err
	}
	var pr struct {
		ID string `json:"id"`
	}
	if err := b.rest(ctx, "POST", "/api/v2/projects", token, nil, map[string]any{
		"organization_id": org, "name": "Subscriptions", "environment": "sandbox",
	}, &pr); err != nil {
		return "", err
	}
	var key struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	if err := b.rest(ctx, "POST", "/api/v2/projects/"+pr.ID+"/keys", token, nil, map[string]any{"key_name": "bench"}, &key); err != nil {
		return "", err
	}
	raw, err := os.ReadFile(fixture)
	if err != nil {
		return "", err
	}
	var payload map[string]any
	if err := json.Unmarshal(raw, &payload); err != nil {
		return "", err
	}
	// A slow reference: the stand-in answers every call naming the IRN late,
	// so the run stays unfinished while the subscriptions watch it.
	payload["irn"] = "SBXSLOW" + strconv.Itoa(rand.IntN(1e8)) + "-00000000-20260315"
	var started struct {
		RunID string `json:"run_id"`
	}
	if err := b.rest(ctx, "POST", "/api/v2/certification/nrs/smoke", "", map[string]string{
		"X-Client-Id": key.ClientID, "X-Client-Secret": key.ClientSecret,
	}, map[string]any{"invoice_type": "B2B", "issue_date": "2026-03-15", "invoice_payload": payload}, &started); err != nil {
		return "", err
	}

	wsURL := "ws" + strings.TrimPrefix(b.base, "http") + "/graphql"
	conn, _, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		return "", err
	}
	defer conn.CloseNow()
	conn.SetReadLimit(16 << 20)
	send := func(v any) error {
		b, _ := json.Marshal(v)
		return conn.Write(ctx, websocket.MessageText, b)
	}
	if err := send(map[string]any{"type": "connection_init", "payload": map[string]any{"Authorization": "Bearer " + token}}); err != nil {
		return "", err
	}
	for {
		_, m, err := conn.Read(ctx)
		if err != nil {
			return "", err
		}
		if strings.Contains(string(m), `"connection_ack"`) {
			break
		}
	}
	query := `subscription($id: ID!) { certificationRunUpdated(id: $id) { id status steps { name status } } }`
	for i := 0; i < n; i++ {
		if err := send(map[string]any{"id": strconv.Itoa(i), "type": "subscribe", "payload": map[string]any{
			"query": query, "variables": map[string]any{"id": started.RunID},
		}}); err != nil {
			return "", err
		}
	}
	// Read until hold ends: count the subscriptions that got data and those
	// refused with an error.
	hctx, cancel := context.WithTimeout(ctx, hold)
	defer cancel()
	accepted, refused := map[string]bool{}, map[string]string{}
	lastStatus := ""
	for {
		_, m, err := conn.Read(hctx)
		if err != nil {
			break
		}
		var msg struct {
			ID      string          `json:"id"`
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		}
		_ = json.Unmarshal(m, &msg)
		switch msg.Type {
		case "next":
			var r gqlResponse
			_ = json.Unmarshal(msg.Payload, &r)
			if len(r.Errors) > 0 && r.Data["certificationRunUpdated"] == nil {
				refused[msg.ID] = fmt.Sprint(r.Errors[0].Extensions["code"])
			} else {
				accepted[msg.ID] = true
				var run struct {
					Status string `json:"status"`
				}
				_ = json.Unmarshal(r.Data["certificationRunUpdated"], &run)
				lastStatus = run.Status
			}
		case "error":
			refused[msg.ID] = string(msg.Payload)
		}
	}
	codes := map[string]int{}
	for _, c := range refused {
		codes[c]++
	}
	return fmt.Sprintf("%d subscriptions on one socket held %s: %d accepted, %d refused %v; the run was %s at the last update",
		n, hold, len(accepted), len(refused), codes, lastStatus), nil
}

// aliasConflicts sends requests documents of n conflicting alias triples,
// concurrency at a time, and sums what came back.
func (b *bench) aliasConflicts(ctx context.Context, token string, n, requests, concurrency int, pairs bool) (string, error) {
	shape, unit := " a: __typename a: apiKeyScopes a: auditActions", "triples"
	if pairs {
		shape, unit = " a: __typename a: apiKeyScopes", "pairs"
	}
	q := "{" + strings.Repeat(shape, n) + " }"
	body, _ := json.Marshal(map[string]any{"query": q})
	var (
		mu                  sync.Mutex
		wg                  sync.WaitGroup
		firstErr            error
		errorsN, bytesN     int
		maxErrors, maxBytes int
	)
	statuses := map[int]int{}
	sem := make(chan struct{}, max(1, concurrency))
	for i := 0; i < requests; i++ {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			req, err := http.NewRequestWithContext(ctx, "POST", b.base+"/graphql", bytes.NewReader(body))
			if err == nil {
				req.Header.Set("Content-Type", "application/json")
				if token != "" {
					req.Header.Set("Authorization", "Bearer "+token)
				}
				var res *http.Response
				if res, err = b.http.Do(req); err == nil {
					raw, _ := io.ReadAll(res.Body)
					_ = res.Body.Close()
					var out struct {
						Errors []json.RawMessage `json:"errors"`
					}
					_ = json.Unmarshal(raw, &out)
					mu.Lock()
					statuses[res.StatusCode]++
					errorsN += len(out.Errors)
					bytesN += len(raw)
					maxErrors, maxBytes = max(maxErrors, len(out.Errors)), max(maxBytes, len(raw))
					mu.Unlock()
				}
			}
			if err != nil {
				mu.Lock()
				firstErr = err
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return "", firstErr
	}
	return fmt.Sprintf("%d requests of %d %s (%d bytes, %d at once, authenticated %v): HTTP statuses %v, %d errors and %d answer bytes in all, at most %d errors and %d bytes in one answer",
		requests, n, unit, len(q), concurrency, token != "", statuses, errorsN, bytesN, maxErrors, maxBytes), nil
}
