package nrssandbox

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// maxListed bounds the lists of the lookups and of Pull, which take no
// paging parameters.
const maxListed = 100

// transmissionView is a transmission as the lookups and Pull answer it
// (einvoice's reading: MBS's answers are not published).
type transmissionView struct {
	IRN             string          `json:"irn"`
	BusinessID      string          `json:"business_id"`
	InvoiceTypeCode string          `json:"invoice_type_code"`
	IssueDate       string          `json:"issue_date"`
	PaymentStatus   string          `json:"payment_status"`
	CustomerTIN     string          `json:"customer_tin,omitempty"`
	CustomerPartyID string          `json:"customer_party_id,omitempty"`
	Transmitted     bool            `json:"transmitted"`
	TransmittedAt   string          `json:"transmitted_at"`
	Delivered       bool            `json:"delivered"`
	DeliveredAt     string          `json:"delivered_at,omitempty"`
	Invoice         json.RawMessage `json:"invoice,omitempty"`
}

func transmissionOf(inv *sandboxdb.Invoice) transmissionView {
	return transmissionView{IRN: inv.IRN, BusinessID: inv.BusinessID, InvoiceTypeCode: inv.InvoiceTypeCode,
		IssueDate: inv.IssueDate, PaymentStatus: inv.PaymentStatus, CustomerTIN: inv.CustomerTIN,
		CustomerPartyID: inv.CustomerPartyID, Transmitted: inv.Transmitted(), TransmittedAt: optStamp(inv.TransmittedAt),
		Delivered: inv.Delivered(), DeliveredAt: optStamp(inv.DeliveredAt)}
}

// transmit is POST /api/v1/invoice/transmit/{IRN} (Transmit): the caller's
// signed invoice goes to its buyer (the business whose TIN is the
// accounting_customer_party's, when one is registered). The body is ignored
// (FIRS's examples send ""). No webhook is needed in the sandbox; sending
// again is not an error. Success {"ok":true} (einvoice's reading).
func (h *Handler) transmit(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		irn := chi.URLParam(r, "irn")
		if err := h.applyScenario(r.Context(), b, "transmit", irn); err != nil {
			return err
		}
		err := h.db.RunInTx(r.Context(), func(ctx context.Context, tx *sandboxdb.DB) error {
			inv, err := tx.Invoices().GetState(ctx, b.BusinessID, irn)
			switch {
			case errors.Is(err, sandboxdb.ErrNotFound):
				return notFound("no invoice with this irn for this business")
			case err != nil:
				return err
			case !inv.Signed():
				return invalid("the invoice must be signed before it is transmitted")
			case inv.Transmitted():
				return h.countIn(ctx, tx, b.BusinessID, countTransmitRepeat, irn)
			}
			now := h.now()
			inv.TransmittedAt = &now
			return tx.Invoices().UpdateStateCounting(ctx, inv, countTransmit, now)
		})
		if err != nil {
			return err
		}
		if done, err := h.loseAnswer(w, r, b, "transmit", irn); done || err != nil {
			return err
		}
		writeData(w, http.StatusOK, ok)
		return nil
	})(w, r)
}

// confirmReceipt is PATCH /api/v1/invoice/transmit/{IRN} (ConfirmReceipt):
// the buyer acknowledges a transmitted invoice, which becomes delivered.
// The supplier's own credentials may stand for a buyer the sandbox does not
// know (a sandbox extra). Success {"ok":true} (einvoice's reading).
func (h *Handler) confirmReceipt(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		irn := chi.URLParam(r, "irn")
		if err := h.applyScenario(r.Context(), b, "transmit_receipt", irn); err != nil {
			return err
		}
		// The body is read and bounded, not required: NRS's collection
		// sends none, integrations send {"message":"ACKNOWLEDGED"} or the
		// report's fields (integrator-evidence.md E3).
		if _, err := h.readBody(r); err != nil {
			return err
		}
		count, supplier := countConfirm, ""
		err := h.db.RunInTx(r.Context(), func(ctx context.Context, tx *sandboxdb.DB) error {
			inv, err := tx.Invoices().GetState(ctx, b.BusinessID, irn)
			if errors.Is(err, sandboxdb.ErrNotFound) {
				inv, err = tx.Invoices().ForBuyer(ctx, b.TIN, irn)
			}
			switch {
			case errors.Is(err, sandboxdb.ErrNotFound):
				return notFound("no transmitted invoice with this irn for this business")
			case err != nil:
				return err
			case !inv.Transmitted():
				return invalid("the invoice has not been transmitted")
			}
			supplier = inv.BusinessID
			if inv.Delivered() {
				count = countConfirmRepeat
				return nil
			}
			now := h.now()
			inv.DeliveredAt = &now
			return tx.Invoices().UpdateState(ctx, inv)
		})
		if err != nil {
			return err
		}
		n, err := h.db.Attempts().Count(context.WithoutCancel(r.Context()), supplier, count, irn, h.now())
		if err != nil {
			return err
		}
		if count == countConfirm && n == 1 && scenarioOf(irn).kind == scenarioLostConfirm {
			return &apiError{status: http.StatusInternalServerError, public: MsgInternal,
				details: "sandbox scenario " + ScenarioLostConfirm + ": the receipt was confirmed, this answer says otherwise"}
		}
		writeData(w, http.StatusOK, ok)
		return nil
	})(w, r)
}

// lookupIRN is GET /api/v1/invoice/transmit/lookup/{IRN} (LookupWithIRN):
// the transmission of an invoice the caller sent or received.
func (h *Handler) lookupIRN(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		irn := chi.URLParam(r, "irn")
		if err := h.applyScenario(r.Context(), b, "transmit_lookup", irn); err != nil {
			return err
		}
		inv, _, err := h.signedInvoice(r.Context(), b, irn, false)
		if err != nil {
			return err
		}
		if !inv.Transmitted() {
			return notFound("the invoice has not been transmitted")
		}
		writeData(w, http.StatusOK, transmissionOf(inv))
		return nil
	})(w, r)
}

// lookupTIN is GET /api/v1/invoice/transmit/lookup/tin/{TIN} (LookupWithTIN;
// MBS names the parameter PARTY_ID but its example is a TIN): the caller's
// transmissions to the buyer with that TIN, newest first, at most 100.
func (h *Handler) lookupTIN(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		rows, err := h.db.Invoices().Transmissions(r.Context(), b.BusinessID, chi.URLParam(r, "tin"), "", maxListed)
		if err != nil {
			return err
		}
		writeTransmissions(w, rows, false)
		return nil
	})(w, r)
}

// lookupParty is GET /api/v1/invoice/transmit/lookup/party/{PARTY_ID}
// (LookupWithPartyID): the caller's transmissions to the buyer whose party
// id the invoices named, newest first, at most 100.
func (h *Handler) lookupParty(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		rows, err := h.db.Invoices().Transmissions(r.Context(), b.BusinessID, "", chi.URLParam(r, "party_id"), maxListed)
		if err != nil {
			return err
		}
		writeTransmissions(w, rows, false)
		return nil
	})(w, r)
}

func writeTransmissions(w http.ResponseWriter, rows []sandboxdb.Invoice, withInvoice bool) {
	out := make([]transmissionView, 0, len(rows))
	for i := range rows {
		v := transmissionOf(&rows[i])
		if withInvoice {
			v.Invoice = json.RawMessage(rows[i].Payload)
		}
		out = append(out, v)
	}
	writeData(w, http.StatusOK, out)
}

// selfHealthCheck is GET /api/v1/invoice/transmit/self-health-check
// (SelfCheck-Debug-Setup): the caller's exchange set-up is ready. The
// sandbox needs no webhook, so it always is: {"ok":true} (einvoice's
// reading of an endpoint MBS does not describe).
func (h *Handler) selfHealthCheck(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, _ *http.Request, _ *business) error {
		writeData(w, http.StatusOK, ok)
		return nil
	})(w, r)
}

// pull is GET /api/v1/invoice/transmit/pull?confirmed=&from=&to= (Pull):
// the invoices transmitted to the caller (its TIN is the customer's) with
// their documents, oldest first, at most 100: transmitted from the day
// `from` through the day `to` (YYYY-MM-DD, UTC), only confirmed (delivered)
// ones with confirmed=true, only unconfirmed ones with confirmed=false
// (einvoice's reading of MBS's parameters).
func (h *Handler) pull(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		q := r.URL.Query()
		var from, until *time.Time
		var delivered *bool
		var problems []string
		if v := q.Get("from"); v != "" {
			d, err := time.Parse(time.DateOnly, v)
			if err != nil {
				problems = append(problems, "from must be a date (YYYY-MM-DD)")
			}
			from = &d
		}
		if v := q.Get("to"); v != "" {
			d, err := time.Parse(time.DateOnly, v)
			if err != nil {
				problems = append(problems, "to must be a date (YYYY-MM-DD)")
			}
			d = d.AddDate(0, 0, 1)
			until = &d
		}
		if v := q.Get("confirmed"); v != "" {
			c, err := strconv.ParseBool(v)
			if err != nil {
				problems = append(problems, "confirmed must be true or false")
			}
			delivered = &c
		}
		if len(problems) > 0 {
			return invalid("%s", strings.Join(problems, "; "))
		}
		rows, err := h.db.Invoices().Received(r.Context(), b.TIN, from, until, delivered, maxListed)
		if err != nil {
			return err
		}
		writeTransmissions(w, rows, true)
		return nil
	})(w, r)
}
