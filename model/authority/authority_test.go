package authority_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// A sealed secret opens only as the project and field it was sealed for.
func TestSealBindsProjectAndField(t *testing.T) {
	svc := apptest.New(t, storetest.SQLite(t), nil)
	dir := svc.Authority
	p1, p2 := uuid.New(), uuid.New()
	sealed, err := dir.Seal(p1, "api_secret", "s3cret-value")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(sealed), "s3cret-value") {
		t.Fatal("the sealed value holds the secret in clear")
	}
	if got, err := dir.Open(p1, "api_secret", sealed); err != nil || got != "s3cret-value" {
		t.Fatalf("Open = %q, %v", got, err)
	}
	if _, err := dir.Open(p2, "api_secret", sealed); err == nil {
		t.Fatal("a secret sealed for one project opened as another's")
	}
	if _, err := dir.Open(p1, "api_key", sealed); err == nil {
		t.Fatal("a secret sealed as one field opened as another")
	}
	if empty, err := dir.Seal(p1, "api_key", ""); err != nil || empty != nil {
		t.Fatalf(`Seal("") = %v, %v; want nothing`, empty, err)
	}
}

// A sandbox project is provisioned on creation: it can issue invoices and
// its credentials never print their secrets. A production project without
// settings is authority_not_configured.
func TestProjectCredentials(t *testing.T) {
	ctx := context.Background()
	svc := apptest.New(t, storetest.SQLite(t), nil)
	sb := apptest.NewTenant(t, svc, "sandbox")
	prod := apptest.NewTenant(t, svc, "production")

	c, err := svc.Authority.Credentials(ctx, sb.Project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if c.PublicKey == nil || c.PrivateKeyPEM == "" || c.BusinessID == "" || c.ServiceID == "" {
		t.Fatalf("sandbox credentials incomplete: %v", c)
	}
	if c.APISecret != "" {
		for _, s := range []string{c.String(), fmt.Sprintf("%#v", *c), fmt.Sprintf("%v", *c)} {
			if strings.Contains(s, c.APISecret) {
				t.Fatalf("credentials print their API secret: %s", s)
			}
		}
	}
	if authority.Fingerprint(c.PublicKeyPEM) == "" {
		t.Fatal("no fingerprint for the project's public key")
	}
	if _, pem, err := authority.ParsePublicKey(c.PublicKeyPEM); err != nil || pem != c.PublicKeyPEM {
		t.Fatalf("ParsePublicKey of the stored PEM = %v; want it back unchanged", err)
	}
	if _, _, err := authority.ParsePublicKey("not a key"); err == nil {
		t.Fatal("ParsePublicKey accepted garbage")
	}
	it, err := svc.Authority.Issuer(ctx, sb.Project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := it.Configured(); err != nil {
		t.Fatalf("sandbox issuer: %v", err)
	}

	if _, err := svc.Authority.Credentials(ctx, prod.Project.ID); model.ErrorCodeOf(err) != model.CodeAuthorityNotConfigured {
		t.Fatalf("unconfigured production project: %v, want authority_not_configured", err)
	}
}
