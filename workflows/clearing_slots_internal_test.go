package workflows

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// busyConn is an authority connection whose every call lasts a while and
// that records the most calls it had under way at once.
type busyConn struct {
	now, most atomic.Int32
}

func (b *busyConn) hold() {
	n := b.now.Add(1)
	for {
		m := b.most.Load()
		if n <= m || b.most.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(5 * time.Millisecond)
	b.now.Add(-1)
}

func (b *busyConn) Steps(model.InvoiceKind) []string { return nil }
func (b *busyConn) Validate(context.Context, *model.SubmittedInvoice, string) (*submissions.Exchange, error) {
	b.hold()
	return &submissions.Exchange{Operation: "validate"}, nil
}
func (b *busyConn) Send(context.Context, *model.SubmittedInvoice, string) (*submissions.Exchange, error) {
	b.hold()
	return &submissions.Exchange{Operation: "send"}, nil
}
func (b *busyConn) Find(context.Context, *model.SubmittedInvoice, string) (bool, *submissions.Exchange, error) {
	b.hold()
	return true, &submissions.Exchange{Operation: "find"}, nil
}
func (b *busyConn) Confirm(context.Context, *model.SubmittedInvoice) (submissions.Confirmation, *submissions.Exchange, error) {
	b.hold()
	return submissions.Confirmation{}, &submissions.Exchange{Operation: "confirm"}, nil
}
func (b *busyConn) UpdatePayment(context.Context, *model.SubmittedInvoice, submissions.PaymentInput) (*submissions.Exchange, error) {
	b.hold()
	return &submissions.Exchange{Operation: "payment"}, nil
}

// reportingConn also reports after payment.
type reportingConn struct{ busyConn }

func (r *reportingConn) ReportOperations() []string { return []string{"report"} }
func (r *reportingConn) Report(context.Context, *model.SubmittedInvoice, time.Time) (*submissions.Exchange, error) {
	r.hold()
	return &submissions.Exchange{Operation: "report"}, nil
}

// A shard's invoices share its slots: however many call at once, no more
// than InFlight calls are under way, and every call still goes through.
func TestClearingSlotsBoundCallsInFlight(t *testing.T) {
	conn := &busyConn{}
	waits := &waitCounter{}
	ctx := context.WithValue(context.Background(), callSlotsKey{}, &callSlots{ch: make(chan struct{}, 3), obs: waits})
	c := withSlots(ctx, conn)
	inv := &model.SubmittedInvoice{}
	var wg sync.WaitGroup
	var done atomic.Int32
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			switch i % 4 {
			case 0:
				_, err = c.Validate(ctx, inv, submissions.CallValidateIRN)
			case 1:
				_, err = c.Send(ctx, inv, model.CallSign)
			case 2:
				_, _, err = c.Find(ctx, inv, model.CallSign)
			default:
				_, _, err = c.Confirm(ctx, inv)
			}
			if err == nil {
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	if got := done.Load(); got != 40 {
		t.Fatalf("%d of 40 calls went through", got)
	}
	if most := conn.most.Load(); most != 3 {
		t.Fatalf("at most %d calls were under way at once, want 3", most)
	}
	if n, waited := waits.n.Load(), waits.waited.Load(); n != 40 || waited == 0 {
		t.Fatalf("slot waits observed: %d (%d of them waited), want 40, some waiting", n, waited)
	}
	if withSlots(context.Background(), conn) != submissions.Connection(conn) {
		t.Fatal("a connection outside a shard was wrapped")
	}
}

// waitCounter counts the slot waits observed, and those that waited.
type waitCounter struct{ n, waited atomic.Int32 }

func (w *waitCounter) ObserveClearing(stage string, d time.Duration) {
	if stage != ClearingStageSlotWait {
		return
	}
	w.n.Add(1)
	if d > 0 {
		w.waited.Add(1)
	}
}

// A connection that reports keeps reporting through the slots; a call
// that cannot get a slot before its context ends is not sent.
func TestClearingSlotsKeepReportsAndStop(t *testing.T) {
	rc := &reportingConn{}
	slots := &callSlots{ch: make(chan struct{}, 1)}
	ctx := context.WithValue(context.Background(), callSlotsKey{}, slots)
	c := withSlots(ctx, rc)
	rp, ok := c.(submissions.Reporter)
	if !ok {
		t.Fatal("the bounded connection lost Reporter")
	}
	if ex, err := rp.Report(ctx, &model.SubmittedInvoice{}, time.Now()); err != nil || ex.Operation != "report" {
		t.Fatalf("report: %v %v", ex, err)
	}
	slots.ch <- struct{}{} // every slot taken
	stopped, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	ex, err := c.Send(stopped, &model.SubmittedInvoice{}, model.CallSign)
	var ce *submissions.CallError
	if !errors.As(err, &ce) || !ce.NotSent || ex.Operation != "" {
		t.Fatalf("a call without a slot: %+v %v, want not sent", ex, err)
	}
	if rc.now.Load() != 0 || rc.most.Load() != 1 {
		t.Fatalf("the call without a slot reached the authority")
	}
}

// A shard reuses a project's credentials and connection for connFresh,
// per project, and reads them again after; outside a shard nothing is
// kept.
func TestShardConnsKeepCredentialsBriefly(t *testing.T) {
	var none *shardConns
	none.put(uuid.New(), &authority.Credentials{}, &busyConn{})
	if _, _, ok := none.get(uuid.New()); ok {
		t.Fatal("credentials kept outside a shard")
	}
	k := &shardConns{}
	p, q := uuid.New(), uuid.New()
	creds, conn := &authority.Credentials{APIKey: "k"}, &busyConn{}
	k.put(p, creds, conn)
	if c, cn, ok := k.get(p); !ok || c != creds || cn != submissions.Connection(conn) {
		t.Fatalf("kept credentials not found: %v %v %v", c, cn, ok)
	}
	if _, _, ok := k.get(q); ok {
		t.Fatal("another project's credentials found")
	}
	k.mu.Lock()
	e := k.m[p]
	e.at = time.Now().Add(-connFresh)
	k.m[p] = e
	k.mu.Unlock()
	if _, _, ok := k.get(p); ok {
		t.Fatal("stale credentials reused")
	}
}
