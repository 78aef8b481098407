package client

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Webhook delivery headers.
const (
	// WebhookSignatureHeader carries "t=<unix seconds>,v1=<hex>[,v1=<hex>]".
	WebhookSignatureHeader = "Einvoice-Signature"
	// WebhookEventIDHeader is the event's id, the same on every retry and
	// redelivery: deduplicate on it.
	WebhookEventIDHeader = "Einvoice-Event-Id"
)

// DefaultWebhookTolerance is how old a signature's timestamp may be.
const DefaultWebhookTolerance = 5 * time.Minute

// Errors of VerifyWebhook.
var (
	ErrWebhookSignatureMissing = errors.New("einvoice: webhook signature header missing or malformed")
	ErrWebhookSignatureInvalid = errors.New("einvoice: no webhook signature matches the secret")
	ErrWebhookTimestamp        = errors.New("einvoice: webhook signature timestamp outside the tolerance")
)

// VerifyWebhook checks a delivery's signature header against the raw
// request body (exactly the bytes received, before any JSON decoding) and
// the endpoint's signing secret ("whsec_..."): some v1 signature must be
// the hex HMAC-SHA256 of "<t>.<body>" keyed with the secret, and t must be
// within tolerance of now (tolerance <= 0 means DefaultWebhookTolerance),
// which refuses replays of old deliveries.
//
//	body, _ := io.ReadAll(r.Body)
//	if err := client.VerifyWebhook(body, r.Header.Get(client.WebhookSignatureHeader), secret, 0, time.Now()); err != nil {
//		http.Error(w, "bad signature", http.StatusBadRequest)
//		return
//	}
func VerifyWebhook(body []byte, header, secret string, tolerance time.Duration, now time.Time) error {
	if tolerance <= 0 {
		tolerance = DefaultWebhookTolerance
	}
	var (
		ts   string
		sigs [][]byte
	)
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch k {
		case "t":
			ts = v
		case "v1":
			if b, err := hex.DecodeString(v); err == nil && len(b) == sha256.Size {
				sigs = append(sigs, b)
			}
		}
	}
	t, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return ErrWebhookSignatureMissing
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	want := m.Sum(nil)
	ok := false
	for _, s := range sigs {
		ok = hmac.Equal(s, want) || ok
	}
	if !ok {
		return ErrWebhookSignatureInvalid
	}
	if d := now.Sub(time.Unix(t, 0)); d > tolerance || d < -tolerance {
		return ErrWebhookTimestamp
	}
	return nil
}
