package client_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/rest/client"
)

// The helper verifies signatures made as the server makes them (ExampleVerifyWebhook
// verifies a real delivery), and
// refuses forged, tampered, stale and malformed signatures.
func TestVerifyWebhook(t *testing.T) {
	const secret, other = "whsec_current0123456789abcdefghijklmnop", "whsec_previous0123456789abcdefghijklmno"
	body := []byte(`{"id":"0190","type":"api_key.created"}`)
	now := time.Unix(1_800_000_000, 0)
	good := sign(now, body, secret)
	both := sign(now, body, other, secret)
	cases := []struct {
		name   string
		body   []byte
		header string
		secret string
		at     time.Time
		want   error
	}{
		{"valid", body, good, secret, now, nil},
		{"valid, second of two signatures (rotation)", body, both, secret, now, nil},
		{"valid, previous secret during grace", body, both, other, now, nil},
		{"valid within tolerance", body, good, secret, now.Add(4 * time.Minute), nil},
		{"forged with another secret", body, sign(now, body, "whsec_attacker"), secret, now, client.ErrWebhookSignatureInvalid},
		{"tampered body", []byte(`{"id":"0190","type":"api_key.revoked"}`), good, secret, now, client.ErrWebhookSignatureInvalid},
		{"timestamp swapped", body, "t=1800000001" + good[len("t=1800000000"):], secret, now, client.ErrWebhookSignatureInvalid},
		{"stale", body, good, secret, now.Add(6 * time.Minute), client.ErrWebhookTimestamp},
		{"from the future", body, good, secret, now.Add(-6 * time.Minute), client.ErrWebhookTimestamp},
		{"no header", body, "", secret, now, client.ErrWebhookSignatureMissing},
		{"no v1", body, "t=1800000000", secret, now, client.ErrWebhookSignatureMissing},
		{"garbage", body, "t=abc,v1=zz", secret, now, client.ErrWebhookSignatureMissing},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := client.VerifyWebhook(c.body, c.header, c.secret, 0, c.at); !errors.Is(err, c.want) {
				t.Fatalf("VerifyWebhook = %v, want %v", err, c.want)
			}
		})
	}
}

// sign makes an Einvoice-Signature header as the server does: t=<unix
// seconds>, then v1=HMAC-SHA256(secret, "<t>.<body>") in hex per secret.
func sign(at time.Time, body []byte, secrets ...string) string {
	t := strconv.FormatInt(at.Unix(), 10)
	parts := []string{"t=" + t}
	for _, s := range secrets {
		m := hmac.New(sha256.New, []byte(s))
		m.Write([]byte(t + "."))
		m.Write(body)
		parts = append(parts, "v1="+hex.EncodeToString(m.Sum(nil)))
	}
	return strings.Join(parts, ",")
}
