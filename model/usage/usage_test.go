package usage_test

import (
	"context"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/usage"
)

// Metered calls are counted per key, operation and day, seen in reports
// before and after they are written; a key is held to its scopes and
// reports on its own project only.
func TestMeterAndReport(t *testing.T) {
	ctx := context.Background()
	svc := apptest.New(t, storetest.SQLite(t), func(c *app.Config) { c.UsageFlushInterval = time.Hour })
	a := apptest.NewTenant(t, svc, "sandbox")
	b := apptest.NewTenant(t, svc, "sandbox")

	for range 3 {
		svc.Usage.Meter(a.Key, "irn.generate")
	}
	svc.Usage.Meter(a.Key, "qr.generate")
	svc.Usage.Meter(b.Key, "irn.generate")

	check := func(when string) {
		t.Helper()
		r, err := svc.Usage.Report(ctx, a.User, a.Project.ID, usage.Input{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Total != 4 || r.ByOperation["irn.generate"] != 3 || r.ByOperation["qr.generate"] != 1 {
			t.Fatalf("%s: report = %+v, want 3 irn.generate and 1 qr.generate", when, r)
		}
		today := time.Now().UTC().Format(time.DateOnly)
		var sum int64
		for _, d := range r.Daily {
			if d.Date != today {
				t.Fatalf("%s: a count on %s, want all today (%s)", when, d.Date, today)
			}
			sum += d.Count
		}
		if sum != 4 {
			t.Fatalf("%s: daily counts sum to %d, want 4", when, sum)
		}
	}
	check("before the flush")
	if err := svc.Usage.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	check("after the flush")
	if _, ok := svc.Usage.LastUsed(a.Key.KeyID); ok {
		t.Error("a last use is still pending after the flush")
	}

	byKey, err := svc.Usage.Report(ctx, a.Key, a.Project.ID, usage.Input{KeyID: a.Key.KeyID.String()})
	if err != nil {
		t.Fatal(err)
	}
	if byKey.Total != 4 || byKey.KeyID == nil || *byKey.KeyID != a.Key.KeyID {
		t.Fatalf("the key's own report = %+v", byKey)
	}
	if _, err := svc.Usage.Report(ctx, a.Key, b.Project.ID, usage.Input{}); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("a's key on b's project: %v, want not_found", err)
	}
	if _, err := svc.Usage.Report(ctx, b.User, a.Project.ID, usage.Input{}); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("b on a's project: %v, want not_found", err)
	}
	if _, err := svc.Usage.Report(ctx, a.User, a.Project.ID, usage.Input{From: "2020-01-01", To: "2026-01-01"}); model.ErrorCodeOf(err) != model.CodeInvalid {
		t.Fatalf("a range over a year: %v, want invalid", err)
	}
}

// A key created with some scopes is refused the others.
func TestAuthorizeScopes(t *testing.T) {
	ctx := context.Background()
	svc := apptest.New(t, storetest.SQLite(t), nil)
	a := apptest.NewTenant(t, svc, "sandbox")
	k, err := svc.Keys.Create(ctx, a.User, a.Project.ID, keys.Input{KeyName: "irn only", Scopes: []string{string(model.ScopeIRNGenerate)}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := svc.Keys.Authenticate(ctx, k.ClientID, k.ClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Usage.Authorize(p, model.ScopeIRNGenerate, "irn.generate"); err != nil {
		t.Fatalf("granted scope: %v", err)
	}
	if err := svc.Usage.Authorize(p, model.ScopeInvoicesSubmit, "invoices.submit"); model.ErrorCodeOf(err) != model.CodeForbidden {
		t.Fatalf("scope not granted: %v, want forbidden", err)
	}
	if err := svc.Usage.Authorize(a.Key, model.ScopeInvoicesSubmit, "invoices.submit"); err != nil {
		t.Fatalf("a key with every scope: %v", err)
	}
}
