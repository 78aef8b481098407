package sandboxdb_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/migrations"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb/sandboxdbtest"
)

func business(owner string) *sandboxdb.Business {
	now := time.Now().UTC().Truncate(time.Microsecond)
	id := uuid.NewString()
	return &sandboxdb.Business{BusinessID: id, Owner: owner, EntityID: uuid.NewString(), ServiceID: "94ND90NR",
		TIN: "TIN-" + id[:8], Name: "Shop " + owner, Email: owner + "@example.com", Certificate: "cert",
		QREncryption: "RSA-PKCS1-v1_5", APIKey: "key-" + id, APISecretHash: "hash", CreatedAt: now, UpdatedAt: now}
}

func invoice(businessID, irn string, at time.Time, bytes int) *sandboxdb.Invoice {
	return &sandboxdb.Invoice{BusinessID: businessID, IRN: irn, EntryStatus: sandboxdb.EntrySigned, InvoiceTypeCode: "396",
		PaymentStatus: "PENDING", Payload: strings.Repeat("x", bytes), PayloadBytes: int64(bytes), CreatedAt: at, SignedAt: &at}
}

func TestQueries(t *testing.T) {
	for _, d := range sandboxdbtest.Dialects() {
		t.Run(d.Name, func(t *testing.T) {
			db := d.Open(t)
			ctx := context.Background()
			a, b := business("a"), business("b")
			for _, x := range []*sandboxdb.Business{a, b} {
				if err := db.Businesses().Insert(ctx, x); err != nil {
					t.Fatal(err)
				}
			}
			t.Run("unique api key", func(t *testing.T) {
				c := business("c")
				c.APIKey = a.APIKey
				if err := db.Businesses().Insert(ctx, c); !errors.Is(err, sandboxdb.ErrConflict) {
					t.Fatalf("want conflict, got %v", err)
				}
			})
			t.Run("lookups", func(t *testing.T) {
				got, err := db.Businesses().ByAPIKey(ctx, a.APIKey)
				if err != nil || got.BusinessID != a.BusinessID || got.Owner != "a" || !got.CreatedAt.Equal(a.CreatedAt) {
					t.Fatalf("%+v %v", got, err)
				}
				if _, err := db.Businesses().ByID(ctx, strings.ToUpper(b.BusinessID)); err != nil {
					t.Fatal(err)
				}
				if _, err := db.Businesses().ByOwner(ctx, "nobody"); !errors.Is(err, sandboxdb.ErrNotFound) {
					t.Fatalf("want not found, got %v", err)
				}
			})
			t.Run("business and its faults in force", func(t *testing.T) {
				now := time.Now().UTC().Truncate(time.Millisecond)
				got, faults, err := db.Businesses().ByAPIKeyWithFaults(ctx, b.APIKey, now)
				if err != nil || got.BusinessID != b.BusinessID || got.APISecretHash != b.APISecretHash || len(faults) != 0 {
					t.Fatalf("without faults: %+v %v %v", got, faults, err)
				}
				for _, f := range []*sandboxdb.Fault{
					{BusinessID: b.BusinessID, Kind: "throttle", Endpoint: "invoice_sign", RateCount: 3, RatePeriodMS: 1000, StartsAt: now.Add(-time.Minute), EndsAt: now.Add(time.Minute)},
					{BusinessID: b.BusinessID, Kind: "outage", Status: 503, RetryAfterS: 5, StartsAt: now.Add(-time.Minute), EndsAt: now.Add(time.Minute)},
					{BusinessID: b.BusinessID, Kind: "outage", Endpoint: "transmit", Status: 502, StartsAt: now.Add(time.Minute), EndsAt: now.Add(time.Hour)},
					{BusinessID: a.BusinessID, Kind: "outage", Status: 503, StartsAt: now.Add(-time.Minute), EndsAt: now.Add(time.Minute)},
				} {
					if err := db.Faults().Set(ctx, f, now); err != nil {
						t.Fatal(err)
					}
				}
				got, faults, err = db.Businesses().ByAPIKeyWithFaults(ctx, b.APIKey, now)
				if err != nil || got.BusinessID != b.BusinessID || len(faults) != 2 ||
					faults[0].Kind != "outage" || faults[0].Status != 503 || faults[0].RetryAfterS != 5 ||
					faults[1].Kind != "throttle" || faults[1].Endpoint != "invoice_sign" || faults[1].RateCount != 3 || !faults[1].EndsAt.Equal(now.Add(time.Minute)) {
					t.Fatalf("with faults: %+v %+v %v", got, faults, err)
				}
				active, err := db.Faults().Active(ctx, b.BusinessID, now)
				if err != nil || len(active) != len(faults) {
					t.Fatalf("Active lists %d, the join %d (%v)", len(active), len(faults), err)
				}
				if _, _, err := db.Businesses().ByAPIKeyWithFaults(ctx, "no such key", now); !errors.Is(err, sandboxdb.ErrNotFound) {
					t.Fatalf("unknown key: %v", err)
				}
				for _, x := range []*sandboxdb.Business{a, b} {
					if _, err := db.Faults().Clear(ctx, x.BusinessID, "", "*"); err != nil {
						t.Fatal(err)
					}
				}
			})
			t.Run("eviction stays within one business", func(t *testing.T) {
				base := time.Now().UTC().Truncate(time.Microsecond)
				for i := range 5 {
					for _, x := range []*sandboxdb.Business{a, b} {
						if err := db.Invoices().Insert(ctx, invoice(x.BusinessID, fmt.Sprintf("INV%d-94ND90NR-20260315", i), base.Add(time.Duration(i)*time.Second), 10)); err != nil {
							t.Fatal(err)
						}
					}
				}
				n, err := db.Invoices().Evict(ctx, a.BusinessID, "INV4-94ND90NR-20260315", 3, 1<<20)
				if err != nil || n != 2 {
					t.Fatalf("evicted %d, %v", n, err)
				}
				if _, err := db.Invoices().Get(ctx, a.BusinessID, "INV0-94ND90NR-20260315"); !errors.Is(err, sandboxdb.ErrNotFound) {
					t.Fatalf("oldest kept: %v", err)
				}
				if c, _ := db.Invoices().Count(ctx, b.BusinessID); c != 5 {
					t.Fatalf("the other business lost invoices: %d", c)
				}
				n, err = db.Invoices().Evict(ctx, a.BusinessID, "INV4-94ND90NR-20260315", 100, 15)
				if err != nil || n != 2 {
					t.Fatalf("evicted by bytes %d, %v", n, err)
				}
				if _, err := db.Invoices().Get(ctx, a.BusinessID, "INV4-94ND90NR-20260315"); err != nil {
					t.Fatalf("kept invoice evicted: %v", err)
				}
			})
			t.Run("writes with their counters", func(t *testing.T) {
				// InsertTotals answers the business's totals with the new
				// invoice counted, as Evict reads them; a repeat conflicts
				// and counts nothing.
				c := business("totals")
				if err := db.Businesses().Insert(ctx, c); err != nil {
					t.Fatal(err)
				}
				const before = 0
				const irn = "INV900-94ND90NR-20260316"
				var got sandboxdb.Totals
				err := db.RunInTx(ctx, func(ctx context.Context, tx *sandboxdb.DB) error {
					var err error
					got, err = tx.Invoices().InsertTotals(ctx, invoice(c.BusinessID, irn, time.Now().UTC(), 17))
					return err
				})
				if err != nil || got.N != before+1 || got.Bytes != 17 {
					t.Fatalf("totals after an insert: %+v (%d before), %v", got, before, err)
				}
				err = db.RunInTx(ctx, func(ctx context.Context, tx *sandboxdb.DB) error {
					_, err := tx.Invoices().InsertTotals(ctx, invoice(c.BusinessID, irn, time.Now().UTC(), 17))
					return err
				})
				if !errors.Is(err, sandboxdb.ErrConflict) {
					t.Fatalf("a repeated insert: %v", err)
				}
				var again sandboxdb.Totals
				err = db.RunInTx(ctx, func(ctx context.Context, tx *sandboxdb.DB) error {
					again, err = tx.Invoices().InsertTotals(ctx, invoice(c.BusinessID, "INV901-94ND90NR-20260316", time.Now().UTC(), 5))
					return err
				})
				if err != nil || again.N != got.N+1 || again.Bytes != got.Bytes+5 {
					t.Fatalf("totals after the conflict and another insert: %+v after %+v, %v", again, got, err)
				}
				// EvictFrom acts on the totals given: within them, nothing
				// goes; over them, the oldest.
				if n, err := db.Invoices().EvictFrom(ctx, c.BusinessID, irn, again.N, again.Bytes, &again); err != nil || n != 0 {
					t.Fatalf("evicted within the bounds: %d, %v", n, err)
				}
				if n, err := db.Invoices().EvictFrom(ctx, c.BusinessID, irn, again.N-1, again.Bytes, &again); err != nil || n != 1 {
					t.Fatalf("evicted over the bounds: %d, %v", n, err)
				}
				if _, err := db.Invoices().Get(ctx, c.BusinessID, "INV901-94ND90NR-20260316"); !errors.Is(err, sandboxdb.ErrNotFound) {
					t.Fatalf("the invoice evicted: %v", err)
				}
				// UpdateStateCounting writes the state and counts once per
				// call; a failed transaction neither.
				inv, err := db.Invoices().GetState(ctx, c.BusinessID, irn)
				if err != nil {
					t.Fatal(err)
				}
				now := time.Now().UTC().Truncate(time.Microsecond)
				for want := 1; want <= 2; want++ {
					inv.TransmittedAt = &now
					err := db.RunInTx(ctx, func(ctx context.Context, tx *sandboxdb.DB) error {
						return tx.Invoices().UpdateStateCounting(ctx, inv, "count:test", now)
					})
					if err != nil {
						t.Fatal(err)
					}
					if n, err := db.Attempts().Get(ctx, c.BusinessID, "count:test", irn); err != nil || n != want {
						t.Fatalf("counted %d, %v; want %d", n, err, want)
					}
				}
				if st, err := db.Invoices().GetState(ctx, c.BusinessID, irn); err != nil || st.TransmittedAt == nil || !st.TransmittedAt.Equal(now) {
					t.Fatalf("state written: %+v, %v", st, err)
				}
				errStop := errors.New("stop")
				err = db.RunInTx(ctx, func(ctx context.Context, tx *sandboxdb.DB) error {
					if err := tx.Invoices().UpdateStateCounting(ctx, inv, "count:test", now); err != nil {
						return err
					}
					return errStop
				})
				if n, _ := db.Attempts().Get(ctx, c.BusinessID, "count:test", irn); !errors.Is(err, errStop) || n != 2 {
					t.Fatalf("a failed transaction counted: %d, %v", n, err)
				}
			})
			t.Run("totals over concurrent writes", func(t *testing.T) {
				// A business's invoices written at once, each in its own
				// transaction, as the stand-in's calls are: the totals
				// (spread over slots) count every one; the bound is then
				// kept exactly.
				c := business("c")
				if err := db.Businesses().Insert(ctx, c); err != nil {
					t.Fatal(err)
				}
				base := time.Now().UTC().Truncate(time.Microsecond)
				const n = 40
				var wg sync.WaitGroup
				errs := make(chan error, n)
				for i := range n {
					wg.Go(func() {
						errs <- db.RunInTx(ctx, func(ctx context.Context, tx *sandboxdb.DB) error {
							inv := invoice(c.BusinessID, fmt.Sprintf("INV%d-94ND90NR-20260316", i), base.Add(time.Duration(i)*time.Millisecond), 10)
							if err := tx.Invoices().Insert(ctx, inv); err != nil {
								return err
							}
							inv.Payload, inv.PayloadBytes = strings.Repeat("y", 20), 20
							if err := tx.Invoices().Update(ctx, inv, 10); err != nil {
								return err
							}
							// A change of state reads and writes no payload.
							st, err := tx.Invoices().GetState(ctx, c.BusinessID, inv.IRN)
							if err != nil {
								return err
							}
							if st.Payload != "" || st.PayloadBytes != 20 {
								return fmt.Errorf("state read: payload %q, %d bytes", st.Payload, st.PayloadBytes)
							}
							at := base.Add(time.Hour)
							st.TransmittedAt = &at
							return tx.Invoices().UpdateState(ctx, st)
						})
					})
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					if err != nil {
						t.Fatal(err)
					}
				}
				if inv, err := db.Invoices().Get(ctx, c.BusinessID, "INV7-94ND90NR-20260316"); err != nil ||
					inv.Payload != strings.Repeat("y", 20) || inv.PayloadBytes != 20 || inv.TransmittedAt == nil {
					t.Fatalf("after a change of state: %+v, %v", inv, err)
				}
				// 40 invoices of 20 bytes: a bound of 30 invoices and 1 KiB
				// evicts exactly the 10 oldest.
				got, err := db.Invoices().Evict(ctx, c.BusinessID, "INV39-94ND90NR-20260316", 30, 1<<10)
				if err != nil || got != 10 {
					t.Fatalf("evicted %d, %v", got, err)
				}
				if left, _ := db.Invoices().Count(ctx, c.BusinessID); left != 30 {
					t.Fatalf("%d invoices left", left)
				}
				// The totals followed: 30 invoices, 600 bytes.
				if got, err := db.Invoices().Evict(ctx, c.BusinessID, "INV39-94ND90NR-20260316", 30, 600); err != nil || got != 0 {
					t.Fatalf("evicted again %d, %v", got, err)
				}
				if got, err := db.Invoices().Evict(ctx, c.BusinessID, "INV39-94ND90NR-20260316", 30, 599); err != nil || got != 1 {
					t.Fatalf("evicted by a byte %d, %v", got, err)
				}
			})
			t.Run("evictions at the bound over concurrent writes", func(t *testing.T) {
				// Writes of one business at once, each evicting down to 10
				// invoices in its own transaction, as keepInvoice does:
				// evictions take turns, so none goes below the bound (a
				// write that saw no excess may leave it a few above until
				// the next), and the totals count exactly what is left.
				d := business("d")
				if err := db.Businesses().Insert(ctx, d); err != nil {
					t.Fatal(err)
				}
				base := time.Now().UTC().Truncate(time.Microsecond)
				irn := func(i int) string { return fmt.Sprintf("EV%d-94ND90NR-20260317", i) }
				const n = 60
				var wg sync.WaitGroup
				errs := make(chan error, n)
				for i := range n {
					wg.Go(func() {
						errs <- db.RunInTx(ctx, func(ctx context.Context, tx *sandboxdb.DB) error {
							if err := tx.Invoices().Insert(ctx, invoice(d.BusinessID, irn(i), base.Add(time.Duration(i)*time.Millisecond), 10)); err != nil {
								return err
							}
							_, err := tx.Invoices().Evict(ctx, d.BusinessID, irn(i), 10, 1<<20)
							return err
						})
					})
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					if err != nil {
						t.Fatal(err)
					}
				}
				left, err := db.Invoices().Count(ctx, d.BusinessID)
				if err != nil || left < 10 {
					t.Fatalf("%d invoices left, %v", left, err)
				}
				// The totals are exactly what is left: a bound of left
				// evicts nothing, one less evicts one (the oldest), in count
				// and in bytes.
				keep := irn(n - 1)
				if got, err := db.Invoices().Evict(ctx, d.BusinessID, keep, left, int64(left)*10); err != nil || got != 0 {
					t.Fatalf("evicted at the totals %d, %v", got, err)
				}
				if got, err := db.Invoices().Evict(ctx, d.BusinessID, keep, left-1, 1<<20); err != nil || got != 1 {
					t.Fatalf("evicted under the totals by one %d, %v", got, err)
				}
				if got, err := db.Invoices().Evict(ctx, d.BusinessID, keep, 1<<20, int64(left-1)*10-1); err != nil || got != 1 {
					t.Fatalf("evicted under the bytes by one %d, %v", got, err)
				}
				if got, _ := db.Invoices().Count(ctx, d.BusinessID); got != left-2 {
					t.Fatalf("%d invoices left, want %d", got, left-2)
				}
				if _, err := db.Invoices().Get(ctx, d.BusinessID, keep); err != nil {
					t.Fatalf("kept invoice evicted: %v", err)
				}
			})
			t.Run("search and update", func(t *testing.T) {
				inv, err := db.Invoices().Get(ctx, b.BusinessID, "INV2-94ND90NR-20260315")
				if err != nil {
					t.Fatal(err)
				}
				at := time.Now().UTC().Truncate(time.Microsecond)
				inv.PaymentStatus, inv.TransmittedAt, inv.CustomerTIN = "PAID", &at, "12345678-0001"
				if err := db.Invoices().Update(ctx, inv, inv.PayloadBytes); err != nil {
					t.Fatal(err)
				}
				list, total, err := db.Invoices().Search(ctx, b.BusinessID, sandboxdb.InvoiceFilter{PaymentStatus: "PAID"}, sandboxdb.Page{Number: 1, Size: 10, SortBy: "created_at", Desc: true})
				if err != nil || total != 1 || len(list) != 1 || list[0].IRN != inv.IRN || list[0].TransmittedAt == nil {
					t.Fatalf("%v %d %v", list, total, err)
				}
				list, total, err = db.Invoices().Search(ctx, b.BusinessID, sandboxdb.InvoiceFilter{}, sandboxdb.Page{Number: 2, Size: 2, SortBy: "irn; drop table x", Desc: false})
				if err != nil || total != 5 || len(list) != 2 || list[0].IRN != "INV2-94ND90NR-20260315" {
					t.Fatalf("page 2: %v %d %v", list, total, err)
				}
				got, err := db.Invoices().ForBuyer(ctx, "12345678-0001", inv.IRN)
				if err != nil || got.BusinessID != b.BusinessID {
					t.Fatalf("buyer: %v", err)
				}
				from := at.Add(-time.Minute)
				rec, err := db.Invoices().Received(ctx, "12345678-0001", &from, nil, nil, 10)
				if err != nil || len(rec) != 1 {
					t.Fatalf("received: %v %v", rec, err)
				}
				until := at.Add(-time.Second)
				rec, err = db.Invoices().Received(ctx, "12345678-0001", nil, &until, nil, 10)
				if err != nil || len(rec) != 0 {
					t.Fatalf("received before: %v %v", rec, err)
				}
			})
			t.Run("attempt counters", func(t *testing.T) {
				now := time.Now().UTC()
				for want := 1; want <= 3; want++ {
					n, err := db.Attempts().Count(ctx, a.BusinessID, "sign", "SBXRETRY1-94ND90NR-20260315", now)
					if err != nil || n != want {
						t.Fatalf("count %d: %d %v", want, n, err)
					}
				}
				n, err := db.Attempts().Count(ctx, a.BusinessID, "sign", "SBXRETRY1-94ND90NR-20260315", now.Add(2*time.Hour))
				if err != nil || n != 1 {
					t.Fatalf("stale counter kept: %d %v", n, err)
				}
				// Expired counters are dropped at most once a minute per
				// process: one that expired since starts over by itself.
				const irn = "SBXRETRY2-94ND90NR-20260315"
				t0 := now.Add(3 * time.Hour)
				if n, err := db.Attempts().Count(ctx, a.BusinessID, "sign", irn, t0); err != nil || n != 1 {
					t.Fatalf("first: %d %v", n, err)
				}
				if _, err := db.Attempts().Count(ctx, a.BusinessID, "other", irn, t0.Add(59*time.Minute+30*time.Second)); err != nil {
					t.Fatal(err) // drops the business's expired counters: none yet
				}
				if n, err := db.Attempts().Count(ctx, a.BusinessID, "sign", irn, t0.Add(60*time.Minute+10*time.Second)); err != nil || n != 1 {
					t.Fatalf("a counter expired since the last drop went on from %d (%v)", n, err)
				}
				if n, err := db.Attempts().Count(ctx, a.BusinessID, "sign", irn, t0.Add(60*time.Minute+20*time.Second)); err != nil || n != 2 {
					t.Fatalf("the restarted counter: %d %v", n, err)
				}
				// In a transaction that rolls back, nothing is counted.
				errRollback := errors.New("rollback")
				err = db.RunInTx(ctx, func(ctx context.Context, tx *sandboxdb.DB) error {
					if _, err := tx.Attempts().Count(ctx, a.BusinessID, "sign", irn, t0.Add(61*time.Minute)); err != nil {
						return err
					}
					return errRollback
				})
				if !errors.Is(err, errRollback) {
					t.Fatal(err)
				}
				if n, err := db.Attempts().Get(ctx, a.BusinessID, "sign", irn); err != nil || n != 2 {
					t.Fatalf("after a rollback: %d %v", n, err)
				}
			})
			t.Run("parties", func(t *testing.T) {
				for i, name := range []string{"Dangote Group", "Dangote 100%_x", "Other"} {
					p := &sandboxdb.Party{ID: uuid.NewString(), BusinessID: a.BusinessID, PartyName: name, TIN: fmt.Sprint(i),
						PostalAddressID: uuid.NewString(), CreatedAt: time.Now().UTC()}
					if err := db.Parties().Insert(ctx, p); err != nil {
						t.Fatal(err)
					}
				}
				list, total, err := db.Parties().Search(ctx, a.BusinessID, "dangote", sandboxdb.Page{Number: 1, Size: 20})
				if err != nil || total != 2 || len(list) != 2 {
					t.Fatalf("%v %d %v", list, total, err)
				}
				_, total, err = db.Parties().Search(ctx, a.BusinessID, "100%_", sandboxdb.Page{Number: 1, Size: 20})
				if err != nil || total != 1 {
					t.Fatalf("wildcards not escaped: %d %v", total, err)
				}
				if _, total, _ := db.Parties().Search(ctx, b.BusinessID, "", sandboxdb.Page{Number: 1, Size: 20}); total != 0 {
					t.Fatalf("another business's parties listed: %d", total)
				}
			})
			t.Run("delete business", func(t *testing.T) {
				if err := db.Businesses().Delete(ctx, a.BusinessID); err != nil {
					t.Fatal(err)
				}
				if n, _ := db.Invoices().Count(ctx, a.BusinessID); n != 0 {
					t.Fatalf("%d invoices left", n)
				}
				if n, _ := db.Parties().Count(ctx, a.BusinessID); n != 0 {
					t.Fatalf("%d parties left", n)
				}
			})
		})
	}
}

func TestMigrationsRollBack(t *testing.T) {
	for _, d := range sandboxdbtest.Dialects() {
		t.Run(d.Name, func(t *testing.T) {
			db := d.Open(t)
			ctx := context.Background()
			names, err := db.Rollback(ctx)
			if err != nil || len(names) == 0 {
				t.Fatalf("rollback: %v %v", names, err)
			}
			if _, err := db.Businesses().Count(ctx); err == nil {
				t.Fatal("table still there after rollback")
			}
			if names, err := db.Migrate(ctx); err != nil || len(names) == 0 {
				t.Fatalf("migrate again: %v %v", names, err)
			}
		})
	}
}

// Every migration has its down, in both dialects, and both dialects have
// the same migrations.
func TestMigrationPairs(t *testing.T) {
	fsys := migrations.NRSSandboxFiles()
	var names [2][]string
	for i, d := range []string{"postgres", "sqlite"} {
		ups, _ := fs.Glob(fsys, d+"/*.up.sql")
		if len(ups) == 0 {
			t.Fatalf("no %s migrations", d)
		}
		for _, up := range ups {
			down := strings.TrimSuffix(up, ".up.sql") + ".down.sql"
			if _, err := fs.Stat(fsys, down); err != nil {
				t.Errorf("%s has no down migration", up)
			}
			names[i] = append(names[i], strings.TrimPrefix(up, d+"/"))
		}
	}
	if fmt.Sprint(names[0]) != fmt.Sprint(names[1]) {
		t.Fatalf("dialects differ: %v vs %v", names[0], names[1])
	}
}
