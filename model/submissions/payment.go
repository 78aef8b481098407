package submissions

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
)

// PaymentStatuses are the payment statuses an integrator may set: the ones
// NRS documents (FIRS's collection: PENDING, PAID, CANCELED; NRS's
// changelog: PARTIAL). REJECTED appears only in providers' documents and is
// refused with the validator's reason (NRS-PAYMENT-STATUS-REJECTED).
var PaymentStatuses = []string{codes.PaymentPending, codes.PaymentPaid, codes.PaymentPartial, codes.PaymentCanceled}

// PaymentInput is a payment status update of an invoice.
type PaymentUpdateInput struct {
	PaymentStatus string `json:"payment_status" required:"true"`
	// Reference is the payment reference or a note; optional.
	Reference string `json:"reference"`
}

// Validate checks the update, recording every problem.
func (in PaymentUpdateInput) Validate(p *model.Problems) {
	status := strings.ToUpper(strings.TrimSpace(in.PaymentStatus))
	if status == codes.PaymentRejected {
		p.Add(model.ProblemEnum, nrs.PaymentRejectedReason+" ("+nrs.RulePaymentStatusRejected+")", "payment_status")
	} else {
		p.CheckEnum(status, PaymentStatuses, "payment_status")
	}
	if len(in.Reference) > 512 {
		p.Add(model.ProblemStringTooLong, "String should have at most 512 characters", "reference")
	}
}

// UpdatePayment sends an invoice's payment status to NRS (its update
// endpoint) and records it once NRS accepted it. The invoice must be
// signed (signed, transmitted or confirmed). NRS's refusal is a conflict;
// an unreachable NRS is unavailable, and the update may be sent again.
func (s *Service) UpdatePayment(ctx context.Context, who *model.Principal, id uuid.UUID, in PaymentUpdateInput) (*View, error) {
	if err := requireScope(who, model.ScopeInvoicesSubmit); err != nil {
		return nil, err
	}
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	inv, err := s.st.Submissions().Get(ctx, who.ProjectID, id)
	if err != nil {
		return nil, err
	}
	switch inv.Status {
	case model.InvoiceSigned, model.InvoiceTransmitted, model.InvoiceConfirmed:
	default:
		return nil, model.Errorf(model.CodeConflict, "invoice %s is %s: its payment status can change once NRS has signed it", inv.ID, inv.Status)
	}
	if s.cfg.Engine == nil {
		return nil, errNoWorkflowEngine
	}
	if err := s.cfg.Engine.UpdatePayment(ctx, PaymentInput{
		InvoiceID: inv.ID, ProjectID: inv.ProjectID, IRN: inv.IRN, UpdateID: model.NewID(),
		PaymentStatus: strings.ToUpper(strings.TrimSpace(in.PaymentStatus)), Reference: in.Reference,
	}); err != nil {
		return nil, err
	}
	return s.Get(ctx, &model.Principal{ProjectID: who.ProjectID, Scopes: model.Scopes{model.ScopeInvoicesRead}}, id)
}
