package workflows

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/codelists"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/invoices"
	"github.com/einvoice-ng/einvoice/model/mbs"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// ActivitiesConfig configures NewActivities.
type ActivitiesConfig struct {
	// Runs is the steps' entry point to the database and to the use cases
	// they share with the API (IRN and QR generation, validation, code
	// lists, the project's authority credentials). Required.
	Runs *runs.Steps
	// MBS builds the client of a project's tax authority API; default
	// NewMBSClient.
	MBS func(c *authority.Credentials) (*mbs.Client, error)
	// Now is the clock of the evidence; default time.Now.
	Now func() time.Time
	// Logger receives failures to record evidence; default slog.Default().
	Logger *slog.Logger
}

// Activities does the I/O of certification runs. Every step is one
// activity that records one evidence row (run id + step name) whatever
// happens: running when it starts, then passed, retrying or failed, with
// its timing, the HTTP status and NRS error id of the authority's answer
// and a message without secrets. A step whose evidence already says passed
// is not done again, and the authority calls that cannot simply be
// repeated (sign, transmit, update) accept the authority's "already done"
// answer on a retry, so every activity is idempotent.
type Activities struct {
	runs *runs.Steps
	mbs  func(c *authority.Credentials) (*mbs.Client, error)
	now  func() time.Time
	log  *slog.Logger
}

// NewActivities builds the activities.
func NewActivities(cfg ActivitiesConfig) (*Activities, error) {
	if cfg.Runs == nil {
		return nil, errors.New("workflows: the runs' steps are required")
	}
	if cfg.MBS == nil {
		cfg.MBS = NewMBSClient
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Activities{runs: cfg.Runs, mbs: cfg.MBS, now: cfg.Now, log: cfg.Logger}, nil
}

// MBS client settings of a run. The client retries a 429 or 5xx a few times
// within one activity attempt; past that the activity fails and Temporal
// retries it (after the authority's Retry-After when it sent a long one).
const (
	mbsTimeout       = 20 * time.Second
	mbsAttempts      = 3
	mbsBackoff       = 200 * time.Millisecond
	mbsMaxBackoff    = 2 * time.Second
	mbsMaxRetryAfter = 5 * time.Second
)

// MBSClients returns the builder of projects' MBS clients for a worker. A
// production project's calls go through the egress policy's client: no
// special-purpose address (checked at every connection, after DNS
// resolution), no redirect, no proxy. A sandbox project calls the sandbox
// the operator configured, over a client that follows no redirect either.
// Every client of one builder shares its connections.
func MBSClients(policy egress.Policy) func(c *authority.Credentials) (*mbs.Client, error) {
	return MBSClientsWith(policy, nil)
}

// MBSClientsWith is MBSClients whose clients also share the circuit
// breakers and paces of breakers (nil: none), per environment and endpoint.
func MBSClientsWith(policy egress.Policy, breakers *mbs.Breakers) func(c *authority.Credentials) (*mbs.Client, error) {
	guarded := policy.Client()
	operator := &http.Client{Transport: egress.Policy{AllowPrivate: true}.Transport(), CheckRedirect: egress.NoRedirects}
	return func(c *authority.Credentials) (*mbs.Client, error) {
		hc := guarded
		if c.Environment == model.EnvironmentSandbox {
			hc = operator
		}
		return mbs.New(mbs.Config{
			BaseURL: c.BaseURL, APIKey: c.APIKey, APISecret: c.APISecret, HTTPClient: hc,
			Timeout: mbsTimeout, UserAgent: "einvoice-certification",
			Retry:       mbs.RetryPolicy{MaxAttempts: mbsAttempts, InitialBackoff: mbsBackoff, MaxBackoff: mbsMaxBackoff, MaxRetryAfter: mbsMaxRetryAfter},
			Environment: string(c.Environment), Breakers: breakers,
		})
	}
}

// defaultMBS is NewMBSClient's builder: the strict egress policy.
var defaultMBS = MBSClients(egress.Policy{})

// NewMBSClient builds the MBS client of a project from its credentials,
// under the strict egress policy (no special-purpose address for
// production projects).
func NewMBSClient(c *authority.Credentials) (*mbs.Client, error) { return defaultMBS(c) }

// StepInput names the run a step works on.
type StepInput struct {
	RunID uuid.UUID `json:"run_id"`
}

// PayloadResult is the IRN of the payload a run sends.
type PayloadResult struct {
	IRN string `json:"irn"`
}

// QRResult is the QR payload built for a run's IRN.
type QRResult struct {
	QRPayload string `json:"qr_payload"`
}

// QRInput asks for a QR payload to be verified.
type QRInput struct {
	RunID     uuid.UUID `json:"run_id"`
	QRPayload string    `json:"qr_payload"`
}

// FinishInput ends a run.
type FinishInput struct {
	RunID  uuid.UUID       `json:"run_id"`
	Status model.RunStatus `json:"status"`
	Reason string          `json:"reason"`
}

// maxRowWaitAttempts bounds how often StartRun waits for the run's row,
// which commits just after the workflow starts; a row still missing then
// was rolled back.
const maxRowWaitAttempts = 8

// StartRun marks the run running. It waits (by failing retryably) for the
// run's row, which its starter commits after starting the workflow.
func (a *Activities) StartRun(ctx context.Context, in StepInput) error {
	err := a.runs.Begin(ctx, in.RunID)
	if model.ErrorCodeOf(err) == model.CodeNotFound {
		if activity.GetInfo(ctx).Attempt >= maxRowWaitAttempts {
			return temporal.NewNonRetryableApplicationError("the run "+in.RunID.String()+" was never recorded", ErrRunMissing, nil)
		}
		return temporal.NewApplicationError("the run's row is not committed yet", ErrNotYet)
	}
	if err != nil {
		return a.classify(ctx, err)
	}
	return nil
}

// FinishRun records the run's final status; repeating it changes nothing.
func (a *Activities) FinishRun(ctx context.Context, in FinishInput) error {
	if !in.Status.Final() {
		return temporal.NewNonRetryableApplicationError("status "+string(in.Status)+" is not final", ErrInvalid, nil)
	}
	if err := a.runs.Finish(ctx, in.RunID, in.Status, clip(in.Reason)); err != nil {
		return a.classify(ctx, err)
	}
	return nil
}

// Health checks that the authority's API answers GET /api healthy.
func (a *Activities) Health(ctx context.Context, in StepInput) error {
	err := a.authorityStep(ctx, in.RunID, StepHealth, func(ctx context.Context, r *stepRun, c *mbs.Client) (outcome, error) {
		h, call, err := c.Health(ctx)
		o := outcome{call: &call}
		if err != nil {
			return o, err
		}
		if !h.Healthy {
			return o, temporal.NewApplicationError("the authority answers but reports it is not healthy", ErrNotYet)
		}
		o.message = "the authority reports healthy"
		return o, nil
	})
	return err
}

// CodeLists fetches every code list the authority publishes and checks
// each. When the project talks to the official host of its environment,
// the lists it served are stored, and every process validates with them
// from then on; a project whose base URL points elsewhere has its lists
// counted, never stored (they would be used for every project of the
// environment). A list the authority does not serve is reported; the step
// fails only when it serves none, and is retried when it was unavailable.
func (a *Activities) CodeLists(ctx context.Context, in StepInput) error {
	err := a.authorityStep(ctx, in.RunID, StepCodeLists, func(ctx context.Context, r *stepRun, c *mbs.Client) (outcome, error) {
		f := &codeListFetcher{fetch: resourceJSON(c.Resources())}
		official := r.creds.BaseURL != "" && r.creds.BaseURL == a.runs.OfficialBaseURL(r.creds.Environment)
		res, err := a.runs.RefreshCodeLists(ctx, r.run, f, official)
		o := outcome{call: f.last}
		switch {
		case err != nil:
			return o, err
		case f.unavailable != nil:
			return o, f.unavailable
		}
		counts, failed := make([]string, 0, len(res.Lists)), []string{}
		for _, l := range res.Lists {
			if l.Err != nil {
				failed = append(failed, l.Name)
				continue
			}
			counts = append(counts, fmt.Sprintf("%s %d", l.Name, l.Entries))
		}
		if len(counts) == 0 {
			_, why := res.Fetched()
			return o, temporal.NewNonRetryableApplicationError("the authority served no code list: "+strings.Join(why, "; "), ErrRejected, nil)
		}
		o.message = fmt.Sprintf("%d of %d code lists fetched: %s", len(counts), len(res.Lists), strings.Join(counts, ", "))
		if len(failed) > 0 {
			o.message += "; not served: " + strings.Join(failed, ", ")
		}
		if res.Stored {
			o.message += "; stored for " + string(res.Environment) + " validation"
		} else {
			o.message += "; not stored (the project's base URL is not the official " + string(r.creds.Environment) + " host)"
		}
		return o, nil
	})
	return err
}

// resourceClient is what fetching code lists needs of the MBS client: one
// resource list by name, as served, with the call's record.
type resourceClient interface {
	ListCall(ctx context.Context, name string) (json.RawMessage, mbs.Call, error)
}

// resourceJSON fetches one resource list with c as the authority served it:
// the data array of the answer, byte for byte. A list the server marks
// partial (the NRS sandbox stand-in's hs-codes and invoice-quantity-codes,
// which have no public copy) is mbs.ErrPartialList: validating with it
// would refuse what NRS accepts. It is the only code that depends on the
// shape of the client's resource call.
func resourceJSON(c resourceClient) func(ctx context.Context, name string) ([]byte, mbs.Call, error) {
	return func(ctx context.Context, name string) ([]byte, mbs.Call, error) {
		data, call, err := c.ListCall(ctx, name)
		if err != nil {
			return nil, call, err
		}
		if call.Partial {
			return nil, call, fmt.Errorf("%w: %s", mbs.ErrPartialList, name)
		}
		return data, call, nil
	}
}

// codeListFetcher fetches code lists for the code list refresh, keeping the last call
// that reached the authority for the step's evidence and the first failure
// worth retrying (429, 5xx, a timeout).
type codeListFetcher struct {
	fetch       func(ctx context.Context, name string) ([]byte, mbs.Call, error)
	last        *mbs.Call
	unavailable error
}

// NewCodeListFetcher fetches a tax authority's code lists with c.
func NewCodeListFetcher(c *mbs.Client) codelists.Fetcher {
	return &codeListFetcher{fetch: resourceJSON(c.Resources())}
}

// FetchCodeList returns a list as the authority served it.
func (f *codeListFetcher) FetchCodeList(ctx context.Context, name string) ([]byte, error) {
	data, call, err := f.fetch(ctx, name)
	if f.last == nil || call.HTTPStatus != 0 {
		f.last = &call // the last call that reached the authority
	}
	if err != nil {
		var me *mbs.Error
		if errors.As(err, &me) && me.Retryable() && f.unavailable == nil {
			f.unavailable = err
		}
		return nil, err
	}
	return data, nil
}

// BuildPayload takes the run's payload or builds one from the template of
// its kind, with the project's business id and an IRN in the authority's
// format, checks it with einvoice's own validator and stores it.
func (a *Activities) BuildPayload(ctx context.Context, in StepInput) (PayloadResult, error) {
	var res PayloadResult
	skipped, err := a.step(ctx, in.RunID, StepBuildPayload, func(ctx context.Context, r *stepRun) (outcome, error) {
		creds, err := r.credentials(ctx)
		if err != nil {
			return outcome{}, err
		}
		auth, ok := a.runs.Authority(creds.TaxAuthorityCode)
		if !ok {
			return outcome{}, model.Errorf(model.CodeInvalid, "tax authority %q is not supported", creds.TaxAuthorityCode)
		}
		b, err := buildPayload(r.run, creds.BusinessID, creds.ServiceID, auth)
		if err != nil {
			return outcome{}, err
		}
		rep, err := a.runs.ValidateInvoice(ctx, r.run, invoices.ValidateInput{
			InvoiceTypeCode: string(r.run.InvoiceType), Payload: b.doc,
		})
		if err != nil {
			return outcome{}, err
		}
		if !rep.Valid {
			return outcome{}, temporal.NewNonRetryableApplicationError(
				"einvoice's validator rejects the payload: "+issues(rep.Errors), ErrInvalid, nil)
		}
		if err := a.runs.SetPayload(ctx, r.run.ID, b.json, b.irn); err != nil {
			return outcome{}, err
		}
		res.IRN = b.irn
		return outcome{message: fmt.Sprintf("%s, invoice_kind %s, IRN %s; valid for %s with %d warning(s)",
			b.source, r.run.InvoiceType, b.irn, rep.Ruleset, len(rep.Warnings))}, nil
	})
	if err == nil && skipped {
		run, err := a.runs.Run(ctx, in.RunID)
		if err != nil {
			return res, a.classify(ctx, err)
		}
		res.IRN = run.IRN
	}
	return res, err
}

// GenerateIRN issues the run's IRN through the invoice use cases, exactly as the
// API's IRN generation does, so that it is recorded with the project's
// IRNs.
func (a *Activities) GenerateIRN(ctx context.Context, in StepInput) error {
	_, err := a.step(ctx, in.RunID, StepGenerateIRN, func(ctx context.Context, r *stepRun) (outcome, error) {
		p, err := r.irn()
		if err != nil {
			return outcome{}, err
		}
		got, err := a.runs.GenerateIRN(ctx, r.run, invoices.IRNInput{
			InvoiceReference: p.InvoiceReference, InvoiceTypeCode: string(r.run.InvoiceType), IssueDate: r.run.IssueDate,
		})
		if err != nil {
			return outcome{}, err
		}
		if got.IRN != r.run.IRN {
			return outcome{}, temporal.NewNonRetryableApplicationError(
				"the service issued "+got.IRN+", not the payload's "+r.run.IRN, ErrInvalid, nil)
		}
		return outcome{message: "IRN " + got.IRN + " issued and recorded (service ID " + got.ServiceID + ")"}, nil
	})
	return err
}

// ValidateIRN has the authority validate the run's IRN.
func (a *Activities) ValidateIRN(ctx context.Context, in StepInput) error {
	err := a.authorityStep(ctx, in.RunID, StepValidateIRN, func(ctx context.Context, r *stepRun, c *mbs.Client) (outcome, error) {
		p, err := r.irn()
		if err != nil {
			return outcome{}, err
		}
		_, call, err := c.ValidateIRN(ctx, mbs.ValidateIRNRequest{
			InvoiceReference: p.InvoiceReference, BusinessID: r.creds.BusinessID, IRN: r.run.IRN,
		})
		return outcome{call: &call, message: "the authority accepts IRN " + r.run.IRN}, err
	})
	return err
}

// ValidateInvoice has the authority validate the run's payload.
func (a *Activities) ValidateInvoice(ctx context.Context, in StepInput) error {
	err := a.authorityStep(ctx, in.RunID, StepValidateInvoice, func(ctx context.Context, r *stepRun, c *mbs.Client) (outcome, error) {
		_, call, err := c.ValidateInvoice(ctx, json.RawMessage(r.run.Payload))
		return outcome{call: &call, message: "the authority validates the invoice"}, err
	})
	return err
}

// SignInvoice has the authority sign (register) the run's invoice. On a
// retry, "duplicate irn" means an earlier attempt signed it: the invoice is
// looked up and the step passes when it is signed.
func (a *Activities) SignInvoice(ctx context.Context, in StepInput) error {
	err := a.authorityStep(ctx, in.RunID, StepSignInvoice, func(ctx context.Context, r *stepRun, c *mbs.Client) (outcome, error) {
		_, call, err := c.SignInvoice(ctx, json.RawMessage(r.run.Payload))
		o := outcome{call: &call, message: "the authority signs the invoice"}
		if err != nil && r.retry && isAnswer(err, http.StatusBadRequest) {
			// The authority serves only signed invoices for download.
			if _, dcall, derr := c.DownloadInvoice(ctx, r.run.IRN); derr == nil {
				return outcome{call: &dcall, message: "an earlier attempt signed the invoice (the authority serves it for download)"}, nil
			}
		}
		return o, err
	})
	return err
}

// BuildQR builds the QR payload of the run's IRN locally, exactly as the
// API's QR generation does. It is pure, so a retry just builds it again.
func (a *Activities) BuildQR(ctx context.Context, in StepInput) (QRResult, error) {
	var res QRResult
	_, err := a.step(ctx, in.RunID, StepBuildQR, func(ctx context.Context, r *stepRun) (outcome, error) {
		qr, err := a.runs.QRCode(ctx, r.run, invoices.QRInput{IRN: r.run.IRN})
		if err != nil {
			return outcome{}, err
		}
		res.QRPayload = qr.QRPayload
		return outcome{message: fmt.Sprintf("%d-character QR payload for %s.%d (%s, key %s)",
			len(qr.QRPayload), qr.IRN, qr.Timestamp, qr.Encryption, qr.KeyFingerprint)}, nil
	}, rerunPassed())
	return res, err
}

// VerifyQR has the NRS sandbox stand-in decrypt the QR payload with the
// business's private key and check its IRN, timestamp and certificate. The
// real NRS has no such endpoint: production runs skip the step.
func (a *Activities) VerifyQR(ctx context.Context, in QRInput) error {
	err := a.authorityStep(ctx, in.RunID, StepVerifyQR, func(ctx context.Context, r *stepRun, c *mbs.Client) (outcome, error) {
		v, call, err := c.VerifyQR(ctx, mbs.QRVerifyRequest{IRN: r.run.IRN, QRPayload: in.QRPayload})
		o := outcome{call: &call}
		if err != nil {
			return o, err
		}
		if !v.Valid {
			var failed []string
			for _, ch := range v.Checks {
				if !ch.Passed {
					failed = append(failed, ch.Name+": "+ch.Message)
				}
			}
			return o, temporal.NewNonRetryableApplicationError("the sandbox rejects the QR payload: "+strings.Join(failed, "; "), ErrRejected, nil)
		}
		names := make([]string, 0, len(v.Checks))
		for _, ch := range v.Checks {
			names = append(names, ch.Name)
		}
		o.message = "the sandbox decrypts the QR payload and its checks pass: " + strings.Join(names, ", ")
		return o, nil
	})
	return err
}

// Transmit has the authority deliver the run's B2B or B2G invoice to the
// buyer. On a retry, "already transmitted" means an earlier attempt did it.
func (a *Activities) Transmit(ctx context.Context, in StepInput) error {
	err := a.authorityStep(ctx, in.RunID, StepTransmit, func(ctx context.Context, r *stepRun, c *mbs.Client) (outcome, error) {
		_, call, err := c.Transmit(ctx, r.run.IRN)
		if err != nil && r.retry && isAnswer(err, http.StatusBadRequest) {
			t, lcall, lerr := c.LookupTransmission(ctx, r.run.IRN)
			if lerr == nil && t.TransmittedAt != "" {
				return outcome{call: &lcall, message: "an earlier attempt transmitted the invoice at " + t.TransmittedAt}, nil
			}
		}
		return outcome{call: &call, message: "the authority transmits the invoice to the buyer"}, err
	})
	return err
}

// LookupTransmission looks the run's transmission up.
func (a *Activities) LookupTransmission(ctx context.Context, in StepInput) error {
	err := a.authorityStep(ctx, in.RunID, StepLookup, func(ctx context.Context, r *stepRun, c *mbs.Client) (outcome, error) {
		t, call, err := c.LookupTransmission(ctx, r.run.IRN)
		return outcome{call: &call, message: fmt.Sprintf("transmitted at %s, delivered %t", t.TransmittedAt, t.Delivered)}, err
	})
	return err
}

// Confirm asks the authority where the run's invoice stands (which
// confirms it).
func (a *Activities) Confirm(ctx context.Context, in StepInput) error {
	err := a.authorityStep(ctx, in.RunID, StepConfirm, func(ctx context.Context, r *stepRun, c *mbs.Client) (outcome, error) {
		st, call, err := c.ConfirmInvoice(ctx, r.run.IRN)
		return outcome{call: &call, message: statusMessage(st)}, err
	})
	return err
}

// UpdatePaid sets the run's invoice's payment status to PAID. On a retry,
// "payment status can no longer change" passes when the invoice is PAID.
func (a *Activities) UpdatePaid(ctx context.Context, in StepInput) error {
	err := a.authorityStep(ctx, in.RunID, StepUpdatePaid, func(ctx context.Context, r *stepRun, c *mbs.Client) (outcome, error) {
		_, call, err := c.UpdatePaymentStatus(ctx, r.run.IRN, mbs.PaymentUpdate{
			PaymentStatus: mbs.PaymentPaid, Reference: "CERT-" + r.run.ID.String()[:8],
		})
		if err != nil && r.retry && isAnswer(err, http.StatusBadRequest) {
			st, ccall, cerr := c.ConfirmInvoice(ctx, r.run.IRN)
			if cerr == nil && st.PaymentStatus == mbs.PaymentPaid {
				return outcome{call: &ccall, message: "an earlier attempt set the payment status to PAID"}, nil
			}
		}
		return outcome{call: &call, message: "payment status set to PAID"}, err
	})
	return err
}

// ConfirmPaid checks that the authority now shows the invoice PAID.
func (a *Activities) ConfirmPaid(ctx context.Context, in StepInput) error {
	err := a.authorityStep(ctx, in.RunID, StepConfirmPaid, func(ctx context.Context, r *stepRun, c *mbs.Client) (outcome, error) {
		st, call, err := c.ConfirmInvoice(ctx, r.run.IRN)
		o := outcome{call: &call, message: statusMessage(st)}
		if err == nil && st.PaymentStatus != mbs.PaymentPaid {
			err = temporal.NewApplicationError("the authority shows payment status "+st.PaymentStatus+", not PAID yet", ErrNotYet)
		}
		return o, err
	})
	return err
}

// NegativeProbe proves that the authority checks IRNs: the run's IRN with
// a wrong service ID must be refused by irn/validate. The refusal is the
// step's success.
func (a *Activities) NegativeProbe(ctx context.Context, in StepInput) error {
	err := a.authorityStep(ctx, in.RunID, StepNegativeProbe, func(ctx context.Context, r *stepRun, c *mbs.Client) (outcome, error) {
		p, err := r.irn()
		if err != nil {
			return outcome{}, err
		}
		p.ServiceID = wrongServiceID(r.creds.ServiceID)
		bad := p.String()
		_, call, err := c.ValidateIRN(ctx, mbs.ValidateIRNRequest{
			InvoiceReference: p.InvoiceReference, BusinessID: r.creds.BusinessID, IRN: bad,
		})
		o := outcome{call: &call}
		var me *mbs.Error
		switch {
		case err == nil:
			return o, temporal.NewNonRetryableApplicationError(
				"the authority accepted "+bad+", an IRN with a wrong service ID", ErrRejected, nil)
		case errors.As(err, &me) && me.HTTPStatus >= 400 && me.HTTPStatus < 500 && !me.Retryable():
			o.message = "the authority refuses " + bad + " (wrong service ID), as it must: " + authorityMessage(me)
			return o, nil
		}
		return o, err
	})
	return err
}

// statusMessage describes an invoice's standing at the authority.
func statusMessage(st mbs.InvoiceStatus) string { return st.Summary() }

// outcome is what a step reports for its evidence besides its error.
type outcome struct {
	call    *mbs.Call
	message string
}

// stepRun is what a step works with, loaded once per attempt.
type stepRun struct {
	a     *Activities
	run   *model.CertificationRun
	creds *authority.Credentials
	mbs   *mbs.Client
	// retry is set on the second and later attempts.
	retry bool
}

func (r *stepRun) credentials(ctx context.Context) (*authority.Credentials, error) {
	if r.creds != nil {
		return r.creds, nil
	}
	c, err := r.a.runs.Credentials(ctx, r.run)
	if err != nil {
		return nil, err
	}
	r.creds = c
	return c, nil
}

func (r *stepRun) client(ctx context.Context) (*mbs.Client, error) {
	if r.mbs != nil {
		return r.mbs, nil
	}
	creds, err := r.credentials(ctx)
	if err != nil {
		return nil, err
	}
	if err := creds.RequireAPI(); err != nil {
		return nil, err
	}
	c, err := r.a.mbs(creds)
	if err != nil {
		return nil, model.Wrap(model.CodeAuthorityNotConfigured, err, "the project's tax authority API settings are unusable")
	}
	r.mbs = c
	return c, nil
}

// irn parses the run's IRN, which BuildPayload recorded.
func (r *stepRun) irn() (nrs.IRN, error) {
	if r.run.IRN == "" || r.run.Payload == "" {
		return nrs.IRN{}, temporal.NewNonRetryableApplicationError("the run has no payload yet", ErrInvalid, nil)
	}
	p, err := nrs.ParseIRN(r.run.IRN)
	if err != nil {
		return nrs.IRN{}, err
	}
	return p, nil
}

// stepOption changes how step treats a step.
type stepOption func(*stepOptions)

type stepOptions struct{ rerun bool }

// rerunPassed runs a step again even when its evidence says it passed:
// for pure steps whose result the evidence does not keep.
func rerunPassed() stepOption { return func(o *stepOptions) { o.rerun = true } }

// evidenceTimeout bounds an evidence write, which outlives a cancelled
// activity so that the cancellation is recorded too.
const evidenceTimeout = 5 * time.Second

// maxMessage bounds an evidence message.
const maxMessage = 1000

// step runs one step of a run and records its evidence. It reports
// skipped when the evidence says the step already passed (an earlier
// attempt did the work but did not get to report it), in which case fn is
// authorityStep is step for a step that talks to the authority: fn gets
// the project's NRS client.
func (a *Activities) authorityStep(ctx context.Context, runID uuid.UUID, name string, fn func(context.Context, *stepRun, *mbs.Client) (outcome, error), opts ...stepOption) error {
	_, err := a.step(ctx, runID, name, func(ctx context.Context, r *stepRun) (outcome, error) {
		c, err := r.client(ctx)
		if err != nil {
			return outcome{}, err
		}
		return fn(ctx, r, c)
	}, opts...)
	return err
}

// not called.
func (a *Activities) step(ctx context.Context, runID uuid.UUID, name string, fn func(context.Context, *stepRun) (outcome, error), opts ...stepOption) (skipped bool, err error) {
	var o stepOptions
	for _, opt := range opts {
		opt(&o)
	}
	info := activity.GetInfo(ctx)
	stop := heartbeat(ctx, info.HeartbeatTimeout)
	defer stop()
	run, err := a.runs.Run(ctx, runID)
	if err != nil {
		return false, a.classify(ctx, err)
	}
	if !o.rerun {
		prev, err := a.runs.Step(ctx, runID, name)
		switch {
		case err == nil && prev.Status == model.StepPassed:
			return true, nil
		case err != nil && model.ErrorCodeOf(err) != model.CodeNotFound:
			return false, a.classify(ctx, err)
		}
	}
	if run.Status.Final() {
		// An activity that outlived its run (cancelled, failed) does
		// nothing and writes nothing.
		return false, runOver(run.Status)
	}
	started := a.now().UTC().Truncate(time.Microsecond)
	ev := &model.CertificationStep{RunID: runID, Name: name, Seq: stepSeq[name], Status: model.StepRunning,
		Attempts: int(info.Attempt), StartedAt: started}
	if err := a.record(ctx, ev); errors.Is(err, model.ErrRunOver) {
		return false, runOver("")
	}

	sr := &stepRun{a: a, run: run, retry: info.Attempt > 1}
	out, ferr := fn(ctx, sr)
	finished := a.now().UTC().Truncate(time.Microsecond)
	ms := finished.Sub(started).Milliseconds()
	ev.FinishedAt, ev.DurationMS = &finished, &ms
	if out.call != nil && out.call.HTTPStatus != 0 {
		status := out.call.HTTPStatus
		ev.HTTPStatus = &status
	}
	if out.call != nil {
		ev.NRSErrorID = out.call.ErrorID
	}
	if ferr == nil {
		ev.Status, ev.Message = model.StepPassed, clip(out.message+passedNote(info))
		// A step passed only once its evidence says so: when the write
		// fails (the database is unreachable) the attempt fails and is
		// retried, and the step, idempotent, is done again.
		if err := a.record(ctx, ev); err != nil && !errors.Is(err, model.ErrRunOver) {
			return false, a.classify(ctx, err)
		}
		return false, nil
	}
	if cancelled(ctx) {
		// The run was cancelled (or its workflow is gone): this step ends
		// here and is not retried.
		ev.Status, ev.Message = model.StepFailed, clip("cancelled: the run was cancelled while the step ran"+attemptNote(info))
		_ = a.record(ctx, ev)
		return false, ctx.Err()
	}
	err = a.classify(ctx, ferr)
	if sr.creds != nil && sr.creds.Environment == model.EnvironmentSandbox && isAnswer(ferr, http.StatusNotFound) {
		err = temporal.NewNonRetryableApplicationError(errorMessage(err)+forgottenHint, ErrRejected, nil)
	}
	ev.Status, ev.Message = model.StepRetrying, clip(errorMessage(err)+attemptNote(info))
	var app *temporal.ApplicationError
	if errors.As(err, &app) && app.NonRetryable() || lastAttempt(info) {
		ev.Status = model.StepFailed
	}
	_ = a.record(ctx, ev)
	return false, err
}

// forgottenHint explains a sandbox invoice the stand-in no longer knows.
const forgottenHint = " (the NRS sandbox stand-in does not hold this invoice: its database was reset, or the business's oldest invoices made room for newer ones; start a new run)"

// runOver is the error of a step of a run that has already ended: it is
// not done, and not retried.
func runOver(status model.RunStatus) error {
	msg := "the run is over"
	if status != "" {
		msg = "the run is " + string(status)
	}
	return temporal.NewNonRetryableApplicationError(msg+": the step is not done", ErrRunOver, nil)
}

// cancelled reports whether the activity was cancelled by Temporal (the
// run's cancellation reached it through a heartbeat, or its workflow is
// gone), as opposed to its worker stopping, after which the step is
// retried elsewhere.
func cancelled(ctx context.Context) bool {
	if !errors.Is(ctx.Err(), context.Canceled) {
		return false
	}
	select {
	case <-activity.GetWorkerStopChannel(ctx):
		return false
	default:
		return true
	}
}

// attemptNote says which attempt a step's evidence reports, counted as
// Temporal counts them (the attempt the Web UI and the CLI show), with the
// most the retry policy allows. The HTTP requests the authority's client
// repeats within one attempt are counted apart, in the call's own message.
func attemptNote(info activity.Info) string {
	note := fmt.Sprintf(" [attempt %d", info.Attempt)
	if info.RetryPolicy != nil && info.RetryPolicy.MaximumAttempts > 0 {
		note += fmt.Sprintf(" of %d", info.RetryPolicy.MaximumAttempts)
	}
	return note + " (Temporal activity attempt)]"
}

// passedNote is attemptNote for a step that passed after a retry.
func passedNote(info activity.Info) string {
	if info.Attempt <= 1 {
		return ""
	}
	return attemptNote(info)
}

// record writes evidence. A failure is logged, never the step's result; it
// is returned so that a step of a run that is over (model.ErrRunOver)
// stops.
func (a *Activities) record(ctx context.Context, ev *model.CertificationStep) error {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), evidenceTimeout)
	defer cancel()
	err := a.runs.Record(wctx, ev)
	switch {
	case errors.Is(err, model.ErrRunOver):
		a.log.InfoContext(ctx, "certification evidence refused: the run is over", "run_id", ev.RunID.String(), "step", ev.Name, "status", string(ev.Status))
	case err != nil:
		a.log.WarnContext(ctx, "certification evidence not recorded", "run_id", ev.RunID.String(), "step", ev.Name, "error", err.Error())
	}
	return err
}

// lastAttempt reports whether the retry policy allows no further attempt.
func lastAttempt(info activity.Info) bool {
	return info.RetryPolicy != nil && info.RetryPolicy.MaximumAttempts > 0 && info.Attempt >= info.RetryPolicy.MaximumAttempts
}

// heartbeat keeps telling Temporal that the activity is alive while a slow
// call runs, so that a worker that dies mid-step is noticed within the
// heartbeat timeout instead of the much longer start-to-close timeout.
func heartbeat(ctx context.Context, timeout time.Duration) (stop func()) {
	if timeout <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(timeout / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { close(done) }
}

// classify turns a step's failure into the application error Temporal
// acts on. Rejections (a 4xx answer of the authority, input einvoice
// refuses) are non-retryable; an unavailable authority (429, 5xx,
// timeouts, connection errors) and transient failures here are retried,
// after the authority's Retry-After when it sent one.
func (a *Activities) classify(ctx context.Context, err error) error {
	return giveUp(a.classifyError(ctx, err), activity.GetInfo(ctx).Attempt)
}

// AuthorityAttempts bounds the attempts of a step whose authority stays
// unavailable (ErrUnavailable) or not ready (ErrNotYet), or that fails
// with an internal error (ErrInternal): the retry policy
// sets no limit, so that infrastructure errors are retried until the
// run's deadline, and the activities make these final themselves.
const AuthorityAttempts = 8

// giveUp makes a retryable authority failure final once attempt reaches
// AuthorityAttempts; infrastructure errors and every other error pass
// unchanged.
func giveUp(err error, attempt int32) error {
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.NonRetryable() || attempt < AuthorityAttempts {
		return err
	}
	if t := app.Type(); t == ErrUnavailable || t == ErrNotYet || t == ErrInternal {
		return temporal.NewNonRetryableApplicationError(app.Message(), t, nil)
	}
	return err
}

// classifyError is classify without the attempt bound.
func (a *Activities) classifyError(ctx context.Context, err error) error {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return err
	}
	var me *mbs.Error
	if errors.As(err, &me) {
		msg := authorityMessage(me)
		if me.Retryable() || me.Canceled {
			return temporal.NewApplicationErrorWithOptions(msg, ErrUnavailable, temporal.ApplicationErrorOptions{NextRetryDelay: me.RetryAfter})
		}
		return temporal.NewNonRetryableApplicationError(msg, ErrRejected, nil)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return temporal.NewApplicationError("the step was interrupted: "+err.Error(), ErrInfrastructure)
	}
	if errors.Is(err, model.ErrRunOver) {
		return runOver("")
	}
	var e *model.Error
	if errors.As(err, &e) {
		switch e.Code {
		case model.CodeUnavailable, model.CodeRateLimited:
			return temporal.NewApplicationError(e.Message, ErrInfrastructure)
		case model.CodeInternal:
			if ue := model.AsError(e.Err); ue != nil && ue.Code == model.CodeUnavailable {
				return temporal.NewApplicationError(ue.Message, ErrInfrastructure)
			}
			a.log.ErrorContext(ctx, "certification step failed", "error", err.Error())
			return temporal.NewApplicationError("internal error", ErrInternal)
		}
		msg := e.Message
		if len(e.Fields) > 0 {
			parts := make([]string, 0, len(e.Fields))
			for _, f := range e.Fields {
				parts = append(parts, fmt.Sprintf("%v: %s", f.Loc, f.Msg))
			}
			msg = strings.Join(parts, "; ")
		}
		return temporal.NewNonRetryableApplicationError(msg, ErrInvalid, nil)
	}
	if ue := model.AsError(err); ue.Code == model.CodeUnavailable {
		return temporal.NewApplicationError(ue.Message, ErrInfrastructure)
	}
	a.log.ErrorContext(ctx, "certification step failed", "error", err.Error())
	return temporal.NewApplicationError("internal error", ErrInternal)
}

// authorityMessage describes a failed authority call for the evidence
// (mbs.Describe).
func authorityMessage(me *mbs.Error) string { return mbs.Describe(me) }

// errorMessage is the text of a classified error, without the SDK's
// decorations.
func errorMessage(err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return app.Message()
	}
	return err.Error()
}

// isAnswer reports whether err is the authority's answer with status.
func isAnswer(err error, status int) bool {
	return answerStatus(err) == status
}

// answerStatus is the HTTP status of the authority's answer err carries:
// a *submissions.CallError's (an invoice's call through the gateway) or an
// *mbs.Error's (a certification run's); 0 when there is none.
func answerStatus(err error) int {
	var ce *submissions.CallError
	if errors.As(err, &ce) {
		return ce.Status
	}
	var me *mbs.Error
	if errors.As(err, &me) {
		return me.HTTPStatus
	}
	return 0
}

// issues summarizes validation errors for a message.
func issues(list []model.Issue) string {
	const max = 5
	parts := make([]string, 0, max)
	for i, is := range list {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(list)-max))
			break
		}
		parts = append(parts, is.Rule+" at "+is.Path+": "+is.Message)
	}
	return strings.Join(parts, "; ")
}

func clip(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	return s[:maxMessage-3] + "..."
}
