package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/einvoice-ng/einvoice/bench/cluster/tcpproxy"
)

// Chaos timeline, from the start of the load.
const (
	killAt       = 12 * time.Second // SIGKILL api1 and worker1
	restartAfter = 4 * time.Second  // then restart both
	cutAt        = 30 * time.Second // cut the database for options.outage
	// outageGrace is how long after the restore a 503 is still accepted
	// (connections being re-established, Retry-After honoured).
	outageGrace = 3 * time.Second
)

type project struct {
	id, clientID, secret string
	business             string // its business at the stand-in
}

// call is one answered request.
type call struct {
	at     time.Time
	api    int
	op     string // the usage operation, "" for calls that are not metered
	status int
	err    bool // no HTTP answer (connection refused or reset)
}

type driver struct {
	o        options
	c        *cluster
	client   *http.Client
	token    string
	org      string
	projects []project

	// down[i] set: requests avoid api i (killed, restarting).
	down [2]atomic.Bool
	// inflight[i] counts the requests to api i not yet answered.
	inflight [2]atomic.Int64

	mu         sync.Mutex
	calls      []call
	runIDs     map[int]string // run number → run id
	irns       map[string]string
	irnDupes   []string
	irnRepeats int
	cut        time.Time
	restored   time.Time
	// outageReady is what worker2's /ready answered with the database
	// cut: nil when 503.
	outageReady error
	killed      time.Time
	loadFrom    time.Time
	loadTo      time.Time
	runsTo      time.Time

	inv           invoiceState
	invoicesTo    time.Time // the last invoice accepted
	runsFinal     time.Time // every run ended
	invoicesFinal time.Time // every invoice final
}

func newDriver(o options, c *cluster) *driver {
	return &driver{o: o, c: c, client: &http.Client{Timeout: 30 * time.Second},
		runIDs: map[int]string{}, irns: map[string]string{},
		inv: invoiceState{accepted: map[string]*submitted{}, requests: map[string]int{}, extra: map[string]int64{}}}
}

// do sends one request to api i and records the answer.
func (d *driver) do(ctx context.Context, i int, method, path, op string, hdr map[string]string, body any) (int, http.Header, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, d.c.apiURL(i)+path, rd)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	d.inflight[i].Add(1)
	res, err := d.client.Do(req)
	d.inflight[i].Add(-1)
	c := call{at: time.Now(), api: i, op: op}
	if err != nil {
		c.err = true
		d.record(c)
		return 0, nil, nil, err
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	c.status = res.StatusCode
	d.record(c)
	return res.StatusCode, res.Header, b, nil
}

func (d *driver) record(c call) {
	d.mu.Lock()
	d.calls = append(d.calls, c)
	d.mu.Unlock()
}

// pick is the api a request goes to: n's choice unless it is down.
func (d *driver) pick(n int) int {
	i := n % 2
	if d.down[i].Load() {
		return 1 - i
	}
	return i
}

// setup signs up, creates the sandbox projects and their keys.
func (d *driver) setup(ctx context.Context) error {
	st, _, b, err := d.do(ctx, 0, "POST", "/api/v2/auth/signup", "", nil, map[string]any{
		"email": "cluster@example.com", "password": "correct horse battery", "organization_name": "Cluster", "organization_slug": "cluster"})
	if err != nil || st != 200 {
		return fmt.Errorf("signup: %d %v %s", st, err, b)
	}
	var su struct {
		AccessToken  string `json:"access_token"`
		Organization struct {
			ID string `json:"id"`
		} `json:"organization"`
	}
	_ = json.Unmarshal(b, &su)
	d.token, d.org = su.AccessToken, su.Organization.ID
	bearer := map[string]string{"Authorization": "Bearer " + d.token}
	for n := range d.o.projects {
		st, _, b, err := d.do(ctx, n%2, "POST", "/api/v2/projects", "", bearer, map[string]any{
			"organization_id": d.org, "name": fmt.Sprintf("Shop %d", n), "environment": "sandbox"})
		if err != nil || st != 200 {
			return fmt.Errorf("project: %d %v %s", st, err, b)
		}
		var pr struct {
			ID        string `json:"id"`
			Authority struct {
				BusinessID string `json:"business_id"`
			} `json:"authority"`
		}
		_ = json.Unmarshal(b, &pr)
		st, _, b, err = d.do(ctx, n%2, "POST", "/api/v2/projects/"+pr.ID+"/keys", "", bearer, map[string]any{"key_name": "load"})
		if err != nil || st != 200 {
			return fmt.Errorf("key: %d %v %s", st, err, b)
		}
		var k struct {
			ClientID     string `json:"client_id"`
			ClientSecret string `json:"client_secret"`
		}
		_ = json.Unmarshal(b, &k)
		d.projects = append(d.projects, project{id: pr.ID, clientID: k.ClientID, secret: k.ClientSecret, business: pr.Authority.BusinessID})
	}
	return d.loadTemplates()
}

func (p project) headers() map[string]string {
	return map[string]string{"X-Client-Id": p.clientID, "X-Client-Secret": p.secret}
}

// retryAfter reads a Retry-After in seconds (1 s when absent).
func retryAfter(h http.Header) time.Duration {
	if n, err := strconv.Atoi(h.Get("Retry-After")); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return time.Second
}

// startRun starts run n under an Idempotency-Key of its own, sent again
// with every retry: after a 503 (which records nothing), a 409 while the
// key is held (a claim whose end the database could not take during the
// outage is released by its API once the database is back, or lapses),
// or no answer, until it is accepted.
func (d *driver) startRun(ctx context.Context, n int) error {
	p := d.projects[n%len(d.projects)]
	kinds := []string{"B2B", "B2C", "B2G"}
	body := map[string]any{"invoice_type": kinds[n%3], "issue_date": time.Now().UTC().Format(time.DateOnly)}
	hdr := p.headers()
	hdr["Idempotency-Key"] = fmt.Sprintf("cluster-run-%d", n)
	giveUp := time.Now().Add(3 * time.Minute)
	for attempt := 0; ; attempt++ {
		if ctx.Err() != nil || time.Now().After(giveUp) {
			return fmt.Errorf("run %d: not started", n)
		}
		st, h, b, err := d.do(ctx, d.pick(n+attempt), "POST", "/api/v2/certification/nrs/smoke", "certification.start", hdr, body)
		switch {
		case err != nil:
			time.Sleep(200 * time.Millisecond)
		case st == 200:
			var v struct {
				RunID string `json:"run_id"`
			}
			_ = json.Unmarshal(b, &v)
			d.mu.Lock()
			d.runIDs[n] = v.RunID
			d.mu.Unlock()
			return nil
		case st == 503 || st == 409 || st == 429:
			time.Sleep(retryAfter(h))
		default:
			return fmt.Errorf("run %d: %d %s", n, st, b)
		}
	}
}

// irn generates the IRN of ref on api i; a second generation of a ref
// must give the same IRN.
func (d *driver) irn(ctx context.Context, n, api int, ref string) {
	p := d.projects[n%len(d.projects)]
	st, _, b, err := d.do(ctx, d.pick(api), "POST", "/api/v2/invoices/irn/generate", "irn.generate", p.headers(), map[string]any{
		"invoice_reference": ref, "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"})
	if err != nil || st != 200 {
		return
	}
	var v struct {
		IRN string `json:"irn"`
	}
	_ = json.Unmarshal(b, &v)
	key := p.id + "/" + ref
	d.mu.Lock()
	defer d.mu.Unlock()
	if prev, ok := d.irns[key]; ok {
		d.irnRepeats++
		if prev != v.IRN {
			d.irnDupes = append(d.irnDupes, fmt.Sprintf("%s: %s then %s", key, prev, v.IRN))
		}
	}
	d.irns[key] = v.IRN
}

// load starts the runs and an IRN load until the outage is over.
func (d *driver) load(ctx context.Context) error {
	d.mu.Lock()
	d.loadFrom = time.Now()
	d.mu.Unlock()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				ref := fmt.Sprintf("CL%dN%d", g, n)
				d.irn(ctx, g+n, g+n, ref)
				if n%4 == 0 {
					d.irn(ctx, g+n, g+n+1, ref) // the same invoice again, on the other api
				}
				time.Sleep(25 * time.Millisecond)
			}
		})
	}
	// Invoices: spread over the first 80 s (through the kill and most of
	// the outage), three requests at a time.
	invoicesDone := make(chan error, 1)
	go func() {
		err := d.submitInvoices(ctx, 80*time.Second)
		d.mu.Lock()
		d.invoicesTo = time.Now()
		d.mu.Unlock()
		invoicesDone <- err
	}()
	// Runs: spread over the first 50 s (so that some start during the
	// kill and the outage), four at a time.
	next := make(chan int)
	var errs []error
	var emu sync.Mutex
	var rwg sync.WaitGroup
	for range 4 {
		rwg.Go(func() {
			for n := range next {
				if err := d.startRun(ctx, n); err != nil {
					emu.Lock()
					errs = append(errs, err)
					emu.Unlock()
				}
			}
		})
	}
	pace := 50 * time.Second / time.Duration(d.o.runs)
	for n := range d.o.runs {
		next <- n
		time.Sleep(pace)
	}
	close(next)
	rwg.Wait()
	d.mu.Lock()
	d.runsTo = time.Now()
	d.mu.Unlock()
	// The IRN load goes on until the database is back.
	for {
		d.mu.Lock()
		done := !d.restored.IsZero() && time.Since(d.restored) > 5*time.Second
		d.mu.Unlock()
		if done {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	errs = append(errs, <-invoicesDone)
	d.mu.Lock()
	d.loadTo = time.Now()
	d.mu.Unlock()
	return errors.Join(errs...)
}

// chaos kills api1 and worker1 and restarts them, then cuts the database
// for the outage.
func (d *driver) chaos(ctx context.Context, proxy *tcpproxy.Proxy) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(killAt)
		// Requests stop going to api1 a moment before it dies, so that
		// none is in flight at the kill: a request whose answer is lost
		// with the process cannot be counted by the client (and a run
		// start recorded without its answer stored under its key is
		// started again by the retry once the key's lease lapses).
		d.down[0].Store(true)
		time.Sleep(300 * time.Millisecond)
		// On a loaded machine a request may take longer: wait (up to 10 s)
		// until none is left.
		for wait := 0; d.inflight[0].Load() > 0 && wait < 200; wait++ {
			time.Sleep(50 * time.Millisecond)
		}
		left := d.inflight[0].Load()
		api, worker := d.c.apis[0], d.c.workers[0]
		api.kill()
		worker.kill()
		d.mu.Lock()
		d.killed = time.Now()
		d.mu.Unlock()
		fmt.Printf("  %5.1fs SIGKILL api1 and worker1 (%d requests in flight to api1)\n", time.Since(d.loadFrom).Seconds(), left)
		time.Sleep(restartAfter)
		_ = worker.start()
		if err := api.start(); err == nil {
			if err := waitHTTP(ctx, d.c.apiURL(0)+"/ready", 200, time.Minute); err == nil {
				d.down[0].Store(false)
			}
		}
		fmt.Printf("  %5.1fs api1 and worker1 restarted\n", time.Since(d.loadFrom).Seconds())
		if wait := cutAt - time.Since(d.loadFrom); wait > 0 {
			time.Sleep(wait)
		}
		d.mu.Lock()
		d.cut = time.Now() // before the cut: its first 503s may come back at once
		d.mu.Unlock()
		proxy.Cut()
		fmt.Printf("  %5.1fs database cut\n", time.Since(d.loadFrom).Seconds())
		time.Sleep(d.o.outage)
		for _, p := range append(append([]*proc{}, d.c.apis...), d.c.workers...) {
			p.sampleRSS()
		}
		ready := waitHTTP(ctx, d.c.workerURL(1)+"/ready", 503, 10*time.Second)
		d.mu.Lock()
		d.outageReady = ready
		d.mu.Unlock()
		if err := proxy.Restore(); err != nil {
			fmt.Println("restore:", err)
		}
		d.mu.Lock()
		d.restored = time.Now()
		d.mu.Unlock()
		fmt.Printf("  %5.1fs database restored\n", time.Since(d.loadFrom).Seconds())
	}()
	return done
}

// waitRuns waits until every run recorded has ended.
func (d *driver) waitRuns(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(d.o.deadline)
	for {
		var open int
		err := db.QueryRowContext(ctx, `SELECT count(*) FROM certification_runs r JOIN projects p ON p.id = r.project_id
			WHERE p.organization_id = $1 AND r.status IN ('queued', 'running')`, d.org).Scan(&open)
		if err == nil && open == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d runs still unfinished %v after the outage (%v)", open, d.o.deadline, err)
		}
		time.Sleep(time.Second)
	}
}

type results struct {
	failures  []string
	runs      map[string]int // status → runs
	starts    int
	irns      int
	usage     map[string]int64
	client    map[string]int64
	statuses  map[int]int
	outage503 int
	connErrs  int
	audit     string
	invoices  *invoiceResults
}

func (r *results) fail(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

// verify checks the cluster's records against what the clients saw.
func (d *driver) verify(ctx context.Context, db *sql.DB) *results {
	r := &results{runs: map[string]int{}, usage: map[string]int64{}, client: map[string]int64{}, statuses: map[int]int{}}
	d.mu.Lock()
	defer d.mu.Unlock()

	// Every run reached a final state, once, and passed.
	rows, err := db.QueryContext(ctx, `SELECT r.id, r.status FROM certification_runs r JOIN projects p ON p.id = r.project_id
		WHERE p.organization_id = $1`, d.org)
	if err != nil {
		r.fail("read runs: %v", err)
		return r
	}
	stored := map[string]string{}
	for rows.Next() {
		var id, st string
		_ = rows.Scan(&id, &st)
		stored[id] = st
		r.runs[st]++
	}
	rows.Close()
	if len(d.runIDs) != d.o.runs {
		r.fail("runs accepted: %d of %d", len(d.runIDs), d.o.runs)
	}
	if len(stored) != len(d.runIDs) {
		r.fail("runs recorded: %d, accepted: %d (a retried start recorded twice, or one lost)", len(stored), len(d.runIDs))
	}
	for n, id := range d.runIDs {
		if stored[id] != "passed" {
			r.fail("run %d (%s): %q", n, id, stored[id])
		}
	}
	var starts, dupStarts int
	_ = db.QueryRowContext(ctx, `SELECT count(*), count(*) - count(DISTINCT target_id) FROM audit_logs
		WHERE organization_id = $1 AND action = 'certification.start'`, d.org).Scan(&starts, &dupStarts)
	r.starts = starts
	if starts != len(stored) || dupStarts != 0 {
		r.fail("certification.start audit entries: %d (%d repeated) for %d runs", starts, dupStarts, len(stored))
	}
	srows, err := db.QueryContext(ctx, `SELECT s.run_id, s.name, s.status, s.message FROM certification_steps s JOIN certification_runs r ON r.id = s.run_id
		JOIN projects p ON p.id = r.project_id WHERE p.organization_id = $1 AND s.status <> 'passed'`, d.org)
	if err == nil {
		for srows.Next() {
			var run, name, status, msg string
			_ = srows.Scan(&run, &name, &status, &msg)
			r.fail("run %s: step %s %s: %s", run, name, status, msg)
		}
		srows.Close()
	}

	// No IRN issued twice.
	var dupIRNs int
	_ = db.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT irn FROM irns GROUP BY irn HAVING count(*) > 1) d`).Scan(&dupIRNs)
	_ = db.QueryRowContext(ctx, `SELECT count(*) FROM irns i JOIN projects p ON p.id = i.project_id WHERE p.organization_id = $1`, d.org).Scan(&r.irns)
	if dupIRNs != 0 {
		r.fail("%d IRNs stored twice", dupIRNs)
	}
	if len(d.irnDupes) > 0 {
		r.fail("one invoice got two IRNs: %v", d.irnDupes)
	}

	// The workers said so when the database was cut, and export the
	// Temporal SDK's metrics of the work they did.
	if d.outageReady != nil {
		r.fail("worker2's /ready during the outage: %v", d.outageReady)
	}
	for i := range d.c.workers {
		if err := hasMetric(ctx, d.c.workerURL(i)+"/metrics", "temporal_activity_schedule_to_start_latency_seconds_count{"); err != nil {
			r.fail("worker%d: %v", i+1, err)
		}
	}

	// Every audit chain verifies.
	out, err := d.c.auditVerify(ctx)
	r.audit = strings.TrimSpace(out)
	if err != nil {
		r.fail("einvoice audit verify: %v: %s", err, out)
	}

	// Usage equals the successful metered calls.
	urows, err := db.QueryContext(ctx, `SELECT u.operation, sum(u.count) FROM usage_counters u JOIN projects p ON p.id = u.project_id
		WHERE p.organization_id = $1 GROUP BY u.operation`, d.org)
	if err == nil {
		for urows.Next() {
			var op string
			var n int64
			_ = urows.Scan(&op, &n)
			r.usage[op] = n
		}
		urows.Close()
	}
	for _, c := range d.calls {
		if c.err {
			r.connErrs++
			continue
		}
		r.statuses[c.status]++
		if c.op != "" && c.status >= 200 && c.status < 300 {
			r.client[c.op]++
		}
		// Nothing answered 5xx other than 503 during the outage.
		if c.status >= 500 {
			inOutage := !d.cut.IsZero() && !c.at.Before(d.cut) && (d.restored.IsZero() || c.at.Before(d.restored.Add(outageGrace)))
			switch {
			case c.status != 503:
				r.fail("%d from api%d at %s (%s)", c.status, c.api+1, c.at.Format(time.TimeOnly), c.op)
			case !inOutage:
				r.fail("503 outside the outage from api%d at %s (%s)", c.api+1, c.at.Format(time.TimeOnly), c.op)
			default:
				r.outage503++
			}
		}
	}
	for op, n := range d.inv.extra {
		r.client[op] += n
	}
	for op, n := range r.client {
		if r.usage[op] != n {
			r.fail("usage of %s: %d metered, %d answered 2xx", op, r.usage[op], n)
		}
	}
	for op, n := range r.usage {
		if _, ok := r.client[op]; !ok && n > 0 {
			r.fail("usage of %s: %d metered, none answered 2xx", op, n)
		}
	}
	if d.cut.IsZero() || d.restored.IsZero() {
		r.fail("the database was not cut and restored")
	}
	d.verifyInvoices(ctx, db, r)
	return r
}

func (d *driver) report(r *results) {
	d.mu.Lock()
	defer d.mu.Unlock()
	fmt.Println("figures:")
	fmt.Printf("  load: %.0fs (runs accepted over %.0fs); SIGKILL at %.0fs; database cut %.0fs to %.0fs\n",
		d.loadTo.Sub(d.loadFrom).Seconds(), d.runsTo.Sub(d.loadFrom).Seconds(), d.killed.Sub(d.loadFrom).Seconds(),
		d.cut.Sub(d.loadFrom).Seconds(), d.restored.Sub(d.loadFrom).Seconds())
	if r == nil {
		d.reportInvoices(nil)
	}
	if r != nil {
		fmt.Printf("  runs: %d accepted, stored by status %v, %d certification.start audit entries\n", len(d.runIDs), r.runs, r.starts)
		d.reportInvoices(r.invoices)
		fmt.Printf("  IRNs: %d stored (the runs' included), %d distinct invoices asked for, %d asked twice\n", r.irns, len(d.irns), d.irnRepeats)
		codes := make([]int, 0, len(r.statuses))
		for c := range r.statuses {
			codes = append(codes, c)
		}
		sort.Ints(codes)
		parts := make([]string, 0, len(codes))
		for _, c := range codes {
			parts = append(parts, fmt.Sprintf("%d×%d", c, r.statuses[c]))
		}
		fmt.Printf("  answers: %s; 503 during the outage: %d; no answer (connection refused/reset): %d\n", strings.Join(parts, " "), r.outage503, r.connErrs)
		fmt.Printf("  usage metered %v, 2xx answered %v\n", r.usage, r.client)
		fmt.Printf("  audit: %s\n", r.audit)
		fmt.Printf("  usage journal replays after the SIGKILL: %s\n", d.c.journalReplays())
	}
	fmt.Print("  peak RSS (VmHWM):")
	for _, p := range append(append([]*proc{d.c.temporal, d.c.nrs}, d.c.apis...), d.c.workers...) {
		p.sampleRSS()
		fmt.Printf(" %s %d MiB", p.name, p.peakRSS/1024)
	}
	fmt.Println()
}
