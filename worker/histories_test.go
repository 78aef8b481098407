package worker_test

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

var updateHistories = flag.Bool("update", false, "record testdata/histories again from the runs of TestCertificationHistories")

// TestCertificationHistories runs a certification run of every invoice kind
// through REST on the in-process Temporal server, its payloads encrypted
// under certtest.HistoryKey as every einvoice client encrypts them, and
// replays each run's history with the workflow as built now. With -update
// it records the histories in testdata/histories, which workflows'
// TestReplayRecordedHistories replays in every later build.
func TestCertificationHistories(t *testing.T) {
	r := newCodecRig(t, certtest.Options{Open: storetest.SQLite})
	c := r.c
	r.startWorker()
	ids := map[string]string{}
	for _, kind := range certtest.HistoryKinds {
		ids[string(kind)] = r.start(`{"invoice_type":"` + string(kind) + `","issue_date":"2026-03-15"}`)
	}
	for _, kind := range certtest.HistoryKinds {
		t.Run(string(kind), func(t *testing.T) {
			run := r.wait(ids[string(kind)], time.Minute, final)
			if run["status"] != "passed" {
				t.Fatalf("run did not pass: %v", run)
			}
			h := history(t, c, ids[string(kind)])
			if err := certtest.Replay(h, certtest.HistoryKey, sdklog.NewStructuredLogger(quiet())); err != nil {
				t.Fatalf("the run's own history does not replay: %v", err)
			}
			if *updateHistories {
				if err := certtest.WriteHistory(certtest.HistoryFile(kind), h); err != nil {
					t.Fatal(err)
				}
				t.Logf("recorded %d events in %s", len(h.GetEvents()), certtest.HistoryFile(kind))
			}
		})
	}
}

// newCodecRig is newRig with a client that encrypts payloads under
// certtest.HistoryKey, as every einvoice client encrypts them under its
// own key, so that its histories can be recorded for the replay test.
func newCodecRig(t *testing.T, opts certtest.Options) *rig {
	t.Helper()
	codec, err := workflows.NewPayloadCodec(certtest.HistoryKey)
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.Dial(workflows.ClientOptions(client.Options{HostPort: temporalAddr, Namespace: temporalNamespace,
		Logger: sdklog.NewStructuredLogger(quiet())}, codec))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	queue := fmt.Sprintf("%s-%s-%d", workflows.TaskQueue, strings.ReplaceAll(t.Name(), "/", "-"), queues.Add(1))
	opts.Runs = workflows.NewStarter(c, workflows.StarterOptions{TaskQueue: queue})
	return &rig{t: t, c: c, queue: queue, e: certtest.New(t, opts)}
}

// history reads the whole history of a run's workflow as the server keeps
// it (payloads encrypted).
func history(t *testing.T, c client.Client, runID string) *historypb.History {
	t.Helper()
	h := new(historypb.History)
	it := c.GetWorkflowHistory(context.Background(), workflows.WorkflowID(uuid.MustParse(runID)), "", false, 0)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, ev)
	}
	return h
}
