package rest

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/invoices"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// DefaultInvoicesInFlight bounds a project's invoice requests served at
// once by one process (Options.InvoicesInFlight).
const DefaultInvoicesInFlight = 64

// submissionRoutes declares the submitted invoices' routes (API key
// credentials): submit, read, search, events, payment status, PDF and the
// archive.
func (a *api) submissionRoutes(r chi.Router) {
	lim := newInFlight(a.opts.InvoicesInFlight, a.writeError)
	submit := func(op string) func(http.Handler) http.Handler {
		return chainMW(a.requireKey(model.ScopeInvoicesSubmit, op), lim.middleware)
	}
	read := func(op string) func(http.Handler) http.Handler {
		return chainMW(a.requireKey(model.ScopeInvoicesRead, op), lim.middleware)
	}
	r.With(submit("invoices.submit")).Post("/invoices", a.adapt(a.submitInvoice))
	a.batchRoutes(r, submit, read)
	r.With(read("invoices.list")).Get("/invoices", a.adapt(a.listInvoices))
	r.With(read("invoices.queue")).Get("/invoices/queue", a.adapt(a.invoiceQueue))
	r.With(read("invoices.archive.verify")).Get("/invoices/archive/verify", a.adapt(a.verifyArchive))
	r.With(read("invoices.archive.export")).Get("/invoices/archive/export", a.adapt(a.exportArchive))
	r.With(read("invoices.get")).Get("/invoices/{invoice_id}", a.adapt(a.getInvoice))
	r.With(read("invoices.events")).Get("/invoices/{invoice_id}/events", a.adapt(a.invoiceEvents))
	r.With(read("invoices.pdf")).Get("/invoices/{invoice_id}/pdf", a.adapt(a.invoicePDF))
	r.With(submit("invoices.payment")).Patch("/invoices/{invoice_id}/payment", a.adapt(a.updatePayment))
	a.formatRoutes(r, submit, read, lim)
	a.receivedRoutes(r, submit, read)
}

// chainMW applies middlewares in order, the first outermost.
func chainMW(mws ...func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		for i := len(mws) - 1; i >= 0; i-- {
			h = mws[i](h)
		}
		return h
	}
}

// inFlight bounds the requests one project has in flight in this process;
// past the bound it answers rate_limited at once.
type inFlight struct {
	limit int
	fail  func(http.ResponseWriter, *http.Request, error)
	mu    sync.Mutex
	n     map[string]int
}

func newInFlight(limit int, fail func(http.ResponseWriter, *http.Request, error)) *inFlight {
	if limit <= 0 {
		limit = DefaultInvoicesInFlight
	}
	return &inFlight{limit: limit, fail: fail, n: map[string]int{}}
}

func (l *inFlight) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := keyFrom(r).ProjectID.String()
		l.mu.Lock()
		if l.n[key] >= l.limit {
			l.mu.Unlock()
			e := model.Errorf(model.CodeRateLimited, "this project has %d invoice requests in flight, the most allowed at once; retry shortly", l.limit)
			e.RetryAfter = time.Second
			l.fail(w, r, e)
			return
		}
		l.n[key]++
		l.mu.Unlock()
		defer func() {
			l.mu.Lock()
			if l.n[key]--; l.n[key] == 0 {
				delete(l.n, key)
			}
			l.mu.Unlock()
		}()
		next.ServeHTTP(w, r)
	})
}

func (a *api) submitInvoice(w http.ResponseWriter, r *http.Request) error {
	if isXML(r) {
		return a.submitUBL(w, r)
	}
	var in submissions.SubmitInput
	if err := decodeJSON(r, &in, in.Validate); err != nil {
		return err
	}
	out, err := a.app.Submissions.Submit(r.Context(), keyFrom(r), in)
	if err != nil {
		return at("body", err)
	}
	w.Header().Set("Location", out.Links.Self)
	writeJSON(w, http.StatusAccepted, out)
	return nil
}

func (a *api) listInvoices(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	in := submissions.ListInput{
		Status: q.Get("status"), InvoiceType: q.Get("invoice_type"), IRN: q.Get("irn"), CustomerTIN: q.Get("customer_tin"),
		IssueDateFrom: q.Get("issue_date_from"), IssueDateTo: q.Get("issue_date_to"),
		CreatedFrom: q.Get("created_from"), CreatedTo: q.Get("created_to"), DeadlineAtRisk: q.Get("deadline_at_risk"),
	}
	page, err := pageQuery(r)
	if err != nil {
		return err
	}
	in.PageInput = page
	out, err := a.app.Submissions.List(r.Context(), keyFrom(r), in)
	return reply(w, "query", out, err)
}

func (a *api) invoiceQueue(w http.ResponseWriter, r *http.Request) error {
	out, err := a.app.Submissions.Queue(r.Context(), keyFrom(r))
	return reply(w, "query", out, err)
}

func (a *api) getInvoice(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "invoice_id")
	if err != nil {
		return err
	}
	if prefersXML(r) {
		doc, err := a.app.Formats.UBL(r.Context(), keyFrom(r), id)
		if err != nil {
			return at("path", err)
		}
		writeUBL(w, doc)
		return nil
	}
	w.Header().Add("Vary", "Accept")
	out, err := a.app.Submissions.Get(r.Context(), keyFrom(r), id)
	return reply(w, "path", out, err)
}

func (a *api) invoiceEvents(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "invoice_id")
	if err != nil {
		return err
	}
	page, err := pageQuery(r)
	if err != nil {
		return err
	}
	out, err := a.app.Submissions.Events(r.Context(), keyFrom(r), id, page.Limit, page.Cursor)
	return reply(w, "query", out, err)
}

func (a *api) updatePayment(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "invoice_id")
	if err != nil {
		return err
	}
	var in submissions.PaymentUpdateInput
	if err := decodeJSON(r, &in, in.Validate); err != nil {
		return err
	}
	out, err := a.app.Submissions.UpdatePayment(r.Context(), keyFrom(r), id, in)
	return reply(w, "body", out, err)
}

// invoicePDF renders a submitted invoice as it was cleared: its payload,
// with its IRN and, once confirmed, its QR.
func (a *api) invoicePDF(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "invoice_id")
	if err != nil {
		return err
	}
	k := keyFrom(r)
	cl, err := a.app.Submissions.Payload(r.Context(), k, id)
	if err != nil {
		return at("path", err)
	}
	in := invoices.RenderInput{InvoiceType: string(cl.Invoice.InvoiceType), Payload: cl.Payload}
	qr, at := "", cl.Invoice.CreatedAt
	if cl.Invoice.QRCodeData != nil {
		qr = *cl.Invoice.QRCodeData
	}
	if cl.Invoice.SignedAt != nil {
		at = *cl.Invoice.SignedAt
	}
	out, err := a.app.Invoices.RenderCleared(r.Context(), k.ProjectID, in, qr, at)
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

func (a *api) verifyArchive(w http.ResponseWriter, r *http.Request) error {
	k := keyFrom(r)
	out, err := a.app.Submissions.VerifyArchive(r.Context(), k, k.ProjectID)
	return reply(w, "query", out, err)
}

// exportArchive streams the invoices archived in [from, to) as JSON Lines.
func (a *api) exportArchive(w http.ResponseWriter, r *http.Request) error {
	var p model.Problems
	q := r.URL.Query()
	times := [2]time.Time{}
	for i, name := range []string{"from", "to"} {
		v := q.Get(name)
		if v == "" {
			p.Add(model.ProblemMissing, "Field required", "query", name)
			continue
		}
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			if d, derr := time.Parse(time.DateOnly, v); derr == nil {
				t = d
			} else {
				p.Add(model.ProblemValueError, "Input should be an RFC 3339 date and time or a YYYY-MM-DD date", "query", name)
				continue
			}
		}
		times[i] = t
	}
	if err := p.Err(); err != nil {
		return err
	}
	k := keyFrom(r)
	w.Header().Set("Content-Type", "application/jsonl")
	w.Header().Set("Content-Disposition", `attachment; filename="invoice-archive.jsonl"`)
	lw := &lazyWriter{w: w}
	if err := a.app.Submissions.ExportArchive(r.Context(), k, k.ProjectID, times[0], times[1], lw); err != nil {
		if lw.started {
			a.log.WarnContext(r.Context(), "archive export interrupted", "error", err.Error())
			return nil
		}
		w.Header().Del("Content-Disposition")
		return at("query", err)
	}
	if !lw.started {
		w.WriteHeader(http.StatusOK)
	}
	return nil
}

// lazyWriter writes the status line with the first byte, so that an error
// before any line is still answered as an error.
type lazyWriter struct {
	w       http.ResponseWriter
	started bool
}

func (l *lazyWriter) Write(b []byte) (int, error) {
	if !l.started {
		l.started = true
		l.w.WriteHeader(http.StatusOK)
	}
	return l.w.Write(b)
}
