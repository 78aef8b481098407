// Command invoices measures invoice submission against a running einvoice
// (normally `einvoice dev`, with the NRS sandbox stand-in) through its REST
// API only: it signs a user up, creates a sandbox project with API keys,
// then submits -n invoices (B2B, B2C and B2G in turn) at -rate per second,
// open loop, each POST /api/v2/invoices timed until its 202, and polls the
// project's confirmed invoices until every one is confirmed. It prints the
// acceptance latency (p50, p99, max), the achieved submission rate, and
// the cleared invoices per second (submitted / time from the first POST
// to the last confirmation).
//
// With -outage D, the project's stand-in answers 503 to every call from
// before the first POST until D after the last 202 (a fault set through
// the API with the owner's token): every invoice waits in the queue. The
// bench then ends the outage and prints the drain figure: invoices
// confirmed per second from the first confirmation after the outage to
// the last (the time the circuit breakers take to probe is left out and
// printed apart), and, with -server-pid, the CPU seconds the server spent
// from the outage's end to the last confirmation (/proc/PID/stat), since
// the machine may be shared. The queue's pace caps the drain (600 a
// minute by default, 10 a second): -queue-rate sets the project's own
// queue_rate_per_minute (1..6000) to find the ceiling beneath it.
//
// A submission refused with 429 or 503 (back pressure) is counted, not
// retried: the figures are over the accepted invoices, and the refusals
// are printed with the Retry-After they carried.
//
// Cost: -pid (repeatable, "name=pid" or "pid") names the processes whose
// CPU (user + system, /proc/PID/stat) is read before the first POST and
// after the last confirmation; the bench prints each one's CPU per cleared
// invoice, the sum, and the load average at the start and the end. It
// also prints the whole machine's busy CPU over the same window
// (/proc/stat): what the processes named miss, processes that ended
// meanwhile and the kernel's own work included, and the bench's own.
//
// Several APIs over one database: -base takes a comma-separated list; the
// submissions go to each in turn, everything else to the first.
//
// PostgreSQL: with -postgres DSN, the CPU of the PostgreSQL backends
// serving the databases named by -postgres-dbs (default: the DSN's) is
// read the same way, from /proc, for the backends pg_stat_activity lists
// at the start and at the end (a backend that ended meanwhile is missed;
// the processes' pools keep theirs), and printed as a process of its own.
// Run the bench on the database's host.
//
// Census: with -metrics (default base/metrics), the Prometheus counters
// of the server (einvoice's own and the Temporal SDK's) are read before
// and after; every counter that moved is printed per cleared invoice:
// invoice states, NRS calls, workflow tasks, activities, local
// activities, database transactions and statements, webhook deliveries.
//
// Webhooks: with -webhooks, the bench serves a receiver on loopback,
// subscribes it to the invoices' events and prints the delay from each
// event's created_at to its arrival (p50, p99, max), waiting until every
// event of a confirmed invoice has arrived. When it receives
// invoice.confirmed (the default), the bench waits for the confirmations
// there instead of polling the project's invoices (a rejection is still
// asked for every two seconds, and the invoices are listed once after the
// CPU is read, to check that the API shows every one confirmed): the
// cleared figure then ends at the arrival of the last confirmation's
// webhook, and the repeated listing no longer adds to what is measured.
//
// Run the server with rate limits above the bench's rate, e.g.
//
//	EINVOICE_RATE_LIMIT_SANDBOX=off EINVOICE_RATE_LIMIT_PROJECT_SANDBOX=off einvoice dev
//	go run ./bench/invoices -base http://127.0.0.1:8080 -n 2000 -rate 200 -pid dev=$(pgrep -n einvoice)
//
// `make bench-invoices` builds einvoice, runs `einvoice dev` on a fresh
// data directory and this bench against it.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/workflows"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "invoices bench:", err)
		os.Exit(1)
	}
}

type bench struct {
	base string
	// bases are the APIs the submissions go to in turn (base is the
	// first).
	bases []string
	http  *http.Client
}

type key struct{ id, secret string }

// pids is the repeatable -pid flag: name=pid or pid.
type pids []proc

type proc struct {
	name string
	pid  int
}

func (p *pids) String() string { return fmt.Sprint(*p) }

func (p *pids) Set(v string) error {
	name, num, ok := strings.Cut(v, "=")
	if !ok {
		name, num = "pid "+v, v
	}
	id, err := strconv.Atoi(num)
	if err != nil || id <= 0 {
		return fmt.Errorf("-pid %q: want name=pid or pid", v)
	}
	*p = append(*p, proc{name, id})
	return nil
}

func run() error {
	base := flag.String("base", "http://127.0.0.1:8080", "einvoice base URL; a comma-separated list spreads the submissions over several APIs")
	n := flag.Int("n", 2000, "invoices to submit")
	rate := flag.Float64("rate", 200, "submissions per second (open loop)")
	nkeys := flag.Int("keys", 4, "API keys the submissions are spread over")
	timeout := flag.Duration("timeout", 10*time.Minute, "give up after this long")
	outage := flag.Duration("outage", 0, "hold every invoice in the queue with a stand-in outage lasting this long after the last submission, then measure the drain")
	queueRate := flag.Int("queue-rate", 0, "set the project's queue_rate_per_minute (1..6000) before submitting; 0 keeps the server's default")
	serverPID := flag.Int("server-pid", 0, "with -outage, the server's process id, to report its CPU seconds during the drain")
	var procs pids
	flag.Var(&procs, "pid", "a process whose CPU per cleared invoice to report, name=pid or pid (repeatable)")
	metricsURL := flag.String("metrics", "", "Prometheus endpoint of the server for the census, or a comma-separated list whose series are summed (default base/metrics; \"off\" for none)")
	metricsToken := flag.String("metrics-token", "", "bearer token of -metrics")
	pgDSN := flag.String("postgres", "", "PostgreSQL URL: also report the CPU of its backends serving -postgres-dbs (read from /proc: run on the database's host)")
	pgDBs := flag.String("postgres-dbs", "", "comma-separated databases whose backends -postgres counts (default: the URL's database)")
	hooks := flag.Bool("webhooks", false, "subscribe a loopback receiver to the invoices' events and report event-to-delivery latency")
	hookEvents := flag.String("webhook-events", model.EventInvoiceConfirmed, "comma-separated event types the receiver subscribes to")
	hookListen := flag.String("webhook-listen", "127.0.0.1:0", "address of the webhook receiver")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if *metricsURL == "" {
		*metricsURL = *base + "/metrics"
	}
	bases := strings.Split(*base, ",")
	*base = bases[0]
	b := &bench{base: *base, bases: bases, http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 512}, Timeout: time.Minute}}
	keys, business, project, token, err := b.setup(ctx, *nkeys)
	if err != nil {
		return err
	}
	var rc *receiver
	if *hooks {
		if rc, err = b.receive(ctx, *hookListen, project, token, strings.Split(*hookEvents, ",")); err != nil {
			return fmt.Errorf("webhook receiver: %w", err)
		}
		defer rc.close()
	}
	faults := "/api/v2/projects/" + project + "/sandbox/faults"
	if *queueRate > 0 {
		var pr map[string]any
		if err := b.call(ctx, "PATCH", "/api/v2/projects/"+project, nil, token, map[string]any{"queue_rate_per_minute": *queueRate}, &pr); err != nil {
			return fmt.Errorf("queue rate: %w", err)
		}
	}
	if *outage > 0 {
		var f map[string]any
		if err := b.call(ctx, "POST", faults, nil, token, map[string]any{"kind": "outage", "duration": "24h", "retry_after": 5}, &f); err != nil {
			return fmt.Errorf("outage: %w", err)
		}
	}
	issue := time.Now().UTC().Format(time.DateOnly)
	run := strconv.FormatInt(time.Now().Unix()%100000, 36)
	bodies := make([][]byte, *n)
	for i := range bodies {
		kind := model.AllInvoiceKinds[i%3]
		doc, err := workflows.SamplePayload(kind, business, issue)
		if err != nil {
			return err
		}
		if bodies[i], err = json.Marshal(map[string]any{"invoice_type": kind, "payload": doc,
			"invoice_reference": fmt.Sprintf("BENCH%s%06d", run, i)}); err != nil {
			return err
		}
	}

	var census0 map[string]float64
	if *metricsURL != "off" {
		if census0, err = b.scrape(ctx, *metricsURL, *metricsToken); err != nil {
			fmt.Fprintln(os.Stderr, "census off:", err)
			*metricsURL = "off"
		}
	}
	var pg *pgBackends
	if *pgDSN != "" {
		if pg, err = openPGBackends(*pgDSN, *pgDBs); err != nil {
			return err
		}
		defer pg.close()
	}
	load0 := loadAverage()
	busy0, idle0 := machineCPU()
	cpu0 := make([]float64, len(procs))
	for i, p := range procs {
		cpu0[i] = cpuSeconds(p.pid)
	}
	var pg0 map[int]float64
	if pg != nil {
		if pg0, err = pg.cpu(ctx); err != nil {
			return err
		}
	}

	lat := make([]time.Duration, *n)
	ok := make([]bool, *n)
	var failed, refused atomic.Int64
	var retryAfter sync.Map
	var wg sync.WaitGroup
	interval := time.Duration(float64(time.Second) / *rate)
	began := time.Now()
	for i := range bodies {
		if d := time.Until(began.Add(time.Duration(i) * interval)); d > 0 {
			time.Sleep(d)
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			t := time.Now()
			status, body, ra, err := b.post(ctx, b.bases[i%len(b.bases)], keys[i%len(keys)], bodies[i])
			lat[i] = time.Since(t)
			switch {
			case err == nil && status == http.StatusAccepted:
				ok[i] = true
			case err == nil && (status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable):
				refused.Add(1)
				retryAfter.Store(strconv.Itoa(status)+" Retry-After "+ra, true)
			default:
				if failed.Add(1) <= 3 {
					fmt.Fprintf(os.Stderr, "submission %d: %d %s %v\n", i, status, body, err)
				}
			}
		}(i)
	}
	wg.Wait()
	sent := time.Since(began)
	if f := failed.Load(); f > 0 {
		return fmt.Errorf("%d of %d submissions failed", f, *n)
	}
	var accepted []time.Duration
	for i, l := range lat {
		if ok[i] {
			accepted = append(accepted, l)
		}
	}
	slices.Sort(accepted)
	want := len(accepted)
	fmt.Printf("submitted %d invoices in %s (%.0f/s asked, %.1f/s achieved): %d accepted, %d refused (429/503)\n",
		*n, sent.Round(time.Millisecond), *rate, float64(*n)/sent.Seconds(), want, refused.Load())
	retryAfter.Range(func(k, _ any) bool { fmt.Printf("  refusal seen: %s\n", k); return true })
	if want == 0 {
		return fmt.Errorf("no submission accepted")
	}
	pct := func(d []time.Duration, p float64) time.Duration { return d[int(p*float64(len(d)-1))] }
	fmt.Printf("acceptance latency (202s): p50 %s, p99 %s, max %s\n", pct(accepted, .5).Round(time.Microsecond), pct(accepted, .99).Round(time.Microsecond), accepted[len(accepted)-1].Round(time.Microsecond))

	if *outage > 0 {
		return b.drain(ctx, keys[0], faults, token, want, *outage, *serverPID)
	}
	var all time.Duration
	if rc != nil && slices.Contains(strings.Split(*hookEvents, ","), model.EventInvoiceConfirmed) {
		// The receiver counts the confirmations as they arrive; the
		// project's invoices are listed once, after the CPU is read.
		if all, err = b.awaitConfirmations(ctx, rc, keys[0], want, began); err != nil {
			return err
		}
	} else {
		for {
			confirmed, rejected, err := b.count(ctx, keys[0])
			if err != nil {
				return err
			}
			if rejected > 0 {
				return fmt.Errorf("%d invoices rejected", rejected)
			}
			if confirmed >= want {
				break
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("%d of %d confirmed when the time ran out", confirmed, want)
			case <-time.After(200 * time.Millisecond):
			}
		}
		all = time.Since(began)
	}
	cpu1 := make([]float64, len(procs))
	for i, p := range procs {
		cpu1[i] = cpuSeconds(p.pid)
	}
	if pg != nil {
		pg1, err := pg.cpu(ctx)
		if err != nil {
			return err
		}
		used, n := pgUsed(pg0, pg1)
		procs = append(procs, proc{name: fmt.Sprintf("postgres (%d backends)", n), pid: 0})
		cpu0, cpu1 = append(cpu0, 0), append(cpu1, used)
	}
	load1 := loadAverage()
	busy1, idle1 := machineCPU()
	fmt.Printf("cleared %d invoices (confirmed by the stand-in) in %s: %.1f invoices/s end to end\n", want, all.Round(time.Millisecond), float64(want)/all.Seconds())
	var sum float64
	for i, p := range procs {
		d := cpu1[i] - cpu0[i]
		sum += d
		if p.pid > 0 {
			fmt.Printf("cpu %s (pid %d): %.1f s, %.1f ms per cleared invoice\n", p.name, p.pid, d, d*1000/float64(want))
		} else {
			fmt.Printf("cpu %s: %.1f s, %.1f ms per cleared invoice\n", p.name, d, d*1000/float64(want))
		}
	}
	if len(procs) > 1 {
		fmt.Printf("cpu all processes: %.1f s, %.1f ms per cleared invoice\n", sum, sum*1000/float64(want))
	}
	if busy1 > busy0 {
		busy := busy1 - busy0
		fmt.Printf("cpu machine (every process, exited ones too, and the kernel; the bench included): %.1f s busy, %.1f ms per cleared invoice; %.1f s idle\n",
			busy, busy*1000/float64(want), idle1-idle0)
	}
	fmt.Printf("load average: %s at the start, %s at the end\n", load0, load1)
	if confirmed, rejected, err := b.count(ctx, keys[0]); err != nil {
		return err
	} else if confirmed < want || rejected > 0 {
		return fmt.Errorf("the API lists %d confirmed and %d rejected invoices of %d accepted", confirmed, rejected, want)
	}
	if *metricsURL != "off" {
		if census1, err := b.scrape(ctx, *metricsURL, *metricsToken); err != nil {
			fmt.Fprintln(os.Stderr, "census:", err)
		} else {
			printCensus(census0, census1, want)
		}
	}
	if rc != nil {
		return rc.report(ctx, want)
	}
	return nil
}

// loadAverage is /proc/loadavg's three figures.
func loadAverage() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(raw))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// awaitConfirmations waits until the receiver has had want invoice.confirmed
// events and returns the time from began to the arrival of the last one.
// Every two seconds it asks the API whether an invoice was rejected (one
// item of a page), so that a rejection ends the run at once.
func (b *bench) awaitConfirmations(ctx context.Context, rc *receiver, k key, want int, began time.Time) (time.Duration, error) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	checked := time.Now()
	for {
		got, last := rc.confirmations()
		if got >= want {
			return last.Sub(began), nil
		}
		if time.Since(checked) >= 2*time.Second {
			checked = time.Now()
			var page struct {
				Items []json.RawMessage `json:"items"`
			}
			if err := b.call(ctx, "GET", "/api/v2/invoices?limit=1&status=rejected", &k, "", nil, &page); err != nil {
				return 0, err
			}
			if len(page.Items) > 0 {
				return 0, fmt.Errorf("an invoice was rejected (%d of %d confirmed)", got, want)
			}
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("%d of %d confirmations arrived when the time ran out", got, want)
		case <-tick.C:
		}
	}
}

// count pages through the project's confirmed and rejected invoices.
func (b *bench) count(ctx context.Context, k key) (confirmed, rejected int, err error) {
	for _, st := range []string{"confirmed", "rejected"} {
		cursor := ""
		for {
			var page struct {
				Items      []json.RawMessage `json:"items"`
				NextCursor *string           `json:"next_cursor"`
			}
			path := "/api/v2/invoices?limit=200&status=" + st
			if cursor != "" {
				path += "&cursor=" + cursor
			}
			if err := b.call(ctx, "GET", path, &k, "", nil, &page); err != nil {
				return 0, 0, err
			}
			if st == "confirmed" {
				confirmed += len(page.Items)
			} else {
				rejected += len(page.Items)
			}
			if page.NextCursor == nil {
				break
			}
			cursor = *page.NextCursor
		}
	}
	return confirmed, rejected, nil
}

func (b *bench) post(ctx context.Context, base string, k key, body []byte) (int, []byte, string, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", base+"/api/v2/invoices", bytes.NewReader(body))
	if err != nil {
		return 0, nil, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Client-Id", k.id)
	req.Header.Set("X-Client-Secret", k.secret)
	resp, err := b.http.Do(req)
	if err != nil {
		return 0, nil, "", err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, resp.Header.Get("Retry-After"), err
}

// drain waits out the outage, ends it and measures how fast the queue
// clears.
func (b *bench) drain(ctx context.Context, k key, faults, token string, n int, outage time.Duration, pid int) error {
	time.Sleep(outage)
	confirmed, _, err := b.count(ctx, k)
	if err != nil {
		return err
	}
	if confirmed > 0 {
		return fmt.Errorf("%d invoices confirmed during the outage", confirmed)
	}
	var cleared map[string]any
	if err := b.call(ctx, "DELETE", faults+"?kind=outage", nil, token, nil, &cleared); err != nil {
		return fmt.Errorf("end the outage: %w", err)
	}
	ended, cpu0 := time.Now(), cpuSeconds(pid)
	var first time.Time
	for {
		confirmed, rejected, err := b.count(ctx, k)
		if err != nil {
			return err
		}
		if rejected > 0 {
			return fmt.Errorf("%d invoices rejected", rejected)
		}
		if confirmed > 0 && first.IsZero() {
			first = time.Now()
		}
		if confirmed >= n {
			last := time.Now()
			fmt.Printf("drain: the first invoice confirmed %s after the outage ended (the breakers' probe); %d cleared in %s after it: %.1f invoices/s\n",
				first.Sub(ended).Round(time.Millisecond), n, last.Sub(first).Round(time.Millisecond), float64(n)/max(last.Sub(first).Seconds(), 0.001))
			if pid > 0 {
				fmt.Printf("drain: server CPU %.1f s from the outage's end to the last confirmation (%.1f s of wall time)\n",
					cpuSeconds(pid)-cpu0, last.Sub(ended).Seconds())
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d of %d confirmed when the time ran out", confirmed, n)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// machineCPU is the machine's CPU time since boot, all cores, from
// /proc/stat: busy (user, nice, system, irq, softirq, steal) and idle
// (idle, iowait), in seconds. Between two readings busy counts what the
// per-process figures miss: processes that ended meanwhile (a database
// backend whose connection closed), the kernel's own work, everything
// else on the machine.
func machineCPU() (busy, idle float64) {
	raw, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(raw), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0
	}
	v := make([]float64, 8)
	for i := range v {
		v[i], _ = strconv.ParseFloat(f[i+1], 64)
	}
	// user nice system idle iowait irq softirq steal
	busy = (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / 100
	idle = (v[3] + v[4]) / 100
	return busy, idle
}

// cpuSeconds is the user and system CPU time of a process (0 without one).
func cpuSeconds(pid int) float64 {
	if pid <= 0 {
		return 0
	}
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(raw)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+2:]
	}
	f := strings.Fields(s)
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100 // clock ticks (USER_HZ, 100 on Linux)
}

func (b *bench) setup(ctx context.Context, n int) ([]key, string, string, string, error) {
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
		return nil, "", "", "", fmt.Errorf("signup: %w", err)
	}
	var pr struct {
		ID        string `json:"id"`
		Authority struct {
			BusinessID string `json:"business_id"`
		} `json:"authority"`
	}
	if err := b.call(ctx, "POST", "/api/v2/projects", nil, su.AccessToken, map[string]any{
		"organization_id": su.Organization.ID, "name": "invoices bench", "environment": "sandbox",
	}, &pr); err != nil {
		return nil, "", "", "", fmt.Errorf("create project: %w", err)
	}
	keys := make([]key, 0, n)
	for i := 0; i < n; i++ {
		var k struct {
			ClientID     string `json:"client_id"`
			ClientSecret string `json:"client_secret"`
		}
		if err := b.call(ctx, "POST", "/api/v2/projects/"+pr.ID+"/keys", nil, su.AccessToken,
			map[string]any{"key_name": "bench " + strconv.Itoa(i)}, &k); err != nil {
			return nil, "", "", "", fmt.Errorf("create key: %w", err)
		}
		keys = append(keys, key{k.ClientID, k.ClientSecret})
	}
	return keys, pr.Authority.BusinessID, pr.ID, su.AccessToken, nil
}

func (b *bench) call(ctx context.Context, method, path string, k *key, token string, in, out any) error {
	var raw []byte
	if in != nil {
		var err error
		if raw, err = json.Marshal(in); err != nil {
			return err
		}
	}
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
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, body)
	}
	return json.Unmarshal(body, out)
}
