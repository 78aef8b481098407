package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/audit"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/invoices"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// projectOwner signs up and creates a project of env; it returns the user, an
// authenticated key of the project and the project.
func projectOwner(tb testing.TB, svc *app.App, env string) (*model.Principal, *model.Principal, *portal.ProjectView) {
	tb.Helper()
	ctx := context.Background()
	slug := "o" + uuid.NewString()[:8]
	su, err := svc.Auth.Signup(ctx, auth.SignupInput{Email: slug + "@example.com", Password: "correct horse battery", OrganizationName: "Org", OrganizationSlug: slug})
	if err != nil {
		tb.Fatal(err)
	}
	u, err := svc.Auth.AuthenticateToken(ctx, su.AccessToken)
	if err != nil {
		tb.Fatal(err)
	}
	pr, err := svc.Portal.CreateProject(ctx, u, portal.ProjectInput{OrganizationID: su.Organization.ID.String(), Name: "Shop", Environment: env})
	if err != nil {
		tb.Fatal(err)
	}
	k, err := svc.Keys.Create(ctx, u, pr.ID, keys.Input{KeyName: "validate"})
	if err != nil {
		tb.Fatal(err)
	}
	p, err := svc.Keys.Authenticate(ctx, k.ClientID, k.ClientSecret)
	if err != nil {
		tb.Fatal(err)
	}
	return u, p, pr
}

func hasIssue(r *model.ValidationReport, rule string) bool {
	for _, is := range append(append([]model.Issue{}, r.Errors...), r.Warnings...) {
		if is.Rule == rule {
			return true
		}
	}
	return false
}

// TestValidationProfile checks which profile a validation uses: the
// request's, else the project's, which the portal sets.
func TestValidationProfile(t *testing.T) {
	svc := apptest.New(t, storetest.SQLite(t), nil)
	ctx := context.Background()
	u, k, pr := projectOwner(t, svc, "sandbox")
	if pr.ValidationProfile != model.ProfileNRS {
		t.Fatalf("new project profile %q", pr.ValidationProfile)
	}
	validate := func(profile string) *model.ValidationReport {
		t.Helper()
		r, err := svc.Invoices.Validate(ctx, k, invoices.ValidateInput{Profile: profile, Payload: fixture(t, "invalid-payable-mismatch.json")})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := validate(""); !r.Valid || r.Profile != model.ProfileNRS || !hasIssue(r, "NRS-ARITH-PAYABLE") {
		t.Errorf("default: valid %v profile %q", r.Valid, r.Profile)
	}
	if r := validate("strict"); r.Valid || r.Profile != model.ProfileStrict {
		t.Errorf("strict request: valid %v profile %q", r.Valid, r.Profile)
	}
	_, err := svc.Invoices.Validate(ctx, k, invoices.ValidateInput{Profile: "lenient", Payload: fixture(t, "invoice-b2b-1.1.json")})
	if model.ErrorCodeOf(err) != model.CodeInvalid || model.AsError(err).Fields[0].Loc[0] != "profile" {
		t.Errorf("unknown profile: %v", err)
	}

	// The project's profile becomes the default at once.
	strict := "strict"
	view, err := svc.Portal.UpdateProject(ctx, u, pr.ID, portal.ProjectUpdate{ValidationProfile: &strict})
	if err != nil || view.ValidationProfile != model.ProfileStrict {
		t.Fatalf("update: %+v %v", view, err)
	}
	if r := validate(""); r.Valid || r.Profile != model.ProfileStrict {
		t.Errorf("project strict: valid %v profile %q", r.Valid, r.Profile)
	}
	if r := validate("nrs"); !r.Valid {
		t.Error("a request's nrs does not win over the project's strict")
	}
	got, _ := svc.Portal.Project(ctx, u, pr.ID)
	if got.ValidationProfile != model.ProfileStrict {
		t.Errorf("read back %q", got.ValidationProfile)
	}
	logs, err := svc.Audit.List(ctx, u, audit.Input{Action: model.ActionProjectUpdate})
	if err != nil || len(logs.Items) != 1 || logs.Items[0].Target.ID != pr.ID.String() {
		t.Errorf("audit: %+v %v", logs, err)
	}

	// Bad updates change nothing.
	bad := "lenient"
	for _, in := range []portal.ProjectUpdate{{}, {ValidationProfile: &bad}} {
		if _, err := svc.Portal.UpdateProject(ctx, u, pr.ID, in); model.ErrorCodeOf(err) != model.CodeInvalid {
			t.Errorf("update %+v: %v", in, err)
		}
	}
	// Another user's project is not found.
	other, _, _ := projectOwner(t, svc, "sandbox")
	nrs := "nrs"
	if _, err := svc.Portal.UpdateProject(ctx, other, pr.ID, portal.ProjectUpdate{ValidationProfile: &nrs}); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Errorf("foreign project: %v", err)
	}
	logs, _ = svc.Audit.List(ctx, u, audit.Input{Action: model.ActionProjectUpdate})
	if len(logs.Items) != 1 {
		t.Errorf("%d audit entries after refused updates", len(logs.Items))
	}
}

// listFetcher serves code lists from a map; a missing list fails.
type listFetcher struct {
	lists map[string]string
	calls int
}

func (f *listFetcher) FetchCodeList(_ context.Context, name string) ([]byte, error) {
	f.calls++
	data, ok := f.lists[name]
	if !ok {
		return nil, errors.New("404 no route found for this path")
	}
	return []byte(data), nil
}

// nrsLists is the snapshot as an authority would serve it, with payment
// means reduced to 10 and the two lists the snapshot lacks.
func nrsLists(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range codes.ResourceNames() {
		if data, ok := codes.SnapshotJSON(name); ok {
			out[name] = string(data)
		}
	}
	out["payment-means"] = `[{"code":"10","value":"Cash"}]`
	out["hs-codes"] = `[{"hscode":"2523.29","description":"Portland cement"}]`
	delete(out, "invoice-quantity-codes")
	return out
}

func TestRefreshCodeLists(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			testRefreshCodeLists(t, st)
		})
	}
}

func testRefreshCodeLists(t *testing.T, st *store.Store) {
	ctx := context.Background()
	clock := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := apptest.New(t, st, func(c *app.Config) { c.Now = func() time.Time { return clock } })
	// A second process on the same database, polling fast.
	other := apptest.New(t, st, func(c *app.Config) { c.CodeListPollInterval = 20 * time.Millisecond })
	_, k, pr := projectOwner(t, svc, "sandbox")
	_, kOther, _ := projectOwner(t, other, "sandbox")
	_, kProd, _ := projectOwner(t, svc, "production")

	before, err := svc.Invoices.Validate(ctx, k, invoices.ValidateInput{Payload: fixture(t, "invoice-b2b-1.1.json")})
	if err != nil || !before.Valid || !strings.HasSuffix(before.Ruleset, "snapshot") {
		t.Fatalf("before: %+v %v", before, err)
	}

	// Fetched but not stored: nothing changes.
	f := &listFetcher{lists: nrsLists(t)}
	res, err := svc.CodeLists.Refresh(ctx, pr.ID, f, false)
	if err != nil || res.Stored || len(res.Lists) != 11 || f.calls != 11 {
		t.Fatalf("dry refresh: %+v %v", res, err)
	}
	ok, failed := res.Fetched()
	if len(ok) != 10 || len(failed) != 1 || !strings.HasPrefix(failed[0], "invoice-quantity-codes: ") {
		t.Errorf("fetched %v, failed %v", ok, failed)
	}
	if v, _ := st.CodeLists().Versions(ctx); len(v) != 0 {
		t.Errorf("a dry refresh stored %d lists", len(v))
	}

	// Stored: this process uses the lists at once.
	res, err = svc.CodeLists.Refresh(ctx, pr.ID, f, true)
	if err != nil || !res.Stored {
		t.Fatalf("refresh: %+v %v", res, err)
	}
	for _, l := range res.Lists {
		if l.Err == nil && (l.SHA256 == "" || l.Entries == 0 || !l.Changed) {
			t.Errorf("list %+v", l)
		}
	}
	after, _ := svc.Invoices.Validate(ctx, k, invoices.ValidateInput{Payload: fixture(t, "invoice-b2b-1.1.json")})
	if after.Valid || !hasIssue(after, "NRS-CODE-PAYMENT-MEANS") || after.Ruleset != "NRS-1.1/2026.12; profile nrs; lists 2026-12-01 sandbox" {
		t.Errorf("after refresh: valid %v, %s", after.Valid, after.Ruleset)
	}
	// Production projects keep their own (snapshot) lists.
	prod, _ := svc.Invoices.Validate(ctx, kProd, invoices.ValidateInput{Payload: fixture(t, "invoice-b2b-1.1.json")})
	if !prod.Valid || !strings.HasSuffix(prod.Ruleset, "snapshot") {
		t.Errorf("production after a sandbox refresh: %v %s", prod.Valid, prod.Ruleset)
	}
	// The other process sees the refresh at its next poll (20 ms here; the
	// bound only stops a broken poll from hanging the test on a busy machine).
	deadline := time.Now().Add(60 * time.Second)
	for {
		r, err := other.Invoices.Validate(ctx, kOther, invoices.ValidateInput{Payload: fixture(t, "invoice-b2b-1.1.json")})
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(r.Ruleset, "sandbox") && hasIssue(r, "NRS-CODE-PAYMENT-MEANS") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the other process still validates with %s", r.Ruleset)
		}
		time.Sleep(10 * time.Millisecond)
	}

	// A later refresh with an unusable list keeps the stored one.
	f.lists["payment-means"] = `{"code":400,"data":null}`
	res, err = svc.CodeLists.Refresh(ctx, pr.ID, f, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range res.Lists {
		if l.Name == "payment-means" && l.Err == nil {
			t.Error("an error answer was taken for a list")
		}
		if l.Name == "states" && (l.Err != nil || l.Changed) {
			t.Errorf("unchanged list %+v", l)
		}
	}
	stored, _ := st.CodeLists().List(ctx, "NRS", model.EnvironmentSandbox)
	for _, l := range stored {
		if l.Name == "payment-means" && !strings.Contains(string(l.Data), "Cash") {
			t.Errorf("payment-means replaced by %s", l.Data)
		}
	}
	// A service starting later loads the stored lists.
	late := apptest.New(t, st, nil)
	_, kLate, _ := projectOwner(t, late, "sandbox")
	r, _ := late.Invoices.Validate(ctx, kLate, invoices.ValidateInput{Payload: fixture(t, "invoice-b2b-1.1.json")})
	if !strings.HasSuffix(r.Ruleset, "sandbox") {
		t.Errorf("a new process validates with %s", r.Ruleset)
	}
	if got := svc.Authority.OfficialBaseURL(model.EnvironmentProduction); got != authority.DefaultProductionBaseURL {
		t.Errorf("production host %q", got)
	}
}
