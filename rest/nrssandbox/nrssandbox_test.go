package nrssandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb/sandboxdbtest"
)

func TestHealth(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	a := e.call(nil, http.MethodGet, "/api", nil)
	if a.Status != 200 || a.Raw != `{"healthy":true}` || a.Header.Get("Content-Length") != "16" ||
		a.Header.Get("Cache-Control") != "private" || a.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("%d %q %v", a.Status, a.Raw, a.Header)
	}
}

// authenticatedRoutes are MBS's endpoints that need credentials, each with
// a request that is fine apart from them.
func authenticatedRoutes(biz nrssandbox.Business) []struct{ method, path, body string } {
	irn := "INV001-" + biz.ServiceID + "-20260315"
	return []struct{ method, path, body string }{
		{"GET", "/api/v1/entity?size=20&page=1&sort_by=created_at&sort_direction_desc=true", ""},
		{"GET", "/api/v1/entity/" + uuid.NewString(), ""},
		{"POST", "/api/v1/invoice/irn/validate", `{"business_id":"` + biz.BusinessID + `","invoice_reference":"INV001","irn":"` + irn + `"}`},
		{"POST", "/api/v1/invoice/validate", `{}`},
		{"POST", "/api/v1/invoice/sign", `{}`},
		{"POST", "/api/v1/invoice/party", `{}`},
		{"GET", "/api/v1/invoice/party/31569955-0001?size=20&page=1", ""},
		{"GET", "/api/v1/invoice/confirm/" + irn, ""},
		{"GET", "/api/v1/invoice/download/" + irn, ""},
		{"GET", "/api/v1/invoice/31569955-0001?size=20&page=1&irn=ITW005-F3A3A0CF-20240703&payment_status=PENDING", ""},
		{"PATCH", "/api/v1/invoice/update/" + irn, `{"payment_status":"PAID"}`},
		{"GET", "/api/v1/invoice/transmit/lookup/" + irn, ""},
		{"GET", "/api/v1/invoice/transmit/lookup/tin/31569955-0001", ""},
		{"GET", "/api/v1/invoice/transmit/lookup/party/31569955-0001", ""},
		{"POST", "/api/v1/invoice/transmit/" + irn, `""`},
		{"PATCH", "/api/v1/invoice/transmit/" + irn, `""`},
		{"GET", "/api/v1/invoice/transmit/self-health-check", ""},
		{"GET", "/api/v1/invoice/transmit/pull?confirmed=true&from=2023-01-11&to=2025-01-10", ""},
		{"POST", "/api/v1/utilities/verify-tin/", `{"tin":"20198222-0002"}`},
		{"POST", "/api/v1/utilities/authenticate", `{"email":"johndoe@email.com","password":"johdoespassword"}`},
		{"POST", "/api/v1/invoice/qr/verify", `{}`},
	}
}

// Every endpoint answers a key it cannot validate exactly as MBS does:
// HTTP 400, handler "handler", no details, 175 bytes with a UUID id.
func TestBadKey(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	wrong := e.biz
	wrong.APISecret = "wrong"
	unknown := wrong
	unknown.APIKey = "{{API_KEY}}"
	for _, r := range authenticatedRoutes(e.biz) {
		for name, biz := range map[string]*nrssandbox.Business{"none": nil, "wrong secret": &wrong, "unknown key": &unknown} {
			t.Run(r.method+" "+r.path+" "+name, func(t *testing.T) {
				a := e.call(biz, r.method, r.path, r.body)
				refusedWith(t, a, 400, "handler", "unable to validate api key", "")
				if _, has := a.Body["error"].(map[string]any)["details"]; has {
					t.Fatalf("details present: %s", a.Raw)
				}
				if len(a.Raw) != 175 || a.Header.Get("Content-Length") != "175" || a.Header.Get("Cache-Control") != "private" {
					t.Fatalf("length %d, headers %v", len(a.Raw), a.Header)
				}
			})
		}
	}
}

func TestUnknownRoutes(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	const want = `{"code":404,"data":null,"message":"no route found for this path. kindly check your request and try again"}`
	for _, r := range []struct{ method, path string }{
		{"POST", "/v1/vat/postPayment"},
		{"GET", "/api/v1/invoice/resources/unknown"},
		{"DELETE", "/api/v1/invoice/sign"},
		{"GET", "/api/v2/anything"},
		{"POST", "/sandbox/businesses/x"},
	} {
		a := e.call(&e.biz, r.method, r.path, `{"agentTin":"1234458823"}`)
		if a.Status != 404 || a.Raw != want || a.Header.Get("Cache-Control") != "private" {
			t.Errorf("%s %s: %d %s", r.method, r.path, a.Status, a.Raw)
		}
	}
}

// GetEntity checks the id before the key, as the captured answer shows.
func TestGetEntityWithATIN(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	for _, biz := range []*nrssandbox.Business{nil, &e.biz} {
		a := e.call(biz, "GET", "/api/v1/entity/31569955-0001", nil)
		refusedWith(t, a, 400, "entity_actions",
			"validation failed: we are unable to process your request. also confirm this is not a duplicate request",
			"invalid UUID length: 13")
		if len(a.Raw) != 294 {
			t.Fatalf("length %d: %s", len(a.Raw), a.Raw)
		}
	}
}

func TestEntity(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	other := e.register("F3A3A0CF")
	me := e.info(e.biz)
	a := e.must(&e.biz, 200, "GET", "/api/v1/entity?size=20&page=1&sort_by=created_at&sort_direction_desc=true&reference=", nil)
	items := a.items(t)
	if len(items) != 1 || items[0].(map[string]any)["id"] != me.EntityID || a.data(t)["total"] != 1.0 || a.data(t)["totalPages"] != 1.0 {
		t.Fatalf("search: %s", a.Raw)
	}
	biz := items[0].(map[string]any)["businesses"].([]any)[0].(map[string]any)
	if biz["id"] != e.biz.BusinessID || biz["irn_template"] != "{{invoice_id(e.g:INV00XXX)}}-94ND90NR-{{YYYYMMDD(e.g:20250629)}}" {
		t.Fatalf("business: %v", biz)
	}
	if a := e.must(&e.biz, 200, "GET", "/api/v1/entity?reference=no-such-thing", nil); len(a.items(t)) != 0 {
		t.Fatalf("reference ignored: %s", a.Raw)
	}
	if a := e.must(&e.biz, 200, "GET", "/api/v1/entity/"+strings.ToUpper(me.EntityID), nil); a.data(t)["tin"] != me.TIN {
		t.Fatalf("get: %s", a.Raw)
	}
	// Another business's entity is not the caller's to read.
	refusedWith(t, e.call(&e.biz, "GET", "/api/v1/entity/"+e.info(other).EntityID, nil), 404, "entity_actions", "resource not found", "")
}

func TestIRNValidation(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	other := e.register("F3A3A0CF")
	body := func(biz, ref, irn string) map[string]string {
		return map[string]string{"business_id": biz, "invoice_reference": ref, "irn": irn}
	}
	a := e.must(&e.biz, 200, "POST", "/api/v1/invoice/irn/validate", body(e.biz.BusinessID, "INV001", "INV001-94ND90NR-20260315"))
	if a.Raw != `{"code":200,"data":{"ok":true}}` {
		t.Fatalf("%s", a.Raw)
	}
	for _, tc := range []struct {
		name            string
		in              map[string]string
		status          int
		public, details string
	}{
		{"wrong service ID", body(e.biz.BusinessID, "INV001", "INV001-F3A3A0CF-20260315"), 400, "irn validation failed",
			"irn validation failed for this business, refer to the template and try again"},
		{"reference differs", body(e.biz.BusinessID, "INV002", "INV001-94ND90NR-20260315"), 400, "irn validation failed",
			"irn validation failed for this business, refer to the template and try again"},
		{"not a date", body(e.biz.BusinessID, "INV001", "INV001-94ND90NR-20261345"), 400, "irn validation failed",
			"irn validation failed for this business, refer to the template and try again"},
		{"another business", body(other.BusinessID, "INV001", "INV001-94ND90NR-20260315"), 400, "validation failed", "this business does not exist"},
		{"unknown business", body(uuid.NewString(), "INV001", "INV001-94ND90NR-20260315"), 400, "validation failed", "this business does not exist"},
		{"missing", body("", "", ""), 400, "validation failed", "business_id is required, invoice_reference is required, irn is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			refusedWith(t, e.call(&e.biz, "POST", "/api/v1/invoice/irn/validate", tc.in), tc.status, "invoice_actions", tc.public, tc.details)
		})
	}
}

// The whole life of an invoice of each kind, on every database.
func TestInvoiceLifecycle(t *testing.T) {
	forDialects(t, nrssandbox.Options{}, func(t *testing.T, e *env) {
		for _, kind := range []string{"b2b", "b2g", "b2c"} {
			t.Run(kind, func(t *testing.T) {
				inv, irn := fixture(t, kind, e.biz, "INV"+strings.ToUpper(kind))
				e.must(&e.biz, 201, "POST", "/api/v1/invoice/validate", inv)
				// Validating again before signing replaces it.
				a := e.must(&e.biz, 201, "POST", "/api/v1/invoice/validate", inv)
				if a.Raw != `{"code":201,"data":{"ok":true}}` {
					t.Fatalf("validate: %s", a.Raw)
				}
				// Not yet at NRS: nothing to confirm.
				refusedWith(t, e.call(&e.biz, "GET", "/api/v1/invoice/confirm/"+irn, nil), 404, "invoice_actions", "resource not found", "")
				e.must(&e.biz, 201, "POST", "/api/v1/invoice/sign", inv)
				refusedWith(t, e.call(&e.biz, "POST", "/api/v1/invoice/sign", inv), 400, "invoice_actions",
					"validation failed: we are unable to process your request. also confirm this is not a duplicate request", "")
				refusedWith(t, e.call(&e.biz, "POST", "/api/v1/invoice/validate", inv), 400, "invoice_actions",
					"validation failed: we are unable to process your request. also confirm this is not a duplicate request", "")

				c := e.must(&e.biz, 200, "GET", "/api/v1/invoice/confirm/"+irn, nil).data(t)
				wantPayment := "PENDING" // "optional, defaults to pending"
				if ps, set := inv["payment_status"].(string); set {
					wantPayment = ps
				}
				if c["irn"] != irn || c["payment_status"] != wantPayment || c["transmitted"] != false || c["delivered"] != false ||
					c["issue_date"] != inv["issue_date"] || c["sync_date"] == "" || len(c["qr_code_data"].(string)) != 344 {
					t.Fatalf("confirm: %v", c)
				}
				if kind != "b2c" {
					refusedWith(t, e.call(&e.biz, "GET", "/api/v1/invoice/transmit/lookup/"+irn, nil), 404, "invoice_actions", "resource not found", "")
					e.must(&e.biz, 200, "POST", "/api/v1/invoice/transmit/"+irn, `""`)
					e.must(&e.biz, 200, "POST", "/api/v1/invoice/transmit/"+irn, `""`) // again: not an error
					l := e.must(&e.biz, 200, "GET", "/api/v1/invoice/transmit/lookup/"+irn, nil).data(t)
					if l["transmitted"] != true || l["delivered"] != false || l["transmitted_at"] == "" {
						t.Fatalf("lookup: %v", l)
					}
					e.must(&e.biz, 200, "PATCH", "/api/v1/invoice/transmit/"+irn, `""`)
					if l := e.must(&e.biz, 200, "GET", "/api/v1/invoice/transmit/lookup/"+irn, nil).data(t); l["delivered"] != true {
						t.Fatalf("lookup after receipt: %v", l)
					}
				}
				e.must(&e.biz, 200, "PATCH", "/api/v1/invoice/update/"+irn, map[string]string{"payment_status": "PAID", "reference": "TRF-1"})
				c = e.must(&e.biz, 200, "GET", "/api/v1/invoice/confirm/"+irn, nil).data(t)
				if c["payment_status"] != "PAID" || c["transmitted"] != (kind != "b2c") || c["delivered"] != (kind != "b2c") {
					t.Fatalf("confirm after update: %v", c)
				}
				// Any status may follow (NRS publishes no transitions).
				e.must(&e.biz, 200, "PATCH", "/api/v1/invoice/update/"+irn, map[string]string{"payment_status": "canceled"})
				refusedWith(t, e.call(&e.biz, "PATCH", "/api/v1/invoice/update/"+irn, map[string]string{"payment_status": "LOST"}),
					400, "invoice_actions", "validation failed", "payment_status must be one of PENDING, PAID, PARTIAL, CANCELED, REJECTED")

				d := e.must(&e.biz, 200, "GET", "/api/v1/invoice/download/"+irn, nil)
				want, _ := json.Marshal(inv)
				if got := opened(t, e.biz, d); string(got) != string(want) {
					t.Fatalf("download is not the signed invoice:\n%s\n%s", got, want)
				}
			})
		}
		t.Run("search", func(t *testing.T) {
			a := e.must(&e.biz, 200, "GET", "/api/v1/invoice/"+e.biz.BusinessID+"?size=2&page=1&sort_by=irn&sort_direction_desc=false", nil)
			items := a.items(t)
			if len(items) != 2 || a.data(t)["total"] != 3.0 || a.data(t)["totalPages"] != 2.0 ||
				items[0].(map[string]any)["irn"] != "INVB2B-94ND90NR-20260315" {
				t.Fatalf("search: %s", a.Raw)
			}
			a = e.must(&e.biz, 200, "GET", "/api/v1/invoice/"+e.biz.BusinessID+"?payment_status=CANCELED&invoice_type_code=381&entry_status=SIGNED", nil)
			if a.data(t)["total"] != 3.0 {
				t.Fatalf("filters: %s", a.Raw)
			}
			if a := e.must(&e.biz, 200, "GET", "/api/v1/invoice/"+e.biz.BusinessID+"?irn=nope", nil); len(a.items(t)) != 0 {
				t.Fatalf("irn filter: %s", a.Raw)
			}
			refusedWith(t, e.call(&e.biz, "GET", "/api/v1/invoice/31569955-0001", nil), 400, "invoice_actions",
				"validation failed: we are unable to process your request. also confirm this is not a duplicate request", "invalid UUID length: 13")
			refusedWith(t, e.call(&e.biz, "GET", "/api/v1/invoice/"+uuid.NewString(), nil), 400, "invoice_actions",
				"validation failed", "this business does not exist")
		})
	})
}

func TestInvalidInvoices(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	other := e.register("F3A3A0CF")
	inv, _ := fixture(t, "b2b", e.biz, "INV1")
	mismatch := map[string]any{}
	for k, v := range inv {
		mismatch[k] = v
	}
	mismatch["business_id"] = other.BusinessID
	wrongService, _ := fixture(t, "b2b", other, "INV1")
	wrongService["business_id"] = e.biz.BusinessID
	broken, _ := fixture(t, "b2b", e.biz, "INV2")
	delete(broken, "invoice_line")
	for _, tc := range []struct {
		name            string
		body            any
		public, details string
	}{
		{"another business", mismatch, "validation failed", "this business does not exist"},
		{"another service ID", wrongService, "irn validation failed", "irn validation failed for this business, refer to the template and try again"},
		{"invalid", broken, "validation failed: we are unable to process your request. also confirm this is not a duplicate request", ""},
		{"not an object", `[1,2]`, "validation failed", "the request body must be a JSON object"},
		{"not JSON", `{"a":`, "validation failed", ""},
		{"two objects", `{} {}`, "validation failed", "the request body must hold one JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/api/v1/invoice/validate", "/api/v1/invoice/sign"} {
				a := e.call(&e.biz, "POST", path, tc.body)
				refusedWith(t, a, 400, "invoice_actions", tc.public, tc.details)
			}
		})
	}
	a := e.call(&e.biz, "POST", "/api/v1/invoice/validate", broken)
	if d := a.errorField("details"); !strings.Contains(d, "invoice_line") {
		t.Fatalf("details do not say what is wrong: %s", d)
	}
	big := `{"note":"` + strings.Repeat("x", 2<<20) + `"}`
	if a := e.call(&e.biz, "POST", "/api/v1/invoice/validate", big); a.Status != 413 {
		t.Fatalf("body too large: %d", a.Status)
	}
	if n, _ := e.db.Invoices().Count(context.Background(), e.biz.BusinessID); n != 0 {
		t.Fatalf("refused invoices kept: %d", n)
	}
}

func TestParties(t *testing.T) {
	forDialects(t, nrssandbox.Options{MaxPartiesPerBusiness: 3}, func(t *testing.T, e *env) {
		other := e.register("F3A3A0CF")
		p := e.must(&e.biz, 201, "POST", "/api/v1/invoice/party", map[string]any{
			"business_id": e.biz.BusinessID, "party_name": "Dangote Group TMZ", "tin": "TIN-000001",
			"email": "business@email.com", "telephone": "+23480254000000",
			"postal_address": map[string]string{"street_name": "91, owonikoko street", "city_name": "Malta", "postal_zone": "023401", "country": "NG"},
		}).data(t)
		if _, err := uuid.Parse(p["id"].(string)); err != nil {
			t.Fatalf("party id: %v", p)
		}
		if _, err := uuid.Parse(p["postal_address_id"].(string)); err != nil || p["postal_address"].(map[string]any)["city_name"] != "Malta" {
			t.Fatalf("address: %v", p)
		}
		byID := e.must(&e.biz, 201, "POST", "/api/v1/invoice/party", map[string]any{
			"business_id": e.biz.BusinessID, "party_name": "Cement Buyers", "tin": "12345678-0001", "email": "b@example.com",
			"postal_address_id": "940848d6-6c9d-44cc-851c-d1c69edcec95",
		}).data(t)
		if byID["postal_address_id"] != "940848d6-6c9d-44cc-851c-d1c69edcec95" {
			t.Fatalf("address id: %v", byID)
		}
		for _, tc := range []struct {
			name    string
			body    map[string]any
			details string
		}{
			{"another business", map[string]any{"business_id": other.BusinessID}, "this business does not exist"},
			{"mandatory fields", map[string]any{"business_id": e.biz.BusinessID, "telephone": "080"},
				"party_name is required; tin is required; email is required; telephone must start with + (the country code); postal_address_id or postal_address is required"},
			{"address id", map[string]any{"business_id": e.biz.BusinessID, "party_name": "x", "tin": "1", "email": "e", "postal_address_id": "31569955-0001"},
				"postal_address_id: invalid UUID length: 13"},
		} {
			refusedWith(t, e.call(&e.biz, "POST", "/api/v1/invoice/party", tc.body), 400, "invoice_actions", "validation failed", tc.details)
		}
		a := e.must(&e.biz, 200, "GET", "/api/v1/invoice/party/"+e.biz.BusinessID+"?size=20&page=1&sort_by=created_at&sort_direction_desc=true&party_name=dangote", nil)
		if items := a.items(t); len(items) != 1 || items[0].(map[string]any)["id"] != p["id"] {
			t.Fatalf("search: %s", a.Raw)
		}
		refusedWith(t, e.call(&e.biz, "GET", "/api/v1/invoice/party/"+other.BusinessID, nil), 400, "invoice_actions", "validation failed", "this business does not exist")
		if a := e.must(&other, 200, "GET", "/api/v1/invoice/party/"+other.BusinessID, nil); len(a.items(t)) != 0 {
			t.Fatalf("another business sees the parties: %s", a.Raw)
		}
		e.must(&e.biz, 201, "POST", "/api/v1/invoice/party", map[string]any{"business_id": e.biz.BusinessID, "party_name": "c", "tin": "3", "email": "c@x", "postal_address": map[string]any{}})
		refusedWith(t, e.call(&e.biz, "POST", "/api/v1/invoice/party", map[string]any{"business_id": e.biz.BusinessID, "party_name": "d", "tin": "4", "email": "d@x", "postal_address": map[string]any{}}),
			400, "invoice_actions", "validation failed", "this business holds the sandbox's limit of 3 parties")
		// The other business has its own allowance.
		e.must(&other, 201, "POST", "/api/v1/invoice/party", map[string]any{"business_id": other.BusinessID, "party_name": "d", "tin": "4", "email": "d@x", "postal_address": map[string]any{}})
	})
}

// A supplier transmits to a buyer the sandbox knows (its TIN is the
// customer's): the buyer pulls, acknowledges and downloads it; nobody else
// sees it.
func TestExchangeBetweenBusinesses(t *testing.T) {
	forDialects(t, nrssandbox.Options{}, func(t *testing.T, e *env) {
		buyer := e.register("BUY3R001")
		stranger := e.register("STRANGE1")
		buyerTIN := e.info(buyer).TIN
		inv, irn := fixture(t, "b2b", e.biz, "INV77")
		customer := inv["accounting_customer_party"].(map[string]any)
		customer["tin"] = buyerTIN
		customer["id"] = "3543c01a-cdc5-40be-8648-e0d1dc029eac"
		e.must(&e.biz, 201, "POST", "/api/v1/invoice/sign", inv)

		if got := e.must(&buyer, 200, "GET", "/api/v1/invoice/transmit/pull", nil).list(t); len(got) != 0 {
			t.Fatalf("pulled before transmission: %v", got)
		}
		refusedWith(t, e.call(&buyer, "GET", "/api/v1/invoice/download/"+irn, nil), 404, "invoice_actions", "resource not found", "")
		e.must(&e.biz, 200, "POST", "/api/v1/invoice/transmit/"+irn, nil)

		today := time.Now().UTC().Format(time.DateOnly)
		pulled := e.must(&buyer, 200, "GET", "/api/v1/invoice/transmit/pull?confirmed=false&from="+today+"&to="+today, nil).list(t)
		if len(pulled) != 1 || pulled[0].(map[string]any)["irn"] != irn || pulled[0].(map[string]any)["invoice"] == nil {
			t.Fatalf("pull: %v", pulled)
		}
		if got := e.must(&buyer, 200, "GET", "/api/v1/invoice/transmit/pull?to=2025-01-10", nil).list(t); len(got) != 0 {
			t.Fatalf("window ignored: %v", got)
		}
		e.must(&buyer, 200, "GET", "/api/v1/invoice/transmit/lookup/"+irn, nil)
		e.must(&buyer, 200, "PATCH", "/api/v1/invoice/transmit/"+irn, nil)
		if got := e.must(&buyer, 200, "GET", "/api/v1/invoice/transmit/pull?confirmed=true", nil).list(t); len(got) != 1 ||
			got[0].(map[string]any)["delivered"] != true {
			t.Fatalf("confirmed pull: %v", got)
		}
		var d map[string]any
		if err := json.Unmarshal(opened(t, buyer, e.must(&buyer, 200, "GET", "/api/v1/invoice/download/"+irn, nil)), &d); err != nil || d["irn"] != irn {
			t.Fatalf("buyer download: %v %v", d, err)
		}
		if c := e.must(&buyer, 200, "GET", "/api/v1/invoice/confirm/"+irn, nil).data(t); c["delivered"] != true || c["qr_code_data"] != nil {
			t.Fatalf("buyer confirm: %v", c)
		}
		// The buyer cannot change the supplier's payment status.
		refusedWith(t, e.call(&buyer, "PATCH", "/api/v1/invoice/update/"+irn, map[string]string{"payment_status": "PAID"}), 404, "invoice_actions", "resource not found", "")

		byTIN := e.must(&e.biz, 200, "GET", "/api/v1/invoice/transmit/lookup/tin/"+buyerTIN, nil).list(t)
		byParty := e.must(&e.biz, 200, "GET", "/api/v1/invoice/transmit/lookup/party/3543C01A-cdc5-40be-8648-e0d1dc029eac", nil).list(t)
		if len(byTIN) != 1 || len(byParty) != 1 || byTIN[0].(map[string]any)["customer_tin"] != buyerTIN {
			t.Fatalf("lookups: %v %v", byTIN, byParty)
		}
		for _, path := range []string{"/api/v1/invoice/download/" + irn, "/api/v1/invoice/confirm/" + irn, "/api/v1/invoice/transmit/lookup/" + irn} {
			refusedWith(t, e.call(&stranger, "GET", path, nil), 404, "invoice_actions", "resource not found", "")
		}
		if got := e.must(&stranger, 200, "GET", "/api/v1/invoice/transmit/pull", nil).list(t); len(got) != 0 {
			t.Fatalf("a stranger pulls: %v", got)
		}
		if got := e.must(&stranger, 200, "GET", "/api/v1/invoice/transmit/lookup/tin/"+buyerTIN, nil).list(t); len(got) != 0 {
			t.Fatalf("a stranger looks up: %v", got)
		}
		refusedWith(t, e.call(&buyer, "GET", "/api/v1/invoice/transmit/pull?from=yesterday", nil), 400, "invoice_actions", "validation failed", "from must be a date (YYYY-MM-DD)")
	})
}

func TestSelfHealthCheck(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	if a := e.must(&e.biz, 200, "GET", "/api/v1/invoice/transmit/self-health-check", nil); a.Raw != `{"code":200,"data":{"ok":true}}` {
		t.Fatalf("%s", a.Raw)
	}
}

func TestUtilities(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	ctx := context.Background()
	login := newBusiness(t, "L0G1N001")
	login.Email, login.Password = "johndoe@email.com", "johdoespassword"
	if _, err := e.h.Register(ctx, login); err != nil {
		t.Fatal(err)
	}
	me := e.info(e.biz)
	v := e.must(&e.biz, 200, "POST", "/api/v1/utilities/verify-tin/", map[string]string{"tin": me.TIN}).data(t)
	if v["tin"] != me.TIN || v["message"] != "TIN Information" || v["status"] != "200 OK" || v["taxpayer_name"] != me.Name || v["jtb_tin"] != "" {
		t.Fatalf("verify own: %v", v)
	}
	for _, f := range []string{"address", "email", "id", "jtb_tin", "message", "phone", "rc_number", "status", "taxofficer_id", "taxofficer_name", "taxpayer_name", "taxpayer_type", "tin"} {
		if _, isString := v[f].(string); !isString {
			t.Fatalf("field %s missing or not a string: %v", f, v)
		}
	}
	e.must(&e.biz, 201, "POST", "/api/v1/invoice/party", map[string]any{"business_id": e.biz.BusinessID, "party_name": "ABC AND XYZ Company",
		"tin": "20198222-0002", "email": "johndoe@gmail.com", "postal_address": map[string]string{"street_name": "100th FLOOR, MILK STREET ABC"}})
	if v := e.must(&e.biz, 200, "POST", "/api/v1/utilities/verify-tin", map[string]string{"tin": "20198222-0002"}).data(t); v["taxpayer_name"] != "ABC AND XYZ Company" ||
		v["address"] != "100th FLOOR, MILK STREET ABC" {
		t.Fatalf("verify party: %v", v)
	}
	refusedWith(t, e.call(&e.biz, "POST", "/api/v1/utilities/verify-tin/", map[string]string{"tin": "99999999-0001"}), 404, "utility_actions", "resource not found", "")
	refusedWith(t, e.call(&e.biz, "POST", "/api/v1/utilities/verify-tin/", map[string]string{}), 400, "utility_actions", "validation failed", "")

	a := e.must(&e.biz, 200, "POST", "/api/v1/utilities/authenticate", map[string]string{"email": "JohnDoe@email.com", "password": "johdoespassword"}).data(t)
	if a["entity_id"] != e.info(login).EntityID || a["message"] != "User logged in" || a["status"] != "200 OK" {
		t.Fatalf("authenticate: %v", a)
	}
	if _, err := time.Parse(time.RFC3339Nano, a["received_at"].(string)); err != nil {
		t.Fatalf("received_at: %v", a)
	}
	for _, wrong := range []map[string]string{
		{"email": "johndoe@email.com", "password": "wrong"},
		{"email": me.Email, "password": "anything"}, // a business without a password
		{"email": "nobody@example.com", "password": "x"},
	} {
		refusedWith(t, e.call(&e.biz, "POST", "/api/v1/utilities/authenticate", wrong), 400, "utility_actions", "validation failed", "invalid email or password")
	}
}

// Issue 13 item 4: a business belongs to the owner that registered it.
func TestBusinessBelongsToItsOwner(t *testing.T) {
	forDialects(t, nrssandbox.Options{}, func(t *testing.T, e *env) {
		ctx := context.Background()
		victim := e.biz
		_, irn := e.sign(&victim, "b2b", "VICTIM1")

		attacker := e.register("ATTACK01")
		t.Run("taking over the victim's business_id", func(t *testing.T) {
			takeover := attacker
			takeover.BusinessID = victim.BusinessID
			_, err := e.h.Register(ctx, takeover)
			if err == nil || !strings.Contains(err.Error(), "registered by another owner") {
				t.Fatalf("want a conflict, got %v", err)
			}
			a := e.send(ctx, nil, "POST", "/sandbox/businesses", takeover, http.Header{"Authorization": {"Bearer " + adminToken}})
			if a.Status != 409 {
				t.Fatalf("admin endpoint: %d %s", a.Status, a.Raw)
			}
		})
		t.Run("reusing the victim's api key", func(t *testing.T) {
			steal := attacker
			steal.APIKey = victim.APIKey
			if _, err := e.h.Register(ctx, steal); err == nil || !strings.Contains(err.Error(), "api_key") {
				t.Fatalf("want a conflict, got %v", err)
			}
		})
		t.Run("downloading the victim's invoices", func(t *testing.T) {
			for _, path := range []string{"/api/v1/invoice/download/" + irn, "/api/v1/invoice/confirm/" + irn,
				"/api/v1/invoice/" + victim.BusinessID} {
				a := e.call(&attacker, "GET", path, nil)
				if a.Status == 200 {
					t.Fatalf("%s answered the attacker: %s", path, a.Raw)
				}
			}
			refusedWith(t, e.call(&attacker, "PATCH", "/api/v1/invoice/update/"+irn, map[string]string{"payment_status": "CANCELED"}), 404, "invoice_actions", "resource not found", "")
		})
		t.Run("the victim is untouched", func(t *testing.T) {
			c := e.must(&victim, 200, "GET", "/api/v1/invoice/confirm/"+irn, nil).data(t)
			if c["payment_status"] != "PENDING" {
				t.Fatalf("victim's invoice changed: %v", c)
			}
			if got := e.info(victim); got.Owner != victim.Owner {
				t.Fatalf("owner changed: %v", got)
			}
		})
		t.Run("one business per owner", func(t *testing.T) {
			moved := attacker
			moved.BusinessID = uuid.NewString()
			if _, err := e.h.Register(ctx, moved); err != nil {
				t.Fatal(err)
			}
			if _, err := e.db.Businesses().ByID(ctx, attacker.BusinessID); err == nil {
				t.Fatal("the owner's previous business is still registered")
			}
			e.must(&moved, 200, "GET", "/api/v1/invoice/transmit/self-health-check", nil)
		})
		t.Run("the owner registers again", func(t *testing.T) {
			again := victim
			again.APISecret = "rotated-" + uuid.NewString()
			again.ServiceID = "NEWSVC01"
			if _, err := e.h.Register(ctx, again); err != nil {
				t.Fatal(err)
			}
			refusedWith(t, e.call(&victim, "GET", "/api/v1/invoice/confirm/"+irn, nil), 400, "handler", "unable to validate api key", "")
			e.must(&again, 200, "GET", "/api/v1/invoice/confirm/"+irn, nil) // its invoices stay
		})
	})
}

// Issue 13 item 13: each business is bounded on its own; one cannot evict
// another's invoices.
func TestBoundsPerBusiness(t *testing.T) {
	forDialects(t, nrssandbox.Options{MaxInvoicesPerBusiness: 3}, func(t *testing.T, e *env) {
		ctx := context.Background()
		quiet := e.register("QU1ET001")
		_, keep := e.sign(&quiet, "b2c", "QUIET1")
		var irns []string
		for i := range 6 {
			_, irn := e.sign(&e.biz, "b2c", fmt.Sprintf("FLOOD%d", i))
			irns = append(irns, irn)
		}
		if n, _ := e.db.Invoices().Count(ctx, e.biz.BusinessID); n != 3 {
			t.Fatalf("flooding business holds %d invoices", n)
		}
		refusedWith(t, e.call(&e.biz, "GET", "/api/v1/invoice/confirm/"+irns[0], nil), 404, "invoice_actions", "resource not found", "")
		e.must(&e.biz, 200, "GET", "/api/v1/invoice/confirm/"+irns[5], nil)
		e.must(&quiet, 200, "GET", "/api/v1/invoice/confirm/"+keep, nil)
	})
	t.Run("bytes", func(t *testing.T) {
		// The b2c fixture is about 1,300 bytes as sent: 3,000 hold two.
		e := newEnv(t, nrssandbox.Options{MaxBytesPerBusiness: 3000})
		quiet := e.register("QU1ET001")
		_, keep := e.sign(&quiet, "b2c", "QUIET1")
		for i := range 4 {
			e.sign(&e.biz, "b2c", fmt.Sprintf("FLOOD%d", i))
		}
		if n, _ := e.db.Invoices().Count(context.Background(), e.biz.BusinessID); n > 2 {
			t.Fatalf("flooding business holds %d invoices over 3000 bytes", n)
		}
		e.must(&quiet, 200, "GET", "/api/v1/invoice/confirm/"+keep, nil)
	})
}

func TestRateLimits(t *testing.T) {
	now := time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	t.Run("per business", func(t *testing.T) {
		e := newEnv(t, nrssandbox.Options{BusinessRate: nrssandbox.RateLimit{Count: 2, Period: time.Minute}, Now: clock})
		other := e.register("0THER001")
		for range 2 {
			e.must(&e.biz, 200, "GET", "/api/v1/invoice/transmit/self-health-check", nil)
		}
		a := e.call(&e.biz, "GET", "/api/v1/invoice/transmit/self-health-check", nil)
		refusedWith(t, a, 429, "handler", "too many requests", "this business sends requests faster than the sandbox's limit of 2/m")
		if ra := a.Header.Get("Retry-After"); ra != "30" {
			t.Fatalf("Retry-After %q", ra)
		}
		e.must(&other, 200, "GET", "/api/v1/invoice/transmit/self-health-check", nil)
		mu.Lock()
		now = now.Add(30 * time.Second)
		mu.Unlock()
		e.must(&e.biz, 200, "GET", "/api/v1/invoice/transmit/self-health-check", nil)
	})
	t.Run("per address before authentication", func(t *testing.T) {
		e := newEnv(t, nrssandbox.Options{IPRate: nrssandbox.RateLimit{Count: 3, Period: time.Minute}, Now: clock})
		for range 3 {
			e.call(nil, "GET", "/api/v1/invoice/transmit/self-health-check", nil)
		}
		refusedWith(t, e.call(&e.biz, "GET", "/api/", nil), 429, "handler", "too many requests", "")
		refusedWith(t, e.call(&e.biz, "GET", "/api/v1/invoice/transmit/self-health-check", nil), 429, "handler", "too many requests", "")
		a := serveFrom(t, e, "192.0.2.7:1234", "/api")
		if a.Status != 200 {
			t.Fatalf("another address is limited too: %d", a.Status)
		}
	})
	t.Run("in flight per business", func(t *testing.T) {
		e := newEnv(t, nrssandbox.Options{MaxConcurrent: 1, SlowDelay: 300 * time.Millisecond})
		inv, _ := fixture(t, "b2c", e.biz, "SBXSLOW1")
		done := make(chan answer)
		go func() { done <- e.call(&e.biz, "POST", "/api/v1/invoice/validate", inv) }()
		deadline := time.Now().Add(2 * time.Second)
		var a answer
		for time.Now().Before(deadline) {
			a = e.call(&e.biz, "GET", "/api/v1/invoice/transmit/self-health-check", nil)
			if a.Status == 429 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		refusedWith(t, a, 429, "handler", "too many requests", "this business has 1 requests in flight, the sandbox's limit")
		if slow := <-done; slow.Status != 201 {
			t.Fatalf("slow call: %d %s", slow.Status, slow.Raw)
		}
		e.must(&e.biz, 200, "GET", "/api/v1/invoice/transmit/self-health-check", nil)
	})
	t.Run("parse", func(t *testing.T) {
		for in, want := range map[string]string{"50/s": "50/s", "10/m": "10/m", "5/10s": "5/10s", "off": "off"} {
			l, err := nrssandbox.ParseRateLimit(in)
			if err != nil || l.String() != want {
				t.Errorf("%s: %v %v", in, l, err)
			}
		}
		for _, bad := range []string{"", "0/s", "x/s", "5/", "5/fortnight", "-1/s"} {
			if _, err := nrssandbox.ParseRateLimit(bad); err == nil {
				t.Errorf("%q accepted", bad)
			}
		}
	})
}

func serveFrom(tb testing.TB, e *env, remote, path string) answer {
	tb.Helper()
	req, _ := http.NewRequest(http.MethodGet, path, nil)
	req.RemoteAddr = remote
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return answer{Status: rec.Code, Raw: rec.Body.String()}
}

// The state survives a restart: a new stand-in over the same database picks
// up where the old one stopped, as a certification run in dev needs.
func TestSurvivesRestart(t *testing.T) {
	for _, d := range sandboxdbtest.Dialects() {
		t.Run(d.Name, func(t *testing.T) {
			dsn := sandboxdbtest.SQLiteURL(t)
			if d.Name == "postgres" {
				dsn = sandboxdbtest.PostgresURL(t)
			}
			first := newEnvOn(t, sandboxdbtest.Open(t, dsn), nrssandbox.Options{})
			biz := first.biz
			_, irn := first.sign(&biz, "b2b", "RESTART1")
			first.must(&biz, 201, "POST", "/api/v1/invoice/party", map[string]any{"business_id": biz.BusinessID, "party_name": "p", "tin": "1", "email": "e", "postal_address": map[string]any{}})
			_, retry := fixture(t, "b2c", biz, "SBXRETRY3R")
			first.call(&biz, "GET", "/api/v1/invoice/confirm/"+retry, nil) // one of three failures
			if err := first.db.Close(); err != nil {
				t.Fatal(err)
			}

			db := sandboxdbtest.Open(t, dsn)
			h, err := nrssandbox.New(nrssandbox.Options{DB: db, Logger: quietLog})
			if err != nil {
				t.Fatal(err)
			}
			second := &env{t: t, db: db, h: h, biz: biz}
			second.must(&biz, 200, "POST", "/api/v1/invoice/transmit/"+irn, nil)
			second.must(&biz, 200, "PATCH", "/api/v1/invoice/update/"+irn, map[string]string{"payment_status": "PAID"})
			if c := second.must(&biz, 200, "GET", "/api/v1/invoice/confirm/"+irn, nil).data(t); c["payment_status"] != "PAID" || c["transmitted"] != true {
				t.Fatalf("after restart: %v", c)
			}
			if a := second.must(&biz, 200, "GET", "/api/v1/invoice/party/"+biz.BusinessID, nil); len(a.items(t)) != 1 {
				t.Fatalf("parties lost: %s", a.Raw)
			}
			// The SBXRETRY counter carried over: two more failures, then the
			// call goes through (404: the invoice does not exist).
			for range 2 {
				if a := second.call(&biz, "GET", "/api/v1/invoice/confirm/"+retry, nil); a.Status != 503 {
					t.Fatalf("want 503, got %d", a.Status)
				}
			}
			if a := second.call(&biz, "GET", "/api/v1/invoice/confirm/"+retry, nil); a.Status != 404 {
				t.Fatalf("want 404, got %d %s", a.Status, a.Raw)
			}
		})
	}
}

// Two stand-ins over one database (the stand-in embedded in two API
// processes) see the same businesses and invoices.
func TestSharedDatabase(t *testing.T) {
	db := sandboxdbtest.SQLite(t)
	one := newEnvOn(t, db, nrssandbox.Options{})
	h2, err := nrssandbox.New(nrssandbox.Options{DB: db, Logger: quietLog})
	if err != nil {
		t.Fatal(err)
	}
	two := &env{t: t, db: db, h: h2}
	late := two.register("LATE0001") // registered through the second one
	_, irn := one.sign(&late, "b2c", "SHARED1")
	two.must(&late, 200, "GET", "/api/v1/invoice/confirm/"+irn, nil)
}

func TestScenarios(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{SlowDelay: 50 * time.Millisecond})
	t.Run("sign fails", func(t *testing.T) {
		inv, irn := fixture(t, "b2c", e.biz, "SBXSIGNFAIL1")
		e.must(&e.biz, 201, "POST", "/api/v1/invoice/validate", inv)
		refusedWith(t, e.call(&e.biz, "POST", "/api/v1/invoice/sign", inv), 400, "invoice_actions", "invoice signing failed", "")
		a := e.must(&e.biz, 200, "GET", "/api/v1/invoice/"+e.biz.BusinessID+"?irn="+irn, nil)
		if items := a.items(t); len(items) != 1 || items[0].(map[string]any)["entry_status"] != "VALIDATED" {
			t.Fatalf("state: %s", a.Raw)
		}
	})
	t.Run("retry", func(t *testing.T) {
		inv, _ := fixture(t, "b2c", e.biz, "SBXRETRY2X")
		for i := range 2 {
			a := e.call(&e.biz, "POST", "/api/v1/invoice/validate", inv)
			refusedWith(t, a, 503, "invoice_actions", "service unavailable", "")
			if a.Header.Get("Retry-After") != "1" {
				t.Fatalf("attempt %d: Retry-After %q", i, a.Header.Get("Retry-After"))
			}
		}
		e.must(&e.biz, 201, "POST", "/api/v1/invoice/validate", inv)
		// Counted per endpoint.
		refusedWith(t, e.call(&e.biz, "POST", "/api/v1/invoice/sign", inv), 503, "invoice_actions", "service unavailable", "")
	})
	t.Run("down", func(t *testing.T) {
		inv, irn := fixture(t, "b2c", e.biz, "sbxdown1")
		for range 3 {
			refusedWith(t, e.call(&e.biz, "POST", "/api/v1/invoice/validate", inv), 503, "invoice_actions", "service unavailable", "")
		}
		refusedWith(t, e.call(&e.biz, "GET", "/api/v1/invoice/transmit/lookup/"+irn, nil), 503, "invoice_actions", "service unavailable", "")
	})
	t.Run("duplicate", func(t *testing.T) {
		inv, _ := fixture(t, "b2c", e.biz, "SBXDUP1")
		for _, p := range []string{"/api/v1/invoice/validate", "/api/v1/invoice/sign"} {
			refusedWith(t, e.call(&e.biz, "POST", p, inv), 400, "invoice_actions",
				"validation failed: we are unable to process your request. also confirm this is not a duplicate request", "")
		}
	})
	t.Run("slow", func(t *testing.T) {
		inv, _ := fixture(t, "b2c", e.biz, "SBXSLOW1")
		start := time.Now()
		e.must(&e.biz, 201, "POST", "/api/v1/invoice/validate", inv)
		if time.Since(start) < 50*time.Millisecond {
			t.Fatal("not slowed")
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if a := e.send(ctx, &e.biz, "POST", "/api/v1/invoice/sign", inv, nil); a.Status != 503 {
			t.Fatalf("cancelled slow call: %d", a.Status)
		}
	})
}

func TestAdmin(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	b := newBusiness(t, "ADM1N001")
	auth := http.Header{"Authorization": {"Bearer " + adminToken}}
	a := e.send(context.Background(), nil, "POST", "/sandbox/businesses", b, auth)
	if a.Status != 201 || a.data(t)["business_id"] != b.BusinessID || a.data(t)["owner"] != b.Owner || a.data(t)["has_private_key"] != true {
		t.Fatalf("register: %d %s", a.Status, a.Raw)
	}
	if strings.Contains(a.Raw, b.APISecret) || strings.Contains(a.Raw, "PRIVATE KEY") {
		t.Fatalf("secrets shown: %s", a.Raw)
	}
	e.must(&b, 200, "GET", "/api/v1/invoice/transmit/self-health-check", nil)
	list := e.send(context.Background(), nil, "GET", "/sandbox/businesses?limit=10", nil, auth).list(t)
	if len(list) != 2 {
		t.Fatalf("list: %v", list)
	}
	for _, h := range []http.Header{nil, {"Authorization": {"Bearer wrong"}}} {
		if a := e.send(context.Background(), nil, "POST", "/sandbox/businesses", b, h); a.Status != 401 {
			t.Fatalf("without the token: %d", a.Status)
		}
	}
	bad := b
	bad.BusinessID, bad.ServiceID, bad.APISecret = "31569955-0001", "short", ""
	bad.Owner = "other"
	a = e.send(context.Background(), nil, "POST", "/sandbox/businesses", bad, auth)
	refusedWith(t, a, 400, "sandbox_admin", "validation failed",
		"invalid business: business_id must be a UUID; service_id must be exactly 8 letters and digits; api_secret is required (at most 512 characters)")

	off := newEnvOn(t, sandboxdbtest.SQLite(t), nrssandbox.Options{AdminToken: "x"})
	h, _ := nrssandbox.New(nrssandbox.Options{DB: off.db, Logger: quietLog})
	if a := serve(t, h, context.Background(), nil, "POST", "/sandbox/businesses", b, auth); a.Status != 404 || a.Body["error"] != nil {
		t.Fatalf("admin without a token configured: %d %s", a.Status, a.Raw)
	}
}
