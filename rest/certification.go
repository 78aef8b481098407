package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/runs"
)

// certificationRoutes declares the certification routes (API key
// credentials). A run starts at once and executes as a workflow; its
// evidence is read back with the run's id.
func (a *api) certificationRoutes(r chi.Router) {
	r.With(a.requireKey(model.ScopeCertificationRun, "certification.start")).
		Post("/certification/nrs/smoke", a.adapt(a.startCertificationRun))
	r.With(a.requireKey(model.ScopeCertificationRd, "certification.read")).
		Get("/certification/runs/{run_id}", a.adapt(a.certificationRun))
}

func (a *api) startCertificationRun(w http.ResponseWriter, r *http.Request) error {
	var in runs.Input
	if err := decodeJSON(r, &in, in.Validate); err != nil {
		return err
	}
	k := keyFrom(r)
	// Under an Idempotency-Key, the answer commits with the run.
	out, err := a.app.Runs.Start(answerInTx(r), k, k.ProjectID, in)
	return reply(w, "body", out, err)
}

func (a *api) certificationRun(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "run_id")
	if err != nil {
		return err
	}
	out, err := a.app.Runs.Get(r.Context(), keyFrom(r), id)
	return reply(w, "path", out, err)
}
