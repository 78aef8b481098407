package invoices

import (
	"context"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/nrs"
)

// lagos is Nigeria's time (WAT, UTC+1, no daylight saving): a sample's
// default issue date is today there.
var lagos = time.FixedZone("WAT", 3600)

// SampleInput asks for a sample invoice.
type SampleInput struct {
	// InvoiceType is the invoice kind (model.ParseInvoiceKind's rule).
	InvoiceType string
	// IssueDate is YYYY-MM-DD; "" means today in Lagos.
	IssueDate string
}

// Sample answers a complete, valid NRS 1.1 invoice of a kind made out by
// the project's business: its business id, the issue date, payment status
// PENDING, due dates 30 days on, and no IRN (generate one, or submit it
// with an invoice reference). Nothing is recorded. The problems name
// locations under path (invoice_type) and query (issue_date).
func (s *Service) Sample(ctx context.Context, who *model.Principal, in SampleInput) (map[string]any, error) {
	var p model.Problems
	kind, ok := model.ParseInvoiceKind(in.InvoiceType)
	if !ok {
		p.Add(model.ProblemEnum, "Input should be 'B2B', 'B2C' or 'B2G'", "path", "invoice_type")
	}
	date := in.IssueDate
	if date == "" {
		date = s.cfg.Now().In(lagos).Format(time.DateOnly)
	} else if _, err := time.Parse(time.DateOnly, date); err != nil {
		p.Add(model.ProblemDateFromDatetimeParse, "Input should be a valid date in the format YYYY-MM-DD", "query", "issue_date")
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	return with(ctx, s, projectOf(who), func(it *authority.Issuer) (map[string]any, error) {
		if err := it.Configured(); err != nil {
			return nil, err
		}
		return nrs.SampleInvoice(kind, it.Project.BusinessID, date)
	})
}
