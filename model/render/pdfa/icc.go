package pdfa

import "encoding/binary"

// srgbProfile builds an ICC v2 display profile of sRGB: D50 media white,
// the Bradford-adapted sRGB primaries and a 2.2 gamma curve per channel,
// the output intent PDF/A asks for when a document paints in DeviceRGB.
func srgbProfile() []byte {
	type tag struct {
		sig  string
		data []byte
	}
	xyz := func(x, y, z float64) []byte {
		b := []byte("XYZ \x00\x00\x00\x00")
		for _, v := range []float64{x, y, z} {
			b = binary.BigEndian.AppendUint32(b, uint32(int32(v*65536+0.5)))
		}
		return b
	}
	desc := func(s string) []byte {
		b := []byte("desc\x00\x00\x00\x00")
		b = binary.BigEndian.AppendUint32(b, uint32(len(s)+1))
		b = append(b, s...)
		b = append(b, 0)
		b = append(b, make([]byte, 4+4+2+1+67)...) // no Unicode, no ScriptCode text
		return b
	}
	curve := []byte("curv\x00\x00\x00\x00\x00\x00\x00\x01\x02\x33\x00\x00") // gamma 2.2 (u8Fixed8), padded
	tags := []tag{
		{"desc", desc("sRGB")},
		{"cprt", append([]byte("text\x00\x00\x00\x00No copyright, use freely"), 0)},
		{"wtpt", xyz(0.9642, 1.0, 0.8249)},
		{"rXYZ", xyz(0.4361, 0.2225, 0.0139)},
		{"gXYZ", xyz(0.3851, 0.7169, 0.0971)},
		{"bXYZ", xyz(0.1431, 0.0606, 0.7141)},
		{"rTRC", curve}, {"gTRC", curve}, {"bTRC", curve},
	}
	pad := func(b []byte) []byte {
		for len(b)%4 != 0 {
			b = append(b, 0)
		}
		return b
	}
	off := 128 + 4 + 12*len(tags)
	var table, data []byte
	table = binary.BigEndian.AppendUint32(table, uint32(len(tags)))
	for _, t := range tags {
		table = append(table, t.sig...)
		table = binary.BigEndian.AppendUint32(table, uint32(off+len(data)))
		table = binary.BigEndian.AppendUint32(table, uint32(len(t.data)))
		data = pad(append(data, t.data...))
	}
	size := off + len(data)
	h := make([]byte, 0, 128)
	h = binary.BigEndian.AppendUint32(h, uint32(size))
	h = append(h, 0, 0, 0, 0)                               // preferred CMM
	h = append(h, 0x02, 0x10, 0, 0)                         // version 2.1
	h = append(h, "mntrRGB XYZ "...)                        // class, colour space, PCS
	h = append(h, 0x07, 0xd0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0) // 2000-01-01
	h = append(h, "acsp"...)
	h = append(h, make([]byte, 4+4+4+4+8+4)...) // platform, flags, manufacturer, model, attributes, intent
	for _, v := range []float64{0.9642, 1.0, 0.8249} {
		h = binary.BigEndian.AppendUint32(h, uint32(int32(v*65536+0.5)))
	}
	h = append(h, make([]byte, 128-len(h))...)
	return append(append(h, table...), data...)
}
