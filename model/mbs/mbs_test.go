package mbs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/mbs"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
)

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  mbs.Config
		ok   bool
	}{
		{"valid", mbs.Config{BaseURL: "https://nrs.example/", APIKey: "k", APISecret: "s"}, true},
		{"no scheme", mbs.Config{BaseURL: "nrs.example", APIKey: "k", APISecret: "s"}, false},
		{"ftp", mbs.Config{BaseURL: "ftp://nrs.example", APIKey: "k", APISecret: "s"}, false},
		{"user info", mbs.Config{BaseURL: "https://k:s@nrs.example", APIKey: "k", APISecret: "s"}, false},
		{"query", mbs.Config{BaseURL: "https://nrs.example?key=k", APIKey: "k", APISecret: "s"}, false},
		{"no key", mbs.Config{BaseURL: "https://nrs.example", APISecret: "s"}, false},
		{"no secret", mbs.Config{BaseURL: "https://nrs.example", APIKey: "k"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := mbs.New(tc.cfg)
			if (err == nil) != tc.ok {
				t.Fatalf("want ok=%v, got %v", tc.ok, err)
			}
			if tc.ok && c.BaseURL() != "https://nrs.example" {
				t.Fatalf("base URL %q", c.BaseURL())
			}
		})
	}
}

// TestEndpoints drives every endpoint through the stand-in and checks the
// typed results and the call records.
func TestEndpoints(t *testing.T) {
	s := newStandIn(t, nrssandbox.Options{})
	c, _ := s.client(t, nil)
	ctx := context.Background()
	check := func(t *testing.T, call mbs.Call, op mbs.Operation, method string, status int) {
		t.Helper()
		if call.Operation != op || call.Method != method || call.HTTPStatus != status || call.Attempts != 1 ||
			call.ErrorID != "" || call.StartedAt.IsZero() || call.Duration <= 0 || strings.Contains(call.Path, "?") {
			t.Fatalf("call record: %+v", call)
		}
	}

	t.Run("health", func(t *testing.T) {
		h, call, err := c.Health(ctx)
		if err != nil || !h.Healthy {
			t.Fatalf("%+v %v", h, err)
		}
		check(t, call, mbs.OpHealth, "GET", 200)
	})

	t.Run("resources", func(t *testing.T) {
		for _, name := range codes.ResourceNames() {
			raw, call, err := c.Resources().ListCall(ctx, name)
			if err != nil || len(raw) == 0 || raw[0] != '[' {
				t.Fatalf("%s: %s %v", name, raw, err)
			}
			check(t, call, mbs.OpResource, "GET", 200)
			if call.Path != "/api/v1/invoice/resources/"+name || call.Code != 200 {
				t.Fatalf("%s: call %+v", name, call)
			}
			shipped, _ := nrssandbox.ReferenceList(name)
			var a, b any
			_ = json.Unmarshal(raw, &a)
			_ = json.Unmarshal(shipped, &b)
			if fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("%s differs from the list the stand-in serves", name)
			}
		}
		if raw, err := c.Resources().List(ctx, codes.ResourceInvoiceTypes); err != nil || !bytes.Contains(raw, []byte(`"value":"Commercial Invoice"`)) {
			t.Fatalf("raw resource: %s %v", raw, err)
		}
		// The stand-in's partial lists are no list to refresh from.
		for _, name := range []string{codes.ResourceHSCodes, codes.ResourceQuantityCodes} {
			if raw, err := c.Resources().List(ctx, name); !errors.Is(err, mbs.ErrPartialList) || raw != nil {
				t.Fatalf("%s: %s %v", name, raw, err)
			}
			if _, call, err := c.Resources().ListCall(ctx, name); err != nil || !call.Partial {
				t.Fatalf("%s: %+v %v", name, call, err)
			}
		}
		if _, err := c.Resources().List(ctx, "../../api"); err == nil {
			t.Fatal("a path accepted as a resource name")
		}
		countries, _, err := c.Resources().Countries(ctx)
		if err != nil || len(countries) != 249 || countries[0].Alpha2 != "AF" {
			t.Fatalf("countries: %d %v", len(countries), err)
		}
		types, _, err := c.Resources().InvoiceTypes(ctx)
		if err != nil || len(types) != 20 || types[0] != (mbs.CodeValue{Code: "380", Value: "Credit Note"}) {
			t.Fatalf("invoice types: %v %v", types, err)
		}
		currencies, _, err := c.Resources().Currencies(ctx)
		if err != nil || len(currencies) != 118 {
			t.Fatalf("currencies: %d %v", len(currencies), err)
		}
		for _, cur := range currencies {
			if cur.Code == "CHF" && cur.Rounding != 0.05 {
				t.Fatalf("CHF rounding %v", cur.Rounding)
			}
		}
		exemptions, _, err := c.Resources().VATExemptions(ctx)
		if err != nil || len(exemptions) != 236 || exemptions[0].HarmonizedSystemCode == "" {
			t.Fatalf("vat exemptions: %d %v", len(exemptions), err)
		}
		services, _, err := c.Resources().ServicesCodes(ctx)
		if err != nil || len(services) != 419 || services[0].Code != "0111" {
			t.Fatalf("services codes: %d %v", len(services), err)
		}
		taxes, _, err := c.Resources().TaxCategories(ctx)
		if err != nil || len(taxes) != 24 {
			t.Fatalf("tax categories: %d %v", len(taxes), err)
		}
		means, _, err := c.Resources().PaymentMeans(ctx)
		if err != nil || len(means) != 12 {
			t.Fatalf("payment means: %d %v", len(means), err)
		}
		hs, _, err := c.Resources().HSCodes(ctx)
		if err != nil || len(hs) != 1 || hs[0].HSCode != "0101.21" {
			t.Fatalf("hs codes: %v %v", hs, err)
		}
		states, _, err := c.Resources().States(ctx)
		if err != nil || len(states) != 37 {
			t.Fatalf("states: %d %v", len(states), err)
		}
		lgas, _, err := c.Resources().LGAs(ctx)
		if err != nil || len(lgas) != 774 || lgas[0].StateCode == "" {
			t.Fatalf("lgas: %d %v", len(lgas), err)
		}
		if q, _, err := c.Resources().InvoiceQuantityCodes(ctx); err != nil || len(q) != 0 {
			t.Fatalf("quantity codes: %v %v", q, err)
		}
	})

	t.Run("entity", func(t *testing.T) {
		page, call, err := c.SearchEntities(ctx, mbs.EntityQuery{Paging: mbs.Paging{Size: 20, Page: 1, SortBy: "created_at"}})
		if err != nil || len(page.Items) != 1 || page.Total != 1 || page.TotalPages != 1 || len(page.Items[0].Businesses) != 1 ||
			page.Items[0].Businesses[0].ID != s.biz.BusinessID || page.Items[0].Businesses[0].ServiceID != "94ND90NR" {
			t.Fatalf("search: %+v %v", page, err)
		}
		check(t, call, mbs.OpSearchEntity, "GET", 200)
		e, call, err := c.GetEntity(ctx, page.Items[0].ID)
		if err != nil || e.ID != page.Items[0].ID || e.TIN == "" {
			t.Fatalf("get: %+v %v", e, err)
		}
		check(t, call, mbs.OpGetEntity, "GET", 200)
	})

	var party mbs.Party
	t.Run("parties", func(t *testing.T) {
		var call mbs.Call
		var err error
		party, call, err = c.CreateParty(ctx, mbs.PartyRequest{BusinessID: s.biz.BusinessID, PartyName: "Dangote Group TMZ",
			TIN: "TIN-000001", Email: "business@email.com", Telephone: "+23480254000000",
			PostalAddress: &mbs.Address{StreetName: "91, owonikoko street", CityName: "Malta", PostalZone: "023401", Country: "NG"}})
		if err != nil || party.ID == "" || party.PostalAddressID == "" || party.PostalAddress.CityName != "Malta" {
			t.Fatalf("create: %+v %v", party, err)
		}
		check(t, call, mbs.OpCreateParty, "POST", 201)
		page, call, err := c.SearchParties(ctx, s.biz.BusinessID, mbs.PartyQuery{PartyName: "dangote"})
		if err != nil || len(page.Items) != 1 || page.Items[0].ID != party.ID {
			t.Fatalf("search: %+v %v", page, err)
		}
		check(t, call, mbs.OpSearchParty, "GET", 200)
	})

	for _, tc := range []struct {
		fixture  string
		transmit bool
	}{
		{"invoice-b2b-1.1.json", true},
		{"invoice-b2g-1.1.json", true},
		{"invoice-b2c-1.1.json", false},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			ref := "FLOW" + strings.ToUpper(tc.fixture[8:11])
			inv, irn := s.fixture(t, tc.fixture, ref)
			if tc.transmit {
				inv["accounting_customer_party"].(map[string]any)["id"] = party.ID
			}

			ack, call, err := c.ValidateIRN(ctx, mbs.ValidateIRNRequest{InvoiceReference: ref, BusinessID: s.biz.BusinessID, IRN: irn})
			if err != nil || !ack.OK {
				t.Fatalf("irn validate: %+v %v", ack, err)
			}
			check(t, call, mbs.OpValidateIRN, "POST", 200)

			raw, _ := json.Marshal(inv)
			if ack, call, err = c.ValidateInvoice(ctx, json.RawMessage(raw)); err != nil || !ack.OK || len(ack.Data) == 0 {
				t.Fatalf("validate: %+v %v", ack, err)
			}
			check(t, call, mbs.OpValidateInvoice, "POST", 201)
			if call.Code != 201 {
				t.Fatalf("validate envelope code: %+v", call)
			}

			if ack, call, err = c.SignInvoice(ctx, inv); err != nil || !ack.OK {
				t.Fatalf("sign: %+v %v", ack, err)
			}
			check(t, call, mbs.OpSignInvoice, "POST", 201)

			if tc.transmit {
				if ack, call, err = c.Transmit(ctx, irn); err != nil || !ack.OK {
					t.Fatalf("transmit: %v", err)
				}
				check(t, call, mbs.OpTransmit, "POST", 200)
				if call.Path != "/api/v1/invoice/transmit/"+irn {
					t.Fatalf("path %q", call.Path)
				}
				tr, call, err := c.LookupTransmission(ctx, irn)
				if err != nil || tr.IRN != irn || !tr.Transmitted || tr.TransmittedAt == "" || tr.Delivered {
					t.Fatalf("lookup: %+v %v", tr, err)
				}
				check(t, call, mbs.OpLookupTransmission, "GET", 200)
				if ack, call, err = c.ConfirmReceipt(ctx, irn); err != nil || !ack.OK {
					t.Fatalf("confirm receipt: %v", err)
				}
				check(t, call, mbs.OpConfirmReceipt, "PATCH", 200)
				if tr, _, _ = c.LookupTransmission(ctx, irn); !tr.Delivered || tr.DeliveredAt == "" {
					t.Fatalf("lookup after receipt: %+v", tr)
				}
				byParty, call, err := c.LookupTransmissionsByParty(ctx, party.ID)
				if err != nil || !containsIRN(byParty, irn) {
					t.Fatalf("lookup by party: %+v %v", byParty, err)
				}
				check(t, call, mbs.OpLookupByParty, "GET", 200)
				tin := inv["accounting_customer_party"].(map[string]any)["tin"].(string)
				byTIN, call, err := c.LookupTransmissionsByTIN(ctx, tin)
				if err != nil || !containsIRN(byTIN, irn) || byTIN[0].CustomerTIN != tin {
					t.Fatalf("lookup by tin: %+v %v", byTIN, err)
				}
				check(t, call, mbs.OpLookupByTIN, "GET", 200)
			}

			st, call, err := c.ConfirmInvoice(ctx, irn)
			if err != nil || st.IRN != irn || st.PaymentStatus != mbs.PaymentPending || st.BusinessID != s.biz.BusinessID ||
				st.InvoiceTypeCode != "381" || st.SyncDate == "" || st.IssueDate != inv["issue_date"] ||
				st.Transmitted != tc.transmit || st.Delivered != tc.transmit || len(st.QRCodeData) != 344 {
				t.Fatalf("confirm: %+v %v", st, err)
			}
			check(t, call, mbs.OpConfirmInvoice, "GET", 200)

			doc, call, err := c.DownloadInvoice(ctx, irn)
			if err != nil || doc.IRN != irn || doc.BusinessID != s.biz.BusinessID || !bytes.Contains(doc.Invoice, []byte(irn)) {
				t.Fatalf("download: %+v %v", doc, err)
			}
			check(t, call, mbs.OpDownloadInvoice, "GET", 200)

			if ack, call, err = c.UpdatePaymentStatus(ctx, irn, mbs.PaymentUpdate{PaymentStatus: mbs.PaymentPaid, Reference: "TRF-42"}); err != nil || !ack.OK {
				t.Fatalf("update: %v", err)
			}
			check(t, call, mbs.OpUpdatePayment, "PATCH", 200)
			if st, _, err = c.ConfirmInvoice(ctx, irn); err != nil || st.PaymentStatus != mbs.PaymentPaid {
				t.Fatalf("confirm after payment: %+v %v", st, err)
			}

			found, call, err := c.SearchInvoices(ctx, s.biz.BusinessID, mbs.InvoiceQuery{IRN: irn, PaymentStatus: mbs.PaymentPaid})
			if err != nil || len(found.Items) != 1 || found.Items[0].IRN != irn || found.Items[0].EntryStatus != "SIGNED" {
				t.Fatalf("search: %+v %v", found, err)
			}
			check(t, call, mbs.OpSearchInvoice, "GET", 200)

			rules, err := nrs.New(nrs.Options{})
			if err != nil {
				t.Fatal(err)
			}
			pub, err := nrs.ParsePublicKey(s.keys.PublicKey)
			if err != nil {
				t.Fatal(err)
			}
			payload, err := rules.QRPayload(model.QRInput{IRN: irn, Timestamp: 1773568800, PublicKey: pub, Certificate: s.keys.Certificate})
			if err != nil {
				t.Fatal(err)
			}
			v, call, err := c.VerifyQR(ctx, mbs.QRVerifyRequest{IRN: irn, QRPayload: payload})
			if err != nil || !v.Valid || v.IRN != irn || v.Timestamp != 1773568800 || len(v.Checks) != 4 {
				t.Fatalf("qr verify: %+v %v", v, err)
			}
			check(t, call, mbs.OpVerifyQR, "POST", 200)
		})
	}

	t.Run("exchange", func(t *testing.T) {
		ack, call, err := c.SelfHealthCheck(ctx)
		if err != nil || !ack.OK {
			t.Fatalf("self-health-check: %v", err)
		}
		check(t, call, mbs.OpSelfHealthCheck, "GET", 200)
		// A buyer the stand-in knows pulls what was sent to its TIN.
		buyer := s.register(t, "BUY3R001")
		bc, _ := newClient(t, s.srv.URL, buyer.APIKey, buyer.APISecret, nil)
		ents, _, err := bc.SearchEntities(ctx, mbs.EntityQuery{})
		if err != nil || len(ents.Items) != 1 {
			t.Fatalf("buyer entity: %v", err)
		}
		inv, irn := s.fixture(t, "invoice-b2b-1.1.json", "PULL1")
		inv["accounting_customer_party"].(map[string]any)["tin"] = ents.Items[0].TIN
		if _, _, err := c.SignInvoice(ctx, inv); err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Transmit(ctx, irn); err != nil {
			t.Fatal(err)
		}
		unconfirmed := false
		got, call, err := bc.Pull(ctx, mbs.PullQuery{Confirmed: &unconfirmed, From: "2026-01-01"})
		if err != nil || len(got) != 1 || got[0].IRN != irn || !bytes.Contains(got[0].Invoice, []byte(irn)) {
			t.Fatalf("pull: %+v %v", got, err)
		}
		check(t, call, mbs.OpPull, "GET", 200)
	})

	t.Run("utilities", func(t *testing.T) {
		ents, _, err := c.SearchEntities(ctx, mbs.EntityQuery{})
		if err != nil {
			t.Fatal(err)
		}
		info, call, err := c.VerifyTIN(ctx, ents.Items[0].TIN)
		if err != nil || info.TIN != ents.Items[0].TIN || info.Message != "TIN Information" || info.Status != "200 OK" {
			t.Fatalf("verify tin: %+v %v", info, err)
		}
		check(t, call, mbs.OpVerifyTIN, "POST", 200)
		if call.Path != "/api/v1/utilities/verify-tin/" {
			t.Fatalf("path %q", call.Path)
		}
		login := nrssandbox.Business{Owner: "login", BusinessID: uuid.NewString(), ServiceID: "L0G1N001", Certificate: "cert",
			APIKey: uuid.NewString(), APISecret: "x", Email: "johndoe@email.com", Password: "johdoespassword"}
		if _, err := s.h.Register(ctx, login); err != nil {
			t.Fatal(err)
		}
		who, call, err := c.AuthenticateTaxpayer(ctx, "johndoe@email.com", "johdoespassword")
		if err != nil || who.EntityID == "" || who.Message != "User logged in" || who.Status != "200 OK" || who.ReceivedAt == "" {
			t.Fatalf("authenticate: %+v %v", who, err)
		}
		check(t, call, mbs.OpAuthenticate, "POST", 200)
	})
}

func containsIRN(list []mbs.Transmission, irn string) bool {
	for _, t := range list {
		if t.IRN == irn {
			return true
		}
	}
	return false
}

// TestTypedErrors checks that NRS's error answers come back typed: the
// HTTP status and the envelope's id, handler, details and public message.
func TestTypedErrors(t *testing.T) {
	s := newStandIn(t, nrssandbox.Options{})
	c, rec := s.client(t, nil)
	ctx := context.Background()
	b2b := func(ref string) (map[string]any, string) { return s.fixture(t, "invoice-b2b-1.1.json", ref) }
	bad, _ := s.fixture(t, "invalid-missing-supplier-tin.json", "BADTIN1")
	signFail, _ := b2b(nrssandbox.ScenarioSignFail + "1")
	if _, _, err := c.ValidateInvoice(ctx, signFail); err != nil {
		t.Fatal(err)
	}
	dup, _ := b2b(nrssandbox.ScenarioDuplicate + "1")
	_, freshIRN := b2b("FRESH1")
	wrong, _ := s.client(t, func(cfg *mbs.Config) { cfg.APISecret = "not-the-secret" })
	const longMsg = "validation failed: we are unable to process your request. also confirm this is not a duplicate request"

	for _, tc := range []struct {
		name    string
		call    func() (mbs.Call, error)
		status  int
		public  string
		handler string
		details string
	}{
		{"wrong credentials", func() (mbs.Call, error) {
			_, call, err := wrong.ConfirmInvoice(ctx, freshIRN)
			return call, err
		}, 400, "unable to validate api key", "handler", ""},
		{"entity id that is not a UUID", func() (mbs.Call, error) {
			_, call, err := c.GetEntity(ctx, "31569955-0001")
			return call, err
		}, 400, longMsg, "entity_actions", "invalid UUID length: 13"},
		{"wrong service id", func() (mbs.Call, error) {
			_, call, err := c.ValidateIRN(ctx, mbs.ValidateIRNRequest{InvoiceReference: "INV1", BusinessID: s.biz.BusinessID, IRN: "INV1-F3A3A0CF-20260315"})
			return call, err
		}, 400, "irn validation failed", "invoice_actions", "irn validation failed for this business, refer to the template and try again"},
		{"unknown business", func() (mbs.Call, error) {
			_, call, err := c.SearchInvoices(ctx, uuid.NewString(), mbs.InvoiceQuery{})
			return call, err
		}, 400, "validation failed", "invoice_actions", "this business does not exist"},
		{"invalid invoice", func() (mbs.Call, error) {
			_, call, err := c.ValidateInvoice(ctx, bad)
			return call, err
		}, 400, longMsg, "invoice_actions", "accounting_supplier_party.tin"},
		{"transmit unknown", func() (mbs.Call, error) {
			_, call, err := c.Transmit(ctx, freshIRN)
			return call, err
		}, 404, "resource not found", "invoice_actions", ""},
		{"sign rejected", func() (mbs.Call, error) {
			_, call, err := c.SignInvoice(ctx, signFail)
			return call, err
		}, 400, "invoice signing failed", "invoice_actions", nrssandbox.ScenarioSignFail},
		{"duplicate", func() (mbs.Call, error) {
			_, call, err := c.ValidateInvoice(ctx, dup)
			return call, err
		}, 400, longMsg, "invoice_actions", ""},
		{"unknown taxpayer", func() (mbs.Call, error) {
			_, call, err := c.VerifyTIN(ctx, "99999999-0001")
			return call, err
		}, 404, "resource not found", "utility_actions", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			call, err := tc.call()
			e := asError(t, err)
			if e.HTTPStatus != tc.status || e.Code != tc.status || e.PublicMessage != tc.public || e.Handler != tc.handler ||
				e.Message != "error has occurred" || e.ID == "" {
				t.Fatalf("error: %+v", e)
			}
			if tc.details != "" && !strings.Contains(e.Details, tc.details) {
				t.Fatalf("details %q lack %q", e.Details, tc.details)
			}
			if e.Retryable() || mbs.IsRetryable(err) || e.Attempts != 1 {
				t.Fatalf("a %d is final and tried once: %+v", tc.status, e)
			}
			if call.HTTPStatus != tc.status || call.ErrorID != e.ID || call.Attempts != 1 || call.Code != tc.status {
				t.Fatalf("call record: %+v", call)
			}
			if !strings.Contains(err.Error(), tc.public) || !strings.Contains(err.Error(), e.ID) {
				t.Fatalf("error text: %s", err)
			}
		})
	}
	t.Run("no route: postPayment", func(t *testing.T) {
		_, call, err := c.PostPayment(ctx, mbs.PaymentReport{AgentTIN: "1234458823", BaseAmount: "10.00", Currency: 1, TransDate: "2024-11-04"})
		e := asError(t, err)
		if e.HTTPStatus != 404 || e.Code != 404 || e.Message != "no route found for this path. kindly check your request and try again" ||
			e.Handler != "" || e.ID != "" || e.Retryable() || call.Path != "/v1/vat/postPayment" {
			t.Fatalf("error %+v call %+v", e, call)
		}
	})
	if w := rec.recorded(); len(w) != 0 {
		t.Fatalf("4xx answers were retried: %v", w)
	}
}

func TestRetry(t *testing.T) {
	t.Run("503 then success, honouring Retry-After", func(t *testing.T) {
		s := newStandIn(t, nrssandbox.Options{})
		c, rec := s.client(t, nil)
		inv, irn := s.fixture(t, "invoice-b2c-1.1.json", nrssandbox.ScenarioRetry+"INV1")
		ack, call, err := c.ValidateInvoice(context.Background(), inv)
		if err != nil || !ack.OK {
			t.Fatalf("validate: %v", err)
		}
		if call.Attempts != 3 || call.HTTPStatus != 201 || call.Waited != 2*time.Second {
			t.Fatalf("call: %+v", call)
		}
		if w := rec.recorded(); fmt.Sprint(w) != "[1s 1s]" {
			t.Fatalf("waits: %v (Retry-After is 1)", w)
		}
		// Each endpoint fails on its own first calls.
		if _, call, err := c.SignInvoice(context.Background(), inv); err != nil || call.Attempts != 3 {
			t.Fatalf("sign: %+v %v", call, err)
		}
		if _, call, err := c.ConfirmInvoice(context.Background(), irn); err != nil || call.Attempts != 3 {
			t.Fatalf("confirm: %+v %v", call, err)
		}
	})

	t.Run("exponential backoff with jitter without Retry-After", func(t *testing.T) {
		s := newStandIn(t, nrssandbox.Options{RetryAfter: -1})
		c, rec := s.client(t, func(cfg *mbs.Config) {
			cfg.Retry = mbs.RetryPolicy{MaxAttempts: 4, InitialBackoff: 100 * time.Millisecond, Multiplier: 2, Jitter: 0.5}
		})
		inv, _ := s.fixture(t, "invoice-b2c-1.1.json", nrssandbox.ScenarioRetry+"3INV")
		_, call, err := c.ValidateInvoice(context.Background(), inv)
		if err != nil || call.Attempts != 4 {
			t.Fatalf("validate: %+v %v", call, err)
		}
		w := rec.recorded()
		if len(w) != 3 {
			t.Fatalf("waits: %v", w)
		}
		var sum time.Duration
		for i, d := range w {
			hi := (100 * time.Millisecond) << i
			if d < hi/2 || d > hi {
				t.Fatalf("wait %d is %s, want within [%s, %s]", i+1, d, hi/2, hi)
			}
			sum += d
		}
		if call.Waited != sum {
			t.Fatalf("waited %s, recorded %s", call.Waited, sum)
		}
	})

	t.Run("always down: bounded attempts", func(t *testing.T) {
		s := newStandIn(t, nrssandbox.Options{})
		c, rec := s.client(t, func(cfg *mbs.Config) { cfg.Retry.MaxAttempts = 3 })
		_, call, err := c.ConfirmInvoice(context.Background(), nrssandbox.ScenarioDown+"1-94ND90NR-20260315")
		e := asError(t, err)
		if e.HTTPStatus != 503 || !e.Retryable() || e.Attempts != 3 || call.Attempts != 3 || e.RetryAfter != time.Second || e.PublicMessage != nrssandbox.MsgUnavailable || e.Handler != nrssandbox.HandlerInvoice {
			t.Fatalf("error: %+v call %+v", e, call)
		}
		if len(rec.recorded()) != 2 {
			t.Fatalf("waits: %v", rec.recorded())
		}
		if !strings.Contains(err.Error(), "after 3 HTTP requests within this call") {
			t.Fatalf("error text: %s", err)
		}
	})

	t.Run("no wait past the caller's deadline", func(t *testing.T) {
		s := newStandIn(t, nrssandbox.Options{RetryAfter: 30 * time.Second})
		c, rec := s.client(t, nil)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute/4)
		t.Cleanup(cancel)
		_, call, err := c.ConfirmInvoice(ctx, nrssandbox.ScenarioDown+"2-94ND90NR-20260315")
		if e := asError(t, err); e.HTTPStatus != 503 || call.Attempts != 1 || len(rec.recorded()) != 0 {
			t.Fatalf("error %+v call %+v", e, call)
		}
	})
}

// scripted answers a fixed sequence of responses, then repeats the last.
type scripted struct {
	calls   atomic.Int32
	answers []func(w http.ResponseWriter, r *http.Request)
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	i := int(s.calls.Add(1)) - 1
	if i >= len(s.answers) {
		i = len(s.answers) - 1
	}
	s.answers[i](w, r)
}

func answer(status int, header map[string]string, body string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

const okBody = `{"code":200,"data":{"ok":true}}`

func serve(tb testing.TB, h http.Handler) string {
	tb.Helper()
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	return srv.URL
}

func TestRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		name       string
		first      func(w http.ResponseWriter, r *http.Request)
		attempts   int
		waits      string
		retryAfter time.Duration
		realSleep  bool
	}{
		{"429 with a short Retry-After", answer(429, map[string]string{"Retry-After": "1"}, `{"code":429}`), 2, "[1s]", 0, false},
		{"503 with Retry-After 0, really slept", answer(503, map[string]string{"Retry-After": "0"}, ""), 2, "[]", 0, true},
		{"Retry-After as an HTTP date in the past", answer(503, map[string]string{"Retry-After": "Mon, 02 Jan 2006 15:04:05 GMT"}, ""), 2, "[0s]", 0, false},
		{"Retry-After beyond the cap ends the call", answer(429, map[string]string{"Retry-After": "120"}, `{"code":429}`), 1, "[]", 2 * time.Minute, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := serve(t, &scripted{answers: []func(http.ResponseWriter, *http.Request){tc.first, answer(200, nil, okBody)}})
			c, rec := newClient(t, url, "k", "s", func(cfg *mbs.Config) {
				if tc.realSleep {
					cfg.Sleep = nil
				}
			})
			ack, call, err := c.Transmit(context.Background(), "INV1-94ND90NR-20260315")
			if call.Attempts != tc.attempts || fmt.Sprint(rec.recorded()) != tc.waits {
				t.Fatalf("call %+v waits %v err %v", call, rec.recorded(), err)
			}
			if tc.retryAfter == 0 {
				if err != nil || !ack.OK {
					t.Fatalf("want success, got %v", err)
				}
				return
			}
			if e := asError(t, err); e.RetryAfter != tc.retryAfter || !e.Retryable() {
				t.Fatalf("error %+v", e)
			}
		})
	}
}

func TestTimeouts(t *testing.T) {
	s := newStandIn(t, nrssandbox.Options{SlowDelay: time.Hour})
	slow := nrssandbox.ScenarioSlow + "1-94ND90NR-20260315"
	for _, tc := range []struct {
		name     string
		edit     func(*mbs.Config)
		attempts int
	}{
		{"per-operation timeout", func(cfg *mbs.Config) {
			cfg.Timeouts = map[mbs.Operation]time.Duration{mbs.OpConfirmInvoice: 20 * time.Millisecond}
		}, 1},
		{"default timeout, network errors retried on request", func(cfg *mbs.Config) {
			cfg.Timeout = 20 * time.Millisecond
			cfg.Retry = mbs.RetryPolicy{MaxAttempts: 2, RetryNetworkErrors: true}
		}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, rec := s.client(t, tc.edit)
			_, call, err := c.ConfirmInvoice(context.Background(), slow)
			e := asError(t, err)
			if !e.Timeout || e.Canceled || !e.Retryable() || e.HTTPStatus != 0 || call.Attempts != tc.attempts || call.HTTPStatus != 0 {
				t.Fatalf("error %+v call %+v", e, call)
			}
			if len(rec.recorded()) != tc.attempts-1 {
				t.Fatalf("waits %v", rec.recorded())
			}
			if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "timeout") {
				t.Fatalf("error text %q", err)
			}
		})
	}
}

func TestTransportFailures(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	for _, tc := range []struct {
		name      string
		url       string
		ctx       func() context.Context
		retryable bool
		canceled  bool
	}{
		{"connection refused", closedURL, context.Background, true, false},
		{"cancelled by the caller", serve(t, http.NotFoundHandler()), func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newClient(t, tc.url, "k", "s", nil)
			_, call, err := c.Health(tc.ctx())
			e := asError(t, err)
			if e.HTTPStatus != 0 || e.Retryable() != tc.retryable || e.Canceled != tc.canceled || call.Attempts != 1 || e.Err == nil {
				t.Fatalf("error %+v call %+v", e, call)
			}
		})
	}
}

func TestUnexpectedAnswers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter, r *http.Request)
		status int
		public string
	}{
		{"error code inside a 200", answer(200, nil, `{"code":400,"data":null,"message":"error has occurred","error":{"id":"e1","handler":"h","details":"d","public_message":"p"}}`), 200, "p"},
		{"HTML from a proxy", answer(200, nil, "<html>maintenance</html>"), 0, ""},
		{"HTML error page", answer(400, nil, "<html>bad gateway</html>"), 400, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newClient(t, serve(t, &scripted{answers: []func(http.ResponseWriter, *http.Request){tc.answer}}), "k", "s", nil)
			_, call, err := c.SignInvoice(context.Background(), map[string]any{"irn": "X"})
			e := asError(t, err)
			if e.HTTPStatus != tc.status || e.PublicMessage != tc.public || e.Retryable() || call.Attempts != 1 {
				t.Fatalf("error %+v", e)
			}
		})
	}
}

// echo answers with the request's credentials everywhere NRS could put
// text, as a hostile or buggy server might.
func echo(status int, envelope bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		k, s := r.Header.Get("x-api-key"), r.Header.Get("x-api-secret")
		w.WriteHeader(status)
		if !envelope {
			_, _ = fmt.Fprintf(w, "upstream rejected key=%s secret=%s", k, s)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"code": status, "data": nil, "message": "error has occurred " + s,
			"error": map[string]any{"id": k, "handler": s, "details": map[string]string{"key": k, "secret": s}, "public_message": "bad key " + k + " secret " + s},
		})
	}
}

func TestSecretsRedacted(t *testing.T) {
	const key, secret = "live-api-key-0123456789", "live-api-secret-abcdefghijklmnop"
	var logs bytes.Buffer
	for _, tc := range []struct {
		name string
		h    http.Handler
	}{
		{"echoed in the envelope", echo(400, true)},
		{"echoed in a plain body", echo(502, false)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newClient(t, serve(t, tc.h), key, secret, func(cfg *mbs.Config) {
				cfg.Retry.MaxAttempts = 1
				cfg.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			})
			_, call, err := c.ValidateInvoice(context.Background(), map[string]string{"irn": "X"})
			e := asError(t, err)
			shown := fmt.Sprintf("%v|%+v|%#v|%s|%s|%+v", err, *e, *e, e.Details, e.RawDetails, call)
			if strings.Contains(shown, key) || strings.Contains(shown, secret) {
				t.Fatalf("credentials leak: %s", shown)
			}
			if !strings.Contains(shown, "[REDACTED]") {
				t.Fatalf("nothing was redacted: %s", shown)
			}
		})
	}
	cfg := mbs.Config{BaseURL: "https://nrs.example", APIKey: key, APISecret: secret}
	var cfgLog bytes.Buffer
	slog.New(slog.NewJSONHandler(&cfgLog, nil)).Info("config", "cfg", cfg)
	for _, shown := range []string{fmt.Sprint(cfg), fmt.Sprintf("%+v %#v", cfg, cfg), cfgLog.String(), logs.String()} {
		if strings.Contains(shown, key) || strings.Contains(shown, secret) {
			t.Fatalf("credentials leak: %s", shown)
		}
	}
}

func TestLenientSuccessAnswers(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		ok   bool
	}{
		{"empty body", "", true},
		{"ok as a string", `{"code":200,"data":{"ok":"true"}}`, true},
		{"no ok field", `{"code":200,"data":{"irn":"X"}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newClient(t, serve(t, http.HandlerFunc(answer(200, nil, tc.body))), "k", "s", nil)
			ack, _, err := c.ConfirmReceipt(context.Background(), "INV1-94ND90NR-20260315")
			if err != nil || ack.OK != tc.ok {
				t.Fatalf("ack %+v err %v", ack, err)
			}
		})
	}
}
