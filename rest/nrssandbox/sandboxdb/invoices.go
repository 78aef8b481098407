package sandboxdb

import (
	"context"
	"database/sql"
	"errors"
	"hash/fnv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/migrations"
)

// Invoices is the repository of the businesses' invoices and their state at
// NRS.
type Invoices struct{ d *DB }

// Invoices returns the repository of the businesses' invoices and their
// state at NRS, in d's connection or transaction.
func (d *DB) Invoices() Invoices { return Invoices{d} }

// Get returns a business's invoice by IRN.
func (rp Invoices) Get(ctx context.Context, businessID, irn string) (*Invoice, error) {
	inv := new(Invoice)
	err := rp.d.stmts.invoiceByIRN.ScanOne(ctx, rp.d.conn(), inv, strings.ToLower(businessID), irn)
	if err != nil {
		return nil, mapErr(err)
	}
	return inv, nil
}

// GetState is Get without the payload (left empty): for a caller that
// reads or changes only the invoice's state (UpdateState).
func (rp Invoices) GetState(ctx context.Context, businessID, irn string) (*Invoice, error) {
	inv := new(Invoice)
	err := rp.d.stmts.invoiceStateByIRN.ScanOne(ctx, rp.d.conn(), inv, strings.ToLower(businessID), irn)
	if err != nil {
		return nil, mapErr(err)
	}
	return inv, nil
}

// ForBuyer returns an invoice transmitted to the buyer with a TIN.
func (rp Invoices) ForBuyer(ctx context.Context, customerTIN, irn string) (*Invoice, error) {
	inv := new(Invoice)
	err := rp.d.idb.NewSelect().Model(inv).
		Where("customer_tin = ?", customerTIN).Where("irn = ?", irn).Where("transmitted_at IS NOT NULL").
		OrderExpr("transmitted_at DESC").Limit(1).Scan(ctx)
	if err != nil {
		return nil, mapErr(err)
	}
	return inv, nil
}

// Insert adds an invoice; an IRN the business already has is
// ErrConflict. The business's totals count it (call it in a
// transaction).
func (rp Invoices) Insert(ctx context.Context, inv *Invoice) error {
	inv.BusinessID = strings.ToLower(inv.BusinessID)
	if _, err := rp.d.idb.NewInsert().Model(inv).Exec(ctx); err != nil {
		return mapErr(err)
	}
	return rp.addTotals(ctx, inv.BusinessID, inv.IRN, 1, inv.PayloadBytes)
}

// Update rewrites an invoice (all but its key and creation time), and
// the business's totals by the payload's change in size: storedBytes is
// the payload size of the row being rewritten, as the caller read it in
// this transaction (call it in a transaction).
func (rp Invoices) Update(ctx context.Context, inv *Invoice, storedBytes int64) error {
	if _, err := rp.d.idb.NewUpdate().Model(inv).ExcludeColumn("business_id", "irn", "created_at").WherePK().Exec(ctx); err != nil {
		return mapErr(err)
	}
	if inv.PayloadBytes == storedBytes {
		return nil
	}
	return rp.addTotals(ctx, inv.BusinessID, inv.IRN, 0, inv.PayloadBytes-storedBytes)
}

// UpdateState rewrites an invoice but its payload (which the caller did
// not change): a sign, transmit, delivery or payment update does not
// write the payload again, nor change the business's totals.
func (rp Invoices) UpdateState(ctx context.Context, inv *Invoice) error {
	_, err := rp.d.idb.NewUpdate().Model(inv).
		ExcludeColumn("business_id", "irn", "created_at", "payload", "payload_bytes").WherePK().Exec(ctx)
	return mapErr(err)
}

// UpdateStateCounting is UpdateState and Attempts.Count of operation for
// the invoice's IRN, in rp's transaction: on PostgreSQL one statement (the
// counter's upsert inside a WITH).
func (rp Invoices) UpdateStateCounting(ctx context.Context, inv *Invoice, operation string, now time.Time) error {
	if rp.d.dialect != migrations.Postgres {
		if err := rp.UpdateState(ctx, inv); err != nil {
			return err
		}
		_, err := rp.d.Attempts().Count(ctx, inv.BusinessID, operation, inv.IRN, now)
		return err
	}
	counted, err := rp.d.Attempts().counting(ctx, inv.BusinessID, operation, inv.IRN, now)
	if err != nil {
		return err
	}
	_, err = rp.d.idb.NewUpdate().With("counted", counted).Model(inv).
		ExcludeColumn("business_id", "irn", "created_at", "payload", "payload_bytes").WherePK().Exec(ctx)
	return mapErr(err)
}

// Totals are a business's count of invoices and of their payloads' bytes.
type Totals struct {
	N     int   `bun:"n"`
	Bytes int64 `bun:"bytes"`
}

// InsertTotals is Insert, and answers the business's totals with the new
// invoice counted (what Evict reads first): on PostgreSQL one statement
// (the invoice's and its slot's inserts inside a WITH; the sum sees the
// totals before them, to which it adds the invoice).
func (rp Invoices) InsertTotals(ctx context.Context, inv *Invoice) (Totals, error) {
	if rp.d.dialect != migrations.Postgres {
		if err := rp.Insert(ctx, inv); err != nil {
			return Totals{}, err
		}
		return rp.totals(ctx, inv.BusinessID)
	}
	inv.BusinessID = strings.ToLower(inv.BusinessID)
	slot := rp.d.idb.NewInsert().Model(&invoiceTally{BusinessID: inv.BusinessID, Slot: tallySlot(inv.IRN), Invoices: 1, Bytes: inv.PayloadBytes}).
		On("CONFLICT (business_id, slot) DO UPDATE").
		Set("invoices = ?TableAlias.invoices + EXCLUDED.invoices").
		Set("bytes = ?TableAlias.bytes + EXCLUDED.bytes")
	var t Totals
	err := rp.d.idb.NewSelect().With("new_invoice", rp.d.idb.NewInsert().Model(inv)).With("new_slot", slot).
		Model((*invoiceTally)(nil)).
		ColumnExpr("coalesce(sum(invoices), 0) + 1 AS n").ColumnExpr("coalesce(sum(bytes), 0) + ? AS bytes", inv.PayloadBytes).
		Where("business_id = ?", inv.BusinessID).Scan(ctx, &t)
	return t, mapErr(err)
}

// totals reads a business's totals.
func (rp Invoices) totals(ctx context.Context, businessID string) (Totals, error) {
	var t Totals
	err := rp.d.idb.NewSelect().Model((*invoiceTally)(nil)).
		ColumnExpr("coalesce(sum(invoices), 0) AS n").ColumnExpr("coalesce(sum(bytes), 0) AS bytes").
		Where("business_id = ?", strings.ToLower(businessID)).Scan(ctx, &t)
	if err = mapErr(err); err != nil && !errors.Is(err, ErrNotFound) {
		return t, err
	}
	return t, nil
}

// invoiceTally is one slot of a business's count of invoices and of
// their payloads' bytes: the business's totals are the sum of its slots.
// A write counts in the slot of its invoice's IRN, so that writes of a
// business's different invoices do not wait for each other's commit on
// one row.
type invoiceTally struct {
	bun.BaseModel `bun:"table:nrs_sandbox_invoice_tallies"`
	BusinessID    string `bun:"business_id,pk"`
	Slot          int    `bun:"slot,pk"`
	Invoices      int    `bun:"invoices"`
	Bytes         int64  `bun:"bytes"`
}

// tallySlots is how many slots a business's totals are spread over.
const tallySlots = 16

// tallySlot is the slot an IRN's writes count in.
func tallySlot(irn string) int {
	h := fnv.New32a()
	h.Write([]byte(irn))
	return int(h.Sum32() % tallySlots)
}

// addTotals adds n invoices and bytes to a business's totals, in the
// slot of irn.
func (rp Invoices) addTotals(ctx context.Context, businessID, irn string, n int, bytes int64) error {
	_, err := rp.d.idb.NewInsert().Model(&invoiceTally{BusinessID: strings.ToLower(businessID), Slot: tallySlot(irn), Invoices: n, Bytes: bytes}).
		On("CONFLICT (business_id, slot) DO UPDATE").
		Set("invoices = ?TableAlias.invoices + EXCLUDED.invoices").
		Set("bytes = ?TableAlias.bytes + EXCLUDED.bytes").Exec(ctx)
	return mapErr(err)
}

// evictBatch is how many of the oldest invoices Evict looks at per query.
const evictBatch = 100

// Evict keeps a business within its bounds: while it holds more than
// maxCount invoices or more than maxBytes of payloads, its oldest invoice
// goes (never keepIRN, the one just written). Other businesses' invoices are
// never touched. It returns how many went.
func (rp Invoices) Evict(ctx context.Context, businessID, keepIRN string, maxCount int, maxBytes int64) (int, error) {
	return rp.EvictFrom(ctx, businessID, keepIRN, maxCount, maxBytes, nil)
}

// EvictFrom is Evict from the totals the caller read in this transaction
// (InsertTotals), when seen is not nil, instead of reading them first.
func (rp Invoices) EvictFrom(ctx context.Context, businessID, keepIRN string, maxCount int, maxBytes int64, seen *Totals) (int, error) {
	businessID = strings.ToLower(businessID)
	var totals Totals
	sum := func() (err error) {
		totals, err = rp.totals(ctx, businessID)
		return err
	}
	if seen != nil {
		totals = *seen
	} else if err := sum(); err != nil {
		return 0, err
	}
	if totals.N <= maxCount && totals.Bytes <= maxBytes {
		return 0, nil
	}
	// Over a bound: evictions of one business take turns (on PostgreSQL a
	// lock on the business's row, which writes of its invoices, sharing
	// only its key, do not wait for; SQLite has one writer), and the
	// totals are read again once the one before committed, so that two
	// never evict for the same excess and take the business below its
	// bound. A write that saw no excess may leave it a few above until
	// the next.
	if rp.d.dialect == migrations.Postgres {
		if _, err := rp.d.idb.NewSelect().Model((*Business)(nil)).Column("business_id").
			Where("business_id = ?", businessID).For("NO KEY UPDATE").Exec(ctx); err != nil {
			return 0, mapErr(err)
		}
		if err := sum(); err != nil {
			return 0, err
		}
	}
	evicted := 0
	for totals.N > maxCount || totals.Bytes > maxBytes {
		var oldest []Invoice
		err := rp.d.idb.NewSelect().Model(&oldest).Column("irn", "payload_bytes").
			Where("business_id = ?", businessID).Where("irn <> ?", keepIRN).
			OrderExpr("created_at ASC, irn ASC").Limit(evictBatch).Scan(ctx)
		if err != nil {
			return evicted, mapErr(err)
		}
		if len(oldest) == 0 {
			return evicted, nil
		}
		var drop []string
		for _, o := range oldest {
			if totals.N <= maxCount && totals.Bytes <= maxBytes {
				break
			}
			drop = append(drop, o.IRN)
			totals.N--
			totals.Bytes -= o.PayloadBytes
		}
		if _, err := rp.d.idb.NewDelete().Model((*attempt)(nil)).
			Where("business_id = ?", businessID).Where("irn IN (?)", bun.List(drop)).Exec(ctx); err != nil {
			return evicted, mapErr(err)
		}
		// The totals lose what the DELETE returns (what this call removed).
		var gone []Invoice
		if err := rp.d.idb.NewDelete().Model(&gone).
			Where("business_id = ?", businessID).Where("irn IN (?)", bun.List(drop)).
			Returning("irn, payload_bytes").Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return evicted, mapErr(err)
		}
		var bytes int64
		for _, o := range gone {
			bytes += o.PayloadBytes
		}
		evicted += len(gone)
		if len(gone) == 0 {
			continue
		}
		// Taken from the slot of the invoice kept: any slot will do, the
		// totals are the sum.
		if err := rp.addTotals(ctx, businessID, keepIRN, -len(gone), -bytes); err != nil {
			return evicted, err
		}
	}
	return evicted, nil
}

// Count returns how many invoices a business holds.
func (rp Invoices) Count(ctx context.Context, businessID string) (int, error) {
	n, err := rp.d.idb.NewSelect().Model((*Invoice)(nil)).Where("business_id = ?", strings.ToLower(businessID)).Count(ctx)
	return n, mapErr(err)
}

// InvoiceFilter narrows Invoices.Search; empty fields match everything.
type InvoiceFilter struct {
	IRN                  string
	PaymentStatus        string
	EntryStatus          string
	InvoiceTypeCode      string
	IssueDate            string
	DueDate              string
	TaxCurrencyCode      string
	DocumentCurrencyCode string
}

var invoiceSorts = map[string]string{
	"created_at": "created_at", "issue_date": "issue_date", "due_date": "due_date", "irn": "irn",
	"payment_status": "payment_status", "invoice_type_code": "invoice_type_code",
}

// Search returns one page of a business's invoices and how many
// match in all.
func (rp Invoices) Search(ctx context.Context, businessID string, f InvoiceFilter, p Page) ([]Invoice, int, error) {
	var out []Invoice
	q := rp.d.idb.NewSelect().Model(&out).Where("business_id = ?", strings.ToLower(businessID))
	for _, c := range []struct{ col, v string }{
		{"irn", f.IRN}, {"payment_status", f.PaymentStatus}, {"entry_status", f.EntryStatus},
		{"invoice_type_code", f.InvoiceTypeCode}, {"issue_date", f.IssueDate}, {"due_date", f.DueDate},
		{"tax_currency_code", f.TaxCurrencyCode}, {"document_currency_code", f.DocumentCurrencyCode},
	} {
		if c.v != "" {
			q = q.Where("? = ?", bun.Ident(c.col), c.v)
		}
	}
	n, err := q.OrderExpr(p.order(invoiceSorts, "created_at", "irn")).Limit(p.Size).Offset(p.offset()).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, mapErr(err)
	}
	return out, n, nil
}

// Transmissions lists a business's transmitted invoices to one buyer, by
// the buyer's TIN or party id (whichever is not empty), newest first.
func (rp Invoices) Transmissions(ctx context.Context, businessID, customerTIN, customerPartyID string, limit int) ([]Invoice, error) {
	var out []Invoice
	q := rp.d.idb.NewSelect().Model(&out).Where("business_id = ?", strings.ToLower(businessID)).
		Where("transmitted_at IS NOT NULL")
	if customerTIN != "" {
		q = q.Where("customer_tin = ?", customerTIN)
	}
	if customerPartyID != "" {
		q = q.Where("lower(customer_party_id) = ?", strings.ToLower(customerPartyID))
	}
	if err := q.OrderExpr("transmitted_at DESC, irn DESC").Limit(limit).Scan(ctx); err != nil {
		return nil, mapErr(err)
	}
	return out, nil
}

// Received lists the invoices transmitted to the buyer with a TIN, oldest
// first: those transmitted in [from, until) when set, and only those whose
// receipt is (or is not) confirmed when delivered is set.
func (rp Invoices) Received(ctx context.Context, customerTIN string, from, until *time.Time, delivered *bool, limit int) ([]Invoice, error) {
	var out []Invoice
	q := rp.d.idb.NewSelect().Model(&out).Where("customer_tin = ?", customerTIN).Where("transmitted_at IS NOT NULL")
	if from != nil {
		q = q.Where("transmitted_at >= ?", *from)
	}
	if until != nil {
		q = q.Where("transmitted_at < ?", *until)
	}
	if delivered != nil {
		if *delivered {
			q = q.Where("delivered_at IS NOT NULL")
		} else {
			q = q.Where("delivered_at IS NULL")
		}
	}
	if err := q.OrderExpr("transmitted_at ASC, irn ASC").Limit(limit).Scan(ctx); err != nil {
		return nil, mapErr(err)
	}
	return out, nil
}
