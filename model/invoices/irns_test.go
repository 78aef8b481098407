package invoices

import (
	"hash/maphash"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// TestIssuedIRNs checks the cache of issued IRNs: what was put is found
// under its project and reference only, with its IRN and issue date, and
// a full cache starts over instead of growing.
func TestIssuedIRNs(t *testing.T) {
	var c issuedIRNs
	p1, p2 := uuid.New(), uuid.New()
	c.put(&model.IssuedIRN{ProjectID: p1, InvoiceReference: "INV001", IssueDate: "2026-03-15", IRN: "INV001-94ND90NR-20260315", InvoiceTypeCode: "381"})
	c.put(&model.IssuedIRN{ProjectID: p2, InvoiceReference: "INV001", IssueDate: "2026-04-01", IRN: "INV001-AAAA0000-20260401", InvoiceTypeCode: "381"})
	for _, want := range []struct {
		project    uuid.UUID
		ref        string
		irn, date  string
		remembered bool
	}{
		{p1, "INV001", "INV001-94ND90NR-20260315", "2026-03-15", true},
		{p2, "INV001", "INV001-AAAA0000-20260401", "2026-04-01", true},
		{p1, "INV00", "", "", false},
		{p1, "INV0011", "", "", false},
		{uuid.New(), "INV001", "", "", false},
	} {
		irn, date, ok := c.get(want.project, want.ref)
		if ok != want.remembered || irn != want.irn || date != want.date {
			t.Errorf("get(%s, %q) = %q, %q, %v; want %q, %q, %v", want.project, want.ref, irn, date, ok, want.irn, want.date, want.remembered)
		}
	}
	for i := range maxIssuedIRNs + 1 {
		ref := "R" + strconv.Itoa(i)
		c.put(&model.IssuedIRN{ProjectID: p1, InvoiceReference: ref, IssueDate: "2026-03-15", IRN: ref + "-94ND90NR-20260315"})
	}
	if n := len(c.items); n > maxIssuedIRNs {
		t.Fatalf("%d entries, more than %d", n, maxIssuedIRNs)
	}
	if n := len(c.items); n == 0 {
		t.Fatal("the cache did not start over")
	}
	last := "R" + strconv.Itoa(maxIssuedIRNs)
	if irn, _, ok := c.get(p1, last); !ok || irn != last+"-94ND90NR-20260315" {
		t.Errorf("the latest entry is not remembered: %q, %v", irn, ok)
	}
}

// TestIssuedIRNsHashCollision checks that an entry found under another
// reference's hash is a miss, not that reference's IRN, and that an entry
// too long for the cache is not remembered.
func TestIssuedIRNsHashCollision(t *testing.T) {
	var c issuedIRNs
	p := uuid.New()
	c.put(&model.IssuedIRN{ProjectID: p, InvoiceReference: "A1", IssueDate: "2026-03-15", IRN: "A1-94ND90NR-20260315"})
	spot := c.items[irnKey{p, maphash.String(c.seed, "A1")}]
	c.items[irnKey{p, maphash.String(c.seed, "B2")}] = spot // B2 as if its hash were A1's
	if irn, _, ok := c.get(p, "B2"); ok {
		t.Errorf("B2 found A1's entry: %q", irn)
	}
	if irn, _, ok := c.get(p, "A1"); !ok || irn != "A1-94ND90NR-20260315" {
		t.Errorf("A1: %q, %v", irn, ok)
	}
	long := strings.Repeat("L", maxIRNEntry)
	c.put(&model.IssuedIRN{ProjectID: p, InvoiceReference: long, IssueDate: "2026-03-15", IRN: long + "-94ND90NR-20260315"})
	if _, _, ok := c.get(p, long); ok {
		t.Error("an entry longer than maxIRNEntry was remembered")
	}
}
