package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/einvoice-ng/einvoice/model/inbox"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// queueConfig is how invoices wait for NRS: their deadlines and the pace
// at which a project's waiting invoices are sent once NRS answers again.
type queueConfig struct {
	// B2CWindow is how long after its issue a B2C invoice must be reported
	// (EINVOICE_B2C_DEADLINE, default 24h, 1h..72h).
	B2CWindow time.Duration
	// AtRiskMargin flags a waiting invoice at risk this close to its
	// deadline (EINVOICE_DEADLINE_AT_RISK_MARGIN, default 30m, 1m..24h).
	AtRiskMargin time.Duration
	// RatePerMinute is how many waiting invoices of a project are sent a
	// minute after an outage (EINVOICE_INVOICE_QUEUE_RATE, default 600,
	// 1..100000).
	RatePerMinute int
	// InboxInterval is how often every configured project's inbox is
	// pulled (EINVOICE_INBOX_PULL_INTERVAL, default 5m, 10s..24h).
	InboxInterval time.Duration
	// ClearingShards is how many clearing shards clear each project's
	// invoices (EINVOICE_CLEARING_SHARDS, default DefaultClearingShards,
	// 0..64; 0: a workflow per invoice). The API processes read it; every
	// one of them must have the same. Workers run both kinds.
	ClearingShards int
	// ClearingBacklog is how many invoices a project's clearing shards may
	// own before submissions are refused with 429
	// (EINVOICE_CLEARING_BACKLOG, default submissions.DefaultClearingBacklog,
	// 10..1000000).
	ClearingBacklog int
	// ClearingConcurrency is how many invoices a clearing shard clears
	// at once (EINVOICE_CLEARING_CONCURRENCY, default
	// workflows.DefaultClearingConcurrency, 1..256), and ClearingInFlight
	// how many calls to NRS a shard has under way at once
	// (EINVOICE_CLEARING_NRS_IN_FLIGHT, default
	// workflows.DefaultClearingInFlight, 1..256). The workers read them.
	ClearingConcurrency, ClearingInFlight int
}

// DefaultClearingShards is EINVOICE_CLEARING_SHARDS's default: two
// shards per project, so that two workers share a busy project.
const DefaultClearingShards = 2

// queueFromEnv reads the queue's settings.
func queueFromEnv(getenv func(string) string) (queueConfig, error) {
	q := queueConfig{B2CWindow: submissions.DefaultB2CWindow, AtRiskMargin: submissions.DefaultAtRiskMargin,
		RatePerMinute: submissions.DefaultQueueRate, InboxInterval: inbox.DefaultPullInterval, ClearingShards: DefaultClearingShards}
	for _, d := range []struct {
		name     string
		dst      *time.Duration
		min, max time.Duration
	}{
		{"EINVOICE_B2C_DEADLINE", &q.B2CWindow, time.Hour, 72 * time.Hour},
		{"EINVOICE_DEADLINE_AT_RISK_MARGIN", &q.AtRiskMargin, time.Minute, 24 * time.Hour},
		{"EINVOICE_INBOX_PULL_INTERVAL", &q.InboxInterval, 10 * time.Second, 24 * time.Hour},
	} {
		if v := getenv(d.name); v != "" {
			t, err := time.ParseDuration(v)
			if err != nil || t < d.min || t > d.max {
				return q, fmt.Errorf("%s: want a duration from %s to %s, got %q", d.name, d.min, d.max, v)
			}
			*d.dst = t
		}
	}
	if v := getenv("EINVOICE_INVOICE_QUEUE_RATE"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100000 {
			return q, fmt.Errorf("EINVOICE_INVOICE_QUEUE_RATE: want invoices a minute from 1 to 100000, got %q", v)
		}
		q.RatePerMinute = n
	}
	if v := getenv("EINVOICE_CLEARING_SHARDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > submissions.MaxClearingShards {
			return q, fmt.Errorf("EINVOICE_CLEARING_SHARDS: want a number of shards from 0 to %d, got %q", submissions.MaxClearingShards, v)
		}
		q.ClearingShards = n
	}
	if v := getenv("EINVOICE_CLEARING_BACKLOG"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 10 || n > 1000000 {
			return q, fmt.Errorf("EINVOICE_CLEARING_BACKLOG: want a number of invoices from 10 to 1000000, got %q", v)
		}
		q.ClearingBacklog = n
	}
	for _, n := range []struct {
		name string
		dst  *int
	}{
		{"EINVOICE_CLEARING_CONCURRENCY", &q.ClearingConcurrency},
		{"EINVOICE_CLEARING_NRS_IN_FLIGHT", &q.ClearingInFlight},
	} {
		if v := getenv(n.name); v != "" {
			k, err := strconv.Atoi(v)
			if err != nil || k < 1 || k > 256 {
				return q, fmt.Errorf("%s: want a number from 1 to 256, got %q", n.name, v)
			}
			*n.dst = k
		}
	}
	return q, nil
}
