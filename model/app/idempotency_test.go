package app_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/idempotency"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// clock is a time tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newServiceOn(tb testing.TB, st *store.Store, now func() time.Time) *app.App {
	tb.Helper()
	return apptest.New(tb, st, func(c *app.Config) { c.UsageFlushInterval, c.Now = time.Hour, now })
}

func idemRequest(key string, body string) idempotency.Request {
	return idempotency.Request{
		Credential: idempotency.KeyCredential(uuid.MustParse("0190a0a0-0000-7000-8000-000000000001")),
		Key:        key, Method: "POST", Target: "/api/v2/invoices/render", Body: []byte(body),
	}
}

func TestIdempotency(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			clk := &clock{t: time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)}
			svc := newServiceOn(t, d.Open(t), clk.now)
			begin := func(r idempotency.Request) (*idempotency.StoredResponse, error) {
				t.Helper()
				return svc.Idempotency.Begin(ctx, r)
			}
			finish := func(r idempotency.Request, resp *idempotency.StoredResponse) {
				t.Helper()
				if err := svc.Idempotency.Finish(ctx, r, resp); err != nil {
					t.Fatal(err)
				}
			}

			// A binary body (a PDF) is stored and replayed byte for byte.
			pdf := make([]byte, 256)
			for i := range pdf {
				pdf[i] = byte(i)
			}
			r := idemRequest("k1", `{"invoice_type":"B2B"}`)
			if got, err := begin(r); err != nil || got != nil {
				t.Fatalf("first claim: %v %v", got, err)
			}
			if _, err := begin(r); model.ErrorCodeOf(err) != model.CodeConflict {
				t.Fatalf("retry in flight: %v, want conflict", err)
			}
			finish(r, &idempotency.StoredResponse{Status: 200, Header: map[string]string{"Content-Type": "application/pdf"}, Body: pdf})
			got, err := begin(r)
			if err != nil || got == nil || got.Status != 200 || got.Header["Content-Type"] != "application/pdf" || !bytes.Equal(got.Body, pdf) {
				t.Fatalf("replay: %+v %v", got, err)
			}

			// Another body, method or path under the same key is a reuse.
			for _, other := range []idempotency.Request{
				idemRequest("k1", `{"invoice_type":"B2C"}`),
				{Credential: r.Credential, Key: "k1", Method: "POST", Target: "/api/v2/invoices/irn/generate", Body: r.Body},
				{Credential: r.Credential, Key: "k1", Method: "PUT", Target: r.Target, Body: r.Body},
			} {
				_, err := begin(other)
				e := model.AsError(err)
				if e == nil || e.Code != model.CodeIdempotencyKeyReuse || len(e.Fields) != 1 ||
					e.Fields[0].Type != model.ProblemIdempotencyKeyMismatch || e.Fields[0].Loc[0] != "header" {
					t.Fatalf("reuse %s %s: %+v", other.Method, other.Target, e)
				}
			}
			// Keys belong to one credential.
			mine := idemRequest("k1", `{"other":true}`)
			mine.Credential = idempotency.UserCredential(uuid.New())
			if got, err := begin(mine); err != nil || got != nil {
				t.Fatalf("same key, other credential: %v %v", got, err)
			}

			// Server errors, 409 and 429 release the key; a retry runs again.
			for _, status := range []int{500, 503, 409, 429} {
				r := idemRequest("release", `{}`)
				if got, err := begin(r); err != nil || got != nil {
					t.Fatalf("claim before %d: %v %v", status, got, err)
				}
				finish(r, &idempotency.StoredResponse{Status: status, Body: []byte(`{}`)})
			}
			// So does a response that could not be kept (nil).
			rn := idemRequest("nil", `{}`)
			if _, err := begin(rn); err != nil {
				t.Fatal(err)
			}
			finish(rn, nil)
			if got, err := begin(rn); err != nil || got != nil {
				t.Fatalf("after release: %v %v", got, err)
			}

			// A client error is kept like a success.
			r4 := idemRequest("k422", `{"bad":1}`)
			if _, err := begin(r4); err != nil {
				t.Fatal(err)
			}
			finish(r4, &idempotency.StoredResponse{Status: 422, Header: map[string]string{"Content-Type": "application/json"}, Body: []byte(`{"detail":[]}`)})
			if got, err := begin(r4); err != nil || got == nil || got.Status != 422 {
				t.Fatalf("422 replay: %+v %v", got, err)
			}

			// A claim whose process died is taken over by the same request
			// once its lease lapses, never by another request.
			stale := idemRequest("stale", `{"a":1}`)
			if _, err := begin(stale); err != nil {
				t.Fatal(err)
			}
			clk.advance(idempotency.DefaultLease - time.Second)
			if _, err := begin(stale); model.ErrorCodeOf(err) != model.CodeConflict {
				t.Fatalf("retry within the lease: %v, want conflict", err)
			}
			clk.advance(time.Second)
			if _, err := begin(idemRequest("stale", `{"a":2}`)); model.ErrorCodeOf(err) != model.CodeIdempotencyKeyReuse {
				t.Fatalf("other request on a stale claim: %v", err)
			}
			if got, err := begin(stale); err != nil || got != nil {
				t.Fatalf("take over stale claim: %v %v", got, err)
			}
			finish(stale, &idempotency.StoredResponse{Status: 200, Body: []byte(`{}`)})

			// After 24 h a key is free again, and expired rows are purged.
			clk.advance(idempotency.TTL)
			if got, err := begin(idemRequest("k1", `{"after":"a day"}`)); err != nil || got != nil {
				t.Fatalf("expired key: %v %v", got, err)
			}
			n, err := svc.Idempotency.Purge(ctx)
			if err != nil || n != 4 { // the user's k1, nil, k422 and stale; the key's k1 was taken over
				t.Fatalf("purge: %d %v", n, err)
			}
			if got, err := begin(idemRequest("k1", `{"after":"a day"}`)); model.ErrorCodeOf(err) != model.CodeConflict {
				t.Fatalf("taken-over key survived the purge: %v %v", got, err)
			}
		})
	}
}

func TestCheckIdempotencyKey(t *testing.T) {
	long := string(bytes.Repeat([]byte("k"), 256))
	for _, c := range []struct {
		key  string
		want model.ProblemType
	}{
		{"", model.ProblemStringTooShort},
		{long, model.ProblemStringTooLong},
		{"tab\there", model.ProblemStringPatternMismatch},
		{"é", model.ProblemStringPatternMismatch},
		{long[:255], ""},
		{"0190a0a0-0000-7000-8000-000000000001", ""},
	} {
		err := idempotency.CheckKey(c.key)
		e := model.AsError(err)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.key, err)
		case c.want != "" && (e == nil || e.Fields[0].Type != c.want || e.Fields[0].Loc[1] != idempotency.Header):
			t.Errorf("%q: %+v, want %s at header", c.key, e, c.want)
		}
	}
}

// TestIdempotencyConcurrentClaims races claims of one key from two services
// over one database (two API processes): exactly one wins.
func TestIdempotencyConcurrentClaims(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			var url string
			if d.Name == "postgres" {
				url = storetest.PostgresURL(t)
			} else {
				url = storetest.SQLiteURL(t)
			}
			ctx := context.Background()
			var svcs []*app.App
			for i := 0; i < 2; i++ {
				st, err := store.Open(ctx, url)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { st.Close() })
				if _, err := st.Migrations().Up(ctx); err != nil {
					t.Fatal(err)
				}
				svcs = append(svcs, newServiceOn(t, st, nil))
			}
			const n = 16
			var (
				wg                   sync.WaitGroup
				mu                   sync.Mutex
				won, busy, otherErrs int
			)
			r := idemRequest("race", `{"x":1}`)
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func(svc *app.App) {
					defer wg.Done()
					got, err := svc.Idempotency.Begin(ctx, r)
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil && got == nil:
						won++
					case model.ErrorCodeOf(err) == model.CodeConflict:
						busy++
					default:
						otherErrs++
						t.Errorf("claim: %v %v", got, err)
					}
				}(svcs[i%2])
			}
			wg.Wait()
			if won != 1 || busy != n-1 {
				t.Fatalf("won %d, busy %d, errors %d; want exactly one winner", won, busy, otherErrs)
			}
		})
	}
}

// TestIdempotencyLease: a claim is held on a lease its holder renews; once
// it lapsed (the holder died, or could not write its end) a retry of the
// same request takes it over, and the old holder is fenced off: it can
// neither renew nor store its response, and its held context ends.
func TestIdempotencyLease(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			clk := &clock{t: time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)}
			const lease = 300 * time.Millisecond
			svc := idempotency.New(d.Open(t), idempotency.Config{Box: apptest.Config(t, nil).Box, Now: clk.now, Lease: lease})
			r := idemRequest("lease", `{"x":1}`)
			first, stored, err := svc.Acquire(ctx, r)
			if err != nil || first == nil || stored != nil {
				t.Fatalf("claim: %v %v %v", first, stored, err)
			}
			// Renewed, the claim outlives its first lease.
			clk.advance(lease - time.Millisecond)
			if err := first.Renew(ctx); err != nil {
				t.Fatalf("renew: %v", err)
			}
			clk.advance(lease - time.Millisecond)
			if _, _, err := svc.Acquire(ctx, r); model.ErrorCodeOf(err) != model.CodeConflict {
				t.Fatalf("retry while renewed: %v, want conflict", err)
			}
			// Not renewed, it lapses: the retry takes it over.
			clk.advance(time.Millisecond)
			second, stored, err := svc.Acquire(ctx, r)
			if err != nil || second == nil || stored != nil {
				t.Fatalf("take over: %v %v %v", second, stored, err)
			}
			if err := first.Renew(ctx); !errors.Is(err, idempotency.ErrClaimLost) {
				t.Fatalf("old holder renews: %v, want ErrClaimLost", err)
			}
			held, stop := first.Hold(ctx)
			<-held.Done()
			if cause := context.Cause(held); !errors.Is(cause, idempotency.ErrClaimLost) {
				t.Fatalf("old holder's context ended with %v, want ErrClaimLost", cause)
			}
			stop()
			// The old holder's late answer is not stored; the new one's is.
			if err := first.Finish(ctx, &idempotency.StoredResponse{Status: 200, Body: []byte(`{"run":1}`)}); err != nil {
				t.Fatal(err)
			}
			if _, _, err := svc.Acquire(ctx, r); model.ErrorCodeOf(err) != model.CodeConflict {
				t.Fatalf("after the old holder's finish: %v, want the new claim still in flight", err)
			}
			if err := second.Finish(ctx, &idempotency.StoredResponse{Status: 200, Body: []byte(`{"run":2}`)}); err != nil {
				t.Fatal(err)
			}
			_, got, err := svc.Acquire(ctx, r)
			if err != nil || got == nil || string(got.Body) != `{"run":2}` {
				t.Fatalf("replay: %+v %v", got, err)
			}
			// A released claim of the old holder does not release the new
			// one either.
			r2 := idemRequest("lease-2", `{"x":2}`)
			old, _, _ := svc.Acquire(ctx, r2)
			clk.advance(lease)
			cur, _, err := svc.Acquire(ctx, r2)
			if err != nil || cur == nil {
				t.Fatalf("take over: %v", err)
			}
			if err := old.Finish(ctx, nil); err != nil {
				t.Fatal(err)
			}
			if _, _, err := svc.Acquire(ctx, r2); model.ErrorCodeOf(err) != model.CodeConflict {
				t.Fatalf("after the old holder's release: %v, want the new claim still in flight", err)
			}
		})
	}
}

// TestIdempotencyCommit keeps a claim's answer in the transaction of its
// request's effect (Claim.Bind, then Store.KeepAnswer): committed, it is replayed, and
// the claim stays held while its request ends; rolled back, the claim is
// still in flight; a claim taken over meanwhile fails the transaction with
// a conflict and writes nothing.
func TestIdempotencyCommit(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			clk := &clock{t: time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)}
			const lease = 300 * time.Millisecond
			st := d.Open(t)
			svc := idempotency.New(st, idempotency.Config{Box: apptest.Config(t, nil).Box, Now: clk.now, Lease: lease})
			render := func(out any) (*idempotency.StoredResponse, error) {
				return &idempotency.StoredResponse{Status: 200, Header: map[string]string{"Content-Type": "application/json"},
					Body: []byte(`{"run":"` + out.(string) + `"}`)}, nil
			}
			commit := func(c *idempotency.Claim, out string, after error) (bool, error) {
				var kept bool
				err := st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
					var err error
					if kept, err = tx.KeepAnswer(c.Bind(ctx, render), out); err != nil {
						return err
					}
					return after
				})
				return kept, err
			}

			// Without a claim, nothing is kept.
			if err := st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
				kept, err := tx.KeepAnswer(ctx, "none")
				if kept || err != nil {
					t.Fatalf("commit without a claim: %v %v", kept, err)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}

			r := idemRequest("commit", `{"x":1}`)
			c, _, err := svc.Acquire(ctx, r)
			if err != nil || c == nil {
				t.Fatalf("claim: %v %v", c, err)
			}
			// Rolled back with the effect: still in flight.
			if _, err := commit(c, "1", errors.New("the effect failed")); err == nil {
				t.Fatal("the transaction did not fail")
			}
			if _, _, err := svc.Acquire(ctx, r); model.ErrorCodeOf(err) != model.CodeConflict {
				t.Fatalf("after a rollback: %v, want the claim in flight", err)
			}
			if kept, err := commit(c, "1", nil); !kept || err != nil {
				t.Fatalf("commit: %v %v", kept, err)
			}
			// The claim is its request's until it ends, past its lease too;
			// its late Finish changes nothing.
			clk.advance(2 * lease)
			if err := c.Renew(ctx); err != nil {
				t.Fatalf("renew after the commit: %v", err)
			}
			if err := c.Finish(ctx, &idempotency.StoredResponse{Status: 200, Body: []byte(`{"run":"other"}`)}); err != nil {
				t.Fatal(err)
			}
			_, got, err := svc.Acquire(ctx, r)
			if err != nil || got == nil || string(got.Body) != `{"run":"1"}` || got.Header["Content-Type"] != "application/json" {
				t.Fatalf("replay: %+v %v", got, err)
			}

			// Taken over before the commit: a conflict, nothing kept.
			r2 := idemRequest("commit-2", `{"x":2}`)
			old, _, _ := svc.Acquire(ctx, r2)
			clk.advance(lease)
			cur, _, err := svc.Acquire(ctx, r2)
			if err != nil || cur == nil {
				t.Fatalf("take over: %v", err)
			}
			if kept, err := commit(old, "old", nil); kept || !errors.Is(err, idempotency.ErrClaimLost) || model.ErrorCodeOf(err) != model.CodeConflict {
				t.Fatalf("commit of a lost claim: %v %v, want a conflict", kept, err)
			}
			if kept, err := commit(cur, "2", nil); !kept || err != nil {
				t.Fatalf("commit of the current claim: %v %v", kept, err)
			}
			if _, got, err := svc.Acquire(ctx, r2); err != nil || got == nil || string(got.Body) != `{"run":"2"}` {
				t.Fatalf("replay: %+v %v", got, err)
			}
		})
	}
}

// TestIdempotencyEffects records an effect of a claim's request in the
// transaction of that effect (Claim.BindEffect, then Store.KeepAnswer):
// rolled back, nothing is recorded; committed, a retry that takes the
// claim over once its lease lapsed finds it (Claim.Effect), and so does one
// after the request ended in a server error (the claim is lapsed at once,
// not deleted); a claim taken over meanwhile fails the transaction with a
// conflict and records nothing; an expired key's effects are gone.
func TestIdempotencyEffects(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			clk := &clock{t: time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)}
			const lease = 300 * time.Millisecond
			st := d.Open(t)
			svc := idempotency.New(st, idempotency.Config{Box: apptest.Config(t, nil).Box, Now: clk.now, Lease: lease})
			ref := func(out any) (string, error) { return out.(string), nil }
			commit := func(c *idempotency.Claim, slot, out string, after error) error {
				return st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
					kept, err := tx.KeepAnswer(c.BindEffect(ctx, slot, ref), out)
					if err != nil {
						return err
					}
					if kept {
						t.Fatal("an effect's record kept an answer")
					}
					return after
				})
			}
			effect := func(c *idempotency.Claim, slot string) string {
				t.Helper()
				got, err := c.Effect(ctx, slot)
				if err != nil {
					t.Fatal(err)
				}
				return got
			}
			takeOver := func(r idempotency.Request) *idempotency.Claim {
				t.Helper()
				c, stored, err := svc.Acquire(ctx, r)
				if err != nil || c == nil || stored != nil {
					t.Fatalf("take over: %v %+v %v", c, stored, err)
				}
				return c
			}

			r := idemRequest("effects", `{"x":1}`)
			first := takeOver(r)
			if err := commit(first, "a", "run-a", errors.New("the effect failed")); err == nil {
				t.Fatal("the transaction did not fail")
			}
			if err := commit(first, "a", "run-a", nil); err != nil {
				t.Fatal(err)
			}
			// The request is still in flight: a retry waits.
			if _, _, err := svc.Acquire(ctx, r); model.ErrorCodeOf(err) != model.CodeConflict {
				t.Fatalf("retry in flight: %v, want a conflict", err)
			}

			// Its process died: a retry takes the claim over, with the effect.
			clk.advance(lease)
			second := takeOver(r)
			if got := effect(second, "a"); got != "run-a" {
				t.Fatalf("effect a: %q, want run-a", got)
			}
			if got := effect(second, "b"); got != "" {
				t.Fatalf("effect b: %q, want none", got)
			}
			// The first claim, lost, records nothing.
			if err := commit(first, "b", "lost", nil); !errors.Is(err, idempotency.ErrClaimLost) || model.ErrorCodeOf(err) != model.CodeConflict {
				t.Fatalf("commit of a lost claim: %v, want a conflict", err)
			}
			if err := commit(second, "b", "run-b", nil); err != nil {
				t.Fatal(err)
			}
			// A server error ends the request without its answer: the claim
			// is lapsed, not deleted, and the next retry finds both effects.
			if err := second.Finish(ctx, &idempotency.StoredResponse{Status: 503}); err != nil {
				t.Fatal(err)
			}
			third := takeOver(r)
			if a, b := effect(third, "a"), effect(third, "b"); a != "run-a" || b != "run-b" {
				t.Fatalf("effects %q %q after a server error, want run-a run-b", a, b)
			}
			if err := third.Finish(ctx, &idempotency.StoredResponse{Status: 200, Body: []byte(`{"runs":2}`)}); err != nil {
				t.Fatal(err)
			}
			if _, got, err := svc.Acquire(ctx, r); err != nil || got == nil || string(got.Body) != `{"runs":2}` {
				t.Fatalf("replay: %+v %v", got, err)
			}

			// Released without effects, a claim is gone; a key used again
			// once expired starts with none.
			plain := idemRequest("plain", `{"x":2}`)
			before, err := st.Idempotency().UsageOf(ctx, plain.Credential, clk.now())
			if err != nil {
				t.Fatal(err)
			}
			if err := takeOver(plain).Finish(ctx, nil); err != nil {
				t.Fatal(err)
			}
			if u, err := st.Idempotency().UsageOf(ctx, plain.Credential, clk.now()); err != nil || u.Entries != before.Entries {
				t.Fatalf("usage %+v %v, want %+v: the released claim off it", u, err, before)
			}
			if _, _, err := svc.Acquire(ctx, plain); err != nil {
				t.Fatalf("claim after a release: %v", err)
			}
			clk.advance(idempotency.TTL)
			if got := effect(takeOver(r), "a"); got != "" {
				t.Fatalf("effect of an expired key: %q, want none", got)
			}
		})
	}
}

// TestIdempotencySealedEffects records an effect with the answer a retry
// must give again (Claim.BindSealedEffect): a retry taking the claim over
// finds the reference and the answer (Claim.SealedEffect), the store holds
// the reference and the answer sealed, never the answer in clear, and a
// sealed answer moved to another slot does not open.
func TestIdempotencySealedEffects(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			clk := &clock{t: time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)}
			const lease = 300 * time.Millisecond
			st := d.Open(t)
			svc := idempotency.New(st, idempotency.Config{Box: apptest.Config(t, nil).Box, Now: clk.now, Lease: lease})
			const answer = `{"id":"key-1","client_secret":"cs_sandbox_0123456789abcdefghij"}`
			r := idemRequest("sealed", `{"x":1}`)
			first, _, err := svc.Acquire(ctx, r)
			if err != nil || first == nil {
				t.Fatalf("claim: %v %v", first, err)
			}
			err = st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
				_, err := tx.KeepAnswer(first.BindSealedEffect(ctx, "a", func(out any) (string, []byte, error) {
					return "key-1", []byte(out.(string)), nil
				}), answer)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}

			var raw []string
			if err := st.DB().NewSelect().Table("idempotency_keys").Column("effects").Scan(ctx, &raw); err != nil {
				t.Fatal(err)
			}
			if len(raw) != 1 || !strings.Contains(raw[0], "key-1") || strings.Contains(raw[0], "client_secret") || strings.Contains(raw[0], "0123456789") {
				t.Fatalf("effects stored %q, want the reference and the answer sealed", raw)
			}

			clk.advance(lease)
			second, _, err := svc.Acquire(ctx, r)
			if err != nil || second == nil {
				t.Fatalf("take over: %v %v", second, err)
			}
			if id, got, err := second.SealedEffect(ctx, "a"); err != nil || id != "key-1" || string(got) != answer {
				t.Fatalf("sealed effect: %q %q %v, want key-1 %s", id, got, err, answer)
			}
			if id, got, err := second.SealedEffect(ctx, "b"); err != nil || id != "" || got != nil {
				t.Fatalf("sealed effect b: %q %q %v, want none", id, got, err)
			}
			// The same sealed answer recorded under another slot does not open.
			ref, err := second.Effect(ctx, "a")
			if err != nil {
				t.Fatal(err)
			}
			err = st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
				_, err := tx.KeepAnswer(second.BindEffect(ctx, "b", func(any) (string, error) { return ref, nil }), nil)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			clk.advance(lease)
			third, _, err := svc.Acquire(ctx, r)
			if err != nil || third == nil {
				t.Fatalf("take over: %v %v", third, err)
			}
			if _, got, err := third.SealedEffect(ctx, "b"); err == nil || got != nil {
				t.Fatalf("a sealed answer moved to another slot opened: %q", got)
			}
		})
	}
}
