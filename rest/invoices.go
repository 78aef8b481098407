package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/invoices"
)

// invoiceRoutes declares the invoice operations (API key credentials).
func (a *api) invoiceRoutes(r chi.Router) {
	r.With(a.requireKey(model.ScopeInvoicesValidate, "invoices.validate")).Post("/invoices/schema/validate", a.adapt(a.validateInvoice))
	r.With(a.requireKey(model.ScopeIRNGenerate, "irn.generate")).Post("/invoices/irn/generate", a.adapt(a.generateIRN))
	r.With(a.requireKey(model.ScopeIRNValidate, "irn.validate")).Post("/invoices/irn/validate", a.adapt(a.validateIRN))
	r.With(a.requireKey(model.ScopeQRGenerate, "qr.generate")).Post("/invoices/qr/generate", a.adapt(a.generateQR))
	r.With(a.requireKey(model.ScopeInvoicesRender, "invoices.render")).Post("/invoices/render", a.adapt(a.renderInvoice))
	r.With(a.requireKey(model.ScopeInvoicesValidate, "invoices.sample")).Get("/invoices/samples/{invoice_type}", a.adapt(a.invoiceSample))
	r.Get("/invoices/schemas/{authority}/{version}", a.adapt(a.schema))
}

// invoiceSample answers a valid sample invoice made out by the key's
// project, to try the other routes with.
func (a *api) invoiceSample(w http.ResponseWriter, r *http.Request) error {
	out, err := a.app.Invoices.Sample(r.Context(), keyFrom(r), invoices.SampleInput{
		InvoiceType: chi.URLParam(r, "invoice_type"), IssueDate: r.URL.Query().Get("issue_date"),
	})
	if err != nil {
		return err // its problems already name path or query
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *api) validateInvoice(w http.ResponseWriter, r *http.Request) error {
	var in invoices.ValidateInput
	if err := decodeJSON(r, &in, nil); err != nil {
		return err
	}
	out, err := a.app.Invoices.Validate(r.Context(), keyFrom(r), in)
	return reply(w, "body", out, err)
}

func (a *api) generateIRN(w http.ResponseWriter, r *http.Request) error {
	var in invoices.IRNInput
	if err := decodeJSON(r, &in, nil); err != nil {
		return err
	}
	out, err := a.app.Invoices.GenerateIRN(r.Context(), keyFrom(r), in)
	return reply(w, "body", out, err)
}

func (a *api) validateIRN(w http.ResponseWriter, r *http.Request) error {
	var in invoices.ValidateIRNInput
	if err := decodeJSON(r, &in, nil); err != nil {
		return err
	}
	out, err := a.app.Invoices.ValidateIRN(r.Context(), keyFrom(r), in)
	return reply(w, "body", out, err)
}

func (a *api) generateQR(w http.ResponseWriter, r *http.Request) error {
	withPNG := false
	switch inc := r.URL.Query().Get("include"); inc {
	case "":
	case "png":
		withPNG = true
	default:
		return model.Invalid(model.ProblemEnum, "Input should be 'png'", "query", "include")
	}
	var in invoices.QRInput
	if err := decodeJSON(r, &in, nil); err != nil {
		return err
	}
	out, err := a.app.Invoices.QRCode(r.Context(), keyFrom(r), in, withPNG)
	return reply(w, "body", out, err)
}

// schema serves an authority's invoice JSON Schema; schemas are public.
func (a *api) schema(w http.ResponseWriter, r *http.Request) error {
	doc, err := a.app.Invoices.Schema(chi.URLParam(r, "authority"), chi.URLParam(r, "version"))
	if err != nil {
		return at("path", err)
	}
	w.Header().Set("Content-Type", "application/schema+json")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, _ = w.Write(doc)
	return nil
}
