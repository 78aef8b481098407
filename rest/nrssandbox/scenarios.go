package nrssandbox

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// Reserved invoice-reference prefixes (the first part of the IRN, any
// letter case) that force a failure, so that clients can rehearse them.
const (
	// ScenarioSignFail: sign answers HTTP 400 "invoice signing failed"
	// (handler invoice_actions, a fresh error id); validation passes.
	ScenarioSignFail = "SBXSIGNFAIL"
	// ScenarioSlow: every endpoint naming the IRN waits Options.SlowDelay
	// (default 3 s) before answering normally.
	ScenarioSlow = "SBXSLOW"
	// ScenarioRetry: every endpoint naming the IRN answers HTTP 503 (with
	// Retry-After) to its first N calls, then normally. N is the digit right
	// after the prefix (SBXRETRY3INV1: 3), else Options.RetryFailures.
	ScenarioRetry = "SBXRETRY"
	// ScenarioDown: every endpoint naming the IRN answers HTTP 503, always.
	ScenarioDown = "SBXDOWN"
	// ScenarioDuplicate: validate and sign answer HTTP 400 as for an IRN
	// NRS already holds.
	ScenarioDuplicate = "SBXDUP"
	// ScenarioLostReset: the first sign, transmit and update call of the
	// IRN is committed, then its connection is reset without an answer.
	ScenarioLostReset = "SBXLOSTRST"
	// ScenarioLostLate: the first sign, transmit and update call of the
	// IRN is committed, then its answer waits Options.LateDelay (default
	// 5 s), longer than a client should wait, or until the client leaves.
	ScenarioLostLate = "SBXLOSTLATE"
	// ScenarioLost5xx: the first sign, transmit and update call of the
	// IRN is committed, then answered HTTP 500 as if it had failed.
	ScenarioLost5xx = "SBXLOST5XX"
	// ScenarioDownloadFailOnce: the first download of the IRN (by anyone)
	// answers HTTP 500; later downloads go through.
	ScenarioDownloadFailOnce = "SBXDLFAIL"
	// ScenarioLostConfirm: the first ConfirmReceipt of the IRN is committed
	// (the invoice becomes delivered, the confirmation is counted), then
	// answered HTTP 500 as if it had failed.
	ScenarioLostConfirm = "SBXLOSTACK"
)

type scenarioKind int

const (
	scenarioNone scenarioKind = iota
	scenarioSignFail
	scenarioSlow
	scenarioRetry
	scenarioDown
	scenarioDuplicate
	scenarioLostReset
	scenarioLostLate
	scenarioLost5xx
	scenarioDownloadFailOnce
	scenarioLostConfirm
)

// scenario is what an IRN's reference asks for.
type scenario struct {
	kind     scenarioKind
	failures int // scenarioRetry only; 0 means the default
}

// scenarioOf reads the reserved prefix of an IRN's invoice reference.
func scenarioOf(irn string) scenario {
	ref, _, _ := strings.Cut(irn, "-")
	ref = strings.ToUpper(ref)
	switch {
	case strings.HasPrefix(ref, ScenarioSignFail):
		return scenario{kind: scenarioSignFail}
	case strings.HasPrefix(ref, ScenarioSlow):
		return scenario{kind: scenarioSlow}
	case strings.HasPrefix(ref, ScenarioRetry):
		s := scenario{kind: scenarioRetry}
		if rest := ref[len(ScenarioRetry):]; rest != "" && rest[0] >= '1' && rest[0] <= '9' {
			s.failures = int(rest[0] - '0')
		}
		return s
	case strings.HasPrefix(ref, ScenarioDown):
		return scenario{kind: scenarioDown}
	case strings.HasPrefix(ref, ScenarioDuplicate):
		return scenario{kind: scenarioDuplicate}
	case strings.HasPrefix(ref, ScenarioLostReset):
		return scenario{kind: scenarioLostReset}
	case strings.HasPrefix(ref, ScenarioLostLate):
		return scenario{kind: scenarioLostLate}
	case strings.HasPrefix(ref, ScenarioLost5xx):
		return scenario{kind: scenarioLost5xx}
	case strings.HasPrefix(ref, ScenarioDownloadFailOnce):
		return scenario{kind: scenarioDownloadFailOnce}
	case strings.HasPrefix(ref, ScenarioLostConfirm):
		return scenario{kind: scenarioLostConfirm}
	}
	return scenario{}
}

// applyScenario runs the scenarios that act before an endpoint's own work:
// the wait of SBXSLOW and the 503 answers of SBXRETRY and SBXDOWN. op and
// the business scope the retry counter (kept in the database, so that every
// process serving the business counts together), so each endpoint fails N
// times.
func (h *Handler) applyScenario(ctx context.Context, b *business, op, irn string) error {
	s := scenarioOf(irn)
	switch s.kind {
	case scenarioSlow:
		t := time.NewTimer(h.opts.SlowDelay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	case scenarioRetry:
		n := s.failures
		if n == 0 {
			n = h.opts.RetryFailures
		}
		count, err := h.db.Attempts().Count(ctx, b.BusinessID, op, irn, h.now())
		if err != nil {
			return err
		}
		if count <= n {
			return h.unavailable("sandbox scenario " + ScenarioRetry + ": failing the first calls of this endpoint")
		}
	case scenarioDown:
		return h.unavailable("sandbox scenario " + ScenarioDown + ": the platform is unavailable for this invoice")
	}
	return nil
}

func (h *Handler) unavailable(details string) *apiError {
	e := &apiError{status: http.StatusServiceUnavailable, public: MsgUnavailable, details: details}
	if h.opts.RetryAfter > 0 {
		e.retryAfter = h.opts.RetryAfter
	}
	return e
}

// Operations of the commit counters (Counts).
const (
	countSign           = "count:invoice_sign"
	countSignRepeat     = "count:invoice_sign_repeat"
	countTransmit       = "count:transmit"
	countTransmitRepeat = "count:transmit_repeat"
	countConfirm        = "count:transmit_receipt"
	countConfirmRepeat  = "count:transmit_receipt_repeat"
	countDownload       = "count:invoice_download"
)

// countCommit counts one more sign or transmit of an IRN that was
// refused as a repeat: what Counts reports. The client leaving does not
// keep it from being counted.
func (h *Handler) countCommit(ctx context.Context, b *business, op, irn string) error {
	_, err := h.db.Attempts().Count(context.WithoutCancel(ctx), b.BusinessID, op, irn, h.now())
	return err
}

// countIn counts one more sign or transmit of an IRN in the transaction
// that makes it (or answers it as a repeat): counted exactly when that
// transaction commits.
func (h *Handler) countIn(ctx context.Context, tx *sandboxdb.DB, businessID, op, irn string) error {
	_, err := tx.Attempts().Count(ctx, businessID, op, irn, h.now())
	return err
}

// CallCounts is what the stand-in did for one IRN: how many times it
// signed and transmitted it, and how many sign and transmit requests came
// again after it had (refused as duplicates, or answered as already
// transmitted). A client that submits exactly once shows 1 sign, 1
// transmit (0 for a B2C invoice) and no repeats. On the buyer's side,
// Confirmations counts the ConfirmReceipt that delivered the invoice (0 or
// 1), ConfirmRepeats the ones after it, and Downloads every download;
// Reports counts the reports of the IRN sent to /api/v1/vat/postpayment.
type CallCounts struct {
	Signs           int `json:"signs"`
	SignRepeats     int `json:"sign_repeats"`
	Transmits       int `json:"transmits"`
	TransmitRepeats int `json:"transmit_repeats"`
	Confirmations   int `json:"confirmations"`
	ConfirmRepeats  int `json:"confirm_repeats"`
	Downloads       int `json:"downloads"`
	Reports         int `json:"reports"`
}

// Counts reports what the stand-in did for an IRN of a business (counters
// live an hour, as the scenario counters do).
func (h *Handler) Counts(ctx context.Context, businessID, irn string) (CallCounts, error) {
	var c CallCounts
	for _, f := range []struct {
		op  string
		dst *int
	}{{countSign, &c.Signs}, {countSignRepeat, &c.SignRepeats}, {countTransmit, &c.Transmits}, {countTransmitRepeat, &c.TransmitRepeats},
		{countConfirm, &c.Confirmations}, {countConfirmRepeat, &c.ConfirmRepeats}, {countDownload, &c.Downloads}, {countReport, &c.Reports}} {
		n, err := h.db.Attempts().Get(ctx, businessID, f.op, irn)
		if err != nil {
			return c, err
		}
		*f.dst = n
	}
	return c, nil
}

// loseAnswer runs the lost-answer scenarios after op (sign, transmit or
// update) committed: on the first such call of the IRN it resets the
// connection, makes the answer late, or answers 500. It reports whether
// the answer was taken care of (the caller writes nothing more).
func (h *Handler) loseAnswer(w http.ResponseWriter, r *http.Request, b *business, op, irn string) (bool, error) {
	kind := scenarioOf(irn).kind
	if kind != scenarioLostReset && kind != scenarioLostLate && kind != scenarioLost5xx {
		return false, nil
	}
	n, err := h.db.Attempts().Count(r.Context(), b.BusinessID, "lost:"+op, irn, h.now())
	if err != nil || n > 1 {
		return false, err
	}
	switch kind {
	case scenarioLostReset:
		panic(http.ErrAbortHandler) // net/http closes the connection without an answer
	case scenarioLostLate:
		t := time.NewTimer(h.opts.LateDelay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return true, nil // the client gave up: nothing to answer
		}
		return false, nil
	}
	writeError(w, HandlerInvoice, &apiError{status: http.StatusInternalServerError, public: MsgInternal,
		details: "sandbox scenario " + ScenarioLost5xx + ": the request was committed, this answer says otherwise"})
	return true, nil
}

// failFirstDownload counts a download of the IRN (under the invoice's
// supplier, whoever downloads) and fails the first one of an SBXDLFAIL
// invoice with a 500.
func (h *Handler) failFirstDownload(ctx context.Context, inv *sandboxdb.Invoice, irn string) error {
	n, err := h.db.Attempts().Count(context.WithoutCancel(ctx), inv.BusinessID, countDownload, irn, h.now())
	if err != nil {
		return err
	}
	if scenarioOf(irn).kind == scenarioDownloadFailOnce && n == 1 {
		return &apiError{status: http.StatusInternalServerError, public: MsgInternal,
			details: "sandbox scenario " + ScenarioDownloadFailOnce + ": the first download of this invoice fails"}
	}
	return nil
}
