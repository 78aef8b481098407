package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Invoice submission: invoices go through POST /api/v2/invoices (one per
// request) and POST /api/v2/invoices/batch (batchSize per request), each
// request under an Idempotency-Key of its own that every retry repeats, as
// a client would, on both APIs in turn, during the SIGKILL and the
// database cut too. Every invoice accepted must end confirmed, once: one
// invoice per IRN, signed once in its event log, and held signed (and
// transmitted, for B2B and B2G) once by the stand-in.

// batchSize is the number of invoices of a batch request.
const batchSize = 10

// submitted is an invoice the API accepted, as its client saw it.
type submitted struct {
	project int
	kind    string
	ref     string
	irn     string
	id      string
	via     string // "single" or "batch"
}

// invoiceState is the driver's record of the submissions.
type invoiceState struct {
	templates map[string]map[string]any // invoice kind → a payload
	accepted  map[string]*submitted     // project id/ref → invoice
	dupes     []string                  // one reference answered as two invoices
	requests  map[string]int            // "single"/"batch" → requests accepted
	retries   int                       // requests sent again under the same key
	replayed  int                       // answers marked Idempotent-Replayed
	extra     map[string]int64          // metered calls besides the requests' own (a batch's items)
}

// loadTemplates reads the fixtures' B2B, B2C and B2G invoices.
func (d *driver) loadTemplates() error {
	d.inv.templates = map[string]map[string]any{}
	for _, kind := range []string{"B2B", "B2C", "B2G"} {
		b, err := os.ReadFile(filepath.Join(d.o.fixtures, "invoice-"+strings.ToLower(kind)+"-1.1.json"))
		if err != nil {
			return err
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			return err
		}
		delete(doc, "irn")
		doc["invoice_kind"] = kind
		d.inv.templates[kind] = doc
	}
	return nil
}

// invoiceItem is the body of one invoice of project p: the fixture of its
// kind, the project's business, and the reference ref.
func (d *driver) invoiceItem(p project, kind, ref string) map[string]any {
	doc := map[string]any{}
	for k, v := range d.inv.templates[kind] {
		doc[k] = v
	}
	doc["business_id"] = p.business
	return map[string]any{"invoice_type": kind, "invoice_reference": ref, "payload": doc}
}

// accept records an accepted invoice; the same reference answered as
// another invoice is a duplicate.
func (d *driver) accept(s *submitted) {
	key := d.projects[s.project].id + "/" + s.ref
	d.mu.Lock()
	defer d.mu.Unlock()
	if prev, ok := d.inv.accepted[key]; ok {
		if prev.id != s.id {
			d.inv.dupes = append(d.inv.dupes, fmt.Sprintf("%s: %s then %s", key, prev.id, s.id))
		}
		return
	}
	d.inv.accepted[key] = s
}

// post sends one request under key, again after a 503, a 429, a 409 with
// Retry-After (the key is still held) or no answer, until it is answered
// otherwise; it returns the answer and whether it was a replay.
func (d *driver) post(ctx context.Context, n int, path, op, key string, p project, body any) (int, []byte, bool, error) {
	hdr := p.headers()
	hdr["Idempotency-Key"] = key
	giveUp := time.Now().Add(3 * time.Minute)
	for attempt := 0; ; attempt++ {
		if ctx.Err() != nil || time.Now().After(giveUp) {
			return 0, nil, false, fmt.Errorf("%s %s: not answered", path, key)
		}
		if attempt > 0 {
			d.mu.Lock()
			d.inv.retries++
			d.mu.Unlock()
		}
		st, h, b, err := d.do(ctx, d.pick(n+attempt), "POST", path, op, hdr, body)
		switch {
		case err != nil:
			time.Sleep(200 * time.Millisecond)
		case st == 503 || st == 429 || (st == 409 && h.Get("Retry-After") != ""):
			time.Sleep(retryAfter(h))
		default:
			replayed := h.Get("Idempotent-Replayed") == "true"
			if replayed {
				d.mu.Lock()
				d.inv.replayed++
				d.mu.Unlock()
			}
			return st, b, replayed, nil
		}
	}
}

// submitInvoice submits invoice n alone.
func (d *driver) submitInvoice(ctx context.Context, n int) error {
	pi := n % len(d.projects)
	p := d.projects[pi]
	kind := []string{"B2B", "B2C", "B2G"}[n%3]
	ref := fmt.Sprintf("CLINV%05d", n)
	st, b, _, err := d.post(ctx, n, "/api/v2/invoices", "invoices.submit", fmt.Sprintf("cluster-invoice-%d", n), p, d.invoiceItem(p, kind, ref))
	if err != nil {
		return err
	}
	if st != 202 {
		return fmt.Errorf("invoice %s: %d %s", ref, st, b)
	}
	var v struct {
		ID  string `json:"id"`
		IRN string `json:"irn"`
	}
	_ = json.Unmarshal(b, &v)
	d.accept(&submitted{project: pi, kind: kind, ref: ref, irn: v.IRN, id: v.ID, via: "single"})
	d.mu.Lock()
	d.inv.requests["single"]++
	d.mu.Unlock()
	return nil
}

// submitBatch submits batch n: batchSize invoices of one project.
func (d *driver) submitBatch(ctx context.Context, n int) error {
	pi := n % len(d.projects)
	p := d.projects[pi]
	kinds := make([]string, batchSize)
	refs := make([]string, batchSize)
	items := make([]any, batchSize)
	for i := range batchSize {
		kinds[i] = []string{"B2B", "B2C", "B2G"}[i%3]
		refs[i] = fmt.Sprintf("CLBAT%03dI%02d", n, i)
		items[i] = d.invoiceItem(p, kinds[i], refs[i])
	}
	st, b, replayed, err := d.post(ctx, n, "/api/v2/invoices/batch", "invoices.batch.submit", fmt.Sprintf("cluster-batch-%d", n), p, map[string]any{"invoices": items})
	if err != nil {
		return err
	}
	if st != 202 {
		return fmt.Errorf("batch %d: %d %s", n, st, b)
	}
	var v struct {
		Items []struct {
			Index     int    `json:"index"`
			Status    string `json:"status"`
			InvoiceID string `json:"invoice_id"`
			IRN       string `json:"irn"`
		} `json:"items"`
	}
	_ = json.Unmarshal(b, &v)
	accepted := 0
	for _, it := range v.Items {
		if it.Status != "accepted" || it.Index < 0 || it.Index >= batchSize {
			return fmt.Errorf("batch %d: item %d %s (%s)", n, it.Index, it.Status, b)
		}
		accepted++
		d.accept(&submitted{project: pi, kind: kinds[it.Index], ref: refs[it.Index], irn: it.IRN, id: it.InvoiceID, via: "batch"})
	}
	if accepted != batchSize {
		return fmt.Errorf("batch %d: %d items answered of %d", n, accepted, batchSize)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.inv.requests["batch"]++
	if !replayed {
		// Each accepted item is metered as one invoices.submit; a
		// replayed answer meters the call only.
		d.inv.extra["invoices.submit"] += int64(accepted)
	}
	return nil
}

// submitInvoices sends d.o.invoices invoices, a third of them in batches,
// spread over span, three requests at a time.
func (d *driver) submitInvoices(ctx context.Context, span time.Duration) error {
	batches := d.o.invoices / 3 / batchSize
	singles := d.o.invoices - batches*batchSize
	type job struct {
		batch bool
		n     int
	}
	// The batches are spread evenly among the single invoices.
	jobs := make([]job, 0, singles+batches)
	stride := (singles + batches) / max(batches, 1)
	for s, b, i := 0, 0, 0; s < singles || b < batches; i++ {
		if b < batches && (s >= singles || i%stride == stride-1) {
			jobs = append(jobs, job{batch: true, n: b})
			b++
		} else {
			jobs = append(jobs, job{n: s})
			s++
		}
	}
	next := make(chan job)
	var (
		wg   sync.WaitGroup
		emu  sync.Mutex
		errs []error
	)
	for range 3 {
		wg.Go(func() {
			for j := range next {
				var err error
				if j.batch {
					err = d.submitBatch(ctx, j.n)
				} else {
					err = d.submitInvoice(ctx, j.n)
				}
				if err != nil {
					emu.Lock()
					errs = append(errs, err)
					emu.Unlock()
				}
			}
		})
	}
	pace := span / time.Duration(max(len(jobs), 1))
	for _, j := range jobs {
		next <- j
		time.Sleep(pace)
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}

// waitInvoices waits until every invoice of the organization is final.
func (d *driver) waitInvoices(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(d.o.deadline)
	for {
		var open int
		err := db.QueryRowContext(ctx, `SELECT count(*) FROM submitted_invoices
			WHERE organization_id = $1 AND status NOT IN ('confirmed', 'rejected')`, d.org).Scan(&open)
		if err == nil && open == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d invoices not final %v after the runs ended (%v)", open, d.o.deadline, err)
		}
		time.Sleep(time.Second)
	}
}

// invoiceResults are the figures of the invoice checks.
type invoiceResults struct {
	stored    map[string]int // status → invoices
	standIn   int            // accepted invoices the stand-in holds signed
	signs     int            // signs the stand-in counted for them
	transmits int
}

// verifyInvoices checks the invoices accepted against einvoice's records
// and the stand-in's. d.mu is held.
func (d *driver) verifyInvoices(ctx context.Context, db *sql.DB, r *results) {
	ir := &invoiceResults{stored: map[string]int{}}
	r.invoices = ir
	if want := d.o.invoices; len(d.inv.accepted) != want {
		r.fail("invoices accepted: %d of %d", len(d.inv.accepted), want)
	}
	if len(d.inv.dupes) > 0 {
		r.fail("one invoice reference answered as two invoices: %v", d.inv.dupes)
	}
	// einvoice: one invoice per accepted reference, confirmed, signed and
	// confirmed once in its event log (state changes: a deadline flag is a
	// state entry from and to the same state).
	type row struct {
		id, project, irn, status string
		signed, confirmed        int
		signOK                   int
	}
	rows, err := db.QueryContext(ctx, `SELECT i.id, i.project_id, i.irn, i.status,
			count(*) FILTER (WHERE e.kind = 'state' AND e.to_status = 'signed' AND e.from_status IS DISTINCT FROM e.to_status),
			count(*) FILTER (WHERE e.kind = 'state' AND e.to_status = 'confirmed' AND e.from_status IS DISTINCT FROM e.to_status),
			count(*) FILTER (WHERE e.kind = 'exchange' AND e.operation = 'invoice_sign' AND e.http_status BETWEEN 200 AND 299)
		FROM submitted_invoices i LEFT JOIN invoice_events e ON e.invoice_id = i.id
		WHERE i.organization_id = $1 GROUP BY i.id, i.project_id, i.irn, i.status`, d.org)
	if err != nil {
		r.fail("read invoices: %v", err)
		return
	}
	byID := map[string]row{}
	for rows.Next() {
		var x row
		if err := rows.Scan(&x.id, &x.project, &x.irn, &x.status, &x.signed, &x.confirmed, &x.signOK); err != nil {
			r.fail("read invoices: %v", err)
			break
		}
		byID[x.id] = x
		ir.stored[x.status]++
	}
	rows.Close()
	if len(byID) != len(d.inv.accepted) {
		r.fail("invoices stored: %d, accepted: %d (an invoice recorded twice, or one lost)", len(byID), len(d.inv.accepted))
	}
	for key, s := range d.inv.accepted {
		x, ok := byID[s.id]
		switch {
		case !ok:
			r.fail("invoice %s (%s): not stored", key, s.id)
		case x.status != "confirmed" || x.irn != s.irn:
			r.fail("invoice %s (%s, %s): %s, IRN %s", key, s.id, s.via, x.status, x.irn)
		case x.signed != 1 || x.confirmed != 1 || x.signOK > 1:
			r.fail("invoice %s (%s): signed %d times, confirmed %d times, %d sign exchanges answered 2xx (want 1, 1, at most 1)",
				key, s.id, x.signed, x.confirmed, x.signOK)
		}
	}

	// The stand-in: each IRN held signed by the project's business, signed
	// once and never asked again, transmitted once when B2B or B2G.
	nrs, err := sql.Open("pgx", d.o.sandbox)
	if err != nil {
		r.fail("stand-in database: %v", err)
		return
	}
	defer nrs.Close()
	type bizIRN struct{ business, irn string }
	held := map[bizIRN]string{}
	srows, err := nrs.QueryContext(ctx, `SELECT business_id::text, irn, entry_status FROM nrs_sandbox_invoices`)
	if err != nil {
		r.fail("read the stand-in's invoices: %v", err)
		return
	}
	for srows.Next() {
		var k bizIRN
		var st string
		_ = srows.Scan(&k.business, &k.irn, &st)
		held[k] = st
	}
	srows.Close()
	counts := map[bizIRN]map[string]int{}
	arows, err := nrs.QueryContext(ctx, `SELECT business_id::text, operation, irn, attempts FROM nrs_sandbox_attempts
		WHERE operation IN ('count:invoice_sign', 'count:invoice_sign_repeat', 'count:transmit', 'count:transmit_repeat')`)
	if err != nil {
		r.fail("read the stand-in's counts: %v", err)
		return
	}
	for arows.Next() {
		var k bizIRN
		var op string
		var n int
		_ = arows.Scan(&k.business, &op, &k.irn, &n)
		if counts[k] == nil {
			counts[k] = map[string]int{}
		}
		counts[k][op] = n
	}
	arows.Close()
	for key, s := range d.inv.accepted {
		k := bizIRN{d.projects[s.project].business, s.irn}
		if held[k] != "SIGNED" {
			r.fail("invoice %s (%s): the stand-in holds it %q", key, s.irn, held[k])
			continue
		}
		ir.standIn++
		c := counts[k]
		wantT := 1
		if s.kind == "B2C" {
			wantT = 0
		}
		ir.signs += c["count:invoice_sign"]
		ir.transmits += c["count:transmit"]
		if c["count:invoice_sign"] != 1 || c["count:invoice_sign_repeat"] != 0 || c["count:transmit"] != wantT || c["count:transmit_repeat"] != 0 {
			r.fail("invoice %s (%s, %s): the stand-in signed it %d times and transmitted it %d times (want 1 and %d), asked again %d and %d times",
				key, s.irn, s.kind, c["count:invoice_sign"], c["count:transmit"], wantT, c["count:invoice_sign_repeat"], c["count:transmit_repeat"])
		}
	}
}

// reportInvoices prints the invoice figures. d.mu is held.
func (d *driver) reportInvoices(ir *invoiceResults) {
	via := map[string]int{}
	for _, s := range d.inv.accepted {
		via[s.via]++
	}
	fmt.Printf("  invoices: %d accepted (%d alone, %d in %d batches) over %.0fs; %d requests retried under their key, %d answers replayed\n",
		len(d.inv.accepted), via["single"], via["batch"], d.inv.requests["batch"], d.invoicesTo.Sub(d.loadFrom).Seconds(), d.inv.retries, d.inv.replayed)
	if ir != nil {
		fmt.Printf("  invoices stored by status %v, final %.0fs after the runs; the stand-in holds %d signed, counted %d signs and %d transmits\n",
			ir.stored, d.invoicesFinal.Sub(d.runsFinal).Seconds(), ir.standIn, ir.signs, ir.transmits)
	}
}
