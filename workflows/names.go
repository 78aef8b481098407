// Package workflows holds einvoice's Temporal workflows and their
// activities. CertificationRun is the NRS certification smoke run: it
// orchestrates the steps of docs (nrs.md, "Certification smoke run") and
// does no I/O itself; the Activities do the I/O, each writing one evidence
// row per step, keyed by run id and step name so that retries rewrite it.
//
// Starter implements runs.Starter over a Temporal client, so that the
// application starts and describes runs without importing the SDK; the
// activities reach the database only through runs.Steps.
package workflows

import (
	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
)

// TaskQueue is the task queue of certification workflows and activities,
// and of invoice submissions and their project queues' drains.
const TaskQueue = "einvoice-certification"

// WebhookTaskQueue is the task queue of webhook deliveries. It has workers
// of its own (worker.Options.WebhookTaskQueue), so that deliveries to slow
// or failing receivers never hold the slots that runs and invoice
// submissions need.
const WebhookTaskQueue = "einvoice-webhooks"

// WorkflowName is the registered name of the CertificationRun workflow.
const WorkflowName = "CertificationRun"

// QueryProgress is the query answering a run's live Progress.
const QueryProgress = "progress"

// workflowIDPrefix starts every certification workflow id.
const workflowIDPrefix = "certification-run-"

// WorkflowID is the workflow id of a run: it derives from the run id, so
// that a retried start can never create a second execution.
func WorkflowID(runID uuid.UUID) string { return workflowIDPrefix + runID.String() }

// Step names, as recorded in the evidence and shown by the API, in the
// order a run takes them.
const (
	StepHealth          = "health"
	StepCodeLists       = "code_lists"
	StepBuildPayload    = "build_payload"
	StepGenerateIRN     = "generate_irn"
	StepValidateIRN     = "irn_validate"
	StepValidateInvoice = "invoice_validate"
	StepSignInvoice     = "invoice_sign"
	StepBuildQR         = "qr_build"
	StepVerifyQR        = "qr_verify"
	StepTransmit        = "transmit"
	StepLookup          = "transmit_lookup"
	StepConfirm         = "confirm"
	StepUpdatePaid      = "update_paid"
	StepConfirmPaid     = "confirm_paid"
	StepNegativeProbe   = "negative_probe"
)

// Steps lists every step name in run order. B2C runs skip StepTransmit and
// StepLookup; runs of production projects skip StepVerifyQR (the real NRS
// has no QR verification endpoint).
var Steps = []string{
	StepHealth, StepCodeLists, StepBuildPayload, StepGenerateIRN, StepValidateIRN,
	StepValidateInvoice, StepSignInvoice, StepBuildQR, StepVerifyQR, StepTransmit,
	StepLookup, StepConfirm, StepUpdatePaid, StepConfirmPaid, StepNegativeProbe,
}

// stepSeq is each step's position in Steps, stored with its evidence so
// that steps list in run order.
var stepSeq = func() map[string]int {
	m := make(map[string]int, len(Steps))
	for i, s := range Steps {
		m[s] = i + 1
	}
	return m
}()

// Error types of the activities' application errors. The rejections and
// invalid input are non-retryable: trying again cannot change the answer.
const (
	// ErrRejected: the tax authority refused a call with a 4xx answer (an
	// NRS 400 on validate, sign, ...), or answered something the run
	// cannot accept.
	ErrRejected = "AuthorityRejected"
	// ErrInvalid: the run's input is unusable (a payload einvoice's own
	// validator rejects, an IRN conflict, an unconfigured project).
	ErrInvalid = "InvalidRun"
	// ErrUnavailable: the authority did not answer usefully (429, 5xx,
	// timeout, connection error); retried up to AuthorityAttempts times.
	ErrUnavailable = "AuthorityUnavailable"
	// ErrInfrastructure: einvoice's own infrastructure failed (the
	// database is unreachable, an internal error); retried for as long as
	// the run's deadline allows, so that an outage loses no run.
	ErrInfrastructure = "InfrastructureUnavailable"
	// ErrInternal: an unexpected failure in einvoice; retried up to
	// AuthorityAttempts times.
	ErrInternal = "InternalError"
	// ErrNotYet: the authority answered but not yet as expected (a payment
	// status not updated yet), or the run's row is not committed yet;
	// retried.
	ErrNotYet = "NotYet"
	// ErrRunMissing: the run's row never appeared; the start was rolled
	// back.
	ErrRunMissing = "RunMissing"
	// ErrRunOver: the run already ended (cancelled, failed, passed): its
	// steps are not done and their evidence no longer changes.
	ErrRunOver = "RunOver"
)

// Custom search attributes of einvoice's workflows, all of type Keyword.
// They are set when a workflow starts, so that operators find a tenant's
// workflows in the Temporal CLI (temporal workflow list --query
// "ProjectId='…'") and the Web UI's filter. They are indexed in clear (the
// payload codec does not cover them): ids and kinds only, never tenant data.
// Every workflow of einvoice that carries one of these meanings uses the
// same name, so one registration serves them all.
var (
	// SearchAttributeProjectID is the project's id.
	SearchAttributeProjectID = temporal.NewSearchAttributeKeyKeyword("ProjectId")
	// SearchAttributeOrganizationID is the tenant: the project's organization id.
	SearchAttributeOrganizationID = temporal.NewSearchAttributeKeyKeyword("OrganizationId")
	// SearchAttributeInvoiceType is the invoice kind (B2B, B2C, B2G).
	SearchAttributeInvoiceType = temporal.NewSearchAttributeKeyKeyword("InvoiceType")
	// SearchAttributeEnvironment is the project's environment (sandbox,
	// production).
	SearchAttributeEnvironment = temporal.NewSearchAttributeKeyKeyword("Environment")
)

// CertificationSearchAttributes are the search attributes a certification
// run sets: register them in the namespace (RegisterSearchAttributes, or
// `temporal operator search-attribute create`) before starting runs.
var CertificationSearchAttributes = []temporal.SearchAttributeKey{
	SearchAttributeProjectID, SearchAttributeOrganizationID, SearchAttributeInvoiceType, SearchAttributeEnvironment,
}

// SearchAttributes lists the custom search attributes of every einvoice
// workflow, each name once: what a namespace must register (einvoice dev
// and the test servers pass it to RegisterSearchAttributes; the cluster
// set-up creates the same list with the Temporal CLI). A workflow that adds
// attributes adds its list here.
func SearchAttributes() []temporal.SearchAttributeKey {
	var out []temporal.SearchAttributeKey
	seen := map[string]bool{}
	for _, list := range [][]temporal.SearchAttributeKey{CertificationSearchAttributes, InvoiceSearchAttributes} {
		for _, k := range list {
			if !seen[k.GetName()] {
				seen[k.GetName()] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// Memo fields of a certification run, shown by the Web UI and
// `temporal workflow describe` (encoded by the payload codec, like every
// payload).
const (
	MemoRunID       = "run_id"
	MemoProjectName = "project_name"
)
