package workflows

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
)

// templates are valid NRS 1.1 invoices, one per kind, taken from
// testdata/fixtures. A run fills in its business, IRN and dates.
//
//go:embed templates/*.json
var templates embed.FS

// dueDays is how long after the issue date a templated invoice falls due.
const dueDays = 30

// builtPayload is the invoice a run sends.
type builtPayload struct {
	doc       map[string]any // numbers as json.Number
	json      string
	irn       string
	reference string
	source    string // says where the payload came from, for the evidence
}

// buildPayload takes the run's own payload, or else the template of its
// kind, and sets what the run decides: business_id (the project's),
// invoice_kind (the run's), issue_date, the IRN and payment_status PENDING
// (the run later moves it to PAID). The IRN keeps the payload's invoice
// reference when the payload has a usable one, so that the sandbox
// scenario prefixes (SBXSLOW, SBXRETRY, ...) reach the authority; else the
// reference is fresh, derived from the run id.
func buildPayload(run *model.CertificationRun, businessID, serviceID string, a model.Authority) (*builtPayload, error) {
	var (
		raw    []byte
		source string
	)
	if run.InvoicePayload != "" {
		raw, source = []byte(run.InvoicePayload), "payload from the request"
	} else {
		b, err := templates.ReadFile("templates/" + strings.ToLower(string(run.InvoiceType)) + ".json")
		if err != nil {
			return nil, fmt.Errorf("no template for invoice type %s: %w", run.InvoiceType, err)
		}
		raw, source = b, "template "+string(run.InvoiceType)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil || doc == nil {
		return nil, model.Errorf(model.CodeInvalid, "invoice_payload is not a JSON object")
	}

	ref := ""
	if irn, _ := doc["irn"].(string); irn != "" && run.InvoicePayload != "" {
		if p, err := nrs.ParseIRN(irn); err == nil {
			ref = p.InvoiceReference
		}
	}
	if ref == "" {
		ref = FreshReference(run.ID)
	}
	irn, err := a.GenerateIRN(ref, serviceID, run.IssueDate)
	if err != nil {
		return nil, err
	}
	doc["business_id"] = businessID
	doc["irn"] = irn
	doc["issue_date"] = run.IssueDate
	doc["invoice_kind"] = string(run.InvoiceType)
	doc["payment_status"] = "PENDING"
	if run.InvoicePayload == "" {
		setDueDates(doc, run.IssueDate)
	}

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("encode payload: %w", err)
	}
	return &builtPayload{
		doc: doc, json: strings.TrimSpace(buf.String()), irn: irn, reference: strings.ToUpper(ref), source: source,
	}, nil
}

// FreshReference is the invoice reference of a templated run: "CERT"
// followed by the run id's 32 hex digits, letters and digits only as an
// IRN requires, and unique per run.
func FreshReference(runID uuid.UUID) string {
	return "CERT" + strings.ToUpper(strings.ReplaceAll(runID.String(), "-", ""))
}

// setDueDates moves a template's due dates to dueDays after the issue date.
func setDueDates(doc map[string]any, issueDate string) {
	d, err := time.Parse(time.DateOnly, issueDate)
	if err != nil {
		return
	}
	due := d.AddDate(0, 0, dueDays).Format(time.DateOnly)
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

// wrongServiceID returns an 8-character service ID that differs from id in
// every position, for the negative probe.
func wrongServiceID(id string) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	out := make([]byte, nrs.ServiceIDLen)
	for i := range out {
		c := byte('A')
		if i < len(id) {
			c = id[i]
		}
		j := strings.IndexByte(alphabet, upper(c))
		out[i] = alphabet[(j+1+len(alphabet))%len(alphabet)]
	}
	return string(out)
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// SamplePayload is the certification template of an invoice kind made
// ready to submit for a business: its business id, issue date, kind,
// payment status PENDING and due dates set, and no IRN (the submission
// generates one from an invoice reference). For tests, benchmarks and
// examples.
func SamplePayload(kind model.InvoiceKind, businessID, issueDate string) (map[string]any, error) {
	b, err := templates.ReadFile("templates/" + strings.ToLower(string(kind)) + ".json")
	if err != nil {
		return nil, fmt.Errorf("no template for invoice type %s: %w", kind, err)
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
	setDueDates(doc, issueDate)
	return doc, nil
}
