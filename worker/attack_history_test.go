package worker_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"

	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/worker"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// TestAttackTemporalHistory replays the review's read of workflow histories
// through the Temporal frontend: with the payload codec every einvoice
// client uses, a history read without the key (an anonymous frontend
// client, the Web UI, the server's database) holds no IRN, business or
// service id, QR payload or failure message of a tenant; with the key the
// same history reads back.
func TestAttackTemporalHistory(t *testing.T) {
	t.Parallel()
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	codec, err := workflows.NewPayloadCodec(key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.Dial(workflows.ClientOptions(client.Options{HostPort: temporalAddr, Namespace: temporalNamespace,
		Logger: sdklog.NewStructuredLogger(quiet())}, codec))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	queue := fmt.Sprintf("%s-history-%d", workflows.TaskQueue, queues.Add(1))
	r := &rig{t: t, c: c, queue: queue, e: certtest.New(t, certtest.Options{Open: storetest.SQLite,
		Runs: workflows.NewStarter(c, workflows.StarterOptions{TaskQueue: queue})})}
	w, err := worker.New(c, worker.Options{Runs: r.e.App.Steps, TaskQueue: queue, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)

	passed := r.start(`{"invoice_type":"B2B","issue_date":"2026-03-15"}`)
	failed := r.start(`{"invoice_type":"B2C","issue_date":"2026-03-15","invoice_payload":` +
		fixture(t, "invoice-b2c-1.1.json", "SBXSIGNFAIL"+uuid.NewString()[:4]) + `}`)
	run := r.wait(passed, time.Minute, final)
	if run["status"] != "passed" {
		t.Fatalf("run: %v", run)
	}
	irn := run["irn"].(string)
	if f := r.wait(failed, time.Minute, final); f["status"] != "failed" || !strings.Contains(f["failure_reason"].(string), "invoice signing failed") {
		t.Fatalf("failing run: %v", f)
	}
	// What anyone reaching the frontend reads: the raw history.
	plain, err := client.Dial(client.Options{HostPort: temporalAddr, Namespace: temporalNamespace, Logger: sdklog.NewStructuredLogger(quiet())})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(plain.Close)
	var (
		raw       bytes.Buffer
		encrypted atomic.Int64
		decrypted bytes.Buffer
		// searchAttrs are the search attributes of each run's start.
		searchAttrs []map[string]*commonpb.Payload
	)
	for _, id := range []string{passed, failed} {
		it := plain.GetWorkflowHistory(context.Background(), workflows.WorkflowID(uuid.MustParse(id)), "", false, 0)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			// The search attributes are indexed in clear on purpose
			// (operators filter runs by project): they are checked apart,
			// and the rest of the event must hold nothing of the tenant.
			if st := ev.GetWorkflowExecutionStartedEventAttributes(); st != nil {
				searchAttrs = append(searchAttrs, st.GetSearchAttributes().GetIndexedFields())
				ev = proto.Clone(ev).(*historypb.HistoryEvent)
				ev.GetWorkflowExecutionStartedEventAttributes().SearchAttributes = nil
			}
			b, err := proto.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			raw.Write(b)
			if res := ev.GetActivityTaskCompletedEventAttributes().GetResult(); res != nil {
				for _, p := range res.GetPayloads() {
					if string(p.GetMetadata()[workflows.MetadataEncoding]) == workflows.EncodingEncrypted {
						encrypted.Add(1)
					}
				}
				out, err := codec.Decode(res.GetPayloads())
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range out {
					decrypted.Write(p.GetData())
				}
			}
		}
	}
	pr := r.e.Tenant.Project
	for name, secret := range map[string]string{
		"IRN": irn, "business id": *pr.Authority.BusinessID, "service id": *pr.Authority.ServiceID,
		"failure message": "invoice signing failed", "project id": pr.ID.String(), "project name": pr.Name,
	} {
		if bytes.Contains(raw.Bytes(), []byte(secret)) {
			t.Errorf("the raw history holds the %s %q", name, secret)
		}
	}
	// The search attributes hold the project's and organization's ids, the
	// invoice kind and the environment, and nothing else.
	if len(searchAttrs) != 2 {
		t.Fatalf("%d started events", len(searchAttrs))
	}
	for _, sa := range searchAttrs {
		var all []byte
		for name, p := range sa {
			if !slices.ContainsFunc(workflows.CertificationSearchAttributes, func(k temporal.SearchAttributeKey) bool { return k.GetName() == name }) {
				t.Errorf("unexpected search attribute %s", name)
			}
			all = append(all, p.GetData()...)
		}
		if !bytes.Contains(all, []byte(pr.ID.String())) || !bytes.Contains(all, []byte(pr.OrganizationID.String())) {
			t.Errorf("search attributes lack the project's ids: %s", all)
		}
		for _, secret := range []string{irn, *pr.Authority.BusinessID, *pr.Authority.ServiceID, pr.Name} {
			if bytes.Contains(all, []byte(secret)) {
				t.Errorf("search attributes hold %q", secret)
			}
		}
	}
	if encrypted.Load() == 0 {
		t.Fatal("no encrypted activity result in the histories")
	}
	// With the key, the results read back: the check above looked at the
	// right data.
	if !bytes.Contains(decrypted.Bytes(), []byte(irn)) {
		t.Fatalf("decrypted results lack the IRN %s: %s", irn, decrypted.Bytes())
	}
	// A codec without the key cannot read them, a rotated one can.
	other := make([]byte, 32)
	_, _ = rand.Read(other)
	stranger, _ := workflows.NewPayloadCodec(other)
	rotated, _ := workflows.NewPayloadCodec(other, key)
	sample := []*commonpb.Payload{{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"x"`)}}
	sealed, err := codec.Encode(sample)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stranger.Decode(sealed); err == nil {
		t.Fatal("a codec without the key decoded a payload")
	}
	if back, err := rotated.Decode(sealed); err != nil || string(back[0].GetData()) != `"x"` {
		t.Fatalf("a rotated codec: %v %v", back, err)
	}
}
