package workflows

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/inbox"
	"github.com/einvoice-ng/einvoice/model/mbs"
)

// InboxWorkflowName is the registered name of InboxPull.
const InboxWorkflowName = "InboxPull"

// InboxWorkflowID is the id of a project's pull: one runs at a time per
// project, and starting one while it runs joins it.
func InboxWorkflowID(projectID uuid.UUID) string { return "inbox-pull-" + projectID.String() }

// MaxPulledPerRun bounds the invoices one pull handles; the next pull
// takes the rest.
const MaxPulledPerRun = 100

// InboxPullInput names the project whose inbox is pulled.
type InboxPullInput struct {
	ProjectID uuid.UUID `json:"project_id"`
}

// InboxPullResult says what one pull did.
type InboxPullResult struct {
	Listed    int `json:"listed"`
	Stored    int `json:"stored"`
	Confirmed int `json:"confirmed"`
}

// InboxItem is one invoice of a pull.
type InboxItem struct {
	ProjectID uuid.UUID `json:"project_id"`
	IRN       string    `json:"irn"`
}

// InboxPull is the buyer's side of NRS's exchange for one project: it lists
// the invoices NRS holds for the project's business that are not confirmed
// yet (and the ones stored here whose confirmation is not recorded), then
// for each downloads, opens and stores it once by IRN, and confirms its
// receipt to NRS exactly once. Every step is an activity that is safe to
// repeat, so a pull that dies mid-way (a worker killed, an answer lost) and
// runs again stores nothing twice and confirms nothing twice: a stored IRN
// is not downloaded again, and a confirmation is settled with a lookup
// before it is sent again.
func InboxPull(ctx workflow.Context, in InboxPullInput) (InboxPullResult, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 2 * time.Minute,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute,
			MaximumAttempts: 8, NonRetryableErrorTypes: []string{errInboxFatal}},
	})
	var a *InboxActivities
	var res InboxPullResult
	var irns []string
	if err := workflow.ExecuteActivity(ctx, a.InboxList, in).Get(ctx, &irns); err != nil {
		return res, err
	}
	res.Listed = len(irns)
	for _, irn := range irns {
		item := InboxItem{ProjectID: in.ProjectID, IRN: irn}
		var stored bool
		if err := workflow.ExecuteActivity(ctx, a.InboxFetch, item).Get(ctx, &stored); err != nil {
			workflow.GetLogger(ctx).Warn("inbox: the invoice could not be stored; the next pull tries again", "irn", irn, "error", err)
			continue
		}
		if stored {
			res.Stored++
		}
		var confirmed bool
		if err := workflow.ExecuteActivity(ctx, a.InboxConfirm, item).Get(ctx, &confirmed); err != nil {
			workflow.GetLogger(ctx).Warn("inbox: the receipt could not be confirmed; the next pull tries again", "irn", irn, "error", err)
			continue
		}
		if confirmed {
			res.Confirmed++
		}
	}
	return res, nil
}

// errInboxFatal marks errors a retry cannot mend (no credentials, a
// document that is not an invoice for this business).
const errInboxFatal = "InboxFatal"

// InboxActivities does the pull's I/O through inbox.Steps and the
// project's MBS client.
type InboxActivities struct {
	steps *inbox.Steps
	mbs   func(c *authority.Credentials) (*mbs.Client, error)
	log   *slog.Logger
}

// NewInboxActivities builds the pull's activities; clients builds a
// project's MBS client (SubmissionClients by default).
func NewInboxActivities(steps *inbox.Steps, clients func(c *authority.Credentials) (*mbs.Client, error), log *slog.Logger) (*InboxActivities, error) {
	if steps == nil {
		return nil, errors.New("workflows: the inbox's steps are required")
	}
	if clients == nil {
		return nil, errors.New("workflows: the inbox needs a builder of MBS clients")
	}
	if log == nil {
		log = slog.Default()
	}
	return &InboxActivities{steps: steps, mbs: clients, log: log}, nil
}

func (a *InboxActivities) client(ctx context.Context, projectID uuid.UUID) (*mbs.Client, error) {
	creds, err := a.steps.Credentials(ctx, projectID)
	if err != nil {
		if model.ErrorCodeOf(err) == model.CodeNotFound || model.ErrorCodeOf(err) == model.CodeConflict || model.ErrorCodeOf(err) == model.CodeInvalid {
			return nil, temporal.NewNonRetryableApplicationError(err.Error(), errInboxFatal, err)
		}
		return nil, err
	}
	return a.mbs(creds)
}

// InboxList answers the IRNs to handle: those NRS lists as transmitted to
// the business and not confirmed, then those stored here whose
// confirmation is not recorded, at most MaxPulledPerRun.
func (a *InboxActivities) InboxList(ctx context.Context, in InboxPullInput) ([]string, error) {
	c, err := a.client(ctx, in.ProjectID)
	if err != nil {
		return nil, err
	}
	unconfirmed := false
	listed, _, err := c.Pull(ctx, mbs.PullQuery{Confirmed: &unconfirmed})
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range listed {
		if t.IRN != "" && !seen[t.IRN] && len(out) < MaxPulledPerRun {
			seen[t.IRN] = true
			out = append(out, t.IRN)
		}
	}
	local, err := a.steps.Unconfirmed(ctx, in.ProjectID, MaxPulledPerRun)
	if err != nil {
		return nil, err
	}
	for _, irn := range local {
		if !seen[irn] && len(out) < MaxPulledPerRun {
			seen[irn] = true
			out = append(out, irn)
		}
	}
	return out, nil
}

// InboxFetch downloads, opens and stores one invoice unless the project
// holds its IRN; it answers whether this call stored it.
func (a *InboxActivities) InboxFetch(ctx context.Context, in InboxItem) (bool, error) {
	has, err := a.steps.Has(ctx, in.ProjectID, in.IRN)
	if err != nil || has {
		return false, err
	}
	c, err := a.client(ctx, in.ProjectID)
	if err != nil {
		return false, err
	}
	doc, _, err := c.DownloadInvoice(ctx, in.IRN)
	if err != nil {
		return false, err
	}
	_, stored, err := a.steps.Store(ctx, in.ProjectID, in.IRN, doc.Invoice, doc.Sealed, "")
	if err != nil {
		if model.ErrorCodeOf(err) == model.CodeInvalid || errors.Is(err, inbox.ErrForeign) {
			return false, temporal.NewNonRetryableApplicationError(err.Error(), errInboxFatal, err)
		}
		return false, err
	}
	return stored, nil
}

// InboxConfirm confirms the receipt of a stored invoice to NRS once and
// records it; it answers whether this call recorded it. Before sending, it
// settles an earlier attempt whose answer was lost: when NRS's lookup says
// the invoice is delivered already, the confirmation is recorded without
// another call.
func (a *InboxActivities) InboxConfirm(ctx context.Context, in InboxItem) (bool, error) {
	has, err := a.steps.Has(ctx, in.ProjectID, in.IRN)
	if err != nil {
		return false, err
	}
	if !has {
		return false, temporal.NewNonRetryableApplicationError(fmt.Sprintf("invoice %s is not stored", in.IRN), errInboxFatal, nil)
	}
	pending, err := a.steps.Unconfirmed(ctx, in.ProjectID, MaxPulledPerRun*10)
	if err != nil {
		return false, err
	}
	open := false
	for _, irn := range pending {
		open = open || irn == in.IRN
	}
	if !open {
		return false, nil // recorded before
	}
	c, err := a.client(ctx, in.ProjectID)
	if err != nil {
		return false, err
	}
	if t, _, lerr := c.LookupTransmission(ctx, in.IRN); lerr == nil && t.Delivered {
		return true, a.steps.Confirmed(ctx, in.ProjectID, in.IRN)
	}
	if _, _, err := c.ConfirmReceipt(ctx, in.IRN); err != nil {
		return false, err
	}
	return true, a.steps.Confirmed(ctx, in.ProjectID, in.IRN)
}

var _ inbox.Starter = (*Starter)(nil)

// StartInboxPull starts the project's pull, or joins the one running.
func (s *Starter) StartInboxPull(ctx context.Context, projectID uuid.UUID) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	id := InboxWorkflowID(projectID)
	_, err := s.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: s.taskQueue, WorkflowExecutionTimeout: time.Hour,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, InboxWorkflowName, InboxPullInput{ProjectID: projectID})
	if err != nil {
		return "", model.Wrap(model.CodeUnavailable, err, "cannot start the inbox pull: the workflow engine (Temporal) is unreachable")
	}
	return id, nil
}
