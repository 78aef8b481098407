package store

import (
	"context"
	"testing"
	"time"
)

// The SQLite write turn: free, it is taken and given back; taken, a
// second caller waits until it is given back, or gives up when its context
// ends (going on to SQLite's own handling); PostgreSQL has none.
func TestWriterTurn(t *testing.T) {
	if (&statements{}).takeWriter(context.Background()) != nil {
		t.Fatal("a turn without a writer (PostgreSQL)")
	}
	st := &statements{writer: make(chan struct{}, 1)}
	release := st.takeWriter(context.Background())
	if release == nil {
		t.Fatal("a free turn was not taken")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if st.takeWriter(ctx) != nil {
		t.Fatal("a taken turn was given twice")
	}
	got := make(chan func(), 1)
	go func() { got <- st.takeWriter(context.Background()) }()
	select {
	case <-got:
		t.Fatal("the turn was taken while held")
	case <-time.After(20 * time.Millisecond):
	}
	release()
	second := <-got
	if second == nil {
		t.Fatal("the waiting caller did not get the turn once it was given back")
	}
	second()
	if r := st.takeWriter(context.Background()); r == nil {
		t.Fatal("the turn was not given back")
	} else {
		r()
	}
}
