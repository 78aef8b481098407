package graph

import (
	"sort"
	"strings"

	"github.com/einvoice-ng/einvoice/graph/gqlmodel"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// batchItems turns the mutation's invoices into the batch's items: an
// invoice naming another project than the batch's is an invalid item.
func batchItems(projectID string, invoices []*gqlmodel.SubmitInvoiceInput) []submissions.BatchItemInput {
	items := make([]submissions.BatchItemInput, len(invoices))
	for i, in := range invoices {
		items[i].Invoice = submissions.SubmitInput{InvoiceType: deref(in.InvoiceType), Payload: in.Payload}
		if in.InvoiceReference != nil {
			items[i].Invoice.InvoiceReference = *in.InvoiceReference
		}
		var p model.Problems
		if !strings.EqualFold(strings.TrimSpace(in.ProjectID), strings.TrimSpace(projectID)) {
			p.Add(model.ProblemValueError, "projectId must be the batch's projectId", "projectId")
		}
		if in.UblDocument != nil {
			p.Add(model.ProblemValueError, "a batch takes NRS's JSON (payload) only: submit a UBL document with submitInvoice", "ublDocument")
		}
		if p.Len() > 0 {
			items[i].Invoice.Validate(&p)
			items[i].Problems = p.List()
		}
	}
	return items
}

// batchCounts lists a batch's counts by status, in a stable order: the
// order of BatchView's statuses.
func batchCounts(v *submissions.BatchView) []*gqlmodel.InvoiceBatchCount {
	order := map[string]int{}
	for i, st := range append([]string{string(model.BatchAccepted)}, submissions.BatchStatuses()...) {
		if _, ok := order[st]; !ok {
			order[st] = i
		}
	}
	out := make([]*gqlmodel.InvoiceBatchCount, 0, len(v.Counts))
	for st, n := range v.Counts {
		out = append(out, &gqlmodel.InvoiceBatchCount{Status: st, Count: n})
	}
	sort.Slice(out, func(i, j int) bool { return order[out[i].Status] < order[out[j].Status] })
	return out
}
