package submissions

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// abandonTimeout bounds the call that stops the workflow of an invoice
// whose recording failed.
const abandonTimeout = 5 * time.Second

// load finds an invoice who may read: one of an API key's (or a
// workbench principal's) project, or of a project of a portal user's
// organizations; any other is not found.
func (s *Service) load(ctx context.Context, who *model.Principal, id uuid.UUID) (*model.SubmittedInvoice, error) {
	if who != nil && !who.IsKey() && who.ProjectID == uuid.Nil && who.UserID != uuid.Nil {
		return s.st.Submissions().GetForUser(ctx, who.UserID, id)
	}
	if err := requireRead(who); err != nil {
		return nil, err
	}
	return s.st.Submissions().Get(ctx, who.ProjectID, id)
}

// watchInterval is how often Watch reads the invoice.
const watchInterval = 250 * time.Millisecond

// Watch sends the invoice's view now and again every time it changes, then
// closes the channel once it is confirmed or rejected, or when ctx ends;
// load decides who may watch. It reads the store, so it sees invoices
// cleared by workers in other processes.
func (s *Service) Watch(ctx context.Context, who *model.Principal, id uuid.UUID) (<-chan View, error) {
	first, err := s.load(ctx, who, id)
	if err != nil {
		return nil, err
	}
	out := make(chan View, 1)
	go func() {
		defer close(out)
		last := first.UpdatedAt
		out <- *view(first)
		if first.Status.Final() {
			return
		}
		t := time.NewTicker(watchInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			inv, err := s.load(ctx, who, id)
			if err != nil {
				return
			}
			if !inv.UpdatedAt.Equal(last) {
				select {
				case out <- *view(inv):
				case <-ctx.Done():
					return
				}
				last = inv.UpdatedAt
			}
			if inv.Status.Final() {
				return
			}
		}
	}()
	return out, nil
}

// Get reads one of the project's invoices.
func (s *Service) Get(ctx context.Context, who *model.Principal, id uuid.UUID) (*View, error) {
	inv, err := s.load(ctx, who, id)
	if err != nil {
		return nil, err
	}
	return view(inv), nil
}

// Cleared is a submitted invoice's payload as sent to NRS, with its IRN
// and QR once confirmed, for rendering.
type Cleared struct {
	Invoice *View
	Payload map[string]any
}

// Payload reads one of the project's invoices with its payload.
func (s *Service) Payload(ctx context.Context, who *model.Principal, id uuid.UUID) (*Cleared, error) {
	inv, err := s.load(ctx, who, id)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := jsonUnmarshal(inv.Payload, &doc); err != nil {
		return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return &Cleared{Invoice: view(inv), Payload: doc}, nil
}

// ListInput filters a list of invoices; empty fields do not filter.
type ListInput struct {
	model.PageInput
	Status        string
	InvoiceType   string
	IRN           string
	CustomerTIN   string
	IssueDateFrom string
	IssueDateTo   string
	// CreatedFrom and CreatedTo are RFC 3339 times, [from, to).
	CreatedFrom string
	CreatedTo   string
	// DeadlineAtRisk is "true" or "false": only invoices flagged (or not)
	// deadline_at_risk.
	DeadlineAtRisk string
}

func (in ListInput) filter(p *model.Problems) store.InvoiceFilter {
	f := store.InvoiceFilter{IRN: strings.ToUpper(strings.TrimSpace(in.IRN)), CustomerTIN: strings.TrimSpace(in.CustomerTIN)}
	if in.Status != "" {
		st := model.InvoiceStatus(strings.ToLower(in.Status))
		if !st.Valid() {
			names := make([]string, len(model.InvoiceStatuses))
			for i, v := range model.InvoiceStatuses {
				names[i] = string(v)
			}
			p.CheckEnum(in.Status, names, "status")
		}
		f.Status = st
	}
	switch in.DeadlineAtRisk {
	case "":
	case "true", "false":
		v := in.DeadlineAtRisk == "true"
		f.DeadlineAtRisk = &v
	default:
		p.Add(model.ProblemBoolType, "Input should be a valid boolean (true or false)", "deadline_at_risk")
	}
	if in.InvoiceType != "" {
		if k, ok := p.CheckInvoiceKind(in.InvoiceType, "invoice_type"); ok {
			f.InvoiceType = k
		}
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
	}{{in.CreatedFrom, &f.CreatedFrom, "created_from"}, {in.CreatedTo, &f.CreatedTo, "created_to"}} {
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
	return f
}

// List lists one page of the project's invoices, newest first.
func (s *Service) List(ctx context.Context, who *model.Principal, in ListInput) (*model.List[View], error) {
	if err := requireRead(who); err != nil {
		return nil, err
	}
	var p model.Problems
	page := in.PageInput.Validate(&p)
	f := in.filter(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	rows, more, err := s.st.Submissions().List(ctx, who.ProjectID, f, page)
	if err != nil {
		return nil, err
	}
	return model.ListOf(rows, more, func(r *model.SubmittedInvoice) uuid.UUID { return r.ID },
		func(r *model.SubmittedInvoice) View { return *view(r) }), nil
}

// Events lists one page of an invoice's events, oldest first; the cursor
// is the last seq shown.
func (s *Service) Events(ctx context.Context, who *model.Principal, id uuid.UUID, limit *int, cursor string) (*EventList, error) {
	var p model.Problems
	n := model.DefaultPageLimit
	if limit != nil {
		if *limit < 1 || *limit > model.MaxPageLimit {
			p.Add(model.ProblemValueError, "Input should be between 1 and 200", "limit")
		} else {
			n = *limit
		}
	}
	after := 0
	if cursor != "" {
		v, err := strconv.Atoi(cursor)
		if err != nil || v < 0 {
			p.Add(model.ProblemValueError, "Input should be a cursor returned by a previous page", "cursor")
		}
		after = v
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	inv, err := s.load(ctx, who, id)
	if err != nil {
		return nil, err
	}
	rows, more, err := s.st.Submissions().Events(ctx, inv.ID, after, n)
	if err != nil {
		return nil, err
	}
	out := &EventList{Items: make([]EventView, 0, len(rows))}
	for i := range rows {
		out.Items = append(out.Items, eventView(&rows[i]))
	}
	if more && len(rows) > 0 {
		c := strconv.Itoa(rows[len(rows)-1].Seq)
		out.NextCursor = &c
	}
	return out, nil
}
