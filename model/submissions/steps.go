package submissions

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/invoices"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Steps is the entry point of the invoice workflow's activities:
// everything they read or write in the database goes through it, and it is
// the only writer of an invoice's state besides Submit. The activities
// hold the project and IRN the project submitted, so they act for that
// project without a principal.
type Steps struct {
	core
}

// NewSteps builds the activities' entry point over st; QR payloads are
// built through inv.
func NewSteps(st *store.Store, cfg Config, inv *invoices.Service) *Steps {
	cfg.defaults()
	return &Steps{core{st: st, cfg: cfg, invoices: inv, backlog: &backlogCache{}}}
}

// Begin moves a queued invoice to submitting and returns it; not_found
// while its row is not committed yet (it commits just after the workflow
// starts). When hold (if set) says so, the invoice stays queued.
func (s *Steps) Begin(ctx context.Context, projectID uuid.UUID, irn string, hold func(*model.SubmittedInvoice) bool) (*model.SubmittedInvoice, error) {
	inv, err := s.st.Submissions().ByIRN(ctx, projectID, irn)
	if err != nil {
		return nil, err
	}
	if inv.Status != model.InvoiceQueued || hold != nil && hold(inv) {
		return inv, nil
	}
	return s.Record(ctx, inv.ID, nil, model.InvoiceSubmitting, Detail{Message: beganMessage})
}

// BeginLater is Begin for a caller that writes the move to submitting
// with the invoice's next write (Apply, with BeganChange first): it only
// reads the invoice, which a queued one leaves queued in the database
// until then.
func (s *Steps) BeginLater(ctx context.Context, projectID uuid.UUID, irn string) (*model.SubmittedInvoice, error) {
	return s.st.Submissions().ByIRN(ctx, projectID, irn)
}

// BeganChange is the move to submitting that Begin writes, for a caller
// of BeginLater to write with the invoice's next write.
func BeganChange() Change {
	return Change{To: model.InvoiceSubmitting, Detail: Detail{Message: beganMessage}}
}

// beganMessage is the event log's line of the move to submitting.
const beganMessage = "the workflow began"

// Invoice reads an invoice by id.
func (s *Steps) Invoice(ctx context.Context, id uuid.UUID) (*model.SubmittedInvoice, error) {
	inv := new(model.SubmittedInvoice)
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		var err error
		inv, err = tx.Submissions().Lock(ctx, id)
		return err
	})
	return inv, err
}

// Credentials opens the authority settings of a project.
func (s *Steps) Credentials(ctx context.Context, projectID uuid.UUID) (*authority.Credentials, error) {
	return s.cfg.Authority.Credentials(ctx, projectID)
}

// Exchange is one call to the tax authority, for the event log.
type Exchange struct {
	Operation string
	Attempt   int
	LatencyMS int64
	// Duration is LatencyMS exactly, for the calls' metrics.
	Duration   time.Duration
	HTTPStatus int
	NRSErrorID string
	// Request and Response are the bodies, secrets already removed.
	Request  string
	Response string
	Message  string
}

// maxBody bounds a body kept in the event log.
const maxBody = 64 << 10

// Record appends an exchange (when ex is not nil) to an invoice's log and
// moves the invoice to the state to ("" keeps its state), in one
// transaction, and returns the invoice as written.
func (s *Steps) Record(ctx context.Context, id uuid.UUID, ex *Exchange, to model.InvoiceStatus, d Detail) (*model.SubmittedInvoice, error) {
	c := Change{To: to, Detail: d}
	if ex != nil {
		c.Exchanges = []*Exchange{ex}
	}
	return s.Apply(ctx, id, []Change{c}, "")
}

// MarkSent counts one more sign or transmit request of an invoice, before
// it is sent: from then on, no other is sent before the authority was
// asked whether this one went through.
func (s *Steps) MarkSent(ctx context.Context, id uuid.UUID, call string) (*model.SubmittedInvoice, error) {
	return s.Apply(ctx, id, nil, call)
}

// Change is one write of an invoice's steps: exchanges appended to its
// log, then a move to the state To ("" keeps its state).
type Change struct {
	Exchanges []*Exchange
	To        model.InvoiceStatus
	Detail    Detail
}

// Apply writes changes in order, each as Record would, then, when call is
// not "", counts one more request of call as MarkSent does, all in one
// transaction, and returns the invoice as written.
func (s *Steps) Apply(ctx context.Context, id uuid.UUID, changes []Change, call string) (*model.SubmittedInvoice, error) {
	if g, _ := ctx.Value(groupKey{}).(*group); g != nil {
		if out, err, ok := g.apply(id, changes, call); ok {
			return out, err
		}
	}
	var out *model.SubmittedInvoice
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		var err error
		out, err = s.applyIn(ctx, tx, id, changes, call, true)
		return err
	})
	return out, err
}

// applyIn is Apply's work inside tx. last says that it is tx's last
// write: its row and the events it holds back then go together
// (store.SaveWithRows).
func (s *Steps) applyIn(ctx context.Context, tx *store.Store, id uuid.UUID, changes []Change, call string, last bool) (*model.SubmittedInvoice, error) {
	store.BufferRows(tx) // the events are inserted together when the transaction ends
	inv, err := tx.Submissions().Lock(ctx, id)
	if err != nil {
		return nil, err
	}
	// The invoice's row is written once, at the end, with every change
	// (a move and the call counted after it are one UPDATE): the moves
	// leave it to this save (saveLater).
	ctx = context.WithValue(ctx, saveLaterKey{}, true)
	dirty, archiving := false, false
	for _, c := range changes {
		if len(c.Exchanges) > 0 {
			if err := s.appendExchanges(ctx, tx, inv, c.Exchanges); err != nil {
				return nil, err
			}
			dirty = true
		}
		if c.To != "" {
			changed, err := s.transition(ctx, tx, inv, c.To, c.Detail)
			if err != nil {
				return nil, err
			}
			dirty = dirty || changed
			if changed && c.To == model.InvoiceConfirmed {
				_, archiving = ctx.Value(archiveLaterKey{}).(*archiveLater)
			}
		}
	}
	switch call {
	case "":
	case model.CallSign, model.CallTransmit:
		if call == model.CallSign {
			inv.SignSent++
		} else {
			inv.TransmitSent++
		}
		now := s.now()
		inv.UpdatedAt, inv.LastSentAt = now, &now
		dirty = true
	default:
		return nil, model.Errorf(model.CodeInternal, "unknown call %q", call)
	}
	if !dirty || archiving {
		// Unchanged, or a confirmation of a shared transaction, which
		// archiveAll saves with its chain entry.
		return inv, nil
	}
	if last {
		return inv, store.SaveWithRows(ctx, tx, inv)
	}
	return inv, tx.Submissions().Save(ctx, inv)
}

// appendExchanges appends exchanges to inv's log, in tx; the caller
// saves inv.
func (s *Steps) appendExchanges(ctx context.Context, tx *store.Store, inv *model.SubmittedInvoice, exs []*Exchange) error {
	for _, ex := range exs {
		ev := &model.InvoiceEvent{Kind: model.EventExchange, Operation: ex.Operation, NRSErrorID: ex.NRSErrorID,
			RequestBody: clip(ex.Request, maxBody), ResponseBody: clip(ex.Response, maxBody), Message: clip(ex.Message, maxMessage)}
		attempt, latency := ex.Attempt, ex.LatencyMS
		ev.Attempt, ev.LatencyMS = &attempt, &latency
		if ex.HTTPStatus != 0 {
			status := ex.HTTPStatus
			ev.HTTPStatus = &status
		}
		if err := s.appendEvent(ctx, tx, inv, ev); err != nil {
			return err
		}
	}
	return nil
}

// SetPaymentStatus records the payment status the authority accepted, with
// its exchange.
func (s *Steps) SetPaymentStatus(ctx context.Context, id uuid.UUID, ex *Exchange, status string) error {
	return s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		inv, err := tx.Submissions().Lock(ctx, id)
		if err != nil {
			return err
		}
		if ex != nil {
			if err := s.appendExchanges(ctx, tx, inv, []*Exchange{ex}); err != nil {
				return err
			}
		}
		inv.UpdatedAt = s.now()
		if status != "" {
			inv.PaymentStatus = status
			if err := publish(ctx, tx, inv, model.EventInvoicePaymentUpdated, inv.UpdatedAt); err != nil {
				return err
			}
		}
		return tx.Submissions().Save(ctx, inv)
	})
}

// QRCode builds the QR payload of a project's IRN locally, as the API's QR
// generation does (for an authority answer that carries none).
func (s *Steps) QRCode(ctx context.Context, projectID uuid.UUID, irn string) (string, error) {
	qr, err := s.invoices.QRCodeForProject(ctx, projectID, invoices.QRInput{IRN: irn})
	if err != nil {
		return "", err
	}
	return qr.QRPayload, nil
}

// Now is the steps' clock (Config.Now), the one the times they record are
// read with.
func (s *Steps) Now() time.Time { return s.now() }
