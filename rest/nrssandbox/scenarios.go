package nrssandbox

import (
	"context"
	"net/http"
	"strings"
	"time"
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
)

type scenarioKind int

const (
	scenarioNone scenarioKind = iota
	scenarioSignFail
	scenarioSlow
	scenarioRetry
	scenarioDown
	scenarioDuplicate
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
