package main

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/webhooks"
)

// receiver is a loopback webhook endpoint: it verifies every delivery and
// records, per event id, the delay from the event's created_at (the state
// change's transaction) to its arrival.
type receiver struct {
	srv    *http.Server
	secret string
	mu     sync.Mutex
	delays map[string]time.Duration
	dups   int
	bad    int
	// confirmed counts the distinct invoice.confirmed events, and
	// confirmedAt is when the last new one arrived: with a receiver the
	// bench waits for the confirmations here instead of listing the
	// project's invoices again and again (which cost the API and the
	// database as much as a fifth of what it measured).
	confirmed   int
	confirmedAt time.Time
}

// receive serves a receiver and subscribes it to the project's events.
func (b *bench) receive(ctx context.Context, listen, project, token string, events []string) (*receiver, error) {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, err
	}
	rc := &receiver{delays: map[string]time.Duration{}}
	rc.srv = &http.Server{Handler: rc, ReadHeaderTimeout: 5 * time.Second}
	var ep struct {
		Secret string `json:"secret"`
	}
	if err := b.call(ctx, "POST", "/api/v2/projects/"+project+"/webhook-endpoints", nil, token,
		map[string]any{"url": "http://" + ln.Addr().String() + "/hooks", "event_types": events}, &ep); err != nil {
		ln.Close()
		return nil, err
	}
	rc.secret = ep.Secret
	go func() { _ = rc.srv.Serve(ln) }()
	return rc, nil
}

func (rc *receiver) close() { _ = rc.srv.Close() }

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	body, _ := io.ReadAll(r.Body)
	var ev struct {
		ID        string    `json:"id"`
		Type      string    `json:"type"`
		CreatedAt time.Time `json:"created_at"`
	}
	err := verify(body, r.Header.Get(webhooks.SignatureHeader), rc.secret)
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
	if _, dup := rc.delays[ev.ID]; dup {
		rc.dups++
	} else {
		rc.delays[ev.ID] = at.Sub(ev.CreatedAt)
		if ev.Type == model.EventInvoiceConfirmed {
			rc.confirmed++
			rc.confirmedAt = at
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// confirmations returns how many invoice.confirmed events arrived, and
// when the last one did.
func (rc *receiver) confirmations() (int, time.Time) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.confirmed, rc.confirmedAt
}

// report waits for at least want events and prints the delays.
func (rc *receiver) report(ctx context.Context, want int) error {
	for {
		rc.mu.Lock()
		got := len(rc.delays)
		rc.mu.Unlock()
		if got >= want {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("webhooks: %d of %d events arrived when the time ran out", got, want)
		case <-time.After(50 * time.Millisecond):
		}
	}
	time.Sleep(time.Second) // late duplicates
	rc.mu.Lock()
	defer rc.mu.Unlock()
	ds := make([]time.Duration, 0, len(rc.delays))
	for _, d := range rc.delays {
		ds = append(ds, d)
	}
	slices.Sort(ds)
	pct := func(p float64) time.Duration { return ds[int(p*float64(len(ds)-1))] }
	fmt.Printf("webhooks: %d events delivered (%d repeated, %d bad signatures); event to delivery p50 %s, p99 %s, max %s\n",
		len(ds), rc.dups, rc.bad, pct(.5).Round(time.Millisecond), pct(.99).Round(time.Millisecond), ds[len(ds)-1].Round(time.Millisecond))
	return nil
}

// verify checks a delivery's signature header: the endpoint has one
// secret (no rotation during the bench), so the header is exactly what
// signing the body at its timestamp gives.
func verify(body []byte, header, secret string) error {
	t, _, _ := strings.Cut(header, ",")
	ts, err := strconv.ParseInt(strings.TrimPrefix(t, "t="), 10, 64)
	if err != nil {
		return fmt.Errorf("signature header %q malformed", header)
	}
	if !hmac.Equal([]byte(header), []byte(webhooks.Sign(time.Unix(ts, 0), body, secret))) {
		return errors.New("the signature does not match the endpoint's secret")
	}
	return nil
}
