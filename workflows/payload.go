package workflows

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
)

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
		b, err := nrs.SampleTemplate(run.InvoiceType)
		if err != nil {
			return nil, err
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
		nrs.SetSampleDueDates(doc, run.IssueDate)
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

// SamplePayload is the sample invoice of a kind made ready to submit for a
// business (nrs.SampleInvoice). For tests, benchmarks and examples.
func SamplePayload(kind model.InvoiceKind, businessID, issueDate string) (map[string]any, error) {
	return nrs.SampleInvoice(kind, businessID, issueDate)
}
