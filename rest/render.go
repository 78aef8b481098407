package rest

import (
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/invoices"
)

// renderInvoice answers POST /invoices/render with the invoice's JSON view,
// or its PDF when the client asks with Accept: application/pdf or, when it
// cannot set headers, ?format=pdf (?format=json forces the view).
func (a *api) renderInvoice(w http.ResponseWriter, r *http.Request) error {
	var p model.Problems
	pdf := wantsPDF(&p, r)
	var in invoices.RenderInput
	if err := decodeJSON(r, &in, nil); err != nil {
		if p.Len() == 0 {
			return err
		}
		p.AddAll(nil, model.AsError(err).Fields)
	}
	if err := p.Err(); err != nil {
		return err
	}
	out, err := a.app.Invoices.Render(r.Context(), keyFrom(r), in, pdf)
	if err != nil {
		return at("body", err)
	}
	w.Header().Add("Vary", "Accept")
	if !pdf {
		writeJSON(w, http.StatusOK, out.View)
		return nil
	}
	w.Header().Set("Content-Type", "application/pdf")
	// The name is an IRN (letters, digits, hyphens) or "invoice.pdf".
	w.Header().Set("Content-Disposition", `inline; filename="`+out.View.Filename()+`"`)
	w.Header().Set("Content-Length", strconv.Itoa(len(out.PDF)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out.PDF)
	return nil
}

// wantsPDF reads the representation asked for: ?format wins, then Accept,
// where application/pdf must be preferred at least as much as JSON.
func wantsPDF(p *model.Problems, r *http.Request) bool {
	if f, ok := r.URL.Query()["format"]; ok {
		switch strings.ToLower(f[0]) {
		case "json":
			return false
		case "pdf":
			return true
		}
		p.CheckEnum(f[0], []string{"json", "pdf"}, "query", "format")
		return false
	}
	pdfQ, jsonQ := -1.0, -1.0
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if q, err = strconv.ParseFloat(v, 64); err != nil {
				continue
			}
		}
		switch mt {
		case "application/pdf":
			pdfQ = max(pdfQ, q)
		case "application/json", "application/*", "*/*":
			jsonQ = max(jsonQ, q)
		}
	}
	return pdfQ > 0 && pdfQ >= jsonQ
}
