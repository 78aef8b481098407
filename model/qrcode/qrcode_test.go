package qrcode_test

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model/qrcode"
)

func TestPNG(t *testing.T) {
	payload := strings.Repeat("A", 344) // the size of an NRS QR payload
	img, err := qrcode.PNG(payload, qrcode.DefaultSize)
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := png.Decode(bytes.NewReader(img))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := decoded.Bounds(); b.Dx() != qrcode.DefaultSize || b.Dy() != qrcode.DefaultSize || qrcode.DefaultSize < 300 {
		t.Fatalf("size %v", b)
	}
	if raw, err := base64.StdEncoding.DecodeString(img.Base64()); err != nil || !bytes.Equal(raw, img) {
		t.Fatalf("base64 round trip: %v", err)
	}
	if _, err := qrcode.PNG(strings.Repeat("A", 5000), qrcode.DefaultSize); err == nil {
		t.Fatal("content beyond a QR code's capacity at level H was accepted")
	}
}
