package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/usage"
)

func newService(tb testing.TB) *app.App {
	tb.Helper()
	// Flush only when the test asks, so it can see the buffer.
	return apptest.New(tb, storetest.SQLite(tb), func(c *app.Config) { c.UsageFlushInterval = time.Hour })
}

// newKey signs up, creates a sandbox project and a key.
func newKey(tb testing.TB, svc *app.App) *keys.WithSecret {
	tb.Helper()
	ctx := context.Background()
	slug := "t" + uuid.NewString()[:8]
	su, err := svc.Auth.Signup(ctx, auth.SignupInput{Email: slug + "@example.com", Password: "correct horse battery", OrganizationName: "Org", OrganizationSlug: slug})
	if err != nil {
		tb.Fatal(err)
	}
	u, err := svc.Auth.AuthenticateToken(ctx, su.AccessToken)
	if err != nil {
		tb.Fatal(err)
	}
	pr, err := svc.Portal.CreateProject(ctx, u, portal.ProjectInput{OrganizationID: su.Organization.ID.String(), Name: "Shop", Environment: "sandbox"})
	if err != nil {
		tb.Fatal(err)
	}
	k, err := svc.Keys.Create(ctx, u, pr.ID, keys.Input{KeyName: "bench"})
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

// BenchmarkAuthenticateKey measures authenticating a key with a warm cache,
// plus the scope check and usage count every invoice call adds.
func BenchmarkAuthenticateKey(b *testing.B) {
	svc := newService(b)
	k := newKey(b, svc)
	ctx := context.Background()
	if _, err := svc.Keys.Authenticate(ctx, k.ClientID, k.ClientSecret); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		p, err := svc.Keys.Authenticate(ctx, k.ClientID, k.ClientSecret)
		if err != nil {
			b.Fatal(err)
		}
		if err := svc.Usage.Authorize(p, model.ScopeIRNGenerate, "irn.generate"); err != nil {
			b.Fatal(err)
		}
		svc.Usage.Meter(p, "irn.generate")
	}
}

func TestUsageSurvivesClose(t *testing.T) {
	svc := newService(t)
	k := newKey(t, svc)
	ctx := context.Background()
	p, err := svc.Keys.Authenticate(ctx, k.ClientID, k.ClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		svc.Usage.Meter(p, "irn.generate")
	}
	st := svc.Store()
	// Before a flush nothing is written; the report still counts the buffer.
	rows, err := st.Usage().List(ctx, p.ProjectID, uuid.Nil, "2000-01-01", "2999-12-31")
	if err != nil || len(rows) != 0 {
		t.Fatalf("usage written on the request path: %v %v", rows, err)
	}
	rep, err := svc.Usage.Report(ctx, p, p.ProjectID, usage.Input{})
	if err != nil || rep.Total != 5 || rep.ByOperation["irn.generate"] != 5 {
		t.Fatalf("report with buffered counts: %+v %v", rep, err)
	}
	if err := svc.Close(ctx); err != nil {
		t.Fatal(err)
	}
	rows, err = st.Usage().List(ctx, p.ProjectID, uuid.Nil, "2000-01-01", "2999-12-31")
	if err != nil || len(rows) != 1 || rows[0].Count != 5 || rows[0].KeyID != p.KeyID {
		t.Fatalf("usage after close: %+v %v", rows, err)
	}
}
