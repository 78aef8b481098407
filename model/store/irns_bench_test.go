package store_test

import (
	"context"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// BenchmarkClaimAll stores batches of new IRNs on SQLite, one transaction
// each: what recording an IRN costs the database layer, alone in its
// transaction (a lightly loaded server) and 8 to a transaction (about what
// group commit makes of a saturated one). It reports the process's CPU time per IRN too,
// which other load on the machine does not inflate as it does ns/op:
//
//	go test -run '^$' -bench ClaimAll -cpu 1 -count 5 ./model/store/
func BenchmarkClaimAll(b *testing.B) {
	for _, batch := range []int{1, 8} {
		b.Run("batch="+strconv.Itoa(batch), func(b *testing.B) { benchClaimAll(b, batch) })
	}
}

func benchClaimAll(b *testing.B, batch int) {
	st := storetest.SQLite(b)
	// A context with a deadline, as model/invoices gives each batch.
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	_, _, p := seed(b, st, "bench")
	recs := make([]*model.IssuedIRN, batch)
	n := 0
	start := cpuTime()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i := range recs {
			n++
			ref := "BENCH" + strconv.Itoa(n)
			recs[i] = &model.IssuedIRN{ProjectID: p.ID, InvoiceReference: ref, IssueDate: "2026-03-15",
				IRN: ref + "-94ND90NR-20260315", InvoiceTypeCode: "381", CreatedAt: now()}
		}
		if _, _, err := st.IRNs().ClaimAll(ctx, recs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/irn")
}

// cpuTime is the process's user and system CPU time, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
