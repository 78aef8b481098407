package workflows_test

import (
	"log/slog"
	"path/filepath"
	"testing"

	sdklog "go.temporal.io/sdk/log"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// TestReplayRecordedHistories replays the histories of real certification
// runs of every invoice kind (B2B, B2C, B2G), recorded on a Temporal server
// by worker's TestCertificationHistories, and of an invoice that waited in
// the outage queue and the drain that released it (worker's
// TestInvoiceQueueHistories), with the workflows as they are now. A change
// to CertificationRun, InvoiceSubmission or InvoiceQueueDrain that could
// not resume the executions in flight when it is deployed (steps added,
// removed or reordered without a version marker, a timer or a side effect
// where there was none) fails here.
//
// Every history of the folder replays, the current ones and any kept from
// before a versioned change.
func TestReplayRecordedHistories(t *testing.T) {
	files := map[string]bool{}
	for _, kind := range certtest.HistoryKinds {
		files[certtest.HistoryFile(kind)] = true
	}
	invoice, drain := certtest.QueueHistoryFiles()
	files[invoice], files[drain] = true, true
	kept, err := filepath.Glob(filepath.Join(filepath.Dir(certtest.HistoryFile(model.InvoiceKindB2B)), "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range kept {
		files[f] = true
	}
	for f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			h, err := certtest.ReadHistory(f)
			if err != nil {
				t.Fatalf("read the recorded history (record it with go test ./worker -run 'TestCertificationHistories|TestInvoiceQueueHistories' -update): %v", err)
			}
			if len(h.GetEvents()) < 10 {
				t.Fatalf("the recorded history holds %d events: not a whole run", len(h.GetEvents()))
			}
			if err := certtest.Replay(h, certtest.HistoryKey, sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))); err != nil {
				t.Fatal(err)
			}
		})
	}
}
