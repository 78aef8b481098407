package store_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

func TestCodeLists(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			at := now()
			first := []model.AuthorityCodeList{
				{TaxAuthorityCode: "NRS", Environment: model.EnvironmentSandbox, Name: "payment-means", Data: []byte(`[{"code":"10","value":"Cash"}]`), SHA256: "a1", Entries: 1, FetchedAt: at},
				{TaxAuthorityCode: "NRS", Environment: model.EnvironmentProduction, Name: "payment-means", Data: []byte(`[{"code":"43","value":"ACH Debit"}]`), SHA256: "b1", Entries: 1, FetchedAt: at},
			}
			if err := st.CodeLists().Save(ctx, first); err != nil {
				t.Fatal(err)
			}
			// A refresh replaces the list of its environment only.
			later := at.Add(time.Hour)
			if err := st.CodeLists().Save(ctx, []model.AuthorityCodeList{
				{TaxAuthorityCode: "NRS", Environment: model.EnvironmentSandbox, Name: "payment-means", Data: []byte(`[{"code":"ZZZ","value":"Mutually Defined"}]`), SHA256: "a2", Entries: 1, FetchedAt: later},
				{TaxAuthorityCode: "NRS", Environment: model.EnvironmentSandbox, Name: "states", Data: []byte(`[{"name":"Lagos","code":"NG-LA"}]`), SHA256: "c1", Entries: 1, FetchedAt: later},
			}); err != nil {
				t.Fatal(err)
			}
			sandbox, err := st.CodeLists().List(ctx, "NRS", model.EnvironmentSandbox)
			if err != nil || len(sandbox) != 2 {
				t.Fatalf("sandbox lists: %v %v", sandbox, err)
			}
			if l := sandbox[0]; l.Name != "payment-means" || l.SHA256 != "a2" || !bytes.Contains(l.Data, []byte("ZZZ")) || !l.FetchedAt.Equal(later) {
				t.Errorf("replaced list = %+v", l)
			}
			prod, err := st.CodeLists().List(ctx, "NRS", model.EnvironmentProduction)
			if err != nil || len(prod) != 1 || prod[0].SHA256 != "b1" {
				t.Fatalf("production lists: %+v %v", prod, err)
			}
			versions, err := st.CodeLists().Versions(ctx)
			if err != nil || len(versions) != 3 {
				t.Fatalf("versions: %+v %v", versions, err)
			}
			for _, v := range versions {
				if len(v.Data) != 0 || v.SHA256 == "" || v.FetchedAt.IsZero() {
					t.Errorf("version row %+v", v)
				}
			}
			// A bad environment is refused by the database.
			err = st.CodeLists().Save(ctx, []model.AuthorityCodeList{{TaxAuthorityCode: "NRS", Environment: "staging", Name: "x", Data: []byte("[]"), SHA256: "x", FetchedAt: at}})
			if err == nil {
				t.Error("environment staging stored")
			}
		})
	}
}

func TestProjectValidationProfile(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			_, _, p := seed(t, st, "profile")
			got, err := st.Projects().ByID(ctx, p.ID)
			if err != nil || got.ValidationProfile != model.ProfileNRS {
				t.Fatalf("new project profile %q, %v", got.ValidationProfile, err)
			}
			got.ValidationProfile, got.UpdatedAt = model.ProfileStrict, now()
			if err := st.Projects().UpdateSettings(ctx, got); err != nil {
				t.Fatal(err)
			}
			again, _ := st.Projects().ByID(ctx, p.ID)
			if again.ValidationProfile != model.ProfileStrict {
				t.Errorf("profile %q", again.ValidationProfile)
			}
			again.ValidationProfile = "lenient"
			if err := st.Projects().UpdateSettings(ctx, again); err == nil {
				t.Error("profile lenient stored")
			}
		})
	}
}
