package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/migrations"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

func env(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

func TestAPIRefusesToStartWithoutSecrets(t *testing.T) {
	for _, c := range []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"nothing", map[string]string{}, []string{"EINVOICE_DATABASE_URL", "EINVOICE_JWT_SECRET", "EINVOICE_ENCRYPTION_KEY"}},
		{"no secrets", map[string]string{"EINVOICE_DATABASE_URL": "x.db"}, []string{"EINVOICE_JWT_SECRET", "EINVOICE_ENCRYPTION_KEY"}},
		{"short jwt secret", map[string]string{"EINVOICE_DATABASE_URL": "x.db", "EINVOICE_JWT_SECRET": "short", "EINVOICE_ENCRYPTION_KEY": strings.Repeat("ab", 32)}, []string{"at least 32"}},
		{"bad key", map[string]string{"EINVOICE_DATABASE_URL": "x.db", "EINVOICE_JWT_SECRET": strings.Repeat("s", 32), "EINVOICE_ENCRYPTION_KEY": "abc"}, []string{"EINVOICE_ENCRYPTION_KEY", "32 bytes"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(context.Background(), []string{"api"}, env(c.env), &out, &errb)
			if err == nil {
				t.Fatal("api started without its secrets")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}
}

func TestConfigAcceptsKeysInHexAndBase64(t *testing.T) {
	for _, key := range []string{strings.Repeat("0f", 32), "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="} {
		c, err := envConfig(env(map[string]string{"EINVOICE_DATABASE_URL": "x.db", "EINVOICE_JWT_SECRET": strings.Repeat("s", 32), "EINVOICE_ENCRYPTION_KEY": key}))
		if err != nil || len(c.EncryptionKey) != 32 || len(c.APIKeyPepper) != 32 {
			t.Fatalf("key %q: %v", key, err)
		}
	}
}

func TestMigrateCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	e := env(map[string]string{"EINVOICE_DATABASE_URL": db})
	step := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		if err := run(context.Background(), append([]string{"migrate"}, args...), e, &out, &out); err != nil {
			t.Fatalf("migrate %v: %v", args, err)
		}
		return out.String()
	}
	if out := step("status"); !strings.Contains(out, "pending") || strings.Contains(out, "applied") {
		t.Fatalf("status before up: %s", out)
	}
	if out := step("up"); !strings.Contains(out, "applied") {
		t.Fatalf("up: %s", out)
	}
	if out := step("up"); !strings.Contains(out, "up to date") {
		t.Fatalf("second up: %s", out)
	}
	if out := step("status"); strings.Contains(out, "pending") {
		t.Fatalf("status after up: %s", out)
	}
	if out := step("down"); !strings.Contains(out, "rolled back") {
		t.Fatalf("down: %s", out)
	}
	if out := step("status"); !strings.Contains(out, "pending") {
		t.Fatalf("status after down: %s", out)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"migrate", "sideways"}, e, &out, &out); err == nil {
		t.Fatal("unknown migrate command accepted")
	}
}

func TestUnknownSubcommand(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"serve"}, env(nil), &out, &errb); err == nil || !strings.Contains(errb.String(), "Usage") {
		t.Fatalf("unknown subcommand: %v %s", err, errb.String())
	}
	if err := run(context.Background(), []string{"version"}, env(nil), &out, &errb); err != nil || out.String() == "" {
		t.Fatalf("version: %v %q", err, out.String())
	}
}

// TestAuditUpgradeAndVerify upgrades a database holding audit entries of
// the unkeyed chain: migrate up needs the key, re-chains them, and audit
// verify then passes; a truncation hidden by putting an older head record
// back passes audit verify alone and fails it against an export of the
// heads made before.
func TestAuditUpgradeAndVerify(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "a.db")
	encKey := strings.Repeat("ab", 32)
	withKey := env(map[string]string{"EINVOICE_DATABASE_URL": db, "EINVOICE_ENCRYPTION_KEY": encKey})
	cmd := func(e func(string) string, args ...string) (string, error) {
		var out bytes.Buffer
		err := run(ctx, args, e, &out, &out)
		return out.String(), err
	}
	if out, err := cmd(withKey, "migrate", "up"); err != nil {
		t.Fatalf("migrate up: %v %s", err, out)
	}
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// Back to the state before the audit key: the keying migration undone,
	// entries in the unkeyed form.
	down, err := fs.ReadFile(migrations.Files(), "sqlite/"+store.AuditKeyingMigration+"_audit_keyed.tx.down.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range strings.Split(string(down), "--bun:split") {
		if _, err := st.DB().ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.DB().ExecContext(ctx, "DELETE FROM bun_migrations WHERE name = ?", store.AuditKeyingMigration); err != nil {
		t.Fatal(err)
	}
	u := &model.User{ID: uuid.New(), Email: "a@example.com", PasswordHash: "x", CreatedAt: time.Now()}
	o := &model.Organization{ID: uuid.New(), Name: "Acme", Slug: "acme", CreatedAt: time.Now()}
	if err := st.Users().Create(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := st.Organizations().Create(ctx, o, &model.Membership{OrganizationID: o.ID, UserID: u.ID, Role: model.RoleOwner, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	prev := ""
	for i := 1; i <= 3; i++ {
		e := &model.AuditLog{ID: uuid.New(), OrganizationID: &o.ID, Seq: int64(i), ActorType: "user", ActorID: u.ID.String(),
			Action: model.ActionLogin, TargetType: "user", TargetID: u.ID.String(), CreatedAt: time.Now().UTC().Truncate(time.Microsecond),
			PrevHash: prev, HashVersion: model.AuditHashUnkeyed}
		e.Hash = e.ComputeHash(nil)
		if _, err := st.DB().NewInsert().Model(e).ExcludeColumn("hash_version").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		prev = e.Hash
	}

	if _, err := cmd(env(map[string]string{"EINVOICE_DATABASE_URL": db}), "migrate", "up"); err == nil || !strings.Contains(err.Error(), "EINVOICE_AUDIT_KEY") {
		t.Fatalf("upgrade without the audit key: %v", err)
	}
	if out, err := cmd(withKey, "migrate", "up"); err != nil || !strings.Contains(out, "re-chained 3 audit entries") {
		t.Fatalf("upgrade: %v %s", err, out)
	}
	if out, err := cmd(withKey, "audit", "verify"); err != nil || !strings.Contains(out, o.ID.String()) {
		t.Fatalf("verify after the upgrade: %v %s", err, out)
	}

	// Two more entries, then an export of the heads.
	var oldHead model.AuditHead
	if err := st.DB().NewSelect().Model(&oldHead).Where("chain = ?", o.ID.String()).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	key, _ := auditKeyFromEnv(withKey, mustKey(t, encKey))
	for range 2 {
		if err := st.Audit().Append(ctx, &model.AuditLog{ID: uuid.New(), OrganizationID: &o.ID, ActorType: "user", ActorID: "u",
			Action: model.ActionKeyCreate, TargetType: "api_key", TargetID: "k", CreatedAt: time.Now()}, key); err != nil {
			t.Fatal(err)
		}
	}
	export, err := cmd(withKey, "audit", "verify", "--json")
	if err != nil {
		t.Fatalf("export: %v %s", err, export)
	}
	heads := filepath.Join(t.TempDir(), "heads.json")
	if err := os.WriteFile(heads, []byte(export), 0o600); err != nil {
		t.Fatal(err)
	}
	// The attacker removes the two newest entries and puts the older head
	// record back.
	if _, err := st.DB().ExecContext(ctx, "DELETE FROM audit_logs WHERE organization_id = ? AND seq > 3", o.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.DB().NewUpdate().Model(&oldHead).WherePK().Column("seq", "hash", "mac").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if out, err := cmd(withKey, "audit", "verify"); err != nil {
		t.Fatalf("verify alone should not see a replayed head: %v %s", err, out)
	}
	out, err := cmd(withKey, "audit", "verify", "--heads", heads)
	if err == nil || !strings.Contains(out, "truncated since the export") {
		t.Fatalf("verify against the export: %v %s", err, out)
	}
}

func mustKey(t *testing.T, v string) []byte {
	t.Helper()
	k, err := decodeKey(v)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestDevSecretsGainAnAuditKey: a data dir from before the audit key keeps
// its secrets and gains one, kept across restarts.
func TestDevSecretsGainAnAuditKey(t *testing.T) {
	dir := t.TempDir()
	old := `{"jwt_secret":"and0","encryption_key":"ZW5j","api_key_pepper":"cGVw"}`
	if err := os.WriteFile(filepath.Join(dir, "secrets.json"), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := loadDevSecrets(dir)
	if err != nil || s.JWTSecret != "and0" || s.EncryptionKey != "ZW5j" || s.AuditKey == "" {
		t.Fatalf("secrets: %+v %v", s, err)
	}
	again, err := loadDevSecrets(dir)
	if err != nil || again.AuditKey != s.AuditKey {
		t.Fatalf("audit key not kept: %+v %v", again, err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "secrets.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("secrets file mode: %v %v", fi.Mode(), err)
	}
}
