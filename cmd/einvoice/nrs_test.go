package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	application "github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store"
)

// nrsResources serves NRS's resource lists as NRS answers them (the
// embedded snapshot), to callers that send an API key and secret; other
// paths answer MBS's 404.
func nrsResources(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		name, ok := strings.CutPrefix(r.URL.Path, "/api/v1/invoice/resources/")
		data, found := codes.SnapshotJSON(name)
		switch {
		case r.Header.Get("x-api-key") == "" || r.Header.Get("x-api-secret") == "":
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"code":400,"data":null,"message":"error has occurred","error":{"id":"00000000-0000-4000-8000-000000000000","handler":"handler","public_message":"unable to validate api key"}}`)
		case !ok || !found:
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"code":404,"data":null,"message":"no route found for this path. kindly check your request and try again"}`)
		default:
			_, _ = io.WriteString(w, `{"code":200,"data":`+string(data)+`}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRefreshCodesCommand refreshes a sandbox project's code lists from the
// sandbox host with the command, as an operator would.
func TestRefreshCodesCommand(t *testing.T) {
	ctx := context.Background()
	srv := nrsResources(t)

	key := bytes.Repeat([]byte{7}, secret.KeySize)
	db := filepath.Join(t.TempDir(), "e.db")
	e := env(map[string]string{
		"EINVOICE_DATABASE_URL": db, "EINVOICE_JWT_SECRET": strings.Repeat("s", 32),
		"EINVOICE_ENCRYPTION_KEY": hex.EncodeToString(key), "EINVOICE_NRS_SANDBOX_URL": srv.URL,
	})

	// A sandbox project, provisioned the way the api does it.
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Migrations().Up(ctx); err != nil {
		t.Fatal(err)
	}
	box, _ := secret.NewBox(key)
	svc, err := application.New(st, application.Config{
		JWTSecret: []byte(strings.Repeat("s", 32)), Box: box, Hasher: secret.NewHasher(secret.Derive(key, "api-key-pepper")),
		AuditKey:    secret.Derive(key, "audit-chain"),
		Authorities: apptest.Authorities(t), SandboxKeys: apptest.SandboxKeys, SandboxBaseURL: srv.URL,
		PasswordParams: secret.PasswordParams{Memory: 1024, Time: 1, Threads: 1},
		Logger:         slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	su, err := svc.Auth.Signup(ctx, auth.SignupInput{Email: "ops@example.com", Password: "correct horse battery", OrganizationName: "Ops", OrganizationSlug: "ops"})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := svc.Portal.CreateProject(ctx, &model.Principal{UserID: su.User.ID}, portal.ProjectInput{
		OrganizationID: su.Organization.ID.String(), Name: "Shop", Environment: "sandbox"})
	if err != nil {
		t.Fatal(err)
	}
	_ = svc.Close(ctx)
	_ = st.Close()

	var out bytes.Buffer
	if err := run(ctx, []string{"nrs", "refresh-codes", "--project", pr.ID.String(), "--dry-run"}, e, &out, io.Discard); err != nil {
		t.Fatalf("dry run: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "nothing stored") || !strings.Contains(out.String(), "payment-means") {
		t.Errorf("dry run output:\n%s", out.String())
	}
	out.Reset()
	if err := run(ctx, []string{"nrs", "refresh-codes", "--project", pr.ID.String()}, e, &out, io.Discard); err != nil {
		t.Fatalf("refresh: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "lists stored") || !strings.Contains(out.String(), "sandbox code lists from "+srv.URL) {
		t.Errorf("output:\n%s", out.String())
	}
	st, err = store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	lists, err := st.CodeLists().List(ctx, "NRS", model.EnvironmentSandbox)
	// Every list the MBS client fetches (seven today; states and lgas once
	// it asks for them) is stored with the bytes served.
	if err != nil || len(lists) < 7 {
		t.Fatalf("stored lists: %d %v", len(lists), err)
	}
	// The entries are stored byte for byte; the client's resource call
	// hands them over without the whitespace between them.
	compact := func(b []byte) string {
		var out bytes.Buffer
		if err := json.Compact(&out, b); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	for _, l := range lists {
		if want, _ := codes.SnapshotJSON(l.Name); compact(l.Data) != compact(want) {
			t.Errorf("%s: the stored list differs from the list served", l.Name)
		}
	}
	if !strings.Contains(out.String(), "hs-codes") || !strings.Contains(out.String(), "not served") {
		t.Errorf("the lists not served are not reported:\n%s", out.String())
	}

	for _, args := range [][]string{
		{"nrs"},
		{"nrs", "refresh-codes"},
		{"nrs", "refresh-codes", "--project", "x"},
		{"nrs", "refresh-codes", "--project", "0a1b2c3d-0000-4000-8000-000000000001"},
	} {
		if err := run(ctx, args, e, io.Discard, io.Discard); err == nil {
			t.Errorf("%v succeeded", args)
		}
	}
	if _, err := envConfig(env(map[string]string{"EINVOICE_DATABASE_URL": db, "EINVOICE_JWT_SECRET": strings.Repeat("s", 32),
		"EINVOICE_ENCRYPTION_KEY": hex.EncodeToString(key), "EINVOICE_NRS_PRODUCTION_URL": "einvoice1.nrs.gov.ng"})); err == nil {
		t.Error("a production URL without a scheme was accepted")
	}
}
