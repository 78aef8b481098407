package service_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/service"
	"github.com/einvoice-ng/einvoice/model/service/servicetest"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
)

// fakeRegistrar records registrations and fails while err is set.
type fakeRegistrar struct {
	mu  sync.Mutex
	got []service.SandboxBusiness
	err error
}

func (f *fakeRegistrar) RegisterSandboxBusiness(_ context.Context, b service.SandboxBusiness) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return f.err
	}
	f.got = append(f.got, b)
	return nil
}

func (f *fakeRegistrar) registered() []service.SandboxBusiness {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]service.SandboxBusiness(nil), f.got...)
}

func (f *fakeRegistrar) fail(err error) {
	f.mu.Lock()
	f.err = err
	f.mu.Unlock()
}

// sandboxEnv is a service wired to a registrar.
type sandboxEnv struct {
	svc  *service.Service
	st   *store.Store
	logs *servicetest.LogBuffer
	user *service.UserPrincipal
	org  string
}

const sandboxURL = "http://127.0.0.1:8090"

func newSandboxEnv(tb testing.TB, reg service.SandboxRegistrar) *sandboxEnv {
	tb.Helper()
	st := storetest.SQLite(tb)
	logs := &servicetest.LogBuffer{}
	cfg := servicetest.Config(tb, logs)
	cfg.SandboxBaseURL, cfg.SandboxRegistrar = sandboxURL, reg
	svc, err := service.New(st, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = svc.Close(context.Background()) })
	ctx := context.Background()
	slug := "s" + uuid.NewString()[:8]
	su, err := svc.Signup(ctx, service.SignupInput{Email: slug + "@example.com", Password: "correct horse battery", OrganizationName: "Org", OrganizationSlug: slug})
	if err != nil {
		tb.Fatal(err)
	}
	u, err := svc.AuthenticateToken(ctx, su.AccessToken)
	if err != nil {
		tb.Fatal(err)
	}
	return &sandboxEnv{svc: svc, st: st, logs: logs, user: u, org: su.Organization.ID.String()}
}

func (e *sandboxEnv) project(tb testing.TB, env string) *service.ProjectView {
	tb.Helper()
	pr, err := e.svc.CreateProject(context.Background(), e.user, service.ProjectInput{OrganizationID: e.org, Name: "Shop " + env, Environment: env})
	if err != nil {
		tb.Fatal(err)
	}
	return pr
}

var apiSecretRE = regexp.MustCompile(`^[A-Za-z0-9]{64}$`)

func TestSandboxProjectRegistered(t *testing.T) {
	reg := &fakeRegistrar{}
	e := newSandboxEnv(t, reg)
	pr := e.project(t, "sandbox")
	ctx := context.Background()

	got := reg.registered()
	if len(got) != 1 {
		t.Fatalf("want one registration, got %d", len(got))
	}
	b := got[0]
	if b.ProjectID != pr.ID || b.BusinessID != *pr.Authority.BusinessID || b.ServiceID != *pr.Authority.ServiceID || b.BaseURL != sandboxURL {
		t.Fatalf("registered %v for project %+v", b, pr.Authority)
	}
	if _, err := uuid.Parse(b.APIKey); err != nil || !apiSecretRE.MatchString(b.APISecret) {
		t.Fatalf("sandbox credentials have the wrong shape")
	}
	priv, err := nrs.ParsePrivateKey(b.PrivateKeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := nrs.ParsePublicKey(b.PublicKeyPEM)
	if err != nil || !pub.Equal(&priv.PublicKey) || b.Certificate == "" || b.QREncryption != model.QREncryptionPKCS1v15 {
		t.Fatalf("key material does not fit together: %v", err)
	}
	if !pr.Authority.HasAPICredentials {
		t.Fatal("the project view does not show API credentials")
	}

	t.Run("sealed at rest", func(t *testing.T) {
		row, err := e.st.ProjectByID(ctx, pr.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, sealed := range [][]byte{row.APIKeyEnc, row.APISecretEnc} {
			if len(sealed) == 0 || bytes.Contains(sealed, []byte(b.APIKey)) || bytes.Contains(sealed, []byte(b.APISecret)) {
				t.Fatal("API credentials are not sealed")
			}
		}
	})

	t.Run("authority credentials open them", func(t *testing.T) {
		c, err := e.svc.AuthorityCredentials(ctx, pr.ID)
		if err != nil {
			t.Fatal(err)
		}
		if c.APIKey != b.APIKey || c.APISecret != b.APISecret || c.Certificate != b.Certificate || c.PrivateKeyPEM != b.PrivateKeyPEM ||
			c.BusinessID != b.BusinessID || c.ServiceID != b.ServiceID || c.BaseURL != sandboxURL || c.PublicKey == nil ||
			c.Environment != model.EnvironmentSandbox || c.TaxAuthorityCode != "NRS" || c.QREncryption != model.QREncryptionPKCS1v15 {
			t.Fatalf("credentials differ from the registered ones: %v", c)
		}
		if err := c.RequireAPI(); err != nil {
			t.Fatal(err)
		}
		var logged bytes.Buffer
		slog.New(slog.NewJSONHandler(&logged, nil)).Info("creds", "c", c, "b", b)
		for _, printed := range []string{fmt.Sprint(c), fmt.Sprintf("%+v %#v", *c, *c), fmt.Sprintf("%v %+v %#v", b, b, b), logged.String()} {
			if strings.Contains(printed, b.APISecret) || strings.Contains(printed, b.APIKey) || strings.Contains(printed, "PRIVATE KEY") {
				t.Fatalf("secrets printed: %s", printed)
			}
		}
	})

	t.Run("listed for re-registration", func(t *testing.T) {
		list, err := e.svc.SandboxBusinesses(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 1 || list[0].APISecret != b.APISecret || list[0].PrivateKeyPEM != b.PrivateKeyPEM {
			t.Fatalf("list: %v", list)
		}
	})
}

func TestProductionProjectNotRegistered(t *testing.T) {
	reg := &fakeRegistrar{}
	e := newSandboxEnv(t, reg)
	pr := e.project(t, "production")
	if n := len(reg.registered()); n != 0 {
		t.Fatalf("production project registered %d times", n)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		id   uuid.UUID
		code model.ErrorCode
	}{
		{"unconfigured production project", pr.ID, model.CodeAuthorityNotConfigured},
		{"unknown project", uuid.New(), model.CodeNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := e.svc.AuthorityCredentials(ctx, tc.id); model.ErrorCodeOf(err) != tc.code {
				t.Fatalf("want %s, got %v", tc.code, err)
			}
		})
	}
	list, err := e.svc.SandboxBusinesses(ctx)
	if err != nil || len(list) != 0 {
		t.Fatalf("production project listed: %v %v", list, err)
	}
}

func TestRegistrarFailureKeepsProject(t *testing.T) {
	reg := &fakeRegistrar{}
	e := newSandboxEnv(t, reg)
	reg.fail(errors.New("stand-in unreachable"))
	pr := e.project(t, "sandbox")
	if !strings.Contains(e.logs.String(), "sandbox business not registered") {
		t.Fatalf("failure not logged: %s", e.logs.String())
	}
	reg.fail(nil)
	n, err := e.svc.RegisterSandboxBusinesses(context.Background())
	if err != nil || n != 1 {
		t.Fatalf("re-registration: %d %v", n, err)
	}
	if got := reg.registered(); len(got) != 1 || got[0].ProjectID != pr.ID {
		t.Fatalf("registered: %v", got)
	}
}

func TestRegisterSandboxBusinessesBackfillsCredentials(t *testing.T) {
	reg := &fakeRegistrar{}
	e := newSandboxEnv(t, reg)
	ctx := context.Background()
	pr := e.project(t, "sandbox")
	other := e.project(t, "sandbox")
	e.project(t, "production")
	// A project from before sandbox credentials existed.
	row, err := e.st.ProjectByID(ctx, pr.ID)
	if err != nil {
		t.Fatal(err)
	}
	row.APIKeyEnc, row.APISecretEnc, row.BaseURL = nil, nil, ""
	if err := e.st.UpdateProjectAuthority(ctx, row); err != nil {
		t.Fatal(err)
	}
	list, err := e.svc.SandboxBusinesses(ctx)
	if err != nil || len(list) != 2 {
		t.Fatalf("list: %v %v", list, err)
	}

	n, err := e.svc.RegisterSandboxBusinesses(ctx)
	if err != nil || n != 2 {
		t.Fatalf("registered %d: %v", n, err)
	}
	byProject := map[uuid.UUID]service.SandboxBusiness{}
	for _, b := range reg.registered()[2:] { // the first two came from CreateProject
		byProject[b.ProjectID] = b
	}
	backfilled, ok := byProject[pr.ID]
	if !ok || !apiSecretRE.MatchString(backfilled.APISecret) || backfilled.BaseURL != sandboxURL {
		t.Fatalf("backfilled: %v", backfilled)
	}
	if _, ok := byProject[other.ID]; !ok {
		t.Fatalf("project %s not re-registered", other.ID)
	}
	c, err := e.svc.AuthorityCredentials(ctx, pr.ID)
	if err != nil || c.APISecret != backfilled.APISecret {
		t.Fatalf("backfilled credentials not stored: %v", err)
	}
}

func TestUpdateAuthorityReregisters(t *testing.T) {
	reg := &fakeRegistrar{}
	e := newSandboxEnv(t, reg)
	pr := e.project(t, "sandbox")
	first := reg.registered()[0]
	_, err := e.svc.UpdateAuthority(context.Background(), e.user, pr.ID, service.AuthorityInput{
		TaxAuthorityCode: "NRS", BusinessID: first.BusinessID, ServiceID: "NEWSVC01",
		PublicKey: first.PublicKeyPEM, Certificate: first.Certificate,
	})
	if err != nil {
		t.Fatal(err)
	}
	got := reg.registered()
	if len(got) != 2 || got[1].ServiceID != "NEWSVC01" || got[1].APISecret != first.APISecret || got[1].PrivateKeyPEM == "" {
		t.Fatalf("re-registration: %v", got)
	}
}

// TestStandInAcceptsSandboxProject wires the service to the real stand-in:
// a project created through the service can call it at once.
func TestStandInAcceptsSandboxProject(t *testing.T) {
	h, err := nrssandbox.New(nrssandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := newSandboxEnv(t, h.Registry())
	pr := e.project(t, "sandbox")
	c, err := e.svc.AuthorityCredentials(context.Background(), pr.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		secret string
		want   int
	}{
		{"project credentials", c.APISecret, 200},
		{"wrong secret", "wrong", 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := fmt.Sprintf(`{"invoice_reference":"INV1","business_id":%q,"irn":"INV1-%s-20260315"}`, c.BusinessID, c.ServiceID)
			req := httptest.NewRequest(http.MethodPost, "/api/v1/invoice/irn/validate", strings.NewReader(body))
			req.Header.Set("x-api-key", c.APIKey)
			req.Header.Set("x-api-secret", tc.secret)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Fatalf("want %d, got %d %s", tc.want, rec.Code, rec.Body)
			}
		})
	}
}

// A sandbox project follows the configured sandbox: its address is read at
// use time, not frozen into the project when it was created.
func TestSandboxBaseURLReadAtUseTime(t *testing.T) {
	e := newSandboxEnv(t, &fakeRegistrar{})
	pr := e.project(t, "sandbox")
	row, err := e.st.ProjectByID(context.Background(), pr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if row.BaseURL != "" {
		t.Fatalf("sandbox address stored in the project: %q", row.BaseURL)
	}
	if pr.Authority.BaseURL == nil || *pr.Authority.BaseURL != sandboxURL {
		t.Fatalf("view base_url = %v, want %s", pr.Authority.BaseURL, sandboxURL)
	}
	c, err := e.svc.AuthorityCredentials(context.Background(), pr.ID)
	if err != nil || c.BaseURL != sandboxURL {
		t.Fatalf("credentials base URL = %v, %v", c, err)
	}
}
