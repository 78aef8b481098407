package submissions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/invoices"
	"github.com/einvoice-ng/einvoice/model/store"
)

// errNoWorkflowEngine answers when this process has no Starter.
var errNoWorkflowEngine = model.Errorf(model.CodeUnavailable,
	"invoice submission is unavailable: this server is not connected to the workflow engine (Temporal); set TEMPORAL_ADDRESS")

// SubmitInput is an invoice to submit.
type SubmitInput struct {
	// InvoiceType is B2B, B2C or B2G (any case).
	InvoiceType string `json:"invoice_type" required:"true"`
	// Payload is the NRS invoice JSON. Its irn is used when present; else
	// one is generated from InvoiceReference and the payload's issue_date.
	Payload any `json:"payload" required:"true"`
	// InvoiceReference names the invoice when the payload has no irn.
	InvoiceReference string `json:"invoice_reference"`
}

// Validate checks the input's own fields, recording every problem.
func (in SubmitInput) Validate(p *model.Problems) {
	p.CheckInvoiceKind(in.InvoiceType, "invoice_type")
	if _, ok := in.Payload.(map[string]any); !ok {
		p.Add(model.ProblemDictType, "Input should be a valid dictionary or object", "payload")
	}
	if len(in.InvoiceReference) > 50 {
		p.Add(model.ProblemStringTooLong, "String should have at most 50 characters", "invoice_reference")
	}
}

// requireScope checks that who acts on a project with scope: an API key
// on its own project, or a portal user's workbench principal.
func requireScope(who *model.Principal, scope model.Scope) error {
	if who == nil || who.ProjectID == uuid.Nil {
		return model.NotFound("project")
	}
	return who.Require(scope)
}

func requireRead(who *model.Principal) error { return requireScope(who, model.ScopeInvoicesRead) }

// Submit validates an invoice, takes its IRN (or generates one), stores it
// queued and starts its workflow, answering at once. The same IRN with the
// same payload answers the invoice already submitted; the same IRN with
// another payload is a conflict naming both payload hashes. An invalid
// invoice is refused with the validator's problems and nothing is stored.
func (s *Service) Submit(ctx context.Context, who *model.Principal, in SubmitInput) (*View, error) {
	if err := requireScope(who, model.ScopeInvoicesSubmit); err != nil {
		return nil, err
	}
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	kind, _ := model.ParseInvoiceKind(in.InvoiceType)
	payload := in.Payload.(map[string]any)
	it, err := s.cfg.Authority.Issuer(ctx, who.ProjectID)
	if err != nil {
		return nil, err
	}
	pr := it.Project
	if !pr.Configured || it.Authority == nil || pr.BusinessID == "" || pr.ServiceID == "" || len(pr.APIKeyEnc) == 0 || len(pr.APISecretEnc) == 0 {
		return nil, model.Errorf(model.CodeAuthorityNotConfigured,
			"submitting invoices needs the project's tax authority settings and API credentials; set them with PUT /api/v2/projects/%s/authority", pr.ID)
	}
	irn, err := s.irnOf(ctx, it, kind, payload, in.InvoiceReference)
	if err != nil {
		return nil, err
	}
	rep, err := s.invoices.ValidateForProject(ctx, pr.ID, invoices.ValidateInput{InvoiceTypeCode: string(kind), Payload: payload})
	if err != nil {
		return nil, err
	}
	if !rep.Valid {
		return nil, invalidReport(rep)
	}
	doc, err := json.Marshal(payload)
	if err != nil {
		return nil, model.Invalid(model.ProblemValueError, "payload cannot be encoded as JSON", "payload")
	}
	inv := s.newInvoice(it, irn, kind, payload, doc)
	if prev, err := s.st.Submissions().ByIRN(ctx, pr.ID, irn); err == nil {
		return same(prev, inv)
	} else if model.ErrorCodeOf(err) != model.CodeNotFound {
		return nil, err
	}
	if ref, err := s.checkBillingReference(ctx, it, inv, payload); err != nil {
		return nil, err
	} else {
		inv.BillingReference = ref
	}
	if s.cfg.Engine == nil {
		return nil, errNoWorkflowEngine
	}
	if inv.ClearingShard != nil {
		if err := s.checkBacklog(ctx, pr.ID, 1); err != nil {
			return nil, err
		}
	} else {
		if err := s.cfg.Engine.StartSubmission(ctx, workflowInput(inv)); err != nil {
			s.cfg.Logger.WarnContext(ctx, "invoice workflow not started", "irn", irn, "error", err.Error())
			return nil, model.Wrap(model.CodeUnavailable, err,
				"cannot submit the invoice: the workflow engine (Temporal) is unreachable; nothing was stored, try again later")
		}
	}
	record := func(ctx context.Context, tx *store.Store) error {
		// The events are inserted with the invoice, after it
		// (BufferRows): the invoice is created with its first event
		// counted, and written once.
		store.BufferRows(tx)
		if err := s.appendEvent(ctx, tx, inv, &model.InvoiceEvent{Kind: model.EventState, ToStatus: model.InvoiceQueued,
			Message: "submitted (payload hash " + inv.PayloadHash + ")"}); err != nil {
			return err
		}
		if err := publish(ctx, tx, inv, model.EventInvoiceQueued, inv.CreatedAt); err != nil {
			return err
		}
		return store.CreateWithRows(ctx, tx, inv)
	}
	if one := store.OneStatement(s.st); one != nil {
		err = record(ctx, one) // PostgreSQL: one statement, no transaction needed
	} else {
		err = s.st.RunInTx(ctx, record)
	}
	if model.ErrorCodeOf(err) == model.CodeConflict {
		// Another request recorded the same IRN first; the workflow is
		// shared, so answer as for a repeated submission.
		prev, gerr := s.st.Submissions().ByIRN(ctx, pr.ID, irn)
		if gerr != nil {
			return nil, gerr
		}
		return same(prev, inv)
	}
	if err != nil && inv.ClearingShard != nil {
		return nil, err
	}
	if err != nil {
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abandonTimeout)
		defer cancel()
		if aerr := s.cfg.Engine.AbandonSubmission(actx, inv.WorkflowID, "the invoice was not recorded: "+model.AsError(err).Message); aerr != nil {
			s.cfg.Logger.WarnContext(ctx, "invoice workflow not abandoned", "irn", irn, "error", aerr.Error())
		}
		return nil, err
	}
	s.wake(inv)
	return view(inv), nil
}

// same answers a submission whose IRN is already recorded: the recorded
// invoice when the payload is the same, else a conflict.
func same(prev, inv *model.SubmittedInvoice) (*View, error) {
	if prev.PayloadHash != inv.PayloadHash {
		return nil, model.Errorf(model.CodeConflict,
			"IRN %s was already submitted with payload hash %s; this payload's hash is %s", inv.IRN, prev.PayloadHash, inv.PayloadHash)
	}
	return view(prev), nil
}

// irnOf is the payload's IRN, or one generated (and recorded with the
// project's IRNs) from the invoice reference and the payload's issue
// date, which the authority then writes into the payload.
func (s *Service) irnOf(ctx context.Context, it *authority.Issuer, kind model.InvoiceKind, payload map[string]any, ref string) (string, error) {
	facts := it.Authority.Facts(payload)
	if facts.IRN != "" {
		return facts.IRN, nil
	}
	if strings.TrimSpace(ref) == "" {
		return "", model.Invalid(model.ProblemMissing, "Field required when the payload has no irn", "invoice_reference")
	}
	res, err := s.invoices.GenerateIRNForProject(ctx, it.Project.ID, invoices.IRNInput{
		InvoiceReference: ref, InvoiceTypeCode: string(kind), IssueDate: facts.IssueDate,
	})
	if err != nil {
		return "", err
	}
	it.Authority.SetIRN(payload, res.IRN)
	return res.IRN, nil
}

// checkBillingReference checks the IRN a credit or debit note refers to
// (the authority's Facts): it must be an IRN of this project's business
// (its service ID), and when it is in the archive it must not be
// rejected. An IRN the archive does not hold (an invoice cleared before
// einvoice) is taken as it is.
func (s *Service) checkBillingReference(ctx context.Context, it *authority.Issuer, inv *model.SubmittedInvoice, payload map[string]any) (string, error) {
	// The authority's rules already require a credit or debit note to
	// name the invoice it corrects; here the names are checked against
	// the archive.
	first := ""
	for _, ref := range it.Authority.Facts(payload).BillingReferences {
		irn := ref.IRN
		loc := append([]any{"payload"}, ref.Loc...)
		if irn == "" {
			continue
		}
		if first == "" {
			first = irn
		}
		if ref.ServiceID == "" || !strings.EqualFold(ref.ServiceID, it.Project.ServiceID) {
			return "", model.Invalid(model.ProblemValueError, "billing_reference must name an IRN of this project's business", loc...)
		}
		prev, err := s.st.Submissions().ByIRN(ctx, inv.ProjectID, irn)
		switch {
		case model.ErrorCodeOf(err) == model.CodeNotFound:
			continue
		case err != nil:
			return "", err
		case prev.Status == model.InvoiceRejected:
			return "", model.Invalid(model.ProblemValueError, "billing_reference names invoice "+irn+", which NRS rejected", loc...)
		}
	}
	return first, nil
}

// invalidReport turns a validation report into the invalid error of a
// refused submission: one problem per error, located in the body.
func invalidReport(rep *model.ValidationReport) error {
	var p model.Problems
	for _, is := range rep.Errors {
		msg := is.Message
		if is.Rule != "" {
			msg = is.Rule + ": " + msg
		}
		loc := is.Loc
		if len(loc) > 0 && loc[0] == "body" {
			loc = loc[1:] // relative to the request, as every problem here
		}
		p.Add(model.ProblemValueError, msg, loc...)
	}
	if p.Len() == 0 {
		p.Add(model.ProblemValueError, "the invoice is not valid", "payload")
	}
	return p.Err()
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// jsonUnmarshal decodes a stored payload, keeping numbers as written.
func jsonUnmarshal(s string, v any) error {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	return d.Decode(v)
}

// newInvoice is the queued invoice a submission records, for Submit and
// SubmitBatch alike: doc is the payload as stored.
func (s *Service) newInvoice(it *authority.Issuer, irn string, kind model.InvoiceKind, payload map[string]any, doc []byte) *model.SubmittedInvoice {
	pr, facts := it.Project, it.Authority.Facts(payload)
	inv := &model.SubmittedInvoice{
		ID: model.NewID(), ProjectID: pr.ID, OrganizationID: pr.OrganizationID, Environment: pr.Environment,
		IRN: irn, InvoiceType: kind, InvoiceTypeCode: facts.InvoiceTypeCode, Payload: string(doc),
		PayloadHash: sha(string(doc)), Status: model.InvoiceQueued, IssueDate: facts.IssueDate,
		CustomerTIN: facts.CustomerTIN, PaymentStatus: facts.PaymentStatus,
		WorkflowID: WorkflowID(s.cfg.WorkflowKey, pr.ID, irn), CreatedAt: s.now(),
	}
	inv.UpdatedAt = inv.CreatedAt
	inv.ClearingShard = s.shardOf(inv)
	inv.DeadlineAt = DeadlineOf(kind, inv.IssueDate, facts.IssueTime, inv.CreatedAt, pr.ClearanceDeadlineMinutes, s.cfg.B2CWindow)
	return inv
}

// workflowInput is the input of inv's workflow.
func workflowInput(inv *model.SubmittedInvoice) WorkflowInput {
	return WorkflowInput{ProjectID: inv.ProjectID, OrganizationID: inv.OrganizationID, IRN: inv.IRN,
		InvoiceType: inv.InvoiceType, Environment: inv.Environment, WorkflowID: inv.WorkflowID}
}
