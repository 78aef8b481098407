package render

import (
	"fmt"
	"strconv"
	"sync"

	"github.com/einvoice-ng/einvoice/model/qrcode"
)

// qr draws the QR code of the view's payload with its top-left corner at
// (x, y) and a caption below; it returns the y below the caption.
func (d *doc) qr(x, y float64) float64 {
	if d.v.QR.Payload == "" {
		d.pen(rule, 0.25)
		d.f.SetDashPattern([]float64{1, 1}, 0)
		d.f.Rect(x+4, y+4, qrSide-8, qrSide-8, "D")
		d.f.SetDashPattern(nil, 0)
		d.font("", 8)
		d.color(muted)
		d.cell(x, y+qrSide/2-2, qrSide, 8, "No IRN, no QR code", "C")
		return y + qrSide
	}
	m, err := qrModules(d.v.QR.Payload)
	if err != nil {
		d.f.SetError(fmt.Errorf("qr code: %w", err))
		return y + qrSide
	}
	d.modules(m, x, y, qrSide)
	d.font("", 7)
	d.color(muted)
	d.cell(x, y+qrSide-0.5, qrSide, 7, "NRS QR code · scan to verify", "C")
	return y + qrSide - 0.5 + lh(7)
}

// moduleRuns is a QR code as PDF path operators in module units: one
// "col row len h re" per horizontal run of dark modules, quiet zone
// included in size.
type moduleRuns struct {
	size int
	ops  string
}

// qrModules encodes payload at level H, once per payload: the encoding is
// most of what a document costs, and a view rendered again (a PDF asked for
// twice, a batch of copies) needs no second one. The cache is small and
// forgets the oldest payload first.
func qrModules(payload string) (moduleRuns, error) {
	if m, ok := qrCache.get(payload); ok {
		return m, nil
	}
	qr, err := qrcode.Modules(payload)
	if err != nil {
		return moduleRuns{}, err
	}
	m := runs(&qr)
	qrCache.put(payload, m)
	return m, nil
}

// quietZone is the light margin around a QR code, in modules.
const quietZone = 4

// runs turns a QR code into moduleRuns, quiet zone included. Each run
// overlaps the row below by a hair so that rasterisers leave no seams.
func runs(qr *qrcode.Matrix) moduleRuns {
	n := qr.Size
	buf := make([]byte, 0, 32<<10)
	for row := 0; row < n; row++ {
		for col := 0; col < n; {
			if !qr.Dark(col, row) {
				col++
				continue
			}
			start := col
			for col < n && qr.Dark(col, row) {
				col++
			}
			buf = strconv.AppendInt(buf, int64(start+quietZone), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(row+quietZone), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(col-start), 10)
			buf = append(buf, " 1.04 re\n"...)
		}
	}
	return moduleRuns{size: n + 2*quietZone, ops: string(buf)}
}

// modules draws a QR code side millimetres wide with its top-left corner at
// (x, y) as one filled path, scaled so that a module is one unit: vector
// modules stay sharp at any scan resolution.
func (d *doc) modules(m moduleRuns, x, y, side float64) {
	if m.size == 0 {
		return
	}
	const k = 72 / 25.4 // points per millimetre
	unit := side / float64(m.size) * k
	buf := make([]byte, 0, 96)
	buf = append(buf, "q 0 0 0 rg "...)
	buf = strconv.AppendFloat(buf, unit, 'f', 5, 64)
	buf = append(buf, " 0 0 "...)
	buf = strconv.AppendFloat(buf, -unit, 'f', 5, 64)
	buf = append(buf, ' ')
	buf = strconv.AppendFloat(buf, x*k, 'f', 3, 64)
	buf = append(buf, ' ')
	buf = strconv.AppendFloat(buf, (pageH-y)*k, 'f', 3, 64)
	buf = append(buf, " cm"...)
	d.f.RawWriteStr(string(buf))
	d.f.RawWriteStr(m.ops + "f Q")
}

// qrCache holds the module runs of the last few payloads.
var qrCache = newRunCache(16)

type runCache struct {
	mu    sync.Mutex
	items map[string]moduleRuns
	order []string // insertion order, oldest first
	max   int
}

func newRunCache(max int) *runCache {
	return &runCache{items: make(map[string]moduleRuns, max), max: max}
}

func (c *runCache) get(key string) (moduleRuns, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, ok := c.items[key]
	return m, ok
}

func (c *runCache) put(key string, m moduleRuns) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[key]; ok {
		return
	}
	if len(c.order) >= c.max {
		delete(c.items, c.order[0])
		c.order = c.order[1:]
	}
	c.items[key] = m
	c.order = append(c.order, key)
}
