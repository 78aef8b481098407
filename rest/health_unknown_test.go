package rest

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
)

// NRS never called shows as unknown in checks and does not degrade the
// status; a degraded NRS does.
func TestWriteHealthUnknownNRS(t *testing.T) {
	for _, c := range []struct{ prod, want string }{
		{model.AuthorityUnknown, "ok"},
		{model.AuthorityDegraded, "degraded"},
	} {
		w := httptest.NewRecorder()
		writeHealth(w, httptest.NewRequest("GET", "/health", nil), "test", map[string]string{"database": "ok"}, nil,
			func(env model.Environment) string {
				if env == model.EnvironmentProduction {
					return c.prod
				}
				return model.AuthorityOK
			})
		var body healthBody
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if body.Status != c.want || body.Checks["nrs_production"] != c.prod || body.Checks["nrs_sandbox"] != "ok" {
			t.Fatalf("production %s: got %+v", c.prod, body)
		}
	}
}
