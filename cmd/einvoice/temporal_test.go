package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/workflows"
)

func TestPayloadCodecFromEnv(t *testing.T) {
	enc := bytes.Repeat([]byte{7}, 32)
	derived, err := payloadCodecFromEnv(func(string) string { return "" }, enc)
	if err != nil || derived.KeyID() != workflows.PayloadKeyID(secret.Derive(enc, "temporal-payload")) {
		t.Fatalf("derived codec: %v %v", derived, err)
	}
	explicit := strings.Repeat("ab", 32)
	old := strings.Repeat("cd", 32)
	c, err := payloadCodecFromEnv(func(k string) string {
		return map[string]string{"EINVOICE_TEMPORAL_PAYLOAD_KEY": explicit, "EINVOICE_TEMPORAL_PAYLOAD_OLD_KEYS": old + ", "}[k]
	}, enc)
	if err != nil || c.KeyID() != workflows.PayloadKeyID(bytes.Repeat([]byte{0xab}, 32)) {
		t.Fatalf("explicit codec: %v %v", c, err)
	}
	if _, err := payloadCodecFromEnv(func(k string) string {
		return map[string]string{"EINVOICE_TEMPORAL_PAYLOAD_OLD_KEYS": "short"}[k]
	}, enc); err == nil {
		t.Fatal("a short old key accepted")
	}
}

func TestTemporalTLSFromEnv(t *testing.T) {
	if c, err := temporalTLSFromEnv(func(string) string { return "" }); c != nil || err != nil {
		t.Fatalf("no TLS settings: %v %v", c, err)
	}
	if _, err := temporalTLSFromEnv(func(k string) string { return map[string]string{"TEMPORAL_TLS_CERT": "c.pem"}[k] }); err == nil {
		t.Fatal("a certificate without its key accepted")
	}
	c, err := temporalTLSFromEnv(func(k string) string { return map[string]string{"TEMPORAL_TLS_SERVER_NAME": "temporal.internal"}[k] })
	if err != nil || c.ServerName != "temporal.internal" {
		t.Fatalf("server name only: %v %v", c, err)
	}
}
