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

// qrImage is a QR code as the data of a one-bit image mask: a row of
// bytes per row of modules, the leftmost module in the high bit, 1 for
// dark, in ASCII hex. size counts the modules of a side, quiet zone
// included; the image holds the symbol only (light modules are not
// painted).
type qrImage struct {
	size    int
	modules int
	hex     string
}

// qrModules encodes payload at level H, once per payload: the encoding is
// most of what a document costs, and a view rendered again (a PDF asked for
// twice, a batch of copies) needs no second one. The cache is small and
// forgets the oldest payload first.
func qrModules(payload string) (qrImage, error) {
	if m, ok := qrCache.get(payload); ok {
		return m, nil
	}
	qr, err := qrcode.Modules(payload)
	if err != nil {
		return qrImage{}, err
	}
	m := maskImage(&qr)
	qrCache.put(payload, m)
	return m, nil
}

// quietZone is the light margin around a QR code, in modules.
const quietZone = 4

// maskImage turns a QR code into a qrImage.
func maskImage(qr *qrcode.Matrix) qrImage {
	const digits = "0123456789abcdef"
	n := qr.Size
	stride := (n + 7) / 8
	last := byte(0xFF) // the modules of a row's last byte
	if n%8 != 0 {
		last <<= 8 - n%8
	}
	buf := make([]byte, 0, n*stride*2+1)
	for y := range n {
		row := qr.Row(y)
		for i, v := range row {
			if i == len(row)-1 {
				v &= last
			}
			buf = append(buf, digits[v>>4], digits[v&15])
		}
	}
	buf = append(buf, '>') // the end of ASCIIHex data
	return qrImage{size: n + 2*quietZone, modules: n, hex: string(buf)}
}

// modules draws a QR code side millimetres wide, quiet zone included, with
// its top-left corner at (x, y): an inline image mask of one sample per
// module filled in black, which renderers scale without smoothing
// (/Interpolate is false), so the modules stay sharp at any scan
// resolution, in 2.5 kB of content (1.3 kB of samples in ASCII hex)
// instead of a path of each run of dark modules (35 kB to compress for
// every document).
func (d *doc) modules(m qrImage, x, y, side float64) {
	if m.size == 0 {
		return
	}
	const k = 72 / 25.4 // points per millimetre
	unit := side / float64(m.size) * k
	w := unit * float64(m.modules)
	left := x*k + quietZone*unit
	bottom := (pageH-y)*k - quietZone*unit - w
	buf := make([]byte, 0, 160+len(m.hex))
	buf = append(buf, "q 0 g "...)
	buf = strconv.AppendFloat(buf, w, 'f', 5, 64)
	buf = append(buf, " 0 0 "...)
	buf = strconv.AppendFloat(buf, w, 'f', 5, 64)
	buf = append(buf, ' ')
	buf = strconv.AppendFloat(buf, left, 'f', 3, 64)
	buf = append(buf, ' ')
	buf = strconv.AppendFloat(buf, bottom, 'f', 3, 64)
	buf = append(buf, " cm\nBI /W "...)
	buf = strconv.AppendInt(buf, int64(m.modules), 10)
	buf = append(buf, " /H "...)
	buf = strconv.AppendInt(buf, int64(m.modules), 10)
	buf = append(buf, " /IM true /BPC 1 /D [1 0] /F /AHx ID\n"...)
	buf = append(buf, m.hex...)
	buf = append(buf, "\nEI Q"...)
	d.f.RawWriteStr(string(buf))
}

// qrCache holds the QR images of the last few payloads.
var qrCache = newRunCache(16)

type runCache struct {
	mu    sync.Mutex
	items map[string]qrImage
	order []string // insertion order, oldest first
	max   int
}

func newRunCache(max int) *runCache {
	return &runCache{items: make(map[string]qrImage, max), max: max}
}

func (c *runCache) get(key string) (qrImage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, ok := c.items[key]
	return m, ok
}

func (c *runCache) put(key string, m qrImage) {
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
