package nrs

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/einvoice-ng/einvoice/model"
)

// samples are valid NRS 1.1 invoices, one per kind, with the content of
// testdata/fixtures: certification runs send them when a run names no
// payload, and GET /api/v2/invoices/samples/{invoice_type} serves them.
//
//go:embed samples/*.json
var samples embed.FS

// SampleDueDays is how long after its issue date a sample invoice falls due.
const SampleDueDays = 30

// SampleTemplate is the sample invoice of a kind as shipped (with a
// placeholder business id and IRN).
func SampleTemplate(kind model.InvoiceKind) ([]byte, error) {
	b, err := samples.ReadFile("samples/" + strings.ToLower(string(kind)) + ".json")
	if err != nil {
		return nil, fmt.Errorf("no sample invoice for invoice type %s: %w", kind, err)
	}
	return b, nil
}

// SampleInvoice is the sample invoice of a kind made ready for a
// business: its business id, issue date, kind, payment status PENDING and
// due dates set, and no IRN (generate one, or submit it with an invoice
// reference). Numbers are json.Number.
func SampleInvoice(kind model.InvoiceKind, businessID, issueDate string) (map[string]any, error) {
	b, err := SampleTemplate(kind)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	delete(doc, "irn")
	doc["business_id"] = businessID
	doc["issue_date"] = issueDate
	doc["invoice_kind"] = string(kind)
	doc["payment_status"] = "PENDING"
	SetSampleDueDates(doc, issueDate)
	return doc, nil
}

// SetSampleDueDates moves a sample's due dates to SampleDueDays after the
// issue date.
func SetSampleDueDates(doc map[string]any, issueDate string) {
	d, err := time.Parse(time.DateOnly, issueDate)
	if err != nil {
		return
	}
	due := d.AddDate(0, 0, SampleDueDays).Format(time.DateOnly)
	if _, ok := doc["due_date"]; ok {
		doc["due_date"] = due
	}
	if means, ok := doc["payment_means"].([]any); ok {
		for _, m := range means {
			if o, ok := m.(map[string]any); ok {
				if _, ok := o["payment_due_date"]; ok {
					o["payment_due_date"] = due
				}
			}
		}
	}
}
