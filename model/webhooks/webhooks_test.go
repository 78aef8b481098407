package webhooks_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/webhooks"
)

// publicHosts resolves every endpoint host to a public address, so that
// no test queries DNS.
func publicHosts(c *app.Config) { c.Webhooks.Resolver = apptest.PublicResolver{} }

// An endpoint's signing secret is shown once (on create and on rotation),
// its settings change by patch, and it is gone once deleted.
func TestEndpointLifecycle(t *testing.T) {
	ctx := context.Background()
	svc := apptest.New(t, storetest.SQLite(t), publicHosts)
	tn := apptest.NewTenant(t, svc, "sandbox")

	ep, err := svc.Webhooks.Create(ctx, tn.User, tn.Project.ID, webhooks.EndpointInput{
		URL: "https://hooks.example.test/einvoice", EventTypes: []string{"api_key.created"}})
	if err != nil {
		t.Fatal(err)
	}
	if ep.Secret == "" || !strings.HasSuffix(ep.Secret, ep.SecretLast4) || !ep.Enabled {
		t.Fatalf("created endpoint = %+v, want an enabled endpoint with its secret", ep)
	}
	got, err := svc.Webhooks.Get(ctx, tn.User, tn.Project.ID, ep.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.URL != "https://hooks.example.test/einvoice" || len(got.EventTypes) != 1 || got.EventTypes[0] != "api_key.created" {
		t.Fatalf("read back = %+v", got)
	}

	off := false
	desc := "accounting"
	up, err := svc.Webhooks.Update(ctx, tn.User, tn.Project.ID, ep.ID, webhooks.EndpointPatch{Enabled: &off, Description: &desc})
	if err != nil {
		t.Fatal(err)
	}
	if up.Enabled || up.Description != "accounting" || up.URL != got.URL {
		t.Fatalf("patched = %+v, want disabled with the new description and the same URL", up)
	}

	rot, err := svc.Webhooks.RotateSecret(ctx, tn.User, tn.Project.ID, ep.ID, 3600)
	if err != nil {
		t.Fatal(err)
	}
	if rot.Secret == ep.Secret || rot.PrevSecretExpiresAt == nil {
		t.Fatalf("rotation = %+v, want a new secret and the previous one's expiry", rot.EndpointView)
	}

	if _, err := svc.Webhooks.Delete(ctx, tn.User, tn.Project.ID, ep.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Webhooks.Get(ctx, tn.User, tn.Project.ID, ep.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("deleted endpoint: %v, want not_found", err)
	}
}

// Bad endpoints are refused with every problem and nothing saved; another
// tenant's endpoints are not found.
func TestEndpointRefusals(t *testing.T) {
	ctx := context.Background()
	svc := apptest.New(t, storetest.SQLite(t), publicHosts)
	a := apptest.NewTenant(t, svc, "sandbox")
	b := apptest.NewTenant(t, svc, "sandbox")

	for _, in := range []webhooks.EndpointInput{
		{URL: "ftp://hooks.example.test/x"},
		{URL: "not a url"},
		{URL: "https://hooks.example.test/x", EventTypes: []string{"no.such_event"}},
	} {
		if _, err := svc.Webhooks.Create(ctx, a.User, a.Project.ID, in); model.ErrorCodeOf(err) != model.CodeInvalid {
			t.Errorf("create %+v: %v, want invalid", in, err)
		}
	}
	list, err := svc.Webhooks.List(ctx, a.User, a.Project.ID, model.PageInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 0 {
		t.Fatalf("refused creates saved %d endpoints", len(list.Items))
	}

	ep, err := svc.Webhooks.Create(ctx, a.User, a.Project.ID, webhooks.EndpointInput{URL: "https://hooks.example.test/a"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Webhooks.Get(ctx, b.User, a.Project.ID, ep.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("b reading a's endpoint: %v, want not_found", err)
	}
	if _, err := svc.Webhooks.Delete(ctx, b.User, b.Project.ID, ep.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("b deleting a's endpoint through its own project: %v, want not_found", err)
	}
	if _, err := svc.Webhooks.Get(ctx, a.User, a.Project.ID, ep.ID); err != nil {
		t.Fatalf("a's endpoint after b's attempts: %v", err)
	}
}

// The signature header is what a receiver verifies: t=<unix seconds>, then
// one v1 HMAC-SHA256 of "<t>.<body>" per live secret, hex.
func TestSignature(t *testing.T) {
	at := time.Unix(1_790_000_000, 0)
	body := []byte(`{"type":"invoice.confirmed"}`)
	got := webhooks.Sign(at, body, "whsec_new", "whsec_old")
	parts := strings.Split(got, ",")
	if len(parts) != 3 || parts[0] != "t=1790000000" {
		t.Fatalf("header = %q", got)
	}
	for i, secret := range []string{"whsec_new", "whsec_old"} {
		m := hmac.New(sha256.New, []byte(secret))
		m.Write([]byte("1790000000." + string(body)))
		if want := "v1=" + hex.EncodeToString(m.Sum(nil)); parts[i+1] != want {
			t.Errorf("signature %d = %q, want %q", i, parts[i+1], want)
		}
	}
	if webhooks.Sign(at, append(body, ' '), "whsec_new") == "t=1790000000,"+parts[1] {
		t.Error("a changed body kept its signature")
	}
}
