package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// Headers of every delivery.
const (
	// SignatureHeader carries "t=<unix seconds>,v1=<hex HMAC-SHA256>", one
	// v1 per signing secret (two during a rotation's grace period). The
	// HMAC is keyed with the endpoint's secret (the whole "whsec_..."
	// string, as shown) over "<t>.<raw body>".
	SignatureHeader = "Einvoice-Signature"
	// EventIDHeader is the event's id: the same on every attempt and every
	// redelivery of an event, for deduplication.
	EventIDHeader = "Einvoice-Event-Id"
	// EventTypeHeader is the event's type.
	EventTypeHeader = "Einvoice-Event-Type"
	// DeliveryIDHeader names the delivery (a redelivery is a new one).
	DeliveryIDHeader = "Einvoice-Delivery-Id"
)

// Sign returns the signature header's value for body sent at t, with one
// v1 signature per secret.
func Sign(t time.Time, body []byte, secrets ...string) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	var b strings.Builder
	b.WriteString("t=")
	b.WriteString(ts)
	for _, s := range secrets {
		b.WriteString(",v1=")
		b.WriteString(signature(s, ts, body))
	}
	return b.String()
}

func signature(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}
