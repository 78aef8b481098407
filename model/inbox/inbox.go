// Package inbox is the buyer's side of NRS's exchange: the invoices
// suppliers transmit to a project's business, which a pull (a durable
// workflow per project, on a schedule and on demand) lists, downloads,
// opens, stores once by IRN and confirms to NRS exactly once. It is the one
// writer of received invoices: Steps for the pull's activities, Service for
// the API (list, read, decide, pull now).
//
// NRS publishes no accept or reject call for a buyer: a decision is
// recorded here (with its event and webhook) and not sent to NRS.
package inbox

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/events"
	"github.com/einvoice-ng/einvoice/model/store"
)

// MaxDocumentBytes bounds a stored invoice document.
const MaxDocumentBytes = 1 << 20

// Starter starts a project's pull (implemented by the workflows); starting
// one while one runs joins it.
type Starter interface {
	StartInboxPull(ctx context.Context, projectID uuid.UUID) (string, error)
}

// Config configures the inbox.
type Config struct {
	// Authority gives each project's credentials (for the pull).
	Authority *authority.Directory
	// Engine starts pulls on demand; nil answers unavailable.
	Engine Starter
	Now    func() time.Time
	Logger *slog.Logger
}

func (c *Config) defaults() {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
}

// View is a received invoice as the API shows it; Document only when one
// invoice is read.
type View struct {
	ID              uuid.UUID       `json:"id"`
	ProjectID       uuid.UUID       `json:"project_id"`
	IRN             string          `json:"irn"`
	SupplierTIN     string          `json:"supplier_tin"`
	SupplierName    string          `json:"supplier_name"`
	CustomerTIN     string          `json:"customer_tin"`
	InvoiceTypeCode string          `json:"invoice_type_code"`
	InvoiceKind     string          `json:"invoice_kind,omitempty"`
	IssueDate       string          `json:"issue_date"`
	DueDate         string          `json:"due_date,omitempty"`
	Currency        string          `json:"currency"`
	PayableAmount   string          `json:"payable_amount"`
	PaymentStatus   string          `json:"payment_status,omitempty"`
	Sealed          bool            `json:"sealed"`
	Confirmed       bool            `json:"confirmed"`
	ConfirmedAt     *time.Time      `json:"confirmed_at"`
	Decision        *string         `json:"decision"`
	DecisionReason  string          `json:"decision_reason,omitempty"`
	DecidedAt       *time.Time      `json:"decided_at"`
	ReceivedAt      time.Time       `json:"received_at"`
	Document        json.RawMessage `json:"document,omitempty"`
}

// ViewOf shows a received invoice; withDocument adds its document.
func ViewOf(r *model.ReceivedInvoice, withDocument bool) *View {
	v := &View{ID: r.ID, ProjectID: r.ProjectID, IRN: r.IRN, SupplierTIN: r.SupplierTIN, SupplierName: r.SupplierName,
		CustomerTIN: r.CustomerTIN, InvoiceTypeCode: r.InvoiceTypeCode, InvoiceKind: r.InvoiceKind, IssueDate: r.IssueDate,
		DueDate: r.DueDate, Currency: r.Currency, PayableAmount: r.PayableAmount, PaymentStatus: r.PaymentStatus,
		Sealed: r.Sealed, Confirmed: r.ConfirmedAt != nil, ConfirmedAt: r.ConfirmedAt, DecisionReason: r.DecisionReason,
		DecidedAt: r.DecidedAt, ReceivedAt: r.ReceivedAt}
	if r.Decision != "" {
		d := r.Decision
		v.Decision = &d
	}
	if withDocument && r.Document != "" {
		v.Document = json.RawMessage(r.Document)
	}
	return v
}

// Steps are the pull's entry points: the activities call them, and each is
// safe to repeat.
type Steps struct {
	st  *store.Store
	cfg Config
}

// NewSteps builds the pull's steps over st.
func NewSteps(st *store.Store, cfg Config) *Steps {
	cfg.defaults()
	return &Steps{st: st, cfg: cfg}
}

// Credentials are the project's credentials at its tax authority.
func (s *Steps) Credentials(ctx context.Context, projectID uuid.UUID) (*authority.Credentials, error) {
	return s.cfg.Authority.Credentials(ctx, projectID)
}

// Has reports whether the project holds the IRN already.
func (s *Steps) Has(ctx context.Context, projectID uuid.UUID, irn string) (bool, error) {
	_, err := store.Received(s.st).ByIRN(ctx, projectID, irn)
	switch {
	case err == nil:
		return true, nil
	case model.ErrorCodeOf(err) == model.CodeNotFound:
		return false, nil
	}
	return false, err
}

// ErrForeign is returned by Store for an invoice that names neither the
// project's business nor its TIN as buyer.
var ErrForeign = errors.New("inbox: the downloaded invoice is not addressed to this project's business")

// Store records a downloaded invoice in the project's inbox unless its IRN
// is there already, with its received_invoice.received event in the same
// transaction; it answers the stored invoice and whether this call stored
// it. buyerTIN, when known, must be the invoice's customer TIN.
func (s *Steps) Store(ctx context.Context, projectID uuid.UUID, irn string, document []byte, sealed bool, buyerTIN string) (*View, bool, error) {
	if len(document) > MaxDocumentBytes || !json.Valid(document) {
		return nil, false, model.Errorf(model.CodeInvalid, "the downloaded invoice %s is not a JSON document of at most %d bytes", irn, MaxDocumentBytes)
	}
	var doc struct {
		IRN                     string `json:"irn"`
		InvoiceTypeCode         string `json:"invoice_type_code"`
		InvoiceKind             string `json:"invoice_kind"`
		IssueDate               string `json:"issue_date"`
		DueDate                 string `json:"due_date"`
		DocumentCurrencyCode    string `json:"document_currency_code"`
		PaymentStatus           string `json:"payment_status"`
		AccountingSupplierParty struct {
			TIN       string `json:"tin"`
			PartyName string `json:"party_name"`
		} `json:"accounting_supplier_party"`
		AccountingCustomerParty struct {
			TIN string `json:"tin"`
		} `json:"accounting_customer_party"`
		LegalMonetaryTotal struct {
			PayableAmount json.Number `json:"payable_amount"`
		} `json:"legal_monetary_total"`
	}
	if err := json.Unmarshal(document, &doc); err != nil {
		return nil, false, model.Errorf(model.CodeInvalid, "the downloaded invoice %s is not an invoice: %v", irn, err)
	}
	if doc.IRN != "" && doc.IRN != irn {
		return nil, false, model.Errorf(model.CodeInvalid, "the download of %s holds the invoice %s", irn, doc.IRN)
	}
	if buyerTIN != "" && doc.AccountingCustomerParty.TIN != "" && !strings.EqualFold(buyerTIN, doc.AccountingCustomerParty.TIN) {
		return nil, false, ErrForeign
	}
	now := model.StoredTime(s.cfg.Now())
	row := &model.ReceivedInvoice{ID: model.NewID(), ProjectID: projectID, IRN: irn, SupplierTIN: doc.AccountingSupplierParty.TIN,
		SupplierName: doc.AccountingSupplierParty.PartyName, CustomerTIN: doc.AccountingCustomerParty.TIN,
		InvoiceTypeCode: doc.InvoiceTypeCode, InvoiceKind: doc.InvoiceKind, IssueDate: doc.IssueDate, DueDate: doc.DueDate,
		Currency: doc.DocumentCurrencyCode, PayableAmount: doc.LegalMonetaryTotal.PayableAmount.String(),
		PaymentStatus: doc.PaymentStatus, Sealed: sealed, Document: string(document), ReceivedAt: now, UpdatedAt: now}
	stored := false
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		inserted, err := store.Received(tx).Insert(ctx, row)
		if err != nil || !inserted {
			return err
		}
		stored = true
		return appendEvent(ctx, tx, row, model.EventReceivedInvoiceReceived, now)
	})
	if err != nil {
		return nil, false, err
	}
	if !stored {
		row, err = store.Received(s.st).ByIRN(ctx, projectID, irn)
		if err != nil {
			return nil, false, err
		}
	}
	return ViewOf(row, false), stored, nil
}

// Unconfirmed lists the IRNs of the project's received invoices whose
// receipt is not confirmed yet, oldest first.
func (s *Steps) Unconfirmed(ctx context.Context, projectID uuid.UUID, limit int) ([]string, error) {
	rows, err := store.Received(s.st).Unconfirmed(ctx, projectID, limit)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.IRN)
	}
	return out, nil
}

// Confirmed marks the receipt of a stored invoice confirmed to NRS, once,
// with its received_invoice.confirmed event; a second call changes nothing.
func (s *Steps) Confirmed(ctx context.Context, projectID uuid.UUID, irn string) error {
	return s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		row, err := store.Received(tx).ByIRN(ctx, projectID, irn)
		if err != nil || row.ConfirmedAt != nil {
			return err
		}
		now := model.StoredTime(s.cfg.Now())
		row.ConfirmedAt, row.UpdatedAt = &now, now
		if err := store.Received(tx).Save(ctx, row); err != nil {
			return err
		}
		return appendEvent(ctx, tx, row, model.EventReceivedInvoiceConfirmed, now)
	})
}

func appendEvent(ctx context.Context, tx *store.Store, row *model.ReceivedInvoice, typ string, at time.Time) error {
	pr, err := tx.Projects().ByID(ctx, row.ProjectID)
	if err != nil {
		return err
	}
	return events.Append(ctx, tx, events.Source{ProjectID: row.ProjectID, OrganizationID: pr.OrganizationID}, typ, ViewOf(row, false), at)
}

// DefaultPullInterval is how often every configured project's inbox is
// pulled by Schedule.
const DefaultPullInterval = 5 * time.Minute

// Schedule starts the pull of every configured project every interval
// (DefaultPullInterval when zero or less) until ctx ends. Several worker
// processes may run it: a project's pull runs once at a time (its workflow
// id is the project's), so a second start joins the first.
func (s *Steps) Schedule(ctx context.Context, interval time.Duration, engine Starter) {
	if interval <= 0 {
		interval = DefaultPullInterval
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		s.PullAll(ctx, engine)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// PullAll starts the pull of every configured project once.
func (s *Steps) PullAll(ctx context.Context, engine Starter) {
	after := uuid.Nil
	for ctx.Err() == nil {
		page, err := s.st.Projects().Configured(ctx, after, 200)
		if err != nil {
			s.cfg.Logger.WarnContext(ctx, "inbox: listing the projects to pull failed", "error", err)
			return
		}
		for _, p := range page {
			if _, err := engine.StartInboxPull(ctx, p.ID); err != nil {
				s.cfg.Logger.WarnContext(ctx, "inbox: starting a pull failed", "project_id", p.ID, "error", err)
			}
		}
		if len(page) < 200 {
			return
		}
		after = page[len(page)-1].ID
	}
}
