package codelists_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// fetcher serves code lists from a map; a missing list fails as a 404.
type fetcher map[string]string

func (f fetcher) FetchCodeList(_ context.Context, name string) ([]byte, error) {
	if data, ok := f[name]; ok {
		return []byte(data), nil
	}
	return nil, errors.New("404 no route found for this path")
}

// A refresh fetches every list of the project's authority; a dry one stores
// nothing, a stored one keeps the lists served and leaves the failed ones
// as they were, and an unparsable list is reported, never stored.
func TestRefresh(t *testing.T) {
	ctx := context.Background()
	st := storetest.SQLite(t)
	svc := apptest.New(t, st, nil)
	tn := apptest.NewTenant(t, svc, "sandbox")

	lists := fetcher{}
	for _, name := range codes.ResourceNames() {
		if data, ok := codes.SnapshotJSON(name); ok {
			lists[name] = string(data)
		}
	}
	lists["payment-means"] = `[{"code":"10","value":"Cash"}]`
	lists["hs-codes"] = `[{"hscode":"2523.29","description":"Portland cement"}]`
	lists["currencies"] = `{"not":"a list"}`
	delete(lists, "invoice-quantity-codes")
	all := len(codes.ResourceNames())

	dry, err := svc.CodeLists.Refresh(ctx, tn.Project.ID, lists, false)
	if err != nil {
		t.Fatal(err)
	}
	if dry.Stored || len(dry.Lists) != all {
		t.Fatalf("dry refresh = %+v, want every list reported and none stored", dry)
	}
	if v, _ := st.CodeLists().Versions(ctx); len(v) != 0 {
		t.Fatalf("a dry refresh stored %d lists", len(v))
	}

	res, err := svc.CodeLists.Refresh(ctx, tn.Project.ID, lists, true)
	if err != nil {
		t.Fatal(err)
	}
	ok, failed := res.Fetched()
	if !res.Stored || len(failed) != 2 || len(ok) != all-2 {
		t.Fatalf("refresh: ok %v, failed %v, want two failures", ok, failed)
	}
	for _, want := range []string{"currencies: ", "invoice-quantity-codes: "} {
		found := false
		for _, f := range failed {
			found = found || strings.HasPrefix(f, want)
		}
		if !found {
			t.Errorf("failures %q do not report %q", failed, want)
		}
	}
	v, err := st.CodeLists().Versions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(v) != all-2 {
		t.Fatalf("stored %d lists, want %d (the failed ones left as they were)", len(v), all-2)
	}
}
