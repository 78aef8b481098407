package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// scrape reads the server's Prometheus counters: every series of
// einvoice's and the Temporal SDK's counters and histogram counts, keyed
// by the series as exposed (name and labels). The request metrics are
// left out: they count the bench's own polling.
//
// url may be a comma-separated list (the workers of a cluster): their
// series are summed.
func (b *bench) scrape(ctx context.Context, url, token string) (map[string]float64, error) {
	out := map[string]float64{}
	for _, u := range strings.Split(url, ",") {
		one, err := b.scrapeOne(ctx, u, token)
		if err != nil {
			return nil, err
		}
		for k, v := range one {
			out[k] += v
		}
	}
	return out, nil
}

// scrapeOne is scrape of one server.
func (b *bench) scrapeOne(ctx context.Context, url, token string) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: HTTP %d", url, resp.StatusCode)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		series, value := line[:i], line[i+1:]
		name, _, _ := strings.Cut(series, "{")
		if !strings.HasPrefix(name, "einvoice_") && !strings.HasPrefix(name, "temporal_") || strings.HasPrefix(name, "einvoice_http_") {
			continue
		}
		if !strings.HasSuffix(name, "_total") && !strings.HasSuffix(name, "_count") && !strings.HasSuffix(name, "_seconds_sum") {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		out[dropLabels(series, "namespace", "task_queue", "client_name", "worker_type", "le")] += v
	}
	return out, sc.Err()
}

// dropLabels removes labels that only split a count further (namespace,
// task queue, ...), so that the census stays short.
func dropLabels(series string, names ...string) string {
	name, rest, ok := strings.Cut(series, "{")
	if !ok {
		return series
	}
	rest = strings.TrimSuffix(rest, "}")
	var keep []string
	for _, kv := range strings.Split(rest, ",") {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(names, k) {
			keep = append(keep, kv)
		}
	}
	if len(keep) == 0 {
		return name
	}
	return name + "{" + strings.Join(keep, ",") + "}"
}

// printCensus prints every counter that moved, per cleared invoice.
func printCensus(before, after map[string]float64, cleared int) {
	var keys, sums []string
	for k, v := range after {
		if v-before[k] <= 0 {
			continue
		}
		if name, _, _ := strings.Cut(k, "{"); strings.HasSuffix(name, "_seconds_sum") {
			sums = append(sums, k)
			continue
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	slices.Sort(sums)
	fmt.Printf("census per cleared invoice (server counters that moved, /%d):\n", cleared)
	for _, k := range keys {
		fmt.Printf("  %8.2f  %s\n", (after[k]-before[k])/float64(cleared), k)
	}
	if len(sums) == 0 {
		return
	}
	// A histogram's sum over its count is the mean of what it measured
	// over the run (an NRS call's duration, an activity's, ...).
	fmt.Println("mean duration over the run (histogram sum / count):")
	for _, k := range sums {
		name, labels, _ := strings.Cut(k, "{")
		count := strings.TrimSuffix(name, "_sum") + "_count"
		if labels != "" {
			count += "{" + labels
		}
		if n := after[count] - before[count]; n > 0 {
			fmt.Printf("  %8.1f ms  %s\n", 1000*(after[k]-before[k])/n, strings.TrimSuffix(name, "_seconds_sum")+strings.TrimPrefix(k, name))
		}
	}
}
