package store

import (
	"context"
	"database/sql"
	"reflect"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/dbopen"
)

// Submissions is the repository of invoices submitted to the tax
// authority and of their events. model/submissions is its only writer.
type Submissions struct{ s *Store }

// Submissions returns the repository of submitted invoices, in s's
// connection or transaction.
func (s *Store) Submissions() Submissions { return Submissions{s} }

const submittedInvoice = "invoice"

// Create inserts a submitted invoice; another invoice of the project with
// the same IRN is a conflict.
func (rp Submissions) Create(ctx context.Context, inv *model.SubmittedInvoice) error {
	return rp.create(ctx, inv)
}

// create is Create.
func (rp Submissions) create(ctx context.Context, inv *model.SubmittedInvoice) error {
	t := rp.s.db.Table(reflect.TypeFor[model.SubmittedInvoice]())
	args, err := dbopen.FieldArgs(rp.s.dialect, t.Fields, reflect.ValueOf(inv).Elem())
	if err == nil {
		_, err = rp.s.stmts.createInvoice.Exec(ctx, rp.s.conn(), args...)
	}
	if err == nil {
		rp.remember(inv)
	}
	return rp.s.wrap(err, submittedInvoice)
}

// remember keeps a copy of inv as the transaction last read or wrote it.
func (rp Submissions) remember(inv *model.SubmittedInvoice) {
	if rp.s.read != nil {
		c := *inv
		rp.s.read[inv.ID] = &c
	}
}

// changed lists the columns in which inv differs from the copy the
// transaction remembers of it; all (but the payload and the clearing
// shard) when it remembers none.
func (rp Submissions) changed(inv *model.SubmittedInvoice) (cols []string, all bool) {
	was := rp.s.read[inv.ID]
	if was == nil {
		return nil, true
	}
	t := rp.s.db.Table(reflect.TypeFor[model.SubmittedInvoice]())
	a, b := reflect.ValueOf(was).Elem(), reflect.ValueOf(inv).Elem()
	for _, f := range t.DataFields {
		if f.Name == "payload" || f.Name == "clearing_shard" {
			continue
		}
		if !reflect.DeepEqual(f.Value(a).Interface(), f.Value(b).Interface()) {
			cols = append(cols, f.Name)
		}
	}
	return cols, false
}

// ByIRN finds a project's invoice by its IRN.
func (rp Submissions) ByIRN(ctx context.Context, projectID uuid.UUID, irn string) (*model.SubmittedInvoice, error) {
	inv := new(model.SubmittedInvoice)
	err := rp.s.stmts.invoiceByIRN.ScanOne(ctx, rp.s.conn(), inv, projectID, irn)
	return inv, rp.s.wrap(err, submittedInvoice)
}

// Get finds an invoice of one project; any other project's is not found.
func (rp Submissions) Get(ctx context.Context, projectID, id uuid.UUID) (*model.SubmittedInvoice, error) {
	inv := new(model.SubmittedInvoice)
	err := rp.s.idb.NewSelect().Model(inv).Where("id = ?", id).Where("project_id = ?", projectID).Scan(ctx)
	return inv, rp.s.wrap(err, submittedInvoice)
}

// GetForUser finds an invoice of a project of the user's organizations;
// any other invoice is not found.
func (rp Submissions) GetForUser(ctx context.Context, userID, id uuid.UUID) (*model.SubmittedInvoice, error) {
	inv := new(model.SubmittedInvoice)
	err := rp.s.idb.NewSelect().Model(inv).Where("id = ?", id).
		Where("project_id IN (?)", rp.s.memberProjectIDs(userID)).Scan(ctx)
	return inv, rp.s.wrap(err, submittedInvoice)
}

// InvoiceFilter narrows a list of submitted invoices; zero fields do not
// filter. Dates are YYYY-MM-DD, inclusive; times are half-open [from, to).
type InvoiceFilter struct {
	Status        model.InvoiceStatus
	InvoiceType   model.InvoiceKind
	IRN           string
	CustomerTIN   string
	IssueDateFrom string
	IssueDateTo   string
	CreatedFrom   *time.Time
	CreatedTo     *time.Time
	// DeadlineAtRisk, when set, keeps the invoices flagged (true) or not
	// flagged (false) deadline_at_risk.
	DeadlineAtRisk *bool
}

// List lists one page of a project's invoices, newest first, without
// their payloads.
func (rp Submissions) List(ctx context.Context, projectID uuid.UUID, f InvoiceFilter, p model.Page) ([]model.SubmittedInvoice, bool, error) {
	out := []model.SubmittedInvoice{}
	q := rp.s.idb.NewSelect().Model(&out).ExcludeColumn("payload").Where("project_id = ?", projectID)
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	if f.InvoiceType != "" {
		q = q.Where("invoice_type = ?", f.InvoiceType)
	}
	if f.IRN != "" {
		q = q.Where("irn = ?", f.IRN)
	}
	if f.CustomerTIN != "" {
		q = q.Where("customer_tin = ?", f.CustomerTIN)
	}
	if f.IssueDateFrom != "" {
		q = q.Where("issue_date >= ?", f.IssueDateFrom)
	}
	if f.IssueDateTo != "" {
		q = q.Where("issue_date <= ?", f.IssueDateTo)
	}
	if f.CreatedFrom != nil {
		q = q.Where("created_at >= ?", *f.CreatedFrom)
	}
	if f.CreatedTo != nil {
		q = q.Where("created_at < ?", *f.CreatedTo)
	}
	if f.DeadlineAtRisk != nil {
		q = q.Where("deadline_at_risk = ?", *f.DeadlineAtRisk)
	}
	if p.After != uuid.Nil {
		q = q.Where("id < ?", p.After)
	}
	err := q.OrderExpr("id DESC").Limit(p.Limit + 1).Scan(ctx)
	if err != nil {
		return nil, false, rp.s.wrap(err, submittedInvoice)
	}
	return trim(out, p.Limit)
}

// Lock takes the invoice's row for the rest of the transaction (a no-op
// on SQLite, whose write transactions hold the database) and reads it.
func (rp Submissions) Lock(ctx context.Context, id uuid.UUID) (*model.SubmittedInvoice, error) {
	inv := new(model.SubmittedInvoice)
	err := rp.s.stmts.lockInvoice.ScanOne(ctx, rp.s.conn(), inv, id)
	if err == nil {
		rp.remember(inv)
	}
	return inv, rp.s.wrap(err, submittedInvoice)
}

// buildLockInvoice is Lock's statement: every column of the invoice by
// id, FOR UPDATE on PostgreSQL.
func buildLockInvoice(db *bun.DB, dialect string, ph func(int) string) string {
	q := db.NewSelect().Model((*model.SubmittedInvoice)(nil)).Where("id = ?", bun.Safe(ph(1)))
	if dialect == "postgres" {
		q = q.For("UPDATE")
	}
	return q.String()
}

// buildCreateInvoice is Create's statement: every column, in the order
// of the model's fields.
func buildCreateInvoice(db *bun.DB, _ string, ph func(int) string) string {
	t := db.Table(reflect.TypeFor[model.SubmittedInvoice]())
	names := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		names[i] = string(f.SQLName)
	}
	return "INSERT INTO submitted_invoices (" + strings.Join(names, ", ") + ") VALUES (" + dbopen.Placeholders(ph, len(names)) + ")"
}

// maxSaveStatements bounds the UPDATE statements Save keeps prepared, one
// per set of changed columns (a state change changes the same few each
// time); another set is written by bun.
const maxSaveStatements = 64

// saveInvoice is the prepared UPDATE of the invoice's columns cols (SET
// each, WHERE id), nil when maxSaveStatements are kept already or cols is
// empty.
func (st *statements) saveInvoice(cols []string) *dbopen.Prepared {
	if len(cols) == 0 {
		return nil
	}
	key := strings.Join(cols, ",")
	st.saveMu.Lock()
	defer st.saveMu.Unlock()
	if p, ok := st.saves[key]; ok {
		return p
	}
	if len(st.saves) >= maxSaveStatements {
		return nil
	}
	cs := append([]string(nil), cols...)
	p := &dbopen.Prepared{Build: func(db *bun.DB, _ string, ph func(int) string) string {
		t := db.Table(reflect.TypeFor[model.SubmittedInvoice]())
		set := make([]string, len(cs))
		for i, c := range cs {
			set[i] = string(t.FieldMap[c].SQLName) + " = " + ph(i+1)
		}
		return "UPDATE submitted_invoices SET " + strings.Join(set, ", ") + " WHERE id = " + ph(len(cs)+1)
	}}
	if st.saves == nil {
		st.saves = map[string]*dbopen.Prepared{}
	}
	st.saves[key] = p
	return p
}

// buildInvoiceByIRN is ByIRN's statement.
func buildInvoiceByIRN(db *bun.DB, _ string, ph func(int) string) string {
	return db.NewSelect().Model((*model.SubmittedInvoice)(nil)).
		Where("project_id = ?", bun.Safe(ph(1))).Where("irn = ?", bun.Safe(ph(2))).String()
}

// Save writes an invoice: in a transaction that read it with Lock (or
// created it), only the columns that changed since (none: no statement);
// else every column but those no write changes after Create. Never its
// payload (which would be written into the statement's text and the
// row's pages again) nor its clearing shard, which only Clearing.Done
// changes. Writing only what changed keeps the statement short and
// leaves the indexes on other columns untouched.
func (rp Submissions) Save(ctx context.Context, inv *model.SubmittedInvoice) error {
	return rp.save(ctx, inv)
}

// save is Save.
func (rp Submissions) save(ctx context.Context, inv *model.SubmittedInvoice) error {
	cols, all := rp.changed(inv)
	if !all && len(cols) == 0 {
		return nil
	}
	var res sql.Result
	var err error
	if p := rp.s.stmts.saveInvoice(cols); !all && p != nil {
		t := rp.s.db.Table(reflect.TypeFor[model.SubmittedInvoice]())
		fields := make([]*schema.Field, 0, len(cols)+1)
		for _, c := range cols {
			fields = append(fields, t.FieldMap[c])
		}
		fields = append(fields, t.FieldMap["id"])
		var args []any
		if args, err = dbopen.FieldArgs(rp.s.dialect, fields, reflect.ValueOf(inv).Elem()); err == nil {
			res, err = p.Exec(ctx, rp.s.conn(), args...)
		}
	} else {
		q := rp.s.idb.NewUpdate().Model(inv).WherePK()
		if all {
			q = q.ExcludeColumn("payload", "clearing_shard")
		} else {
			q = q.Column(cols...)
		}
		res, err = q.Exec(ctx)
	}
	if err = rp.s.affected(res, err, submittedInvoice); err == nil {
		rp.remember(inv)
	}
	return err
}

// AppendEvent inserts one event of an invoice.
func (rp Submissions) AppendEvent(ctx context.Context, ev *model.InvoiceEvent) error {
	args := []any{ev.InvoiceID, ev.Seq, ev.ProjectID, textArg(ev.Kind), nullText(string(ev.FromStatus)), nullText(string(ev.ToStatus)),
		nullText(ev.Operation), ev.Attempt, ev.LatencyMS, ev.HTTPStatus, nullText(ev.NRSErrorID),
		nullText(ev.RequestBody), nullText(ev.ResponseBody), textArg(ev.Message), rp.s.timeArg(ev.CreatedAt)}
	if p := rp.s.pending; p != nil {
		p.invoiceEvents = append(p.invoiceEvents, args)
		return nil
	}
	_, err := rp.s.stmts.invoiceEvent.Exec(ctx, rp.s.conn(), args...)
	return rp.s.wrap(err, "invoice event")
}

// buildInvoiceEventInsert is AppendEvent's statement; its arguments in
// the order of its columns.
func buildInvoiceEventInsert(_ *bun.DB, _ string, ph func(int) string) string {
	return invoiceEventsInsert(ph, 1)
}

// invoiceEventsInsert inserts rows invoice events.
func invoiceEventsInsert(ph func(int) string, rows int) string {
	return `INSERT INTO invoice_events (invoice_id, seq, project_id, kind, from_status, to_status, operation, attempt,
latency_ms, http_status, nrs_error_id, request_body, response_body, message, created_at) VALUES ` + valuesOf(ph, rows, 15)
}

// Events lists an invoice's events in order, after seq.
func (rp Submissions) Events(ctx context.Context, invoiceID uuid.UUID, after, limit int) ([]model.InvoiceEvent, bool, error) {
	if err := rp.s.flushRows(ctx); err != nil {
		return nil, false, err
	}
	out := []model.InvoiceEvent{}
	err := rp.s.idb.NewSelect().Model(&out).Where("invoice_id = ?", invoiceID).Where("seq > ?", after).
		OrderExpr("seq ASC").Limit(limit + 1).Scan(ctx)
	if err != nil {
		return nil, false, rp.s.wrap(err, "invoice event")
	}
	return trim(out, limit)
}

// LastArchived reads the newest archived invoice of a project (not_found
// when none is): its id, project, archive sequence and hash only.
func (rp Submissions) LastArchived(ctx context.Context, projectID uuid.UUID) (*model.SubmittedInvoice, error) {
	inv := new(model.SubmittedInvoice)
	err := rp.s.stmts.lastArchived.ScanOne(ctx, rp.s.conn(), inv, projectID)
	return inv, rp.s.wrap(err, submittedInvoice)
}

// buildLastArchived is LastArchived's statement: the chain's head, read
// under the project's lock by every confirmation, so only what the next
// entry needs (its id, sequence and hash), not the payload.
func buildLastArchived(db *bun.DB, _ string, ph func(int) string) string {
	return db.NewSelect().Model((*model.SubmittedInvoice)(nil)).Column("id", "project_id", "archive_seq", "archive_hash").
		Where("project_id = ?", bun.Safe(ph(1))).Where("archive_seq IS NOT NULL").
		OrderExpr("archive_seq DESC").Limit(1).String()
}

// Archived lists a project's archived invoices in chain order from seq
// (inclusive), at most limit, optionally only those archived in [from, to).
func (rp Submissions) Archived(ctx context.Context, projectID uuid.UUID, fromSeq int64, from, to *time.Time, limit int) ([]model.SubmittedInvoice, error) {
	out := []model.SubmittedInvoice{}
	q := rp.s.idb.NewSelect().Model(&out).Where("project_id = ?", projectID).
		Where("archive_seq >= ?", fromSeq)
	if from != nil {
		q = q.Where("archived_at >= ?", *from)
	}
	if to != nil {
		q = q.Where("archived_at < ?", *to)
	}
	err := q.OrderExpr("archive_seq ASC").Limit(limit).Scan(ctx)
	return out, rp.s.wrap(err, submittedInvoice)
}

// QueueStats sums up a project's queue: its queued invoices (how many,
// the oldest's acceptance, the earliest deadline, how many at risk) and
// its unfinished invoices that missed their deadline. Two indexed
// queries (submitted_invoices_queue_idx).
type QueueStats struct {
	Depth          int
	OldestAt       *time.Time
	NextDeadlineAt *time.Time
	AtRisk         int
	Missed         int
}

// Queue reads a project's queue.
func (rp Submissions) Queue(ctx context.Context, projectID uuid.UUID) (QueueStats, error) {
	var out QueueStats
	var row struct {
		Depth  int        `bun:"depth"`
		Oldest *time.Time `bun:"oldest"`
		Next   *time.Time `bun:"next"`
		AtRisk int        `bun:"at_risk"`
	}
	err := rp.s.idb.NewSelect().Model((*model.SubmittedInvoice)(nil)).
		ColumnExpr("COUNT(*) AS depth, MIN(created_at) AS oldest, MIN(deadline_at) AS next").
		ColumnExpr("COALESCE(SUM(CASE WHEN deadline_at_risk THEN 1 ELSE 0 END), 0) AS at_risk").
		Where("project_id = ?", projectID).Where("status = ?", model.InvoiceQueued).Scan(ctx, &row)
	if err != nil {
		return out, rp.s.wrap(err, submittedInvoice)
	}
	out.Depth, out.AtRisk = row.Depth, row.AtRisk
	if row.Depth > 0 {
		out.OldestAt, out.NextDeadlineAt = row.Oldest, row.Next
	}
	out.Missed, err = rp.s.idb.NewSelect().Model((*model.SubmittedInvoice)(nil)).
		Where("project_id = ?", projectID).
		Where("status NOT IN (?)", bun.List([]model.InvoiceStatus{model.InvoiceConfirmed, model.InvoiceRejected})).
		Where("deadline_missed").Count(ctx)
	return out, rp.s.wrap(err, submittedInvoice)
}

// Queued lists up to limit of a project's queued invoices in deadline
// order (then id), after (deadline, id) when after is set, without their
// payloads.
func (rp Submissions) Queued(ctx context.Context, projectID uuid.UUID, afterDeadline *time.Time, afterID uuid.UUID, limit int) ([]model.SubmittedInvoice, error) {
	out := []model.SubmittedInvoice{}
	q := rp.s.idb.NewSelect().Model(&out).ExcludeColumn("payload").
		Where("project_id = ?", projectID).Where("status = ?", model.InvoiceQueued)
	if afterDeadline != nil {
		q = q.Where("(deadline_at > ? OR (deadline_at = ? AND id > ?))", *afterDeadline, *afterDeadline, afterID)
	}
	err := q.OrderExpr("deadline_at, id").Limit(limit).Scan(ctx)
	return out, rp.s.wrap(err, submittedInvoice)
}

// QueuedDepth counts a project's queued invoices
// (submitted_invoices_queue_idx).
func (rp Submissions) QueuedDepth(ctx context.Context, projectID uuid.UUID) (int, error) {
	n, err := rp.s.idb.NewSelect().Model((*model.SubmittedInvoice)(nil)).
		Where("project_id = ?", projectID).Where("status = ?", model.InvoiceQueued).Count(ctx)
	return n, rp.s.wrap(err, submittedInvoice)
}

// QueuedBefore lists, in the queue's order (deadline, then id), a
// project's queued invoices whose deadline is before by, at most limit:
// their id, deadline and at-risk flag only. The invoices ahead of any
// of them in the queue are all in the list, so an invoice's index is its
// place in the queue.
func (rp Submissions) QueuedBefore(ctx context.Context, projectID uuid.UUID, by time.Time, limit int) ([]model.SubmittedInvoice, error) {
	out := []model.SubmittedInvoice{}
	err := rp.s.idb.NewSelect().Model(&out).Column("id", "deadline_at", "deadline_at_risk").
		Where("project_id = ?", projectID).Where("status = ?", model.InvoiceQueued).
		Where("deadline_at < ?", by).OrderExpr("deadline_at, id").Limit(limit).Scan(ctx)
	return out, rp.s.wrap(err, submittedInvoice)
}

// Unflagged lists up to limit of a project's invoices that are neither
// confirmed nor rejected, whose deadline is before by and that are not yet
// flagged as flag says (deadline_at_risk or deadline_missed), earliest
// deadline first, without their payloads. Only queued invoices are listed
// for deadline_at_risk.
func (rp Submissions) Unflagged(ctx context.Context, projectID uuid.UUID, flag string, by time.Time, limit int) ([]model.SubmittedInvoice, error) {
	out := []model.SubmittedInvoice{}
	q := rp.s.idb.NewSelect().Model(&out).ExcludeColumn("payload").Where("project_id = ?", projectID)
	switch flag {
	case "deadline_at_risk":
		q = q.Where("status = ?", model.InvoiceQueued).Where("NOT deadline_at_risk")
	default:
		q = q.Where("status NOT IN (?)", bun.List([]model.InvoiceStatus{model.InvoiceConfirmed, model.InvoiceRejected})).
			Where("NOT deadline_missed")
	}
	err := q.Where("deadline_at < ?", by).OrderExpr("deadline_at, id").Limit(limit).Scan(ctx)
	return out, rp.s.wrap(err, submittedInvoice)
}

// QueuedByEnvironment counts the queued invoices of every project by
// environment, with the oldest's acceptance: one query
// (submitted_invoices_status_idx).
func (rp Submissions) QueuedByEnvironment(ctx context.Context) (map[model.Environment]QueueStats, error) {
	var rows []struct {
		Environment model.Environment `bun:"environment"`
		Depth       int               `bun:"depth"`
		Oldest      *time.Time        `bun:"oldest"`
	}
	err := rp.s.idb.NewSelect().Model((*model.SubmittedInvoice)(nil)).
		ColumnExpr("environment, COUNT(*) AS depth, MIN(created_at) AS oldest").
		Where("status = ?", model.InvoiceQueued).GroupExpr("environment").Scan(ctx, &rows)
	if err != nil {
		return nil, rp.s.wrap(err, submittedInvoice)
	}
	out := make(map[model.Environment]QueueStats, len(rows))
	for _, r := range rows {
		out[r.Environment] = QueueStats{Depth: r.Depth, OldestAt: r.Oldest}
	}
	return out, nil
}
