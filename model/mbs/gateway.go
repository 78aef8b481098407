package mbs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// Gateway is NRS as invoice submission reaches it: it implements
// submissions.Gateway over the projects' clients and the process's
// circuit breakers. Its connections make NRS's calls (irn/validate,
// invoice/validate, sign, transmit, confirm, payment update, the
// post-payment report) and describe each as a submissions.Exchange.
type Gateway struct {
	clients  func(c *authority.Credentials) (*Client, error)
	breakers *Breakers
}

// NewGateway builds the gateway over clients, the builder of a project's
// client (which must not repeat a call on its own: a call whose answer was
// lost is settled by the caller), and breakers, the ones those clients go
// through (nil: none).
func NewGateway(clients func(c *authority.Credentials) (*Client, error), breakers *Breakers) *Gateway {
	return &Gateway{clients: clients, breakers: breakers}
}

// Open builds the connection of a project.
func (g *Gateway) Open(creds *authority.Credentials) (submissions.Connection, error) {
	c, err := g.clients(creds)
	if err != nil {
		return nil, err
	}
	return &connection{c: c, creds: creds}, nil
}

// beginOps are the endpoints an invoice calls before it is signed: while
// one of their breakers is not closed, a queued invoice stays queued.
var beginOps = []Operation{OpValidateIRN, OpValidateInvoice, OpSignInvoice}

// Hold is how long a queued invoice of env should wait before trying
// again on its own (0: it need not wait): while a breaker of its
// environment's first endpoints is open or probing, until it probes, at
// least a second.
func (g *Gateway) Hold(env model.Environment) time.Duration {
	if g.breakers == nil {
		return 0
	}
	var wait time.Duration
	now := g.breakers.Now()
	for _, s := range g.breakers.Snapshot() {
		if s.Environment != string(env) || s.State == BreakerClosed || !slices.Contains(beginOps, s.Operation) {
			continue
		}
		w := s.Until.Sub(now)
		wait = max(wait, w, time.Second)
	}
	return wait
}

// connection is one project's calls to NRS.
type connection struct {
	c     *Client
	creds *authority.Credentials
}

// Steps: irn/validate, invoice/validate, sign, transmit (B2B and B2G),
// confirm.
func (cn *connection) Steps(kind model.InvoiceKind) []string {
	steps := []string{submissions.CallValidateIRN, submissions.CallValidatePayload, model.CallSign}
	if kind.Transmitted() {
		steps = append(steps, model.CallTransmit)
	}
	return append(steps, submissions.CallConfirm)
}

// Validate calls irn/validate or invoice/validate.
func (cn *connection) Validate(ctx context.Context, inv *model.SubmittedInvoice, call string) (*submissions.Exchange, error) {
	switch call {
	case submissions.CallValidateIRN:
		p, err := nrs.ParseIRN(inv.IRN)
		if err != nil {
			return &submissions.Exchange{}, model.Errorf(model.CodeInvalid, "the invoice's IRN %s cannot be read", inv.IRN)
		}
		req := ValidateIRNRequest{InvoiceReference: p.InvoiceReference, BusinessID: cn.creds.BusinessID, IRN: inv.IRN}
		ack, c, err := cn.c.ValidateIRN(ctx, req)
		return cn.exchange(c, req, ack.Data, err)
	case submissions.CallValidatePayload:
		ack, c, err := cn.c.ValidateInvoice(ctx, json.RawMessage(inv.Payload))
		return cn.exchange(c, inv.Payload, ack.Data, err)
	}
	return &submissions.Exchange{}, model.Errorf(model.CodeInternal, "NRS has no check %q", call)
}

// Send signs or transmits.
func (cn *connection) Send(ctx context.Context, inv *model.SubmittedInvoice, call string) (*submissions.Exchange, error) {
	switch call {
	case model.CallSign:
		ack, c, err := cn.c.SignInvoice(ctx, json.RawMessage(inv.Payload))
		return cn.exchange(c, inv.Payload, ack.Data, err)
	case model.CallTransmit:
		ack, c, err := cn.c.Transmit(ctx, inv.IRN)
		return cn.exchange(c, nil, ack.Data, err)
	}
	return &submissions.Exchange{}, model.Errorf(model.CodeInternal, "NRS has no call %q", call)
}

// Find asks confirm whether a sign went through, and the transmission
// lookup whether a transmit did.
func (cn *connection) Find(ctx context.Context, inv *model.SubmittedInvoice, call string) (bool, *submissions.Exchange, error) {
	switch call {
	case model.CallSign:
		st, c, err := cn.c.ConfirmInvoice(ctx, inv.IRN)
		ex, err := cn.exchange(c, nil, st.Data, err)
		return err == nil, ex, err
	case model.CallTransmit:
		t, c, err := cn.c.LookupTransmission(ctx, inv.IRN)
		ex, err := cn.exchange(c, nil, t.Data, err)
		return err == nil && (t.Transmitted || t.TransmittedAt != ""), ex, err
	}
	return false, &submissions.Exchange{}, model.Errorf(model.CodeInternal, "NRS has no call %q", call)
}

// Confirm calls invoice/confirm.
func (cn *connection) Confirm(ctx context.Context, inv *model.SubmittedInvoice) (submissions.Confirmation, *submissions.Exchange, error) {
	st, c, err := cn.c.ConfirmInvoice(ctx, inv.IRN)
	ex, err := cn.exchange(c, nil, st.Data, err)
	return submissions.Confirmation{QRCode: st.QRCodeData, Message: st.Summary()}, ex, err
}

// UpdatePayment calls invoice/update.
func (cn *connection) UpdatePayment(ctx context.Context, inv *model.SubmittedInvoice, in submissions.PaymentInput) (*submissions.Exchange, error) {
	req := PaymentUpdate{PaymentStatus: in.PaymentStatus, Reference: in.Reference}
	ack, c, err := cn.c.UpdatePaymentStatus(ctx, inv.IRN, req)
	return cn.exchange(c, req, ack.Data, err)
}

// ReportOperations are the report's two routes.
func (cn *connection) ReportOperations() []string {
	return []string{string(OpReport), string(OpPostPayment)}
}

// Report sends the post-payment VAT report (SendReport).
func (cn *connection) Report(ctx context.Context, inv *model.SubmittedInvoice, paidAt time.Time) (*submissions.Exchange, error) {
	rep, err := paymentReport(inv, cn.creds.ServiceID, paidAt)
	if err != nil {
		return &submissions.Exchange{}, model.Errorf(model.CodeInvalid, "the invoice's report cannot be built: %s", err.Error())
	}
	ans, c, err := SendReport(ctx, cn.c, rep)
	return cn.exchange(c, rep, ans.Data, err)
}

// exchange describes a finished call for the invoice's log, without
// secrets: the request body sent, NRS's answer (its data, or its error
// envelope), timing and status; and turns an *Error into the
// *submissions.CallError the activities act on.
func (cn *connection) exchange(c Call, request any, data json.RawMessage, err error) (*submissions.Exchange, error) {
	ex := &submissions.Exchange{Operation: string(c.Operation), Duration: c.Duration,
		LatencyMS: c.Duration.Milliseconds(), HTTPStatus: c.HTTPStatus, NRSErrorID: c.ErrorID}
	switch r := request.(type) {
	case nil:
	case string:
		ex.Request = r
	default:
		b, _ := json.Marshal(r)
		ex.Request = string(b)
	}
	var me *Error
	switch {
	case err == nil:
		ex.Response = string(data)
		ex.Message = c.Method + " " + c.Path + ": HTTP " + strconv.Itoa(c.HTTPStatus)
	case errors.As(err, &me):
		if me.HTTPStatus != 0 {
			b, _ := json.Marshal(map[string]any{"code": me.HTTPStatus, "message": me.Message, "error": map[string]any{
				"id": me.ID, "handler": me.Handler, "details": me.Details, "public_message": me.PublicMessage}})
			ex.Response = string(b)
		}
		ex.Message = Describe(me)
	default:
		ex.Message = err.Error()
	}
	ex.Request, ex.Response, ex.Message = cn.redact(ex.Request), cn.redact(ex.Response), cn.redact(ex.Message)
	if me != nil {
		err = &submissions.CallError{Status: me.HTTPStatus, ID: me.ID, Message: cn.redact(Describe(me)),
			RetryAfter: me.RetryAfter, Retryable: me.Retryable(), NotSent: notSent(me), Err: err}
	}
	return ex, err
}

// redact removes the project's API key and secret from a text.
func (cn *connection) redact(s string) string {
	for _, secret := range []string{cn.creds.APIKey, cn.creds.APISecret} {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, "[REDACTED]")
		}
	}
	return s
}

// notSent reports a call that certainly never reached NRS: refused by an
// open circuit breaker, held back by a 429's pace, answered 429 (a refusal
// before any work), or a connection that could not be made.
func notSent(me *Error) bool {
	if me.BreakerOpen || me.Paced || me.HTTPStatus == http.StatusTooManyRequests {
		return true
	}
	var op *net.OpError
	return me.HTTPStatus == 0 && errors.As(me.Err, &op) && op.Op == "dial"
}

// Describe describes a failed call for an invoice's log or a run's
// evidence: the call, the HTTP status and the fields of NRS's own error
// envelope (message, public message, details, error id). An answer that is
// not NRS's envelope (a proxy's page, an internal service's error, a
// redirect) is described by its status alone: its body is never recorded,
// so that a destination can never copy what it holds into a tenant's
// evidence.
func Describe(me *Error) string {
	e := *me
	foreign := e.HTTPStatus != 0 && e.Code == 0 && e.Message == "" && e.ID == "" && e.Handler == "" &&
		e.PublicMessage == "" && e.RawDetails == nil
	if foreign {
		e.Details = ""
	}
	msg := strings.TrimPrefix(e.Error(), "mbs: ")
	if foreign {
		msg += " (the answer is not NRS's error format; its body is not recorded)"
	}
	return msg
}

// Summary describes an invoice's standing at NRS.
func (st InvoiceStatus) Summary() string {
	return fmt.Sprintf("invoice %s: payment %s, transmitted %t, delivered %t", st.IRN, st.PaymentStatus, st.Transmitted, st.Delivered)
}
