package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb/sandboxdbtest"
)

// fakeRegistrar records registrations and fails while err is set.
type fakeRegistrar struct {
	mu  sync.Mutex
	got []model.SandboxBusiness
	err error
}

func (f *fakeRegistrar) RegisterSandboxBusiness(_ context.Context, b model.SandboxBusiness) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return f.err
	}
	f.got = append(f.got, b)
	return nil
}

func (f *fakeRegistrar) registered() []model.SandboxBusiness {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]model.SandboxBusiness(nil), f.got...)
}

func (f *fakeRegistrar) fail(err error) {
	f.mu.Lock()
	f.err = err
	f.mu.Unlock()
}

// sandboxEnv is a service wired to a registrar.
type sandboxEnv struct {
	svc  *app.App
	st   *store.Store
	logs *apptest.LogBuffer
	user *model.Principal
	org  string
}

const sandboxURL = "http://127.0.0.1:8090"

func newSandboxEnv(tb testing.TB, reg portal.SandboxRegistrar) *sandboxEnv {
	tb.Helper()
	st := storetest.SQLite(tb)
	logs := &apptest.LogBuffer{}
	cfg := apptest.Config(tb, logs)
	cfg.SandboxBaseURL, cfg.SandboxRegistrar = sandboxURL, reg
	svc, err := app.New(st, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = svc.Close(context.Background()) })
	ctx := context.Background()
	slug := "s" + uuid.NewString()[:8]
	su, err := svc.Auth.Signup(ctx, auth.SignupInput{Email: slug + "@example.com", Password: "correct horse battery", OrganizationName: "Org", OrganizationSlug: slug})
	if err != nil {
		tb.Fatal(err)
	}
	u, err := svc.Auth.AuthenticateToken(ctx, su.AccessToken)
	if err != nil {
		tb.Fatal(err)
	}
	return &sandboxEnv{svc: svc, st: st, logs: logs, user: u, org: su.Organization.ID.String()}
}

func (e *sandboxEnv) project(tb testing.TB, env string) *portal.ProjectView {
	tb.Helper()
	pr, err := e.svc.Portal.CreateProject(context.Background(), e.user, portal.ProjectInput{OrganizationID: e.org, Name: "Shop " + env, Environment: env})
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
		row, err := e.st.Projects().ByID(ctx, pr.ID)
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
		c, err := e.svc.Authority.Credentials(ctx, pr.ID)
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
		list, err := e.svc.Portal.SandboxBusinesses(ctx)
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
			if _, err := e.svc.Authority.Credentials(ctx, tc.id); model.ErrorCodeOf(err) != tc.code {
				t.Fatalf("want %s, got %v", tc.code, err)
			}
		})
	}
	list, err := e.svc.Portal.SandboxBusinesses(ctx)
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
	n, err := e.svc.Portal.RegisterSandboxBusinesses(context.Background())
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
	row, err := e.st.Projects().ByID(ctx, pr.ID)
	if err != nil {
		t.Fatal(err)
	}
	row.APIKeyEnc, row.APISecretEnc, row.BaseURL = nil, nil, ""
	if err := e.st.Projects().UpdateAuthority(ctx, row); err != nil {
		t.Fatal(err)
	}
	list, err := e.svc.Portal.SandboxBusinesses(ctx)
	if err != nil || len(list) != 2 {
		t.Fatalf("list: %v %v", list, err)
	}

	n, err := e.svc.Portal.RegisterSandboxBusinesses(ctx)
	if err != nil || n != 2 {
		t.Fatalf("registered %d: %v", n, err)
	}
	byProject := map[uuid.UUID]model.SandboxBusiness{}
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
	c, err := e.svc.Authority.Credentials(ctx, pr.ID)
	if err != nil || c.APISecret != backfilled.APISecret {
		t.Fatalf("backfilled credentials not stored: %v", err)
	}
}

func TestUpdateAuthorityReregisters(t *testing.T) {
	reg := &fakeRegistrar{}
	e := newSandboxEnv(t, reg)
	pr := e.project(t, "sandbox")
	first := reg.registered()[0]
	_, err := e.svc.Portal.UpdateAuthority(context.Background(), e.user, pr.ID, portal.AuthorityInput{
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

// TestStandInAcceptsSandboxProject wires the service to the real stand-in,
// in process and over HTTP through its admin endpoint: a project created
// through the service can call it at once.
func TestStandInAcceptsSandboxProject(t *testing.T) {
	for _, path := range []string{"in process", "over HTTP"} {
		t.Run(path, func(t *testing.T) {
			h, srv, reg := standIn(t, path)
			e := newSandboxEnv(t, reg)
			pr := e.project(t, "sandbox")
			c, err := e.svc.Authority.Credentials(context.Background(), pr.ID)
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
			_ = srv
		})
	}
}

const standInToken = "stand-in-admin-token"

// standIn is a stand-in served by httptest, with the registrar the service
// uses to reach it: the handler itself, or its admin client.
func standIn(tb testing.TB, path string) (*nrssandbox.Handler, *httptest.Server, portal.SandboxRegistrar) {
	tb.Helper()
	h, err := nrssandbox.New(nrssandbox.Options{DB: sandboxdbtest.SQLite(tb), AdminToken: standInToken,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	if path == "in process" {
		return h, srv, h
	}
	c, err := nrssandbox.NewAdminClient(srv.URL, standInToken, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return h, srv, c
}

// callStandIn sends one MBS call with a project's credentials.
func callStandIn(tb testing.TB, srv *httptest.Server, c *authority.Credentials, method, path string, body []byte) (int, string) {
	tb.Helper()
	req, err := http.NewRequest(method, srv.URL+path, bytes.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("x-api-key", c.APIKey)
	req.Header.Set("x-api-secret", c.APISecret)
	resp, err := srv.Client().Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// The attack of the security review (issue 13, item 4): a tenant set its
// sandbox project's business_id to another tenant's, then downloaded that
// tenant's signed invoices, and the victim's next run failed on
// credentials. Now the change is refused, and the stand-in never shows one
// business's invoices to another. The refusal is the same for a free id,
// so that it does not tell which ids other tenants hold.
func TestAttackSandboxBusinessTakeover(t *testing.T) {
	for _, path := range []string{"in process", "over HTTP"} {
		t.Run(path, func(t *testing.T) {
			_, srv, reg := standIn(t, path)
			e := newSandboxEnv(t, reg)
			ctx := context.Background()
			victimProject := e.project(t, "sandbox")
			victim, err := e.svc.Authority.Credentials(ctx, victimProject.ID)
			if err != nil {
				t.Fatal(err)
			}
			// The victim signs an invoice at the stand-in.
			raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", "invoice-b2c-1.1.json"))
			if err != nil {
				t.Fatal(err)
			}
			var inv map[string]any
			if err := json.Unmarshal(raw, &inv); err != nil {
				t.Fatal(err)
			}
			irn := "VICTIM1-" + victim.ServiceID + "-" + strings.ReplaceAll(inv["issue_date"].(string), "-", "")
			inv["business_id"], inv["irn"] = victim.BusinessID, irn
			body, _ := json.Marshal(inv)
			if st, b := callStandIn(t, srv, victim, "POST", "/api/v1/invoice/sign", body); st != 201 {
				t.Fatalf("victim signs: %d %s", st, b)
			}

			// Another tenant, with its own sandbox project.
			atk := e.otherTenant(t)
			atkProject, err := e.svc.Portal.CreateProject(ctx, atk.Principal, portal.ProjectInput{OrganizationID: atk.org, Name: "Attacker", Environment: "sandbox"})
			if err != nil {
				t.Fatal(err)
			}
			attacker, err := e.svc.Authority.Credentials(ctx, atkProject.ID)
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.svc.Portal.UpdateAuthority(ctx, atk.Principal, atkProject.ID, portal.AuthorityInput{
				TaxAuthorityCode: "NRS", BusinessID: victim.BusinessID, ServiceID: victim.ServiceID,
				PublicKey: attacker.PublicKeyPEM, Certificate: attacker.Certificate,
			})
			if model.ErrorCodeOf(err) != model.CodeConflict {
				t.Fatalf("pointing a sandbox project at another tenant's business: want conflict, got %v", err)
			}
			_, free := e.svc.Portal.UpdateAuthority(ctx, atk.Principal, atkProject.ID, portal.AuthorityInput{
				TaxAuthorityCode: "NRS", BusinessID: uuid.NewString(), ServiceID: victim.ServiceID,
				PublicKey: attacker.PublicKeyPEM, Certificate: attacker.Certificate,
			})
			if model.ErrorCodeOf(free) != model.CodeConflict || free.Error() != err.Error() {
				t.Fatalf("a free business_id is answered apart from another tenant's: %v, and %v", free, err)
			}
			after, err := e.svc.Authority.Credentials(ctx, atkProject.ID)
			if err != nil || after.BusinessID != attacker.BusinessID {
				t.Fatalf("the refused change was kept: %v %v", after, err)
			}
			for _, p := range []string{"/api/v1/invoice/download/" + irn, "/api/v1/invoice/confirm/" + irn, "/api/v1/invoice/" + victim.BusinessID} {
				if st, b := callStandIn(t, srv, attacker, "GET", p, nil); st == 200 {
					t.Fatalf("%s answered the attacker: %s", p, b)
				}
			}
			if st, b := callStandIn(t, srv, victim, "GET", "/api/v1/invoice/download/"+irn, nil); st != 200 {
				t.Fatalf("the victim lost access: %d %s", st, b)
			}
			// A change of the attacker's own business is still fine.
			if _, err := e.svc.Portal.UpdateAuthority(ctx, atk.Principal, atkProject.ID, portal.AuthorityInput{
				TaxAuthorityCode: "NRS", BusinessID: strings.ToUpper(attacker.BusinessID), ServiceID: "NEWSVC01",
				PublicKey: attacker.PublicKeyPEM, Certificate: attacker.Certificate,
			}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// tenant is a user with an organization of its own.
type tenant struct {
	*model.Principal
	org string
}

func (e *sandboxEnv) otherTenant(tb testing.TB) tenant {
	tb.Helper()
	ctx := context.Background()
	slug := "a" + uuid.NewString()[:8]
	su, err := e.svc.Auth.Signup(ctx, auth.SignupInput{Email: slug + "@example.com", Password: "correct horse battery", OrganizationName: "Org", OrganizationSlug: slug})
	if err != nil {
		tb.Fatal(err)
	}
	u, err := e.svc.Auth.AuthenticateToken(ctx, su.AccessToken)
	if err != nil {
		tb.Fatal(err)
	}
	return tenant{Principal: u, org: su.Organization.ID.String()}
}

// A sandbox project follows the configured sandbox: its address is read at
// use time, not frozen into the project when it was created.
func TestSandboxBaseURLReadAtUseTime(t *testing.T) {
	e := newSandboxEnv(t, &fakeRegistrar{})
	pr := e.project(t, "sandbox")
	row, err := e.st.Projects().ByID(context.Background(), pr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if row.BaseURL != "" {
		t.Fatalf("sandbox address stored in the project: %q", row.BaseURL)
	}
	if pr.Authority.BaseURL == nil || *pr.Authority.BaseURL != sandboxURL {
		t.Fatalf("view base_url = %v, want %s", pr.Authority.BaseURL, sandboxURL)
	}
	c, err := e.svc.Authority.Credentials(context.Background(), pr.ID)
	if err != nil || c.BaseURL != sandboxURL {
		t.Fatalf("credentials base URL = %v, %v", c, err)
	}
}
