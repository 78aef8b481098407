package einvoice_test

import (
	"errors"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model/webhooks"
	einvoice "github.com/einvoice-ng/einvoice/rest/client"
)

// The helper verifies what the server signs (model/webhooks.Sign), and
// refuses forged, tampered, stale and malformed signatures.
func TestVerifyWebhook(t *testing.T) {
	const secret, other = "whsec_current0123456789abcdefghijklmnop", "whsec_previous0123456789abcdefghijklmno"
	body := []byte(`{"id":"0190","type":"api_key.created"}`)
	now := time.Unix(1_800_000_000, 0)
	good := webhooks.Sign(now, body, secret)
	both := webhooks.Sign(now, body, other, secret)
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
		{"forged with another secret", body, webhooks.Sign(now, body, "whsec_attacker"), secret, now, einvoice.ErrWebhookSignatureInvalid},
		{"tampered body", []byte(`{"id":"0190","type":"api_key.revoked"}`), good, secret, now, einvoice.ErrWebhookSignatureInvalid},
		{"timestamp swapped", body, "t=1800000001" + good[len("t=1800000000"):], secret, now, einvoice.ErrWebhookSignatureInvalid},
		{"stale", body, good, secret, now.Add(6 * time.Minute), einvoice.ErrWebhookTimestamp},
		{"from the future", body, good, secret, now.Add(-6 * time.Minute), einvoice.ErrWebhookTimestamp},
		{"no header", body, "", secret, now, einvoice.ErrWebhookSignatureMissing},
		{"no v1", body, "t=1800000000", secret, now, einvoice.ErrWebhookSignatureMissing},
		{"garbage", body, "t=abc,v1=zz", secret, now, einvoice.ErrWebhookSignatureMissing},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := einvoice.VerifyWebhook(c.body, c.header, c.secret, 0, c.at); !errors.Is(err, c.want) {
				t.Fatalf("VerifyWebhook = %v, want %v", err, c.want)
			}
		})
	}
}
