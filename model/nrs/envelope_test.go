package nrs

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestDownloadEnvelopeRoundTrip(t *testing.T) {
	plain := []byte(`{"irn":"INV001-94ND90NR-20240611","business_id":"b"}`)
	e, err := SealDownload(plain, "key-1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(e.Data, "INV001") || len(e.IVHex) != 24 || len(e.Pub) != 64 {
		t.Fatalf("envelope does not look sealed: %+v", e)
	}
	got, err := OpenDownload(e, "key-1")
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := OpenDownload(e, "key-2"); !errors.Is(err, ErrEnvelope) {
		t.Fatalf("another key opened it: %v", err)
	}
	tampered := e
	tampered.Data = "A" + e.Data[1:]
	if tampered.Data != e.Data {
		if _, err := OpenDownload(tampered, "key-1"); !errors.Is(err, ErrEnvelope) {
			t.Fatalf("a tampered envelope opened: %v", err)
		}
	}
	// Both spellings of iv_hex are read; a plain invoice is not an envelope.
	raw, _ := json.Marshal(e)
	if got, ok := ReadDownloadEnvelope(raw); !ok || got != e {
		t.Fatalf("iv_hex: %+v %v", got, ok)
	}
	alt := bytes.Replace(raw, []byte(`"iv_hex"`), []byte(`"iv_Hex"`), 1)
	if got, ok := ReadDownloadEnvelope(alt); !ok || got != e {
		t.Fatalf("iv_Hex: %+v %v", got, ok)
	}
	if _, ok := ReadDownloadEnvelope(plain); ok {
		t.Fatal("a plain invoice read as an envelope")
	}
	if _, ok := ReadDownloadEnvelope(json.RawMessage(`[1]`)); ok {
		t.Fatal("a list read as an envelope")
	}
}
