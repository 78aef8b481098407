package store

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

const invoiceBatch = "invoice batch"

// CreateBatch inserts a batch and its items. model/submissions is its
// only caller, in the transaction that records the batch's invoices.
func (rp Submissions) CreateBatch(ctx context.Context, b *model.InvoiceBatch, items []model.InvoiceBatchItem) error {
	if _, err := rp.s.idb.NewInsert().Model(b).Exec(ctx); err != nil {
		return rp.s.wrap(err, invoiceBatch)
	}
	if len(items) == 0 {
		return nil
	}
	_, err := rp.s.idb.NewInsert().Model(&items).Exec(ctx)
	return rp.s.wrap(err, invoiceBatch)
}

// Batch finds a batch of one project; any other project's is not found.
func (rp Submissions) Batch(ctx context.Context, projectID, id uuid.UUID) (*model.InvoiceBatch, error) {
	b := new(model.InvoiceBatch)
	err := rp.s.idb.NewSelect().Model(b).Where("id = ?", id).Where("project_id = ?", projectID).Scan(ctx)
	return b, rp.s.wrap(err, invoiceBatch)
}

// BatchForUser finds a batch of a project of the user's organizations;
// any other batch is not found.
func (rp Submissions) BatchForUser(ctx context.Context, userID, id uuid.UUID) (*model.InvoiceBatch, error) {
	b := new(model.InvoiceBatch)
	err := rp.s.idb.NewSelect().Model(b).Where("id = ?", id).
		Where("project_id IN (?)", rp.s.memberProjectIDs(userID)).Scan(ctx)
	return b, rp.s.wrap(err, invoiceBatch)
}

// BatchItems lists a batch's items in request order.
func (rp Submissions) BatchItems(ctx context.Context, batchID uuid.UUID) ([]model.InvoiceBatchItem, error) {
	out := []model.InvoiceBatchItem{}
	err := rp.s.idb.NewSelect().Model(&out).Where("batch_id = ?", batchID).OrderExpr("idx ASC").Scan(ctx)
	return out, rp.s.wrap(err, invoiceBatch)
}

// ByIDs reads a project's invoices with the given ids, without their
// payloads, in one query; ids of other projects are left out.
func (rp Submissions) ByIDs(ctx context.Context, projectID uuid.UUID, ids []uuid.UUID) ([]model.SubmittedInvoice, error) {
	out := []model.SubmittedInvoice{}
	if len(ids) == 0 {
		return out, nil
	}
	err := rp.s.idb.NewSelect().Model(&out).ExcludeColumn("payload").
		Where("project_id = ?", projectID).Where("id IN (?)", bun.List(ids)).Scan(ctx)
	return out, rp.s.wrap(err, submittedInvoice)
}

// ByIRNs reads a project's invoices with the given IRNs in one query,
// without their payloads.
func (rp Submissions) ByIRNs(ctx context.Context, projectID uuid.UUID, irns []string) ([]model.SubmittedInvoice, error) {
	out := []model.SubmittedInvoice{}
	if len(irns) == 0 {
		return out, nil
	}
	err := rp.s.idb.NewSelect().Model(&out).ExcludeColumn("payload").
		Where("project_id = ?", projectID).Where("irn IN (?)", bun.List(irns)).Scan(ctx)
	return out, rp.s.wrap(err, submittedInvoice)
}
