// Package qrcode renders QR images of invoice QR payloads at error
// correction level H, as the tax authority asks for printed invoices.
package qrcode

import (
	"encoding/base64"
	"fmt"
	"image"

	goqr "github.com/skip2/go-qrcode"
)

// DefaultSize is the side of a PNG in pixels: at least 300 px, as
// integrators print them.
const DefaultSize = 384

// PNGImage is an encoded PNG.
type PNGImage []byte

// Base64 returns the standard base64 of the PNG.
func (p PNGImage) Base64() string { return base64.StdEncoding.EncodeToString(p) }

// PNG encodes content as a QR code PNG of size×size pixels, recovery level H.
func PNG(content string, size int) (PNGImage, error) {
	q, err := goqr.New(content, goqr.Highest)
	if err != nil {
		return nil, fmt.Errorf("qrcode: %w", err)
	}
	b, err := q.PNG(size)
	if err != nil {
		return nil, fmt.Errorf("qrcode: %w", err)
	}
	return b, nil
}

// Image returns the QR code of content as an image with no quiet zone
// scaling beyond size, for embedding in documents.
func Image(content string, size int) (image.Image, error) {
	q, err := goqr.New(content, goqr.Highest)
	if err != nil {
		return nil, fmt.Errorf("qrcode: %w", err)
	}
	return q.Image(size), nil
}
