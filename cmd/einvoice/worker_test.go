package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestWorkerNeedsTemporalAddress(t *testing.T) {
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"worker"}, env(map[string]string{
		"EINVOICE_DATABASE_URL": t.TempDir() + "/x.db", "EINVOICE_JWT_SECRET": strings.Repeat("s", 32),
		"EINVOICE_ENCRYPTION_KEY": strings.Repeat("ab", 32),
	}), &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "TEMPORAL_ADDRESS") {
		t.Fatalf("worker without TEMPORAL_ADDRESS: %v", err)
	}
}
