package nrssandbox

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/einvoice-ng/einvoice/model/nrs/codes"
)

// PartialResources are the lists without a public copy: the stand-in serves
// only what NRS's documents print (reference/SOURCES.md) and marks the
// answer with PartialListHeader.
var PartialResources = []string{codes.ResourceHSCodes, codes.ResourceQuantityCodes}

// PartialListHeader marks the answer of a partial list ("partial").
const PartialListHeader = "X-Einvoice-Sandbox-List"

// reference holds NRS's lists as NRS serves them (reference/SOURCES.md).
//
//go:embed reference/*.json
var reference embed.FS

// ReferenceList returns the embedded file of a resource, as shipped.
func ReferenceList(name string) ([]byte, bool) {
	b, err := reference.ReadFile("reference/" + name + ".json")
	return b, err == nil
}

// resourceBodies are the whole answers, built once.
var resourceBodies = func() map[string][]byte {
	out := make(map[string][]byte, len(codes.ResourceNames()))
	for _, name := range codes.ResourceNames() {
		raw, ok := ReferenceList(name)
		if !ok {
			panic("nrssandbox: no reference list " + name)
		}
		var data bytes.Buffer
		if err := json.Compact(&data, raw); err != nil {
			panic(fmt.Sprintf("nrssandbox: reference list %s: %v", name, err))
		}
		out[name] = []byte(`{"code":200,"data":` + data.String() + `}`)
	}
	return out
}()

// resource answers GET /api/v1/invoice/resources/{name} (GetCountries and
// the others) with NRS's list. It needs no credentials: FIRS's captures show
// the calls without them (NRS's v1.1 docs say to send them; they are
// accepted and not checked).
func (h *Handler) resource(name string) http.HandlerFunc {
	body := resourceBodies[name]
	partial := contains(PartialResources, name)
	return func(w http.ResponseWriter, _ *http.Request) {
		hd := w.Header()
		hd.Set("Content-Type", contentType)
		hd.Set("Cache-Control", "private")
		hd.Set("Content-Length", strconv.Itoa(len(body)))
		if partial {
			hd.Set(PartialListHeader, "partial")
		}
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	}
}
