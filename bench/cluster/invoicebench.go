package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// benchInvoices runs bench/invoices (the binary bench-invoices beside
// einvoice) against the running cluster instead of the fault scenarios:
// its submissions spread over both APIs, the CPU per cleared invoice of
// every process (the Temporal server, the stand-in, both APIs, both
// workers, and the PostgreSQL backends of the two databases), the census
// from both workers' metrics (summed) and webhook deliveries to a receiver on
// loopback. Afterwards it counts the lines of every process's log that
// tell of an exceeded deadline.
func (c *cluster) benchInvoices(ctx context.Context, extra []string) error {
	args := []string{
		"-base", c.apiURL(0) + "," + c.apiURL(1),
		"-n", strconv.Itoa(c.o.benchN), "-rate", strconv.FormatFloat(c.o.benchRate, 'f', -1, 64),
		"-metrics", c.workerURL(0) + "/metrics," + c.workerURL(1) + "/metrics",
		"-webhooks",
		"-postgres", c.o.adminDB, "-postgres-dbs", dbName(c.o.adminDB) + "," + dbName(c.o.sandbox),
	}
	for _, p := range append(append([]*proc{c.temporal, c.nrs}, c.apis...), c.workers...) {
		args = append(args, "-pid", fmt.Sprintf("%s=%d", p.name, p.pid()))
	}
	cmd := exec.CommandContext(ctx, filepath.Join(c.o.bin, "bench-invoices"), append(args, extra...)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err := cmd.Run()
	for _, p := range append(append([]*proc{c.temporal, c.nrs}, c.apis...), c.workers...) {
		n, first := deadlineLines(p.logs)
		fmt.Printf("log %s: %d lines with an exceeded deadline%s\n", p.name, n, first)
	}
	return err
}

// dbName is the database of a PostgreSQL URL.
func dbName(dsn string) string {
	s, _, _ := strings.Cut(dsn, "?")
	return s[strings.LastIndexByte(s, '/')+1:]
}

// deadlineLines counts the lines of a log that tell of an exceeded
// deadline (a Temporal call or a request that timed out), and quotes the
// first.
func deadlineLines(path string) (int, string) {
	f, err := os.Open(path)
	if err != nil {
		return 0, ""
	}
	defer f.Close()
	n, first := 0, ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := strings.ToLower(sc.Text())
		if strings.Contains(l, "deadline exceeded") || strings.Contains(l, "deadline_exceeded") || strings.Contains(l, "deadlineexceeded") {
			if n == 0 {
				first = ": " + sc.Text()
				if len(first) > 300 {
					first = first[:300] + "…"
				}
			}
			n++
		}
	}
	return n, first
}
