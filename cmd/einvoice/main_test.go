package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
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
