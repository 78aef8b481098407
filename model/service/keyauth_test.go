package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/service"
	"github.com/einvoice-ng/einvoice/model/service/servicetest"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

func newService(tb testing.TB) *service.Service {
	tb.Helper()
	// Flush only when the test asks, so it can see the buffer.
	return servicetest.New(tb, storetest.SQLite(tb), func(c *service.Config) { c.UsageFlushInterval = time.Hour })
}

// newKey signs up, creates a sandbox project and a key.
func newKey(tb testing.TB, svc *service.Service) *service.KeyWithSecret {
	tb.Helper()
	ctx := context.Background()
	slug := "t" + uuid.NewString()[:8]
	su, err := svc.Signup(ctx, service.SignupInput{Email: slug + "@example.com", Password: "correct horse battery", OrganizationName: "Org", OrganizationSlug: slug})
	if err != nil {
		tb.Fatal(err)
	}
	u, err := svc.AuthenticateToken(ctx, su.AccessToken)
	if err != nil {
		tb.Fatal(err)
	}
	pr, err := svc.CreateProject(ctx, u, service.ProjectInput{OrganizationID: su.Organization.ID.String(), Name: "Shop", Environment: "sandbox"})
	if err != nil {
		tb.Fatal(err)
	}
	k, err := svc.CreateKey(ctx, u, pr.ID, service.KeyInput{KeyName: "bench"})
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
	if _, err := svc.AuthenticateKey(ctx, k.ClientID, k.ClientSecret); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		p, err := svc.AuthenticateKey(ctx, k.ClientID, k.ClientSecret)
		if err != nil {
			b.Fatal(err)
		}
		if err := svc.Authorize(p, model.ScopeIRNGenerate, "irn.generate"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestUsageSurvivesClose(t *testing.T) {
	svc := newService(t)
	k := newKey(t, svc)
	ctx := context.Background()
	p, err := svc.AuthenticateKey(ctx, k.ClientID, k.ClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		if err := svc.Authorize(p, model.ScopeIRNGenerate, "irn.generate"); err != nil {
			t.Fatal(err)
		}
	}
	st := svc.Store()
	// Before a flush nothing is written; the report still counts the buffer.
	rows, err := st.Usage().List(ctx, p.ProjectID, uuid.Nil, "2000-01-01", "2999-12-31")
	if err != nil || len(rows) != 0 {
		t.Fatalf("usage written on the request path: %v %v", rows, err)
	}
	rep, err := svc.Usage(ctx, p, service.UsageInput{})
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
