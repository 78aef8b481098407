package runs

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// Input starts a certification smoke run.
type Input struct {
	InvoiceType    string `json:"invoice_type" required:"true"`
	IssueDate      string `json:"issue_date" required:"true"`
	InvoicePayload any    `json:"invoice_payload"`
}

// Validate records every problem of the input and puts the invoice kind in
// its canonical form (see model.ParseInvoiceKind).
func (in *Input) Validate(p *model.Problems) {
	if k, ok := p.CheckInvoiceKind(in.InvoiceType, "invoice_type"); ok {
		in.InvoiceType = string(k)
	}
	p.CheckDate(in.IssueDate, "issue_date")
	if in.InvoicePayload == nil {
		return
	}
	if _, ok := in.InvoicePayload.(map[string]any); !ok {
		p.Add(model.ProblemDictType, "Input should be a valid dictionary or object", "invoice_payload")
		return
	}
	// The payload is stored; PostgreSQL cannot hold U+0000 in JSON.
	p.CheckJSONNoNUL(in.InvoicePayload, "invoice_payload")
}

// payloadJSON returns the payload as JSON ("" when none).
func (in *Input) payloadJSON() (string, error) {
	if in.InvoicePayload == nil {
		return "", nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(in.InvoicePayload); err != nil {
		return "", model.Invalid(model.ProblemValueError, "invoice_payload cannot be encoded as JSON", "invoice_payload")
	}
	return string(bytes.TrimSpace(buf.Bytes())), nil
}

// View is a certification run as clients see it: the
// stored evidence of its steps merged with the state of its workflow.
type View struct {
	RunID         uuid.UUID         `json:"run_id"`
	ProjectID     uuid.UUID         `json:"-"`
	Status        model.RunStatus   `json:"status"`
	InvoiceType   model.InvoiceKind `json:"invoice_type"`
	IssueDate     string            `json:"issue_date"`
	IRN           *string           `json:"irn"`
	FailureReason *string           `json:"failure_reason"`
	Steps         []StepView        `json:"steps"`
	CreatedAt     time.Time         `json:"created_at"`
	FinishedAt    *time.Time        `json:"finished_at"`
	Temporal      TemporalRef       `json:"temporal"`
}

// StepView is the evidence of one step of a run.
type StepView struct {
	Name       string           `json:"name"`
	Status     model.StepStatus `json:"status"`
	Attempts   int              `json:"attempts"`
	StartedAt  time.Time        `json:"started_at"`
	FinishedAt *time.Time       `json:"finished_at"`
	DurationMS *int64           `json:"duration_ms"`
	HTTPStatus *int             `json:"http_status"`
	NRSErrorID *string          `json:"nrs_error_id"`
	Message    string           `json:"message"`
}

// TemporalRef names a run's workflow execution, to find it in the Temporal
// UI.
type TemporalRef struct {
	WorkflowID string  `json:"workflow_id"`
	RunID      *string `json:"run_id"`
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func view(r *model.CertificationRun, steps []model.CertificationStep) *View {
	v := &View{
		RunID: r.ID, ProjectID: r.ProjectID, Status: r.Status, InvoiceType: r.InvoiceType, IssueDate: r.IssueDate,
		IRN: optString(r.IRN), FailureReason: optString(r.FailureReason), Steps: make([]StepView, 0, len(steps)),
		CreatedAt: r.CreatedAt.UTC(), FinishedAt: model.UTC(r.FinishedAt),
		Temporal: TemporalRef{WorkflowID: r.WorkflowID, RunID: optString(r.TemporalRunID)},
	}
	for i := range steps {
		st := &steps[i]
		v.Steps = append(v.Steps, StepView{
			Name: st.Name, Status: st.Status, Attempts: st.Attempts, StartedAt: st.StartedAt.UTC(),
			FinishedAt: model.UTC(st.FinishedAt), DurationMS: st.DurationMS, HTTPStatus: st.HTTPStatus,
			NRSErrorID: optString(st.NRSErrorID), Message: st.Message,
		})
	}
	return v
}
