package qrcode_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model/qrcode"
)

// rowsOf packs a matrix the way DecodeRows reads it.
func rowsOf(m *qrcode.Matrix) []byte {
	var out []byte
	for y := range m.Size {
		out = append(out, m.Row(y)...)
	}
	return out
}

func TestDecodeRowsReadsBackWhatModulesEncoded(t *testing.T) {
	for _, payload := range []string{
		"0123456789",                  // numeric mode
		"NRS QR 12345",                // alphanumeric mode
		strings.Repeat("q8P+/x=", 50), // byte mode, base64 characters, version 20 or so
		"Kọ́lá Ọ̀ṣun — ₦1,000",        // byte mode, UTF-8
	} {
		m, err := qrcode.Modules(payload)
		if err != nil {
			t.Fatal(err)
		}
		got, err := qrcode.DecodeRows(m.Size, rowsOf(&m))
		if err != nil {
			t.Fatalf("%q: %v", payload, err)
		}
		if got != payload {
			t.Errorf("decoded %q, want %q", got, payload)
		}
	}
}

func TestDecodeRowsRefusesDamagedGrids(t *testing.T) {
	payload := strings.Repeat("payload ", 30)
	m, err := qrcode.Modules(payload)
	if err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(&m)
	stride := (m.Size + 7) / 8
	// A third of the rows inverted: it no longer reads as the payload.
	bad := bytes.Clone(rows)
	for y := m.Size / 3; y < 2*m.Size/3; y++ {
		for i := y * stride; i < (y+1)*stride; i++ {
			bad[i] ^= 0xFF
		}
	}
	if got, err := qrcode.DecodeRows(m.Size, bad); err == nil && got == payload {
		t.Error("a grid with a third of its rows inverted decoded to the payload")
	}
	if _, err := qrcode.DecodeRows(m.Size, make([]byte, len(rows))); err == nil {
		t.Error("an empty grid decoded")
	}
	if _, err := qrcode.DecodeRows(m.Size, rows[:len(rows)-1]); err == nil {
		t.Error("a short grid decoded")
	}
	if _, err := qrcode.DecodeRows(m.Size+1, rows); err == nil {
		t.Error("a side that is no QR size decoded")
	}
}

func BenchmarkDecodeRows(b *testing.B) {
	m, err := qrcode.Modules(strings.Repeat("q8P+/x=", 49) + "q") // 344 characters, an RSA-2048 payload's length
	if err != nil {
		b.Fatal(err)
	}
	rows := rowsOf(&m)
	b.ResetTimer()
	for b.Loop() {
		if _, err := qrcode.DecodeRows(m.Size, rows); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDecodeRowsForgivesNoModule(t *testing.T) {
	m, err := qrcode.Modules(strings.Repeat("payload ", 30))
	if err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(&m)
	// Every module of a data region row flipped one at a time would take
	// long; a module in the lower right corner is the first data
	// codeword's (ISO/IEC 18004 §7.7.3), which a scanner's error
	// correction would repair.
	bad := bytes.Clone(rows)
	stride := (m.Size + 7) / 8
	last := m.Size - 1
	bad[last*stride+last/8] ^= 0x80 >> uint(last%8)
	got, err := qrcode.DecodeRows(m.Size, bad)
	if err == nil && got == strings.Repeat("payload ", 30) {
		t.Error("a grid with a wrong data module decoded to the payload")
	}
}
