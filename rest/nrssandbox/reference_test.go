package nrssandbox_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/einvoice-ng/einvoice/model/nrs/codes"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
)

// referenceSHA256 are the SHA-256 of NRS's lists as the project's NRS
// reference set holds them (shared/nrs/reference): the stand-in ships them
// byte for byte. hs-codes and invoice-quantity-codes are the stand-in's own
// partial files (reference/SOURCES.md).
var referenceSHA256 = map[string]string{
	"countries":              "e74f35420cc1ea1b53a6753090323870923b20b6d9dd4e1c71aefe78da7d2707",
	"currencies":             "dc930c197f13a6be172d4a95c82fbfe502e98aa192075005776744428196a396",
	"invoice-types":          "9a35c77fbac0a21d184f616e77efdf512909c3e3cc64c62c18839580c81c3513",
	"lgas":                   "c6ea4d0b3f401138500c538aa76c4466d4c9c83f9b7b4416f53ca9860ea63ec3",
	"payment-means":          "0135af0fcabd57bc7fef0ff77f67c8ce1f37af7f2e1c3ae1e01c15550548ad38",
	"services-codes":         "3cfddd78207edadfdee14dcf7b9e2b3b3715419fe3a96040cc5a1fc9b61399a9",
	"states":                 "3a22ef5d235398a01cd1eba66196ef3a0d360a723dea9d4a1bda190a21e967c0",
	"tax-categories":         "6c4d1eb92d089ce9c09078ddd7842f700a542fa0b61821548d1c448ce9e251b1",
	"vat-exemptions":         "c0753dc8acbdd853515e2a6825343a96353e07ab781a6dba06160d9c0c6fb8b0",
	"hs-codes":               "bfa0ff19ba02c590bac04e086412406e03ac96615f07afc16c2706d3efae5023",
	"invoice-quantity-codes": "37517e5f3dc66819f61f5a7bb8ace1921282415f10551d2defa5c3eb0985b570",
}

// Entries per list, as NRS's sources count them.
var referenceEntries = map[string]int{
	"countries": 249, "currencies": 118, "invoice-types": 20, "lgas": 774, "payment-means": 12, "services-codes": 419,
	"states": 37, "tax-categories": 24, "vat-exemptions": 236, "hs-codes": 1, "invoice-quantity-codes": 0,
}

func TestResourcesAreNRSLists(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	if len(codes.ResourceNames()) != len(referenceSHA256) {
		t.Fatalf("%d resources, %d reference files", len(codes.ResourceNames()), len(referenceSHA256))
	}
	for _, name := range codes.ResourceNames() {
		t.Run(name, func(t *testing.T) {
			file, ok := nrssandbox.ReferenceList(name)
			sum := sha256.Sum256(file)
			if !ok || hex.EncodeToString(sum[:]) != referenceSHA256[name] {
				t.Fatalf("reference/%s.json is not the shipped list (sha256 %x)", name, sum)
			}
			// Served without credentials (as FIRS's captures call them) and
			// with a key alike.
			for _, biz := range []*nrssandbox.Business{nil, &e.biz} {
				a := e.call(biz, http.MethodGet, "/api/v1/invoice/resources/"+name, nil)
				var want bytes.Buffer
				if err := json.Compact(&want, file); err != nil {
					t.Fatal(err)
				}
				if a.Status != 200 || a.Raw != `{"code":200,"data":`+want.String()+`}` {
					t.Fatalf("%d %.200s", a.Status, a.Raw)
				}
				if n := len(a.list(t)); n != referenceEntries[name] {
					t.Fatalf("%d entries, want %d", n, referenceEntries[name])
				}
				partial := name == "hs-codes" || name == "invoice-quantity-codes"
				if (a.Header.Get(nrssandbox.PartialListHeader) == "partial") != partial || a.Header.Get("Cache-Control") != "private" {
					t.Fatalf("headers %v", a.Header)
				}
			}
		})
	}
	// The lists keep NRS's shapes: no invented {code,value} for the others.
	vat := e.call(nil, http.MethodGet, "/api/v1/invoice/resources/vat-exemptions", nil).list(t)[0].(map[string]any)
	if _, has := vat["harmonized_system_code"]; !has || vat["code"] != nil {
		t.Fatalf("vat-exemptions entry: %v", vat)
	}
}
