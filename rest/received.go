package rest

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/inbox"
	"github.com/einvoice-ng/einvoice/model/invoices"
)

// receivedRoutes declares the inbox's routes (API key credentials): the
// invoices suppliers transmitted to the project's business through NRS,
// read, searched, rendered, decided on, and pulled now. They share the
// invoices' in-flight bound.
func (a *api) receivedRoutes(r chi.Router, submit, read func(op string) func(http.Handler) http.Handler) {
	r.With(read("received_invoices.list")).Get("/received-invoices", a.adapt(a.listReceived))
	r.With(submit("received_invoices.pull")).Post("/received-invoices/pull", a.adapt(a.pullReceived))
	r.With(read("received_invoices.get")).Get("/received-invoices/{received_invoice_id}", a.adapt(a.getReceived))
	r.With(read("received_invoices.pdf")).Get("/received-invoices/{received_invoice_id}/pdf", a.adapt(a.receivedPDF))
	r.With(submit("received_invoices.decide")).Post("/received-invoices/{received_invoice_id}/decision", a.adapt(a.decideReceived))
}

func (a *api) listReceived(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	in := inbox.ListInput{IRN: q.Get("irn"), SupplierTIN: q.Get("supplier_tin"), Decision: q.Get("decision"),
		Confirmed: q.Get("confirmed"), IssueDateFrom: q.Get("issue_date_from"), IssueDateTo: q.Get("issue_date_to"),
		ReceivedFrom: q.Get("received_from"), ReceivedTo: q.Get("received_to")}
	page, err := pageQuery(r)
	if err != nil {
		return err
	}
	in.PageInput = page
	out, err := a.app.Inbox.List(r.Context(), keyFrom(r), in)
	return reply(w, "query", out, err)
}

func (a *api) getReceived(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "received_invoice_id")
	if err != nil {
		return err
	}
	out, err := a.app.Inbox.Get(r.Context(), keyFrom(r), id)
	return reply(w, "path", out, err)
}

func (a *api) decideReceived(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "received_invoice_id")
	if err != nil {
		return err
	}
	var in inbox.DecideInput
	if err := decodeJSON(r, &in, func(*model.Problems) {}); err != nil {
		return err
	}
	out, err := a.app.Inbox.Decide(r.Context(), keyFrom(r), id, in)
	return reply(w, "body", out, err)
}

func (a *api) pullReceived(w http.ResponseWriter, r *http.Request) error {
	out, err := a.app.Inbox.Pull(r.Context(), keyFrom(r))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, out)
	return nil
}

// receivedPDF renders a received invoice as the supplier sent it, with its
// IRN, as sent invoices are rendered.
func (a *api) receivedPDF(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "received_invoice_id")
	if err != nil {
		return err
	}
	k := keyFrom(r)
	v, doc, err := a.app.Inbox.Document(r.Context(), k, id)
	if err != nil {
		return at("path", err)
	}
	kind := v.InvoiceKind
	if kind == "" {
		kind = string(model.InvoiceKindB2B)
	}
	out, err := a.app.Invoices.RenderCleared(r.Context(), k.ProjectID, invoices.RenderInput{InvoiceType: kind, Payload: doc}, "", v.ReceivedAt)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `inline; filename="`+out.View.Filename()+`"`)
	w.Header().Set("Content-Length", strconv.Itoa(len(out.PDF)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out.PDF)
	return nil
}
