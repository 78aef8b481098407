package inbox

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Service is the inbox as the API offers it.
type Service struct {
	st  *store.Store
	cfg Config
}

// New builds the service over st.
func New(st *store.Store, cfg Config) *Service {
	cfg.defaults()
	return &Service{st: st, cfg: cfg}
}

func requireScope(who *model.Principal, scope model.Scope) error {
	if who == nil || who.ProjectID == uuid.Nil {
		return model.NotFound("project")
	}
	return who.Require(scope)
}

// ListInput is a list request: its page and filters.
type ListInput struct {
	model.PageInput
	IRN         string
	SupplierTIN string
	// Decision is accepted, rejected or none.
	Decision string
	// Confirmed is "true" or "false".
	Confirmed     string
	IssueDateFrom string
	IssueDateTo   string
	// ReceivedFrom and ReceivedTo are RFC 3339 times, [from, to).
	ReceivedFrom string
	ReceivedTo   string
}

func (in ListInput) filter(p *model.Problems) store.ReceivedFilter {
	f := store.ReceivedFilter{IRN: strings.ToUpper(strings.TrimSpace(in.IRN)), SupplierTIN: strings.TrimSpace(in.SupplierTIN)}
	switch d := strings.ToLower(strings.TrimSpace(in.Decision)); d {
	case "":
	case model.DecisionAccepted, model.DecisionRejected:
		f.Decision = &d
	case "none":
		none := model.DecisionNone
		f.Decision = &none
	default:
		p.CheckEnum(in.Decision, []string{model.DecisionAccepted, model.DecisionRejected, "none"}, "decision")
	}
	switch in.Confirmed {
	case "":
	case "true", "false":
		v := in.Confirmed == "true"
		f.Confirmed = &v
	default:
		p.Add(model.ProblemBoolType, "Input should be a valid boolean (true or false)", "confirmed")
	}
	for _, d := range []struct {
		v    string
		dst  *string
		name string
	}{{in.IssueDateFrom, &f.IssueDateFrom, "issue_date_from"}, {in.IssueDateTo, &f.IssueDateTo, "issue_date_to"}} {
		if d.v == "" {
			continue
		}
		if _, err := time.Parse(time.DateOnly, d.v); err != nil {
			p.Add(model.ProblemDateFromDatetimeParse, "Input should be a valid date in the format YYYY-MM-DD", d.name)
			continue
		}
		*d.dst = d.v
	}
	for _, t := range []struct {
		v    string
		dst  **time.Time
		name string
	}{{in.ReceivedFrom, &f.ReceivedFrom, "received_from"}, {in.ReceivedTo, &f.ReceivedTo, "received_to"}} {
		if t.v == "" {
			continue
		}
		v, err := time.Parse(time.RFC3339, t.v)
		if err != nil {
			p.Add(model.ProblemValueError, "Input should be an RFC 3339 date and time", t.name)
			continue
		}
		v = model.StoredTime(v)
		*t.dst = &v
	}
	if len(f.IRN) > 128 {
		p.Add(model.ProblemStringTooLong, "String should have at most 128 characters", "irn")
	}
	if len(f.SupplierTIN) > 64 {
		p.Add(model.ProblemStringTooLong, "String should have at most 64 characters", "supplier_tin")
	}
	return f
}

// List lists one page of the project's received invoices, newest first.
func (s *Service) List(ctx context.Context, who *model.Principal, in ListInput) (*model.List[View], error) {
	if err := requireScope(who, model.ScopeInvoicesRead); err != nil {
		return nil, err
	}
	var p model.Problems
	page := in.PageInput.Validate(&p)
	f := in.filter(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	rows, more, err := store.Received(s.st).List(ctx, who.ProjectID, f, page)
	if err != nil {
		return nil, err
	}
	return model.ListOf(rows, more, func(r *model.ReceivedInvoice) uuid.UUID { return r.ID },
		func(r *model.ReceivedInvoice) View { return *ViewOf(r, false) }), nil
}

// Get reads one of the project's received invoices with its document.
func (s *Service) Get(ctx context.Context, who *model.Principal, id uuid.UUID) (*View, error) {
	if err := requireScope(who, model.ScopeInvoicesRead); err != nil {
		return nil, err
	}
	row, err := store.Received(s.st).Get(ctx, who.ProjectID, id)
	if err != nil {
		return nil, err
	}
	return ViewOf(row, true), nil
}

// DecideInput is a buyer's decision on a received invoice.
type DecideInput struct {
	Decision string `json:"decision" required:"true"`
	// Reason is free text, at most 512 characters.
	Reason string `json:"reason"`
}

// Decide records the buyer's decision (accepted or rejected) with its
// event. NRS publishes no such call, so nothing is sent to NRS. A decision
// may be changed; the same decision again changes nothing.
func (s *Service) Decide(ctx context.Context, who *model.Principal, id uuid.UUID, in DecideInput) (*View, error) {
	if err := requireScope(who, model.ScopeInvoicesSubmit); err != nil {
		return nil, err
	}
	var p model.Problems
	d := strings.ToLower(strings.TrimSpace(in.Decision))
	p.CheckEnum(d, []string{model.DecisionAccepted, model.DecisionRejected}, "decision")
	if len(in.Reason) > 512 {
		p.Add(model.ProblemStringTooLong, "String should have at most 512 characters", "reason")
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	var out *model.ReceivedInvoice
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		row, err := store.Received(tx).Get(ctx, who.ProjectID, id)
		if err != nil {
			return err
		}
		out = row
		if row.Decision == d && row.DecisionReason == in.Reason {
			return nil
		}
		now := model.StoredTime(s.cfg.Now())
		row.Decision, row.DecisionReason, row.DecidedAt, row.UpdatedAt = d, in.Reason, &now, now
		if err := store.Received(tx).Save(ctx, row); err != nil {
			return err
		}
		typ := model.EventReceivedInvoiceAccepted
		if d == model.DecisionRejected {
			typ = model.EventReceivedInvoiceRejected
		}
		return appendEvent(ctx, tx, row, typ, now)
	})
	if err != nil {
		return nil, err
	}
	return ViewOf(out, true), nil
}

// PullStarted is the answer of Pull: the workflow that pulls.
type PullStarted struct {
	WorkflowID string `json:"workflow_id"`
}

// Pull starts the project's pull now (or joins the one running).
func (s *Service) Pull(ctx context.Context, who *model.Principal) (*PullStarted, error) {
	if err := requireScope(who, model.ScopeInvoicesSubmit); err != nil {
		return nil, err
	}
	if s.cfg.Authority != nil {
		if _, err := s.cfg.Authority.Credentials(ctx, who.ProjectID); err != nil {
			return nil, err
		}
	}
	if s.cfg.Engine == nil {
		return nil, model.Errorf(model.CodeUnavailable, "the inbox's pull engine is not configured")
	}
	id, err := s.cfg.Engine.StartInboxPull(ctx, who.ProjectID)
	if err != nil {
		return nil, err
	}
	return &PullStarted{WorkflowID: id}, nil
}

// Document reads one of the project's received invoices and its document
// as an object (numbers kept as written), for rendering.
func (s *Service) Document(ctx context.Context, who *model.Principal, id uuid.UUID) (*View, map[string]any, error) {
	v, err := s.Get(ctx, who, id)
	if err != nil {
		return nil, nil, err
	}
	var doc map[string]any
	d := json.NewDecoder(bytes.NewReader(v.Document))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return nil, nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return v, doc, nil
}
