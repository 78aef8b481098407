package nrssandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// Payment statuses UpdateInvoice takes: FIRS's list (PENDING, PAID,
// CANCELED), PARTIAL (NRS changelog, April 2026) and REJECTED (providers'
// docs only; taken so that nothing NRS may accept is refused).
var paymentStatuses = []string{"PENDING", "PAID", "PARTIAL", "CANCELED", "REJECTED"}

// maxIssuesInDetails bounds how many validation issues error.details lists.
const maxIssuesInDetails = 20

// irnValidateBody is the body of ValidateIRN.
type irnValidateBody struct {
	BusinessID       string `json:"business_id"`
	InvoiceReference string `json:"invoice_reference"`
	IRN              string `json:"irn"`
}

// validateIRN is POST /api/v1/invoice/irn/validate (ValidateIRN): the IRN
// must follow the business's template: its reference, the business's service
// ID and a real date. Success {"ok":true} (HTTP 200, as PASCA's mirror
// shows); failure MBS's 400 "irn validation failed".
func (h *Handler) validateIRN(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		var in irnValidateBody
		if _, err := h.decodeBody(r, &in); err != nil {
			return err
		}
		var missing []string
		for _, f := range []struct{ name, value string }{
			{"business_id", in.BusinessID}, {"invoice_reference", in.InvoiceReference}, {"irn", in.IRN},
		} {
			if strings.TrimSpace(f.value) == "" {
				missing = append(missing, f.name+" is required")
			}
		}
		if len(missing) > 0 {
			return invalid("%s", strings.Join(missing, ", "))
		}
		if err := h.applyScenario(r.Context(), b, "irn_validate", in.IRN); err != nil {
			return err
		}
		if !sameID(in.BusinessID, b.BusinessID) {
			return noBusiness()
		}
		if res := h.rules.ValidateIRN(in.IRN, in.InvoiceReference, b.ServiceID); !res.Valid {
			return refused(MsgIRNValidationFailed, DetailsIRNTemplate)
		}
		writeData(w, http.StatusOK, ok)
		return nil
	})(w, r)
}

// checked is an invoice payload that passed the checks of validate and
// sign, ready to be kept.
type checked struct {
	irn string
	row sandboxdb.Invoice
}

// checkInvoice reads an invoice payload and checks it the way MBS's
// validate and sign do: the business must be the caller's, the IRN must
// carry its service ID, and the payload must pass NRS's rules (model/nrs).
// op names the endpoint for the scenario counters.
func (h *Handler) checkInvoice(r *http.Request, b *business, op string) (*checked, error) {
	var payload map[string]any
	body, err := h.decodeBody(r, &payload)
	if err != nil {
		return nil, err
	}
	irn := str(payload["irn"])
	if err := h.applyScenario(r.Context(), b, op, irn); err != nil {
		return nil, err
	}
	if id, present := payload["business_id"]; present && !sameID(str(id), b.BusinessID) {
		return nil, noBusiness()
	}
	if irn != "" {
		p, err := nrs.ParseIRN(irn)
		if err != nil || !strings.EqualFold(p.ServiceID, b.ServiceID) {
			return nil, refused(MsgIRNValidationFailed, DetailsIRNTemplate)
		}
	}
	if scenarioOf(irn).kind == scenarioDuplicate {
		return nil, duplicate("sandbox scenario " + ScenarioDuplicate + ": an invoice with this irn already exists")
	}
	rep, err := Judge(h.rules, payload)
	if err != nil {
		return nil, refused(MsgValidationFailedDuplicate, strings.Join(fieldMessages(err), "; "))
	}
	if !rep.Valid {
		return nil, refused(MsgValidationFailedDuplicate, issuesText(rep.Errors))
	}
	if irn == "" {
		return nil, refused(MsgIRNValidationFailed, DetailsIRNTemplate)
	}
	c := &checked{irn: irn, row: sandboxdb.Invoice{
		BusinessID: b.BusinessID, IRN: irn, Payload: string(body), PayloadBytes: int64(len(body)),
		InvoiceTypeCode: str(payload["invoice_type_code"]), InvoiceKind: strings.ToUpper(str(payload["invoice_kind"])),
		IssueDate: str(payload["issue_date"]), DueDate: str(payload["due_date"]),
		DocumentCurrencyCode: str(payload["document_currency_code"]), TaxCurrencyCode: str(payload["tax_currency_code"]),
		PaymentStatus: strings.ToUpper(str(payload["payment_status"])),
	}}
	if c.row.PaymentStatus == "" {
		c.row.PaymentStatus = "PENDING" // "optional, defaults to pending" (FIRS's example)
	}
	if customer, _ := payload["accounting_customer_party"].(map[string]any); customer != nil {
		c.row.CustomerTIN, c.row.CustomerPartyID = str(customer["tin"]), str(customer["id"])
	}
	return c, nil
}

// Judge is the stand-in's verdict on an invoice payload: valid when NRS's
// rules (model/nrs, the nrs profile: only what NRS enforces is an error)
// accept it under any schema version NRS publishes, the newest tried first,
// since NRS's own examples are written to 1.0 and MBS is not known to refuse
// them. The report of an invalid payload is the newest version's. The code
// lists are the ones shipped with einvoice: the stand-in is NRS, so it never
// validates with lists refreshed from itself.
func Judge(rules *nrs.Authority, payload map[string]any) (*model.ValidationReport, error) {
	versions := rules.SchemaVersions()
	var first *model.ValidationReport
	for i := len(versions) - 1; i >= 0; i-- {
		rep, err := rules.Validate(model.ValidateInput{SchemaVersion: versions[i], Payload: payload, Profile: model.ProfileNRS})
		if err != nil {
			return nil, err
		}
		if rep.Valid {
			return rep, nil
		}
		if first == nil {
			first = rep
		}
	}
	return first, nil
}

// issuesText writes validation errors as MBS writes details: one string.
func issuesText(issues []model.Issue) string {
	var parts []string
	for i, is := range issues {
		if i == maxIssuesInDetails {
			parts = append(parts, fmt.Sprintf("and %d more", len(issues)-i))
			break
		}
		path := strings.TrimPrefix(strings.ReplaceAll(is.Path, "/", "."), ".")
		if path == "" {
			parts = append(parts, is.Message)
		} else {
			parts = append(parts, path+": "+is.Message)
		}
	}
	return strings.Join(parts, "; ")
}

func duplicate(details string) *apiError { return refused(MsgValidationFailedDuplicate, details) }

// validateInvoice is POST /api/v1/invoice/validate (ValidateInvoice): it
// checks the invoice and keeps it as validated (entry status VALIDATED);
// validating again replaces it until it is signed. Success
// {"code":201,"data":{"ok":true}} (FIRS's schema page).
func (h *Handler) validateInvoice(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		c, err := h.checkInvoice(r, b, "invoice_validate")
		if err != nil {
			return err
		}
		err = h.keepInvoice(r.Context(), b, c, "", func(cur, next *sandboxdb.Invoice) error {
			if cur != nil && cur.Signed() {
				return duplicate("an invoice with this irn has already been signed")
			}
			now := h.now()
			next.EntryStatus, next.ValidatedAt = sandboxdb.EntryValidated, &now
			return nil
		})
		if err != nil {
			return err
		}
		writeData(w, http.StatusCreated, ok)
		return nil
	})(w, r)
}

// signInvoice is POST /api/v1/invoice/sign (SignInvoice): the taxpayer's
// official submission. The invoice is checked again and kept as signed; it
// need not have been validated first (no source says MBS refuses that).
// Signing an IRN twice is refused. Success {"code":201,"data":{"ok":true}}
// (einvoice's reading: MBS's is not published).
func (h *Handler) signInvoice(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		c, err := h.checkInvoice(r, b, "invoice_sign")
		if err != nil {
			return err
		}
		repeat := false
		err = h.keepInvoice(r.Context(), b, c, countSign, func(cur, next *sandboxdb.Invoice) error {
			switch {
			case cur != nil && cur.Signed():
				repeat = true
				return duplicate("an invoice with this irn has already been signed")
			case scenarioOf(c.irn).kind == scenarioSignFail:
				return refused(MsgSigningFailed, "sandbox scenario "+ScenarioSignFail+": the platform refused to sign this invoice")
			}
			now := h.now()
			next.EntryStatus, next.SignedAt = sandboxdb.EntrySigned, &now
			if cur != nil {
				next.ValidatedAt = cur.ValidatedAt
			}
			return nil
		})
		if repeat {
			if cerr := h.countCommit(r.Context(), b, countSignRepeat, c.irn); cerr != nil {
				return cerr
			}
		}
		if err != nil {
			return err
		}
		if done, err := h.loseAnswer(w, r, b, "invoice_sign", c.irn); done || err != nil {
			return err
		}
		writeData(w, http.StatusCreated, ok)
		return nil
	})(w, r)
}

// keepInvoice writes a checked invoice in one transaction: decide sees the
// current row (nil if none) and fills the next one, or refuses. A write
// that adds to the business (a new invoice, a larger payload) then brings
// it back within its bounds (its own oldest invoices go). count, when not
// empty, is the commit counter (Counts) counted in the same transaction.
func (h *Handler) keepInvoice(ctx context.Context, b *business, c *checked, count string, decide func(cur, next *sandboxdb.Invoice) error) error {
	err := h.db.RunInTx(ctx, func(ctx context.Context, tx *sandboxdb.DB) error {
		cur, err := tx.Invoices().Get(ctx, b.BusinessID, c.irn)
		switch {
		case errors.Is(err, sandboxdb.ErrNotFound):
			cur = nil
		case err != nil:
			return err
		}
		next := c.row
		next.CreatedAt = h.now()
		if err := decide(cur, &next); err != nil {
			return err
		}
		var totals *sandboxdb.Totals // the business's, when the write read them
		counted := false
		switch {
		case cur != nil && cur.Payload == next.Payload && count != "":
			next.CreatedAt = cur.CreatedAt
			err = tx.Invoices().UpdateStateCounting(ctx, &next, count, h.now()) // signed as validated, counted
			counted = true
		case cur != nil && cur.Payload == next.Payload:
			next.CreatedAt = cur.CreatedAt
			err = tx.Invoices().UpdateState(ctx, &next) // signed as validated: the payload stays
		case cur != nil:
			next.CreatedAt = cur.CreatedAt
			err = tx.Invoices().Update(ctx, &next, cur.PayloadBytes)
		default:
			var t sandboxdb.Totals
			t, err = tx.Invoices().InsertTotals(ctx, &next)
			totals = &t
		}
		if err != nil {
			return err
		}
		if count != "" && !counted {
			if err := h.countIn(ctx, tx, b.BusinessID, count, c.irn); err != nil {
				return err
			}
		}
		if cur != nil && next.PayloadBytes <= cur.PayloadBytes {
			return nil // the business holds no more than before
		}
		_, err = tx.Invoices().EvictFrom(ctx, b.BusinessID, c.irn, h.opts.MaxInvoicesPerBusiness, h.opts.MaxBytesPerBusiness, totals)
		return err
	})
	if errors.Is(err, sandboxdb.ErrConflict) {
		// Two calls raced on one new IRN; the other one won.
		return duplicate("an invoice with this irn is being written by another request")
	}
	return err
}

// signedInvoice finds a signed invoice the caller may read: its own, or one
// transmitted to it (its TIN is the customer's). own says which.
func (h *Handler) signedInvoice(ctx context.Context, b *business, irn string, withPayload bool) (inv *sandboxdb.Invoice, own bool, err error) {
	if withPayload {
		inv, err = h.db.Invoices().Get(ctx, b.BusinessID, irn)
	} else {
		inv, err = h.db.Invoices().GetState(ctx, b.BusinessID, irn)
	}
	if err == nil && inv.Signed() {
		return inv, true, nil
	}
	if err != nil && !errors.Is(err, sandboxdb.ErrNotFound) {
		return nil, false, err
	}
	inv, err = h.db.Invoices().ForBuyer(ctx, b.TIN, irn)
	switch {
	case err == nil:
		return inv, false, nil
	case errors.Is(err, sandboxdb.ErrNotFound):
		return nil, false, notFound("no signed invoice with this irn for this business")
	}
	return nil, false, err
}

// confirmView is ConfirmInvoice's data: the fields integrators read
// (issue_date, due_date, sync_date, payment_status, transmitted, delivered;
// irn and qr_code_data too). Einvoice's reading: MBS's envelope is not
// published.
type confirmView struct {
	IRN             string  `json:"irn"`
	BusinessID      string  `json:"business_id"`
	InvoiceTypeCode string  `json:"invoice_type_code"`
	IssueDate       string  `json:"issue_date"`
	DueDate         *string `json:"due_date"`
	SyncDate        string  `json:"sync_date"`
	PaymentStatus   string  `json:"payment_status"`
	Transmitted     bool    `json:"transmitted"`
	Delivered       bool    `json:"delivered"`
	QRCodeData      string  `json:"qr_code_data,omitempty"`
}

// confirmInvoice is GET /api/v1/invoice/confirm/{IRN} (ConfirmInvoice):
// where a signed invoice stands. It changes nothing.
func (h *Handler) confirmInvoice(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		irn := chi.URLParam(r, "irn")
		if err := h.applyScenario(r.Context(), b, "invoice_confirm", irn); err != nil {
			return err
		}
		inv, own, err := h.signedInvoice(r.Context(), b, irn, false)
		if err != nil {
			return err
		}
		v := confirmView{IRN: inv.IRN, BusinessID: inv.BusinessID, InvoiceTypeCode: inv.InvoiceTypeCode,
			IssueDate: inv.IssueDate, SyncDate: optStamp(inv.SignedAt), PaymentStatus: inv.PaymentStatus,
			Transmitted: inv.Transmitted(), Delivered: inv.Delivered()}
		if inv.DueDate != "" {
			v.DueDate = &inv.DueDate
		}
		if own {
			v.QRCodeData = h.qrCodeData(b, inv)
		}
		writeData(w, http.StatusOK, v)
		return nil
	})(w, r)
}

// qrCodeData builds the invoice's QR payload as NRS documents it (the IRN
// with the signing time, and the business's certificate, encrypted with its
// public key); "" when the business has no public key.
func (h *Handler) qrCodeData(b *business, inv *sandboxdb.Invoice) string {
	if b.PublicKey == "" || inv.SignedAt == nil {
		return ""
	}
	pub, err := nrs.ParsePublicKey(b.PublicKey)
	if err != nil {
		return ""
	}
	qr, err := h.rules.QRPayload(model.QRInput{IRN: inv.IRN, Timestamp: inv.SignedAt.Unix(), PublicKey: pub,
		Certificate: b.Certificate, Encryption: model.QREncryption(b.QREncryption)})
	if err != nil {
		return ""
	}
	return qr
}

// downloadInvoice is GET /api/v1/invoice/download/{IRN} (DownloadInvoice):
// the signed invoice as it was signed, byte for byte, sealed for the
// caller's API key as live integrations receive it
// ({"iv_hex","pub","data"}, integrator-evidence.md E1; the sealing is
// einvoice's reading, model/nrs.SealDownload), or in clear as data with
// Options.PlainDownloads. The buyer of a transmitted invoice may download
// it too. SBXDLFAIL invoices fail their first download with a 500.
func (h *Handler) downloadInvoice(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		irn := chi.URLParam(r, "irn")
		if err := h.applyScenario(r.Context(), b, "invoice_download", irn); err != nil {
			return err
		}
		inv, _, err := h.signedInvoice(r.Context(), b, irn, true)
		if err != nil {
			return err
		}
		if err := h.failFirstDownload(r.Context(), inv, irn); err != nil {
			return err
		}
		if h.opts.PlainDownloads {
			writeData(w, http.StatusOK, json.RawMessage(inv.Payload))
			return nil
		}
		key, _ := credentials(r)
		env, err := nrs.SealDownload([]byte(inv.Payload), key, nil)
		if err != nil {
			return err
		}
		writeData(w, http.StatusOK, env)
		return nil
	})(w, r)
}

// invoiceSummary is one invoice in SearchInvoice's page (einvoice's
// reading).
type invoiceSummary struct {
	IRN                  string `json:"irn"`
	BusinessID           string `json:"business_id"`
	InvoiceTypeCode      string `json:"invoice_type_code"`
	InvoiceKind          string `json:"invoice_kind,omitempty"`
	IssueDate            string `json:"issue_date"`
	DueDate              string `json:"due_date,omitempty"`
	DocumentCurrencyCode string `json:"document_currency_code"`
	TaxCurrencyCode      string `json:"tax_currency_code,omitempty"`
	PaymentStatus        string `json:"payment_status"`
	EntryStatus          string `json:"entry_status"`
	Transmitted          bool   `json:"transmitted"`
	Delivered            bool   `json:"delivered"`
	CreatedAt            string `json:"created_at"`
}

func summaryOf(inv *sandboxdb.Invoice) invoiceSummary {
	return invoiceSummary{IRN: inv.IRN, BusinessID: inv.BusinessID, InvoiceTypeCode: inv.InvoiceTypeCode,
		InvoiceKind: inv.InvoiceKind, IssueDate: inv.IssueDate, DueDate: inv.DueDate,
		DocumentCurrencyCode: inv.DocumentCurrencyCode, TaxCurrencyCode: inv.TaxCurrencyCode,
		PaymentStatus: inv.PaymentStatus, EntryStatus: inv.EntryStatus, Transmitted: inv.Transmitted(),
		Delivered: inv.Delivered(), CreatedAt: stamp(inv.CreatedAt)}
}

// searchInvoice is GET /api/v1/invoice/{BUSINESS_ID} (SearchInvoice): a
// page of the business's invoices, filtered by MBS's query parameters.
func (h *Handler) searchInvoice(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		if err := h.ownBusiness(chi.URLParam(r, "business_id"), b); err != nil {
			return err
		}
		q := r.URL.Query()
		f := sandboxdb.InvoiceFilter{
			IRN: q.Get("irn"), PaymentStatus: strings.ToUpper(q.Get("payment_status")),
			EntryStatus: strings.ToUpper(q.Get("entry_status")), InvoiceTypeCode: q.Get("invoice_type_code"),
			IssueDate: q.Get("issue_date"), DueDate: q.Get("due_date"), TaxCurrencyCode: q.Get("tax_currency_code"),
			DocumentCurrencyCode: q.Get("document_currency_code"),
		}
		p := pageOf(r)
		rows, total, err := h.db.Invoices().Search(r.Context(), b.BusinessID, f, p)
		if err != nil {
			return err
		}
		items := make([]invoiceSummary, 0, len(rows))
		for i := range rows {
			items = append(items, summaryOf(&rows[i]))
		}
		writeData(w, http.StatusOK, newPage(items, p, total))
		return nil
	})(w, r)
}

// ownBusiness checks a BUSINESS_ID path parameter: a UUID (else the parser's
// text, as GetEntity answers) naming the caller's business (else "this
// business does not exist").
func (h *Handler) ownBusiness(id string, b *business) error {
	u, err := uuid.Parse(id)
	if err != nil {
		return badUUID(err)
	}
	if u.String() != b.BusinessID {
		return noBusiness()
	}
	return nil
}

// updateBody is UpdateInvoice's body.
type updateBody struct {
	PaymentStatus string `json:"payment_status"`
	Reference     string `json:"reference"`
}

// updateInvoice is PATCH /api/v1/invoice/update/{IRN} (UpdateInvoice): the
// payment status of the caller's signed invoice. Any of the statuses may
// follow any other (NRS publishes no transitions). Success {"ok":true}
// (einvoice's reading).
func (h *Handler) updateInvoice(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		var in updateBody
		if _, err := h.decodeBody(r, &in); err != nil {
			return err
		}
		irn := chi.URLParam(r, "irn")
		if err := h.applyScenario(r.Context(), b, "invoice_update", irn); err != nil {
			return err
		}
		status := strings.ToUpper(strings.TrimSpace(in.PaymentStatus))
		if !contains(paymentStatuses, status) {
			return invalid("payment_status must be one of %s", strings.Join(paymentStatuses, ", "))
		}
		if len(in.Reference) > 512 {
			return invalid("reference must be at most 512 characters")
		}
		err := h.db.RunInTx(r.Context(), func(ctx context.Context, tx *sandboxdb.DB) error {
			inv, err := tx.Invoices().GetState(ctx, b.BusinessID, irn)
			switch {
			case errors.Is(err, sandboxdb.ErrNotFound) || (err == nil && !inv.Signed()):
				return notFound("no signed invoice with this irn for this business")
			case err != nil:
				return err
			}
			now := h.now()
			inv.PaymentStatus, inv.PaymentReference, inv.PaymentUpdatedAt = status, in.Reference, &now
			return tx.Invoices().UpdateState(ctx, inv)
		})
		if err != nil {
			return err
		}
		if done, err := h.loseAnswer(w, r, b, "invoice_update", irn); done || err != nil {
			return err
		}
		writeData(w, http.StatusOK, ok)
		return nil
	})(w, r)
}

// str reads a JSON value as text: strings as they are, numbers as written.
func str(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return x.String()
	}
	return ""
}

// sameID compares two ids the way MBS would: UUIDs in any letter case.
func sameID(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// optStamp is a timestamp, or "" when the event has not happened.
func optStamp(t *time.Time) string {
	if t == nil {
		return ""
	}
	return stamp(*t)
}
