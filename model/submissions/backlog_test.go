package submissions

import (
	"testing"
	"time"

	"github.com/google/uuid"
)

// TestBacklogCache: a reading stands for a second while it and what the
// process accepted since stay within half the bound; past that, or later,
// or after a refusal, the backlog must be read again.
func TestBacklogCache(t *testing.T) {
	var bc backlogCache
	p, q := uuid.New(), uuid.New()
	t0 := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	if bc.below(p, 1, 10, t0) {
		t.Fatal("no reading yet, but no read asked for")
	}
	bc.set(p, 4, 1, t0) // 4 owned, this submission accepted
	for i := range 5 {  // 4+1+5 = 10: within half the bound
		if !bc.below(p, 1, 10, t0.Add(time.Duration(i)*100*time.Millisecond)) {
			t.Fatalf("submission %d: read asked for within half the bound", i)
		}
	}
	if bc.below(p, 1, 10, t0.Add(600*time.Millisecond)) {
		t.Fatal("past half the bound (11 > 10) without a read")
	}
	if bc.below(q, 1, 10, t0) {
		t.Fatal("another project's reading was used")
	}
	bc.set(p, 0, 1, t0)
	if bc.below(p, 3, 10, t0.Add(backlogFresh)) {
		t.Fatal("a reading a second old was used")
	}
	if bc.below(p, 1, 10, t0.Add(-time.Millisecond)) {
		t.Fatal("a reading from the future (clock stepped back) was used")
	}
	if !bc.below(p, 9, 10, t0) {
		t.Fatal("0+1+9 is within half the bound")
	}
	bc.forget(p)
	if bc.below(p, 0, 10, t0) {
		t.Fatal("a refused project's reading was kept")
	}
}
