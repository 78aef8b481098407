package render

import (
	"strconv"
	"testing"
)

func TestRunCacheForgetsOldestFirst(t *testing.T) {
	c := newRunCache(3)
	for i := range 5 {
		c.put(strconv.Itoa(i), qrImage{size: i})
	}
	c.put("4", qrImage{size: 99}) // already there: kept as it was
	for i := range 5 {
		m, ok := c.get(strconv.Itoa(i))
		if want := i >= 2; ok != want || ok && m.size != i {
			t.Errorf("entry %d: %v %+v, want present %v", i, ok, m, want)
		}
	}
	if len(c.items) != 3 || len(c.order) != 3 {
		t.Errorf("cache holds %d items, %d keys; want 3", len(c.items), len(c.order))
	}
}

func TestQRModulesMatchThePayload(t *testing.T) {
	a, err := qrModules("first payload")
	if err != nil {
		t.Fatal(err)
	}
	b, err := qrModules("second payload")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := qrModules("first payload")
	if a.hex == b.hex || again.hex != a.hex || a.size == 0 {
		t.Error("QR images are not keyed by payload")
	}
}
