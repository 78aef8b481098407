package nrssandbox

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
)

// irnValidateBody is the body of POST /api/v1/invoice/irn/validate.
type irnValidateBody struct {
	InvoiceReference string `json:"invoice_reference"`
	BusinessID       string `json:"business_id"`
	IRN              string `json:"irn"`
}

// validateIRN checks an IRN against the registry: the business must exist
// and the IRN's parts must match the reference, its service ID and a real
// date. A failure is NRS's HTTP 400 "irn validation failed" with the failed
// checks in error.details.
func (h *Handler) validateIRN(w http.ResponseWriter, r *http.Request) error {
	caller, err := h.authenticate(r)
	if err != nil {
		return err
	}
	var in irnValidateBody
	if _, err := h.decodeBody(r, &in); err != nil {
		return err
	}
	var missing []string
	for _, f := range []struct{ name, value string }{
		{"invoice_reference", in.InvoiceReference}, {"business_id", in.BusinessID}, {"irn", in.IRN},
	} {
		if strings.TrimSpace(f.value) == "" {
			missing = append(missing, f.name+" is required")
		}
	}
	if len(missing) > 0 {
		return badRequest(MsgInvalidBody, missing)
	}
	if err := h.applyScenario(r.Context(), caller, "validate_irn", in.IRN); err != nil {
		return err
	}
	b, found := h.reg.lookup(in.BusinessID)
	if !found {
		return badRequest(MsgIRNValidationFailed, "business_id is not a registered business")
	}
	res := h.rules.ValidateIRN(in.IRN, in.InvoiceReference, b.serviceID)
	if !res.Valid {
		var failed []model.IRNCheck
		for _, c := range res.Checks {
			if !c.Passed {
				failed = append(failed, c)
			}
		}
		return badRequest(MsgIRNValidationFailed, failed)
	}
	writeData(w, http.StatusOK, ok)
	return nil
}

// checked is an invoice payload that passed the stand-in's checks.
type checked struct {
	irn      string
	kind     string
	typeCode string
	payment  string
	payload  []byte
}

// checkInvoice reads an invoice payload and checks it the way NRS's validate
// and sign do: the business must be the caller's, the IRN must carry the
// caller's service ID, and the payload must pass the NRS rules. op names the
// endpoint for the scenario counters.
func (h *Handler) checkInvoice(r *http.Request, caller *business, op string) (*checked, error) {
	var payload map[string]any
	body, err := h.decodeBody(r, &payload)
	if err != nil {
		return nil, err
	}
	if payload == nil {
		return nil, badRequest(MsgInvalidBody, "the request body must be a JSON object")
	}
	irn, _ := payload["irn"].(string)
	if err := h.applyScenario(r.Context(), caller, op, irn); err != nil {
		return nil, err
	}
	if id, _ := payload["business_id"].(string); id != "" && !strings.EqualFold(strings.TrimSpace(id), caller.id) {
		return nil, badRequest(MsgBusinessMismatch, "business_id "+quote(id)+" is not the business of this api key")
	}
	if irn != "" {
		p, err := nrs.ParseIRN(irn)
		if err != nil {
			return nil, badRequest(MsgIRNValidationFailed, fieldMessages(err))
		}
		if !strings.EqualFold(p.ServiceID, caller.serviceID) {
			return nil, badRequest(MsgIRNValidationFailed, "irn service ID "+quote(p.ServiceID)+" is not the business's service ID")
		}
	}
	if scenarioOf(irn).kind == scenarioDuplicate {
		return nil, badRequest(MsgDuplicateIRN, "sandbox scenario "+ScenarioDuplicate+": an invoice with this irn already exists")
	}
	rep, err := h.rules.Validate(model.ValidateInput{Payload: payload})
	if err != nil {
		return nil, badRequest(MsgInvoiceValidationFailed, fieldMessages(err))
	}
	if !rep.Valid {
		return nil, badRequest(MsgInvoiceValidationFailed, rep.Errors)
	}
	if irn == "" {
		return nil, badRequest(MsgIRNValidationFailed, "irn is required")
	}
	c := &checked{irn: irn, payload: body, kind: "B2C", payment: "PENDING"}
	c.typeCode, _ = payload["invoice_type_code"].(string)
	kind, _ := payload["invoice_kind"].(string)
	switch k := strings.ToUpper(kind); {
	case codes.InvoiceKinds.Contains(k):
		c.kind = k
	case payload["accounting_customer_party"] != nil:
		c.kind = "B2B" // schema 1.0 names no kind: a customer party means business to business
	}
	if ps, _ := payload["payment_status"].(string); codes.PaymentStatuses.Contains(ps) {
		c.payment = ps
	}
	return c, nil
}

// validateInvoice is POST /api/v1/invoice/validate: it records the invoice
// as validated. Validating again replaces the payload until the invoice is
// signed; after that the IRN is a duplicate.
func (h *Handler) validateInvoice(w http.ResponseWriter, r *http.Request) error {
	caller, err := h.authenticate(r)
	if err != nil {
		return err
	}
	c, err := h.checkInvoice(r, caller, "validate_invoice")
	if err != nil {
		return err
	}
	now := h.now()
	err = h.invoices.update(invoiceKey(caller.id, c.irn), func(cur *invoice) (*invoice, error) {
		if cur != nil && rank(cur.status) >= rank(StatusSigned) {
			return nil, badRequest(MsgDuplicateIRN, "an invoice with this irn has already been signed")
		}
		return &invoice{irn: c.irn, businessID: caller.id, kind: c.kind, typeCode: c.typeCode, status: StatusValidated,
			paymentStatus: c.payment, payload: c.payload, validatedAt: now}, nil
	})
	if err != nil {
		return err
	}
	writeData(w, http.StatusOK, ok)
	return nil
}

// signInvoice is POST /api/v1/invoice/sign: a validated invoice becomes
// signed (registered with NRS). Answers 201 like NRS.
func (h *Handler) signInvoice(w http.ResponseWriter, r *http.Request) error {
	caller, err := h.authenticate(r)
	if err != nil {
		return err
	}
	c, err := h.checkInvoice(r, caller, "sign_invoice")
	if err != nil {
		return err
	}
	now := h.now()
	err = h.invoices.update(invoiceKey(caller.id, c.irn), func(cur *invoice) (*invoice, error) {
		switch {
		case cur == nil:
			return nil, badRequest(MsgNotValidated, "validate the invoice with POST /api/v1/invoice/validate before signing it")
		case rank(cur.status) >= rank(StatusSigned):
			return nil, badRequest(MsgDuplicateIRN, "an invoice with this irn has already been signed")
		case scenarioOf(c.irn).kind == scenarioSignFail:
			return nil, badRequest(MsgSigningFailed, "sandbox scenario "+ScenarioSignFail+": the platform refused to sign this invoice")
		}
		next := *cur
		next.kind, next.typeCode, next.paymentStatus, next.payload = c.kind, c.typeCode, c.payment, c.payload
		next.status, next.signedAt = StatusSigned, now
		return &next, nil
	})
	if err != nil {
		return err
	}
	writeData(w, http.StatusCreated, ok)
	return nil
}

// invoiceOp is the common start of the endpoints naming an IRN in the path:
// authenticate, run the scenarios, and return the caller and the IRN.
func (h *Handler) invoiceOp(r *http.Request, op string) (*business, string, error) {
	caller, err := h.authenticate(r)
	if err != nil {
		return nil, "", err
	}
	irn := chi.URLParam(r, "irn")
	if err := h.applyScenario(r.Context(), caller, op, irn); err != nil {
		return nil, "", err
	}
	return caller, irn, nil
}

// transmit is POST /api/v1/invoice/transmit/{irn}: a signed B2B or B2G
// invoice is delivered to the buyer.
func (h *Handler) transmit(w http.ResponseWriter, r *http.Request) error {
	caller, irn, err := h.invoiceOp(r, "transmit_invoice")
	if err != nil {
		return err
	}
	now := h.now()
	err = h.invoices.update(invoiceKey(caller.id, irn), func(cur *invoice) (*invoice, error) {
		switch {
		case cur == nil:
			return nil, notFound()
		case cur.kind == "B2C":
			return nil, badRequest(MsgB2CNotTransmitted, "B2C invoices are reported, not transmitted; confirm the invoice instead")
		case rank(cur.status) < rank(StatusSigned):
			return nil, badRequest(MsgNotSigned, "sign the invoice before transmitting it")
		case cur.transmitted():
			return nil, badRequest(MsgAlreadyTransmitted, "the invoice was transmitted at "+stamp(cur.transmittedAt))
		}
		next := *cur
		next.status, next.transmittedAt = StatusTransmitted, now
		return &next, nil
	})
	if err != nil {
		return err
	}
	writeData(w, http.StatusOK, ok)
	return nil
}

// confirmReceipt is PATCH /api/v1/invoice/transmit/{irn}: the buyer
// acknowledges a transmitted invoice. In the sandbox the supplier's own
// credentials stand for the buyer's.
func (h *Handler) confirmReceipt(w http.ResponseWriter, r *http.Request) error {
	caller, irn, err := h.invoiceOp(r, "confirm_receipt")
	if err != nil {
		return err
	}
	now := h.now()
	err = h.invoices.update(invoiceKey(caller.id, irn), func(cur *invoice) (*invoice, error) {
		switch {
		case cur == nil:
			return nil, notFound()
		case !cur.transmitted():
			return nil, badRequest(MsgNotTransmitted, "only a transmitted invoice can be acknowledged by its buyer")
		case !cur.acknowledgedAt.IsZero():
			return nil, badRequest(MsgReceiptConfirmed, "the buyer acknowledged the invoice at "+stamp(cur.acknowledgedAt))
		}
		next := *cur
		next.acknowledgedAt = now
		return &next, nil
	})
	if err != nil {
		return err
	}
	writeData(w, http.StatusOK, ok)
	return nil
}

// lookup is GET /api/v1/invoice/transmit/lookup/{irn}.
func (h *Handler) lookup(w http.ResponseWriter, r *http.Request) error {
	caller, irn, err := h.invoiceOp(r, "lookup_transmission")
	if err != nil {
		return err
	}
	inv, found := h.invoices.get(invoiceKey(caller.id, irn))
	switch {
	case !found:
		return notFound()
	case !inv.transmitted():
		return badRequest(MsgNotTransmitted, "the invoice has no transmission to look up")
	}
	status := "TRANSMITTED"
	if !inv.acknowledgedAt.IsZero() {
		status = "ACKNOWLEDGED"
	}
	writeData(w, http.StatusOK, map[string]any{
		"irn": inv.irn, "business_id": inv.businessID, "status": status, "invoice_kind": inv.kind,
		"transmitted_at": stamp(inv.transmittedAt), "acknowledged_at": optStamp(inv.acknowledgedAt),
	})
	return nil
}

// confirm is GET /api/v1/invoice/confirm/{irn}. The first call after
// signing (B2C) or transmission (B2B, B2G) confirms the invoice; every call
// answers where it stands, payment status included.
func (h *Handler) confirm(w http.ResponseWriter, r *http.Request) error {
	caller, irn, err := h.invoiceOp(r, "confirm_invoice")
	if err != nil {
		return err
	}
	now := h.now()
	var out invoice
	err = h.invoices.update(invoiceKey(caller.id, irn), func(cur *invoice) (*invoice, error) {
		switch {
		case cur == nil:
			return nil, notFound()
		case rank(cur.status) < rank(StatusSigned):
			return nil, badRequest(MsgNotSigned, "sign the invoice before confirming it")
		case cur.kind != "B2C" && !cur.transmitted():
			return nil, badRequest(MsgNotTransmitted, cur.kind+" invoices are transmitted before they are confirmed")
		}
		next := *cur
		if next.status != StatusConfirmed {
			next.status, next.confirmedAt = StatusConfirmed, now
		}
		out = next
		return &next, nil
	})
	if err != nil {
		return err
	}
	writeData(w, http.StatusOK, statusView(&out))
	return nil
}

// statusView is the data of confirm.
func statusView(inv *invoice) map[string]any {
	return map[string]any{
		"irn": inv.irn, "business_id": inv.businessID, "status": inv.status, "payment_status": inv.paymentStatus,
		"invoice_kind": inv.kind, "invoice_type_code": inv.typeCode,
		"validated_at": optStamp(inv.validatedAt), "signed_at": optStamp(inv.signedAt),
		"transmitted_at": optStamp(inv.transmittedAt), "acknowledged_at": optStamp(inv.acknowledgedAt),
		"confirmed_at": optStamp(inv.confirmedAt), "payment_updated_at": optStamp(inv.paymentUpdateAt),
		"payment_reference": inv.paymentRef,
	}
}

// download is GET /api/v1/invoice/download/{irn}: the signed invoice as NRS
// holds it.
func (h *Handler) download(w http.ResponseWriter, r *http.Request) error {
	caller, irn, err := h.invoiceOp(r, "download_invoice")
	if err != nil {
		return err
	}
	inv, found := h.invoices.get(invoiceKey(caller.id, irn))
	switch {
	case !found:
		return notFound()
	case rank(inv.status) < rank(StatusSigned):
		return badRequest(MsgNotSigned, "only a signed invoice can be downloaded")
	}
	writeData(w, http.StatusOK, map[string]any{
		"irn": inv.irn, "status": inv.status, "payment_status": inv.paymentStatus,
		"invoice": json.RawMessage(inv.payload),
	})
	return nil
}

// updateBody is the body of PATCH /api/v1/invoice/update/{irn}.
type updateBody struct {
	PaymentStatus string `json:"payment_status"`
	Reference     string `json:"reference"`
}

// update is PATCH /api/v1/invoice/update/{irn}: the payment status of a
// confirmed invoice moves from PENDING (or PARTIAL) to PAID, PARTIAL or
// REJECTED; PAID and REJECTED are final.
func (h *Handler) update(w http.ResponseWriter, r *http.Request) error {
	caller, err := h.authenticate(r)
	if err != nil {
		return err
	}
	var in updateBody
	if _, err := h.decodeBody(r, &in); err != nil {
		return err
	}
	irn := chi.URLParam(r, "irn")
	if err := h.applyScenario(r.Context(), caller, "update_invoice", irn); err != nil {
		return err
	}
	status := strings.ToUpper(strings.TrimSpace(in.PaymentStatus))
	if !codes.PaymentStatuses.Contains(status) {
		return badRequest(MsgInvalidPaymentStatus, "payment_status "+quote(in.PaymentStatus)+" is not a payment status")
	}
	now := h.now()
	err = h.invoices.update(invoiceKey(caller.id, irn), func(cur *invoice) (*invoice, error) {
		switch {
		case cur == nil:
			return nil, notFound()
		case cur.status != StatusConfirmed:
			return nil, badRequest(MsgNotConfirmed, "confirm the invoice with GET /api/v1/invoice/confirm/{irn} before updating it")
		case cur.paymentStatus == "PAID" || cur.paymentStatus == "REJECTED":
			return nil, badRequest(MsgPaymentFinal, "the payment status is already "+cur.paymentStatus)
		case status == "PENDING" && cur.paymentStatus == "PARTIAL":
			return nil, badRequest(MsgPaymentFinal, "a partly paid invoice cannot go back to PENDING")
		}
		next := *cur
		next.paymentStatus, next.paymentRef, next.paymentUpdateAt = status, in.Reference, now
		return &next, nil
	})
	if err != nil {
		return err
	}
	writeData(w, http.StatusOK, ok)
	return nil
}

func (h *Handler) now() time.Time { return h.opts.Now().UTC().Truncate(time.Second) }

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// optStamp is a timestamp, or null when the event has not happened.
func optStamp(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return stamp(t)
}

// quote quotes a request value for a message, cut short.
func quote(s string) string {
	const max = 64
	if len(s) > max {
		s = s[:max] + "..."
	}
	return `"` + s + `"`
}

// fieldMessages lists the problems of a *model.Error as messages.
func fieldMessages(err error) []string {
	e := model.AsError(err)
	out := make([]string, 0, len(e.Fields)+1)
	for _, f := range e.Fields {
		out = append(out, f.Msg)
	}
	if len(out) == 0 {
		out = append(out, e.Message)
	}
	return out
}
