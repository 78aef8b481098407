package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// TestNULNeverDropped: bun writes strings as SQL literals without U+0000,
// so a name or e-mail holding one would be stored, or looked up, as
// another value. The store refuses such values (invalid, value_error at
// the field) on both dialects, and stores nothing.
func TestNULNeverDropped(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			u, o, p := seed(t, st, "acme")
			for _, c := range []struct {
				name string
				do   func() error
				loc  []any
			}{
				{"user email", func() error {
					return st.Users().Create(ctx, &model.User{ID: newID(t), Email: "acme\x00@example.com", PasswordHash: "x", CreatedAt: now()})
				}, []any{"email"}},
				{"lookup by email", func() error {
					_, err := st.Users().ByEmail(ctx, "acme@example.com\x00")
					return err
				}, []any{"email"}},
				{"organization name", func() error {
					o2 := &model.Organization{ID: newID(t), Name: "Acme\x00Two", Slug: "acme-two", CreatedAt: now()}
					return st.Organizations().Create(ctx, o2, &model.Membership{OrganizationID: o2.ID, UserID: u.ID, Role: model.RoleOwner, CreatedAt: now()})
				}, []any{"name"}},
				{"project name", func() error {
					return st.Projects().Create(ctx, &model.Project{ID: newID(t), OrganizationID: o.ID, Name: "Shop\x00", Environment: model.EnvironmentSandbox,
						CreatedAt: now(), UpdatedAt: now(), TaxAuthorityCode: "NRS", QREncryption: model.QREncryptionPKCS1v15})
				}, []any{"name"}},
				{"key name", func() error {
					return st.Keys().Create(ctx, &model.APIKey{ID: newID(t), ProjectID: p.ID, KeyName: "\x00erp", ClientID: "ck_sandbox_nul",
						SecretHash: []byte{1}, SecretLast4: "abcd", Scopes: "usage:read", Status: model.KeyActive, CreatedAt: now()})
				}, []any{"key_name"}},
			} {
				t.Run(c.name, func(t *testing.T) {
					e := model.AsError(c.do())
					if e == nil || e.Code != model.CodeInvalid || len(e.Fields) != 1 ||
						e.Fields[0].Type != model.ProblemValueError || !slices.Equal(e.Fields[0].Loc, c.loc) {
						t.Fatalf("error %#v, want invalid value_error at %v", e, c.loc)
					}
				})
			}
			// The look-up without the NUL still finds the user; nothing
			// else was written.
			if got, err := st.Users().ByEmail(ctx, "acme@example.com"); err != nil || got.ID != u.ID {
				t.Fatalf("user: %v %v", got, err)
			}
			if _, err := st.Users().ByEmail(ctx, "acme@example.com\x00x"); model.ErrorCodeOf(err) != model.CodeInvalid {
				t.Fatalf("lookup with NUL: %v", err)
			}
		})
	}
}
