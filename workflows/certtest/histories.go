package certtest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/workflows"
)

// HistoryKey is the Temporal payload key the recorded histories of
// testdata/histories were encrypted under: a key for tests only, so that
// the replay test can decode them.
var HistoryKey = []byte("einvoice-test-only-history-key-1")

// HistoryKinds are the invoice kinds a recorded history exists for.
var HistoryKinds = model.AllInvoiceKinds

// HistoryFile is where the recorded history of a certification run of kind
// lives: testdata/histories/certification-run-<kind>.json at the root of
// the repository.
func HistoryFile(kind model.InvoiceKind) string {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	return filepath.Join(root, "testdata", "histories", "certification-run-"+strings.ToLower(string(kind))+".json")
}

// CancelledHistoryFile is where the recorded history of a run cancelled
// through Temporal while a step ran lives:
// testdata/histories/certification-run-cancelled.json.
func CancelledHistoryFile() string {
	return filepath.Join(filepath.Dir(HistoryFile(model.InvoiceKindB2B)), "certification-run-cancelled.json")
}

// QueueHistoryFiles are where the recorded histories of an invoice that
// waited in its project's outage queue, and of the drain that released
// it, live: testdata/histories/invoice-queued-one-step.json (its steps in
// one local activity, as invoices are started now) and
// invoice-queue-drain.json. invoice-queued.json, recorded when each step
// was a local activity of its own, stays in the folder and replays too.
func QueueHistoryFiles() (invoice, drain string) {
	dir := filepath.Dir(HistoryFile(model.InvoiceKindB2B))
	return filepath.Join(dir, "invoice-queued-one-step.json"), filepath.Join(dir, "invoice-queue-drain.json")
}

// ReadHistory reads a history written by WriteHistory (the JSON the
// Temporal CLI and Web UI export).
func ReadHistory(path string) (*historypb.History, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	h := new(historypb.History)
	return h, temporalproto.CustomJSONUnmarshalOptions{DiscardUnknown: true}.Unmarshal(b, h)
}

// WriteHistory writes a history as JSON.
func WriteHistory(path string, h *historypb.History) error {
	b, err := temporalproto.CustomJSONMarshalOptions{Indent: "  "}.Marshal(h)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// Replay replays a history of CertificationRun, InvoiceSubmission or
// InvoiceQueueDrain, its payloads encrypted under key, with the workflow
// as it is built now, registered as workers register it. It fails when the workflow would not make the decisions the
// history records.
func Replay(h *historypb.History, key []byte, logger log.Logger) error {
	codec, err := workflows.NewPayloadCodec(key)
	if err != nil {
		return err
	}
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), codec)
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{
		DataConverter: dc,
		FailureConverter: temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{
			DataConverter: dc, EncodeCommonAttributes: true,
		}),
	})
	if err != nil {
		return err
	}
	r.RegisterWorkflowWithOptions(workflows.CertificationRun, workflow.RegisterOptions{Name: workflows.WorkflowName})
	r.RegisterWorkflowWithOptions(workflows.InvoiceSubmission, workflow.RegisterOptions{Name: workflows.InvoiceWorkflowName})
	r.RegisterWorkflowWithOptions(workflows.InvoiceQueueDrain, workflow.RegisterOptions{Name: workflows.QueueDrainWorkflowName})
	return r.ReplayWorkflowHistory(logger, h)
}

// VersionMarkers lists the change ids of the version markers
// (workflow.GetVersion) a history, its payloads encrypted under key,
// recorded.
func VersionMarkers(h *historypb.History, key []byte) ([]string, error) {
	codec, err := workflows.NewPayloadCodec(key)
	if err != nil {
		return nil, err
	}
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), codec)
	var out []string
	for _, ev := range h.GetEvents() {
		m := ev.GetMarkerRecordedEventAttributes()
		if m == nil || m.GetMarkerName() != "Version" {
			continue
		}
		var id string
		if err := dc.FromPayloads(m.GetDetails()["change-id"], &id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, nil
}
