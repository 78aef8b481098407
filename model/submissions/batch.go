package submissions

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/invoices"
	"github.com/einvoice-ng/einvoice/model/store"
)

// BatchItemInput is one invoice of a batch: its input, and the problems
// the transport found while decoding it (types, unknown fields), located
// from the item.
type BatchItemInput struct {
	Invoice  SubmitInput
	Problems []model.FieldError
}

// BatchView is a batch as the API shows it. In the answer to its
// submission each item's status is its outcome (accepted, invalid,
// conflict); read later, an accepted item's status is its invoice's
// current state.
type BatchView struct {
	ID        uuid.UUID `json:"batch_id"`
	ProjectID uuid.UUID `json:"project_id"`
	CreatedAt time.Time `json:"created_at"`
	ItemCount int       `json:"item_count"`
	// Counts counts the items per status; every status appears.
	Counts map[string]int  `json:"counts"`
	Items  []BatchItemView `json:"items"`
	Links  BatchLinks      `json:"links"`
}

// BatchLinks are the API paths of a batch.
type BatchLinks struct {
	Self string `json:"self"`
}

// BatchItemView is one item of a batch.
type BatchItemView struct {
	Index int `json:"index"`
	// Status is accepted, invalid or conflict when the batch is
	// submitted; read later, an accepted item's invoice status.
	Status    string     `json:"status"`
	InvoiceID *uuid.UUID `json:"invoice_id"`
	IRN       *string    `json:"irn"`
	// Problems are an invalid item's problems, located from the item
	// (["payload", "issue_date"]), as the single submission's 422 lists
	// them below "body".
	Problems []model.FieldError `json:"problems,omitempty"`
	// Error is a conflicting item's reason.
	Error *BatchItemError `json:"error,omitempty"`
}

// BatchItemError is why an item was refused other than for its problems.
type BatchItemError struct {
	Code   model.ErrorCode `json:"code"`
	Detail string          `json:"detail"`
}

// Accepted reports whether any item of a submitted batch was accepted.
func (b *BatchView) Accepted() bool { return b.Counts[string(model.BatchAccepted)] > 0 }

// batchStartConcurrency bounds the workflows a batch starts at once.
const batchStartConcurrency = 8

// batchTxAttempts bounds the recordings of a batch that lost a race for
// an IRN to another request (which then answers as the recorded invoice).
const batchTxAttempts = 3

// batchItem is an item being submitted.
type batchItem struct {
	outcome  model.BatchOutcome
	problems []model.FieldError
	message  string
	inv      *model.SubmittedInvoice
	// fresh: this batch records inv (and started its workflow).
	fresh bool
}

// CheckBatchSize refuses a batch of no invoice or of more than
// model.MaxBatchItems, located at loc (the list's field).
func CheckBatchSize(n int, loc ...any) error {
	switch {
	case n == 0:
		return model.Invalid(model.ProblemValueError, "List should have at least 1 item", loc...)
	case n > model.MaxBatchItems:
		return model.Invalid(model.ProblemValueError, "List should have at most "+itoa(model.MaxBatchItems)+" items, not "+itoa(n), loc...)
	}
	return nil
}

// SubmitBatch submits several invoices of one project at once. Each item
// is checked as Submit checks one invoice; an invalid or conflicting item
// is answered with its reasons and does not stop the others. The accepted
// invoices' workflows are started first (as Submit does); then the batch,
// its items and its new invoices are recorded in one transaction, so that
// either all of them are stored or none is (and the started workflows are
// abandoned). An item repeating an invoice already submitted (or an
// earlier item) with the same payload is accepted as that invoice.
// Errors that are no item's fault (no workflow engine, the project's
// authority not configured, the database) fail the whole batch.
func (s *Service) SubmitBatch(ctx context.Context, who *model.Principal, in []BatchItemInput) (*BatchView, error) {
	if err := requireScope(who, model.ScopeInvoicesSubmit); err != nil {
		return nil, err
	}
	if err := CheckBatchSize(len(in), "invoices"); err != nil {
		return nil, err
	}
	it, err := s.cfg.Authority.Issuer(ctx, who.ProjectID)
	if err != nil {
		return nil, err
	}
	pr := it.Project
	if !pr.Configured || it.Authority == nil || pr.BusinessID == "" || pr.ServiceID == "" || len(pr.APIKeyEnc) == 0 || len(pr.APISecretEnc) == 0 {
		return nil, model.Errorf(model.CodeAuthorityNotConfigured,
			"submitting invoices needs the project's tax authority settings and API credentials; set them with PUT /api/v2/projects/%s/authority", pr.ID)
	}
	if s.cfg.Engine == nil {
		return nil, errNoWorkflowEngine
	}
	items := make([]*batchItem, len(in))
	for i := range in {
		items[i], err = s.prepareItem(ctx, it, in[i])
		if err != nil {
			return nil, err
		}
	}
	if err := s.dedupe(ctx, pr.ID, items); err != nil {
		return nil, err
	}
	for _, b := range items {
		if !b.fresh {
			continue
		}
		payload := map[string]any{}
		if err := jsonUnmarshal(b.inv.Payload, &payload); err != nil {
			return nil, err
		}
		ref, err := s.checkBillingReference(ctx, it, b.inv, payload)
		if err != nil {
			if refuse(b, err) {
				continue
			}
			return nil, err
		}
		b.inv.BillingReference = ref
	}
	if s.shardOf(&model.SubmittedInvoice{}) != nil {
		if err := s.checkBacklog(ctx, pr.ID, len(items)); err != nil {
			return nil, err
		}
	}
	started, err := s.startAll(ctx, items)
	if err != nil {
		s.abandon(ctx, started, "the batch was not recorded: its workflows could not all be started")
		return nil, model.Wrap(model.CodeUnavailable, err,
			"cannot submit the batch: the workflow engine (Temporal) is unreachable; nothing was stored, try again later")
	}
	batch := &model.InvoiceBatch{ID: model.NewID(), ProjectID: pr.ID, OrganizationID: pr.OrganizationID, ItemCount: len(items), CreatedAt: s.now()}
	for attempt := 1; ; attempt++ {
		err = s.recordBatch(ctx, batch, items)
		if model.ErrorCodeOf(err) != model.CodeConflict || attempt == batchTxAttempts {
			break
		}
		// Another request recorded one of the IRNs first: its workflow is
		// shared; answer that item as a repeated submission.
		if err = s.dedupe(ctx, pr.ID, items); err != nil {
			break
		}
	}
	if err != nil {
		s.abandon(ctx, stillFresh(started, items), "the batch was not recorded: "+model.AsError(err).Message)
		return nil, err
	}
	fresh := make([]*model.SubmittedInvoice, 0, len(items))
	for _, b := range items {
		if b.fresh {
			fresh = append(fresh, b.inv)
		}
	}
	s.wake(fresh...)
	return batchView(batch, items), nil
}

// prepareItem checks one item as Submit checks an invoice, up to the
// invoice it would record; an item's own fault is its outcome, anything
// else is the error.
func (s *Service) prepareItem(ctx context.Context, it *authority.Issuer, in BatchItemInput) (*batchItem, error) {
	b := &batchItem{}
	var p model.Problems
	p.AddAll(nil, in.Problems)
	if len(in.Problems) == 0 {
		in.Invoice.Validate(&p)
	}
	if err := p.Err(); err != nil {
		refuse(b, err)
		return b, nil
	}
	pr := it.Project
	kind, _ := model.ParseInvoiceKind(in.Invoice.InvoiceType)
	payload := cloneObject(in.Invoice.Payload.(map[string]any))
	irn, err := s.irnOf(ctx, it, kind, payload, in.Invoice.InvoiceReference)
	if err == nil {
		var rep *model.ValidationReport
		rep, err = s.invoices.ValidateForProject(ctx, pr.ID, invoices.ValidateInput{InvoiceTypeCode: string(kind), Payload: payload})
		if err == nil && !rep.Valid {
			err = invalidReport(rep)
		}
	}
	if err != nil {
		if refuse(b, err) {
			return b, nil
		}
		return nil, err
	}
	doc, err := json.Marshal(payload)
	if err != nil {
		refuse(b, model.Invalid(model.ProblemValueError, "payload cannot be encoded as JSON", "payload"))
		return b, nil
	}
	b.inv = s.newInvoice(it, irn, kind, payload, doc)
	b.outcome, b.fresh = model.BatchAccepted, true
	return b, nil
}

// refuse records err as the item's outcome when it is the item's fault
// (invalid or conflict) and reports whether it was.
func refuse(b *batchItem, err error) bool {
	e := model.AsError(err)
	switch e.Code {
	case model.CodeInvalid:
		b.outcome, b.fresh = model.BatchInvalid, false
		b.problems = e.Fields
		if len(b.problems) == 0 {
			b.problems = []model.FieldError{{Loc: []any{}, Msg: e.Message, Type: model.ProblemValueError}}
		}
		return true
	case model.CodeConflict:
		b.outcome, b.fresh = model.BatchConflict, false
		b.message = e.Message
		return true
	}
	return false
}

// dedupe answers the items whose IRN is already recorded (one query for
// all) or taken by an earlier item of the batch: the same payload is that
// invoice, another payload a conflict.
func (s *Service) dedupe(ctx context.Context, projectID uuid.UUID, items []*batchItem) error {
	var irns []string
	for _, b := range items {
		if b.fresh {
			irns = append(irns, b.inv.IRN)
		}
	}
	prev, err := s.st.Submissions().ByIRNs(ctx, projectID, irns)
	if err != nil {
		return err
	}
	known := make(map[string]*model.SubmittedInvoice, len(prev))
	for i := range prev {
		known[prev[i].IRN] = &prev[i]
	}
	for _, b := range items {
		if b.inv == nil || (!b.fresh && b.outcome != model.BatchAccepted) {
			continue
		}
		p, ok := known[b.inv.IRN]
		switch {
		case !ok:
			known[b.inv.IRN] = b.inv
		case p == b.inv:
		case p.PayloadHash != b.inv.PayloadHash:
			_, err := same(p, b.inv)
			refuse(b, err)
			b.inv = nil
		default:
			b.inv, b.fresh = p, false
		}
	}
	return nil
}

// startAll starts the workflows of the items the batch records, a few at
// once; it returns those started, and the first error.
func (s *Service) startAll(ctx context.Context, items []*batchItem) ([]*model.SubmittedInvoice, error) {
	var (
		mu      sync.Mutex
		started []*model.SubmittedInvoice
		first   error
		wg      sync.WaitGroup
		slots   = make(chan struct{}, batchStartConcurrency)
	)
	for _, b := range items {
		if !b.fresh || b.inv.ClearingShard != nil {
			continue
		}
		inv := b.inv
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			mu.Lock()
			failed := first != nil
			mu.Unlock()
			if failed {
				return
			}
			err := s.cfg.Engine.StartSubmission(ctx, workflowInput(inv))
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				s.cfg.Logger.WarnContext(ctx, "invoice workflow not started", "irn", inv.IRN, "error", err.Error())
				if first == nil {
					first = err
				}
				return
			}
			started = append(started, inv)
		}()
	}
	wg.Wait()
	return started, first
}

// abandon stops the workflows of invoices the batch did not record.
func (s *Service) abandon(ctx context.Context, started []*model.SubmittedInvoice, reason string) {
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abandonTimeout)
	defer cancel()
	for _, inv := range started {
		if err := s.cfg.Engine.AbandonSubmission(actx, inv.WorkflowID, reason); err != nil {
			s.cfg.Logger.WarnContext(ctx, "invoice workflow not abandoned", "irn", inv.IRN, "error", err.Error())
		}
	}
}

// stillFresh keeps the started invoices the batch still meant to record:
// a workflow shared with another request's recorded invoice stays.
func stillFresh(started []*model.SubmittedInvoice, items []*batchItem) []*model.SubmittedInvoice {
	mine := map[string]bool{}
	for _, b := range items {
		if b.fresh {
			mine[b.inv.IRN] = true
		}
	}
	var out []*model.SubmittedInvoice
	for _, inv := range started {
		if mine[inv.IRN] {
			out = append(out, inv)
		}
	}
	return out
}

// recordBatch records the batch, its items and its new invoices (each
// with its first event and its invoice.queued event, as Submit records
// one) in one transaction.
func (s *Service) recordBatch(ctx context.Context, batch *model.InvoiceBatch, items []*batchItem) error {
	return s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		// The invoices' events are inserted together at the end, after
		// the invoices (BufferRows): each invoice is created with its
		// first event counted, and written once.
		store.BufferRows(tx)
		for _, b := range items {
			if !b.fresh {
				continue
			}
			inv := *b.inv // a failed attempt leaves the item as it was
			if err := s.appendEvent(ctx, tx, &inv, &model.InvoiceEvent{Kind: model.EventState, ToStatus: model.InvoiceQueued,
				Message: "submitted in batch " + batch.ID.String() + " (payload hash " + inv.PayloadHash + ")"}); err != nil {
				return err
			}
			if err := publish(ctx, tx, &inv, model.EventInvoiceQueued, inv.CreatedAt); err != nil {
				return err
			}
			if err := tx.Submissions().Create(ctx, &inv); err != nil {
				return err
			}
		}
		return tx.Submissions().CreateBatch(ctx, batch, batchRows(batch, items))
	})
}

// batchRows are the rows of a batch's items.
func batchRows(batch *model.InvoiceBatch, items []*batchItem) []model.InvoiceBatchItem {
	rows := make([]model.InvoiceBatchItem, len(items))
	for i, b := range items {
		rows[i] = model.InvoiceBatchItem{BatchID: batch.ID, Index: i, ProjectID: batch.ProjectID, Outcome: b.outcome, Message: b.message}
		if b.inv != nil {
			id := b.inv.ID
			rows[i].InvoiceID, rows[i].IRN = &id, b.inv.IRN
		}
		if len(b.problems) > 0 {
			doc, _ := json.Marshal(b.problems)
			rows[i].Problems = string(doc)
		}
	}
	return rows
}

// batchView is the answer to a batch's submission.
func batchView(batch *model.InvoiceBatch, items []*batchItem) *BatchView {
	v := newBatchView(batch, []string{string(model.BatchAccepted), string(model.BatchInvalid), string(model.BatchConflict)})
	for i, b := range items {
		iv := BatchItemView{Index: i, Status: string(b.outcome), Problems: b.problems}
		if b.inv != nil {
			id := b.inv.ID
			iv.InvoiceID, iv.IRN = &id, opt(b.inv.IRN)
		}
		if b.outcome == model.BatchConflict {
			iv.Error = &BatchItemError{Code: model.CodeConflict, Detail: b.message}
		}
		v.Items[i] = iv
		v.Counts[iv.Status]++
	}
	return v
}

func newBatchView(batch *model.InvoiceBatch, statuses []string) *BatchView {
	v := &BatchView{ID: batch.ID, ProjectID: batch.ProjectID, CreatedAt: batch.CreatedAt.UTC(), ItemCount: batch.ItemCount,
		Counts: make(map[string]int, len(statuses)), Items: make([]BatchItemView, batch.ItemCount),
		Links: BatchLinks{Self: "/api/v2/invoices/batches/" + batch.ID.String()}}
	for _, st := range statuses {
		v.Counts[st] = 0
	}
	return v
}

// BatchStatuses lists the statuses an item of a batch read later may
// have: an invoice's, or invalid or conflict.
func BatchStatuses() []string {
	out := make([]string, 0, len(model.InvoiceStatuses)+2)
	for _, st := range model.InvoiceStatuses {
		out = append(out, string(st))
	}
	return append(out, string(model.BatchInvalid), string(model.BatchConflict))
}

// Batch reads a batch with the current state of each of its invoices
// (one query for all of them) and the count of its items per status. An
// API key reads its own project's batches, a portal user those of its
// organizations' projects; any other is not found.
func (s *Service) Batch(ctx context.Context, who *model.Principal, id uuid.UUID) (*BatchView, error) {
	var (
		batch *model.InvoiceBatch
		err   error
	)
	if who != nil && !who.IsKey() && who.ProjectID == uuid.Nil && who.UserID != uuid.Nil {
		batch, err = s.st.Submissions().BatchForUser(ctx, who.UserID, id)
	} else {
		if err := requireRead(who); err != nil {
			return nil, err
		}
		batch, err = s.st.Submissions().Batch(ctx, who.ProjectID, id)
	}
	if err != nil {
		return nil, err
	}
	rows, err := s.st.Submissions().BatchItems(ctx, batch.ID)
	if err != nil {
		return nil, err
	}
	var ids []uuid.UUID
	for _, r := range rows {
		if r.InvoiceID != nil {
			ids = append(ids, *r.InvoiceID)
		}
	}
	invs, err := s.st.Submissions().ByIDs(ctx, batch.ProjectID, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[uuid.UUID]*model.SubmittedInvoice, len(invs))
	for i := range invs {
		byID[invs[i].ID] = &invs[i]
	}
	v := newBatchView(batch, BatchStatuses())
	v.Items = make([]BatchItemView, len(rows))
	for i, r := range rows {
		iv := BatchItemView{Index: r.Index, Status: string(r.Outcome), InvoiceID: r.InvoiceID, IRN: opt(r.IRN)}
		if inv := r.InvoiceID; inv != nil && byID[*inv] != nil {
			iv.Status = string(byID[*inv].Status)
		}
		if r.Problems != "" {
			if err := json.Unmarshal([]byte(r.Problems), &iv.Problems); err != nil {
				return nil, err
			}
		}
		if r.Outcome == model.BatchConflict {
			iv.Error = &BatchItemError{Code: model.CodeConflict, Detail: r.Message}
		}
		v.Items[i] = iv
		v.Counts[iv.Status]++
	}
	return v, nil
}

// cloneObject copies a JSON object deeply enough that writing its top
// level (irnOf writes the generated irn) leaves the caller's untouched.
func cloneObject(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
