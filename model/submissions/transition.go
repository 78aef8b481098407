package submissions

import (
	"context"
	"slices"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/events"
	"github.com/einvoice-ng/einvoice/model/store"
)

// transitions is the table of allowed moves (see the package
// documentation).
var transitions = map[model.InvoiceStatus][]model.InvoiceStatus{
	model.InvoiceQueued:      {model.InvoiceSubmitting},
	model.InvoiceSubmitting:  {model.InvoiceQueued, model.InvoiceSigned, model.InvoiceRejected, model.InvoiceOutcomeUnknown},
	model.InvoiceSigned:      {model.InvoiceTransmitted, model.InvoiceConfirmed, model.InvoiceRejected, model.InvoiceOutcomeUnknown},
	model.InvoiceTransmitted: {model.InvoiceConfirmed, model.InvoiceRejected},
	model.InvoiceOutcomeUnknown: {model.InvoiceSubmitting, model.InvoiceSigned, model.InvoiceTransmitted,
		model.InvoiceRejected},
}

// Transitions lists the states each state may move to, for documentation
// and tests.
func Transitions() map[model.InvoiceStatus][]model.InvoiceStatus {
	out := make(map[model.InvoiceStatus][]model.InvoiceStatus, len(transitions))
	for k, v := range transitions {
		out[k] = slices.Clone(v)
	}
	return out
}

// Detail is what a transition records besides the new state.
type Detail struct {
	// Message describes the change for the event log.
	Message string
	// NRSErrorID and NRSErrorMessage are NRS's refusal (rejected).
	NRSErrorID      string
	NRSErrorMessage string
	// PendingCall is the call whose answer was lost (outcome_unknown).
	PendingCall string
	// QRCodeData is the invoice's QR payload (confirmed).
	QRCodeData string
}

// transition moves inv, read under lock inside tx, to the state to: it
// checks the move, writes the invoice and appends its state event, all in
// tx. Moving to the current state changes nothing (changed false). Every
// state change of an invoice goes through here, so that whatever must
// happen in the same transaction as a state change is added in one place.
func (c *core) transition(ctx context.Context, tx *store.Store, inv *model.SubmittedInvoice, to model.InvoiceStatus, d Detail) (changed bool, err error) {
	from := inv.Status
	if from == to {
		return false, nil
	}
	if !slices.Contains(transitions[from], to) {
		return false, model.Errorf(model.CodeConflict, "invoice %s cannot move from %s to %s", inv.ID, from, to)
	}
	if to == model.InvoiceQueued && (inv.SignSent > 0 || inv.TransmitSent > 0) {
		return false, model.Errorf(model.CodeConflict, "invoice %s was sent to NRS: it cannot go back to the queue", inv.ID)
	}
	now := c.now()
	inv.Status, inv.UpdatedAt, inv.PendingCall = to, now, ""
	switch to {
	case model.InvoiceSigned:
		if inv.SignedAt == nil {
			inv.SignedAt = &now
		}
	case model.InvoiceTransmitted:
		if inv.TransmittedAt == nil {
			inv.TransmittedAt = &now
		}
	case model.InvoiceConfirmed:
		// The archive's lock on the project's row is taken last (archive,
		// below), after every other write of the confirmation: it
		// serializes the project's confirmations, so it is held only for
		// the chain's last entry, the invoice's update and the commit. The
		// locks come in one order: the invoice, then the project (the
		// events' foreign keys take only KEY SHARE on the project's row,
		// which the archive's lock does not conflict with).
		inv.ConfirmedAt = &now
		if d.QRCodeData != "" {
			inv.QRCodeData = d.QRCodeData
		}
		if err := c.flagMissed(ctx, tx, inv, now); err != nil {
			return false, err
		}
	case model.InvoiceRejected:
		inv.NRSErrorID, inv.NRSErrorMessage = d.NRSErrorID, clip(d.NRSErrorMessage, maxMessage)
	case model.InvoiceOutcomeUnknown:
		inv.PendingCall = d.PendingCall
	}
	msg := d.Message
	if msg == "" {
		msg = string(from) + " → " + string(to)
	}
	ev := &model.InvoiceEvent{Kind: model.EventState, FromStatus: from, ToStatus: to, Message: clip(msg, maxMessage)}
	if to == model.InvoiceRejected {
		ev.NRSErrorID = d.NRSErrorID
	}
	if err := c.appendEvent(ctx, tx, inv, ev); err != nil {
		return false, err
	}
	if err := publish(ctx, tx, inv, model.InvoiceStateEvent(to), now); err != nil {
		return false, err
	}
	if to == model.InvoiceConfirmed {
		if later, _ := ctx.Value(archiveLaterKey{}).(*archiveLater); later != nil {
			// A shared transaction archives its confirmations together,
			// and saves them then (archiveAll).
			later.invs = append(later.invs, inv)
			return true, nil
		}
		if err := c.archive(ctx, tx, inv); err != nil {
			return false, err
		}
	}
	if later, _ := ctx.Value(saveLaterKey{}).(bool); later {
		return true, nil // the caller saves inv (Steps.applyIn)
	}
	return true, tx.Submissions().Save(ctx, inv)
}

// saveLaterKey marks a context whose transitions leave the invoice's
// save to their caller, which writes the row once with every change of
// its transaction.
type saveLaterKey struct{}

// publish records the project event typ (delivered to its webhooks) with
// the invoice as the API shows it after the change, in tx, the change's
// transaction.
func publish(ctx context.Context, tx *store.Store, inv *model.SubmittedInvoice, typ string, at time.Time) error {
	return events.Append(ctx, tx, events.Source{ProjectID: inv.ProjectID, OrganizationID: inv.OrganizationID},
		typ, view(inv), at)
}

// appendEvent numbers ev as inv's next event and inserts it; the caller
// saves inv (whose event_seq moved) in the same transaction.
func (c *core) appendEvent(ctx context.Context, tx *store.Store, inv *model.SubmittedInvoice, ev *model.InvoiceEvent) error {
	inv.EventSeq++
	ev.InvoiceID, ev.ProjectID, ev.Seq, ev.CreatedAt = inv.ID, inv.ProjectID, inv.EventSeq, c.now()
	return tx.Submissions().AppendEvent(ctx, ev)
}

// maxMessage bounds an event's message and a kept NRS error message.
const maxMessage = 2000

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}
