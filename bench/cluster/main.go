// Command cluster runs einvoice as it is deployed and breaks it on
// purpose: PostgreSQL (its own databases on a shared server, reached
// through a TCP proxy this program can cut), Redis, a Temporal server, the
// NRS sandbox stand-in, two `einvoice api` and two `einvoice worker`, each
// a process of its own (the workers serving their probes and metrics). It drives certification runs, an IRN load and
// invoice submissions (alone and in batches, under Idempotency-Keys
// repeated by every retry) through both APIs, SIGKILLs one worker and one
// api mid-way, cuts the database for a while, and then checks: every run
// reached a final state once and passed, no IRN was issued twice, every
// invoice accepted was confirmed once (one invoice per reference, signed
// once in its event log, held signed once by the stand-in), every audit
// chain verifies, usage equals the successful metered calls, and nothing
// answered 5xx other than 503 during the outage. bench/cluster/run.sh (make
// cluster-test) builds the binaries, creates and drops the databases and
// runs it; it prints its figures and exits non-zero on any failed check.
//
// The database outage: the API, worker and audit processes connect to
// PostgreSQL through a TCP proxy (bench/cluster/tcpproxy) hosted by this
// program; cutting it closes every connection and refuses new ones, as a
// server that went down would, without stopping the PostgreSQL server
// other programs share. The stand-in keeps its state in a database of its
// own reached directly: it plays NRS, whose outages are another test. With
// -bench-invoices (make bench-cluster-invoices) nothing is cut and every
// process connects to PostgreSQL directly, as deployed.
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/einvoice-ng/einvoice/bench/cluster/tcpproxy"
)

type options struct {
	bin      string // directory of einvoice and einvoice-temporal
	work     string
	adminDB  string // PostgreSQL URL of the einvoice database, direct
	sandbox  string // PostgreSQL URL of the stand-in's database, direct
	port     int    // first port of the range
	runs     int
	invoices int
	fixtures string // directory of the fixtures' invoices
	projects int
	outage   time.Duration
	deadline time.Duration
	// bench, when set, runs bench/invoices against the cluster instead of
	// the fault scenarios, benchN invoices at benchRate a second.
	bench     bool
	benchN    int
	benchRate float64
}

// Ports, as offsets from options.port.
const (
	offProxy    = 0
	offRedis    = 2
	offTemporal = 10 // and the next four for its internal services
	offStandIn  = 20
	offAPI      = 30 // and the next one
	offWorker   = 40 // the workers' probes and metrics, and the next one
	offDeadPort = 99 // nothing listens: the workers' Redis
)

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "./bin", "directory of the einvoice and einvoice-temporal binaries")
	flag.StringVar(&o.work, "work", "./cluster-work", "working directory (logs, Temporal's data, usage journals)")
	flag.StringVar(&o.adminDB, "database-url", "postgres://postgres@127.0.0.1:5432/einvoice_cluster?sslmode=disable", "the cluster's einvoice database (reached through the proxy by the processes)")
	flag.StringVar(&o.sandbox, "sandbox-database-url", "postgres://postgres@127.0.0.1:5432/einvoice_cluster_nrs?sslmode=disable", "the stand-in's database")
	flag.IntVar(&o.port, "port", 19500, "first of the 100 ports the cluster may use")
	flag.IntVar(&o.runs, "runs", 300, "certification runs to drive")
	flag.IntVar(&o.invoices, "invoices", 300, "invoices to submit (a third of them in batches of 10)")
	flag.StringVar(&o.fixtures, "fixtures", "testdata/fixtures", "directory of the B2B, B2C and B2G invoice fixtures")
	flag.IntVar(&o.projects, "projects", 10, "sandbox projects the runs are spread over")
	flag.DurationVar(&o.outage, "outage", 60*time.Second, "how long the database is cut")
	flag.DurationVar(&o.deadline, "deadline", 5*time.Minute, "how long the runs may take to end after the outage")
	flag.BoolVar(&o.bench, "bench-invoices", false, "measure instead of break: run bench/invoices (bench-invoices in -bin) against the cluster; arguments after the flags go to it")
	flag.IntVar(&o.benchN, "bench-n", 600, "with -bench-invoices, invoices to submit")
	flag.Float64Var(&o.benchRate, "bench-rate", 50, "with -bench-invoices, submissions per second")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "cluster:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := os.MkdirAll(filepath.Join(o.work, "logs"), 0o755); err != nil {
		return err
	}
	direct, err := url.Parse(o.adminDB)
	if err != nil {
		return err
	}
	// The fault scenarios reach PostgreSQL through a proxy they can cut;
	// the benchmark (-bench-invoices) measures the topology as deployed,
	// connected to PostgreSQL directly, without the proxy's CPU and
	// extra hops on every statement.
	dbURL, via := direct.String(), "directly"
	var proxy *tcpproxy.Proxy
	if !o.bench {
		if proxy, err = tcpproxy.Start(addr(o.port+offProxy), direct.Host); err != nil {
			return fmt.Errorf("proxy: %w", err)
		}
		defer proxy.Close()
		proxied := *direct
		proxied.Host = proxy.Addr()
		dbURL, via = proxied.String(), "via proxy "+proxy.Addr()
	}

	c := newCluster(o, dbURL)
	defer c.stopAll()
	// Interrupted, stop the processes this program started. (Only a signal
	// does: the end of run, which cancels ctx, does not.)
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigc)
	go func() {
		select {
		case <-sigc:
			c.stopAll()
			os.Exit(1)
		case <-ctx.Done():
		}
	}()
	began := time.Now()
	if err := c.startAll(ctx); err != nil {
		return err
	}
	fmt.Printf("cluster up in %.1fs: postgres (%s), redis, temporal, stand-in, 2 api, 2 worker\n",
		time.Since(began).Seconds(), via)
	if o.bench {
		return c.benchInvoices(ctx, flag.Args())
	}

	d := newDriver(o, c)
	if err := d.setup(ctx); err != nil {
		return err
	}
	chaos := d.chaos(ctx, proxy)
	if err := d.load(ctx); err != nil {
		return err
	}
	<-chaos
	db, err := sql.Open("pgx", o.adminDB)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := d.waitRuns(ctx, db); err != nil {
		d.report(nil)
		return err
	}
	d.mu.Lock()
	d.runsFinal = time.Now()
	d.mu.Unlock()
	if err := d.waitInvoices(ctx, db); err != nil {
		d.report(nil)
		return err
	}
	d.mu.Lock()
	d.invoicesFinal = time.Now()
	d.mu.Unlock()
	// A graceful stop flushes the APIs' usage.
	c.stopAPIs()
	res := d.verify(ctx, db)
	d.report(res)
	if len(res.failures) > 0 {
		return fmt.Errorf("%d checks failed:\n  %s", len(res.failures), strings.Join(res.failures, "\n  "))
	}
	fmt.Printf("all checks passed in %.0fs\n", time.Since(began).Seconds())
	return nil
}

func addr(port int) string { return "127.0.0.1:" + strconv.Itoa(port) }

// cluster is the set of processes.
type cluster struct {
	o                    options
	redis, temporal, nrs *proc
	apis, workers        []*proc
	env                  []string
}

const (
	jwtSecret     = "cluster-test-jwt-secret-0123456789abcdef"
	encryptionKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	adminToken    = "cluster-test-admin-token-0123456789"
)

func newCluster(o options, dsn string) *cluster {
	logs := func(name string) string { return filepath.Join(o.work, "logs", name+".log") }
	c := &cluster{o: o}
	c.env = []string{
		"EINVOICE_DATABASE_URL=" + dsn,
		"EINVOICE_JWT_SECRET=" + jwtSecret,
		"EINVOICE_ENCRYPTION_KEY=" + encryptionKey,
		"TEMPORAL_ADDRESS=" + addr(o.port+offTemporal),
		"TEMPORAL_NAMESPACE=default",
		"EINVOICE_NRS_SANDBOX_URL=http://" + addr(o.port+offStandIn),
		"EINVOICE_NRS_SANDBOX_ADMIN_TOKEN=" + adminToken,
		"EINVOICE_EGRESS_ALLOW_PRIVATE=false",
		"EINVOICE_LOG_LEVEL=warn",
	}
	c.redis = &proc{name: "redis", bin: "redis-server", logs: logs("redis"),
		args: []string{"--port", strconv.Itoa(o.port + offRedis), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"}}
	c.temporal = &proc{name: "temporal", bin: filepath.Join(o.bin, "einvoice-temporal"), logs: logs("temporal"),
		args: []string{"--addr", addr(o.port + offTemporal), "--data-dir", filepath.Join(o.work, "temporal"),
			"--internal-ports", fmt.Sprintf("%d,%d,%d,%d", o.port+offTemporal+1, o.port+offTemporal+2, o.port+offTemporal+3, o.port+offTemporal+4)}}
	c.nrs = &proc{name: "nrs-sandbox", bin: filepath.Join(o.bin, "einvoice"), logs: logs("nrs-sandbox"),
		args: []string{"nrs-sandbox", "--addr", addr(o.port + offStandIn), "--database-url", o.sandbox,
			"--admin-token", adminToken, "--rate-limit", "off", "--ip-rate-limit", "off"},
		env: []string{"EINVOICE_LOG_LEVEL=warn"}}
	journal := filepath.Join(o.work, "usage-journal")
	if o.bench {
		// bench/invoices' webhook receiver listens on loopback, over
		// plain http.
		c.env = append(c.env, "EINVOICE_WEBHOOK_ALLOW_PRIVATE=true", "EINVOICE_WEBHOOK_ALLOW_HTTP=true")
	}
	for i := range 2 {
		c.apis = append(c.apis, &proc{name: fmt.Sprintf("api%d", i+1), bin: filepath.Join(o.bin, "einvoice"), logs: logs(fmt.Sprintf("api%d", i+1)),
			args: []string{"api"}, env: append(append([]string{}, c.env...),
				"EINVOICE_HTTP_ADDR="+addr(o.port+offAPI+i),
				"EINVOICE_REDIS_URL=redis://"+addr(o.port+offRedis)+"/0",
				"EINVOICE_USAGE_JOURNAL_DIR="+journal,
				"EINVOICE_MAX_RUNS_PER_PROJECT=off",
				"EINVOICE_RATE_LIMIT_SANDBOX=1000000/m",
				"EINVOICE_RATE_LIMIT_PROJECT_SANDBOX=1000000/m",
				"EINVOICE_METRICS_TOKEN=cluster-test-metrics-token")})
		// The workers get a Redis address where nothing listens: they
		// need no Redis.
		c.workers = append(c.workers, &proc{name: fmt.Sprintf("worker%d", i+1), bin: filepath.Join(o.bin, "einvoice"), logs: logs(fmt.Sprintf("worker%d", i+1)),
			args: []string{"worker"}, env: append(append([]string{}, c.env...),
				"EINVOICE_REDIS_URL=redis://"+addr(o.port+offDeadPort)+"/0",
				"EINVOICE_WORKER_HTTP_ADDR="+addr(o.port+offWorker+i))})
	}
	return c
}

func (c *cluster) apiURL(i int) string { return "http://" + addr(c.o.port+offAPI+i) }

// workerURL is where worker i serves /health, /ready and /metrics.
func (c *cluster) workerURL(i int) string { return "http://" + addr(c.o.port+offWorker+i) }

func (c *cluster) startAll(ctx context.Context) error {
	for _, p := range []*proc{c.redis, c.temporal, c.nrs} {
		if err := p.start(); err != nil {
			return err
		}
	}
	if err := waitHTTP(ctx, "http://"+addr(c.o.port+offStandIn)+"/api", 200, time.Minute); err != nil {
		return fmt.Errorf("stand-in: %w", err)
	}
	// The first api migrates; the second starts once it is ready.
	for i, p := range c.apis {
		if err := p.start(); err != nil {
			return err
		}
		if err := waitHTTP(ctx, c.apiURL(i)+"/ready", 200, 2*time.Minute); err != nil {
			return fmt.Errorf("%s: %w (see %s)", p.name, err, p.logs)
		}
	}
	for _, p := range c.workers {
		if err := p.start(); err != nil {
			return err
		}
	}
	for i, p := range c.workers {
		if err := waitHTTP(ctx, c.workerURL(i)+"/ready", 200, 2*time.Minute); err != nil {
			return fmt.Errorf("%s: %w (see %s)", p.name, err, p.logs)
		}
	}
	return nil
}

func (c *cluster) stopAPIs() {
	for _, p := range c.apis {
		p.stop()
	}
}

func (c *cluster) stopAll() {
	for _, p := range append(append(append([]*proc{}, c.apis...), c.workers...), c.nrs, c.temporal, c.redis) {
		if p.running() {
			p.stop()
		}
	}
}

// auditVerify runs `einvoice audit verify` against the database.
func (c *cluster) auditVerify(ctx context.Context) (string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(c.o.bin, "einvoice"), "audit", "verify")
	cmd.Env = append(os.Environ(), "EINVOICE_DATABASE_URL="+c.o.adminDB, "EINVOICE_JWT_SECRET="+jwtSecret, "EINVOICE_ENCRYPTION_KEY="+encryptionKey)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// journalReplays reads the APIs' logs for the usage journals they replayed.
func (c *cluster) journalReplays() string {
	var out []string
	for _, p := range c.apis {
		b, err := os.ReadFile(p.logs)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if !strings.Contains(line, "usage journals of stopped processes replayed") {
				continue
			}
			var v struct {
				Calls int `json:"calls"`
			}
			_ = json.Unmarshal([]byte(line), &v)
			out = append(out, fmt.Sprintf("%s replayed %d calls", p.name, v.Calls))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}
