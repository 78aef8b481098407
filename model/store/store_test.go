package store_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/migrations"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

func newID(t testing.TB) uuid.UUID {
	t.Helper()
	id, err := uuid.NewV7()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// seed creates a user, an organization they own and a project.
func seed(t testing.TB, st *store.Store, slug string) (*model.User, *model.Organization, *model.Project) {
	t.Helper()
	ctx := context.Background()
	u := &model.User{ID: newID(t), Email: slug + "@example.com", PasswordHash: "x", CreatedAt: now()}
	if err := st.Users().Create(ctx, u); err != nil {
		t.Fatalf("create user: %v", err)
	}
	o := &model.Organization{ID: newID(t), Name: slug, Slug: slug, CreatedAt: now()}
	if err := st.Organizations().Create(ctx, o, &model.Membership{OrganizationID: o.ID, UserID: u.ID, Role: model.RoleOwner, CreatedAt: now()}); err != nil {
		t.Fatalf("create organization: %v", err)
	}
	p := &model.Project{ID: newID(t), OrganizationID: o.ID, Name: "p", Environment: model.EnvironmentSandbox,
		CreatedAt: now(), UpdatedAt: now(), TaxAuthorityCode: "NRS", QREncryption: model.QREncryptionPKCS1v15}
	if err := st.Projects().Create(ctx, p); err != nil {
		t.Fatalf("create project: %v", err)
	}
	return u, o, p
}

func TestMigrationsHaveDownPairs(t *testing.T) {
	for _, d := range []string{migrations.Postgres, migrations.SQLite} {
		ups, _ := fs.Glob(migrations.Files(), d+"/*.up.sql")
		downs, _ := fs.Glob(migrations.Files(), d+"/*.down.sql")
		if len(ups) == 0 || len(ups) != len(downs) {
			t.Fatalf("%s: %d up and %d down migrations", d, len(ups), len(downs))
		}
		for _, up := range ups {
			down := strings.Replace(up, ".up.sql", ".down.sql", 1)
			if _, err := fs.Stat(migrations.Files(), down); err != nil {
				t.Errorf("%s has no down migration", up)
			}
		}
	}
	pg, _ := fs.Glob(migrations.Files(), "postgres/*.sql")
	lite, _ := fs.Glob(migrations.Files(), "sqlite/*.sql")
	if len(pg) != len(lite) {
		t.Errorf("dialects differ: %d postgres files, %d sqlite files", len(pg), len(lite))
	}
}

func TestMigrateDownAndUp(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			status, err := st.Migrations().Status(ctx)
			if err != nil || len(status) == 0 {
				t.Fatalf("status: %v %v", status, err)
			}
			for _, m := range status {
				if !m.Applied {
					t.Errorf("%s not applied", m.Name)
				}
			}
			if _, err := st.Migrations().Down(ctx); err != nil {
				t.Fatalf("down: %v", err)
			}
			if _, err := st.Users().ByEmail(ctx, "a@example.com"); err == nil || model.ErrorCodeOf(err) == model.CodeNotFound {
				t.Fatalf("users table should be gone after down, got %v", err)
			}
			applied, err := st.Migrations().Up(ctx)
			if err != nil || len(applied) == 0 {
				t.Fatalf("up again: %v %v", applied, err)
			}
			seed(t, st, "again")
		})
	}
}

func TestUniqueViolationsAreConflicts(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			u, o, _ := seed(t, st, "acme")
			dupUser := &model.User{ID: newID(t), Email: u.Email, PasswordHash: "x", CreatedAt: now()}
			if err := st.Users().Create(ctx, dupUser); model.ErrorCodeOf(err) != model.CodeConflict {
				t.Fatalf("duplicate email: got %v, want conflict", err)
			}
			dupOrg := &model.Organization{ID: newID(t), Name: "x", Slug: o.Slug, CreatedAt: now()}
			err := st.Organizations().Create(ctx, dupOrg, &model.Membership{OrganizationID: dupOrg.ID, UserID: u.ID, Role: model.RoleOwner, CreatedAt: now()})
			if model.ErrorCodeOf(err) != model.CodeConflict {
				t.Fatalf("duplicate slug: got %v, want conflict", err)
			}
			// The transaction left nothing behind.
			if _, err := st.Organizations().Get(ctx, dupOrg.ID, u.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
				t.Fatalf("half-created organization: %v", err)
			}
		})
	}
}

func TestTenantQueries(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			u1, o1, p1 := seed(t, st, "one")
			u2, _, p2 := seed(t, st, "two")
			if _, err := st.Projects().Get(ctx, p2.ID, u1.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
				t.Fatalf("foreign project: %v", err)
			}
			if _, err := st.Organizations().Get(ctx, o1.ID, u2.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
				t.Fatalf("foreign organization: %v", err)
			}
			got, more, err := st.Projects().List(ctx, u1.ID, uuid.Nil, model.Page{Limit: 10})
			if err != nil || more || len(got) != 1 || got[0].ID != p1.ID {
				t.Fatalf("projects of u1: %v %v %v", got, more, err)
			}
		})
	}
}

func TestPagination(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			_, _, p := seed(t, st, "pages")
			var want []uuid.UUID
			for i := 0; i < 5; i++ {
				k := &model.APIKey{ID: newID(t), ProjectID: p.ID, KeyName: "k", ClientID: "ck_sandbox_" + uuid.NewString(),
					SecretHash: []byte{1}, SecretLast4: "abcd", Scopes: "usage:read", Status: model.KeyActive, CreatedAt: now()}
				if err := st.Keys().Create(ctx, k); err != nil {
					t.Fatal(err)
				}
				want = append(want, k.ID)
			}
			var got []uuid.UUID
			page := model.Page{Limit: 2}
			for {
				rows, more, err := st.Keys().List(ctx, p.ID, page)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range rows {
					got = append(got, r.ID)
				}
				if !more {
					break
				}
				page.After = rows[len(rows)-1].ID
			}
			if len(got) != len(want) {
				t.Fatalf("got %d keys over pages, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("page order: got %v, want %v", got, want)
				}
			}
		})
	}
}

func TestUsageUpsert(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			_, _, p := seed(t, st, "usage")
			k := &model.APIKey{ID: newID(t), ProjectID: p.ID, KeyName: "k", ClientID: "ck_sandbox_x", SecretHash: []byte{1},
				SecretLast4: "abcd", Scopes: "usage:read", Status: model.KeyActive, CreatedAt: now()}
			if err := st.Keys().Create(ctx, k); err != nil {
				t.Fatal(err)
			}
			row := model.UsageCounter{ProjectID: p.ID, KeyID: k.ID, Operation: "irn.generate", Day: "2026-03-15", Count: 3}
			for i := 0; i < 2; i++ {
				if err := st.Usage().Add(ctx, []model.UsageCounter{row}); err != nil {
					t.Fatal(err)
				}
			}
			got, err := st.Usage().List(ctx, p.ID, uuid.Nil, "2026-03-01", "2026-03-31")
			if err != nil || len(got) != 1 || got[0].Count != 6 {
				t.Fatalf("usage: %+v %v", got, err)
			}
			if got, _ := st.Usage().List(ctx, p.ID, uuid.Nil, "2026-04-01", "2026-04-30"); len(got) != 0 {
				t.Fatalf("out of range usage: %+v", got)
			}
		})
	}
}

// auditKey keys the audit chains of the store tests.
var auditKey = []byte("audit-key-for-store-tests-012345")

func TestAuditChain(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			u, o, _ := seed(t, st, "audit")
			// Concurrent appends must still form one unbroken chain.
			var wg sync.WaitGroup
			errs := make(chan error, 20)
			for i := 0; i < 20; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs <- st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
						return tx.Audit().Append(ctx, &model.AuditLog{ID: newID(t), OrganizationID: &o.ID, ActorType: "user",
							ActorID: u.ID.String(), Action: model.ActionLogin, TargetType: "user", TargetID: u.ID.String(), CreatedAt: now()}, auditKey)
					})
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatalf("append: %v", err)
				}
			}
			if c, err := st.Audit().Verify(ctx, &o.ID, auditKey); err != nil || !c.Valid() || c.Entries != 20 || c.Head.Seq != 20 {
				t.Fatalf("verify: %+v %v", c, err)
			}
			rows, _, err := st.Audit().List(ctx, store.AuditFilter{OrganizationIDs: []uuid.UUID{o.ID}}, model.Page{Limit: 100})
			if err != nil || len(rows) != 20 {
				t.Fatalf("list: %d %v", len(rows), err)
			}
			// Tamper with one entry: verification must name it.
			victim := rows[10]
			if _, err := st.DB().NewUpdate().Table("audit_logs").Set("ip = ?", "10.0.0.1").Where("id = ?", victim.ID).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			c, err := st.Audit().Verify(ctx, &o.ID, auditKey)
			if err != nil || c.Valid() || c.BrokenAt == nil || *c.BrokenAt != victim.ID {
				t.Fatalf("tampered chain: got %+v %v, want it broken at %s", c, err, victim.ID)
			}
		})
	}
}

// MarkAllDispatched takes the events it names out of the outbox, and
// only those.
func TestEventsMarkAllDispatched(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			_, o, p := seed(t, st, "outbox")
			var ids []uuid.UUID
			for i := range 3 {
				e := &model.Event{ID: model.NewID(), ProjectID: p.ID, OrganizationID: o.ID, Type: model.EventAPIKeyCreated,
					Data: json.RawMessage(`{"n":` + strconv.Itoa(i) + `}`), CreatedAt: now()}
				if err := st.Events().Append(ctx, e); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, e.ID)
			}
			if err := st.Events().MarkAllDispatched(ctx, ids[:2], now()); err != nil {
				t.Fatal(err)
			}
			left, err := st.Events().Undispatched(ctx, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(left) != 1 || left[0].ID != ids[2] {
				t.Fatalf("undispatched after marking two of three: %+v", left)
			}
		})
	}
}
