package mbs_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model/mbs"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
)

// The buyer's side against the stand-in: pull, download (sealed, opened
// with the buyer's key; or plain), confirm once.
func TestBuyerSideAgainstStandIn(t *testing.T) {
	for _, plain := range []bool{false, true} {
		s := newStandIn(t, nrssandbox.Options{PlainDownloads: plain})
		buyer := nrssandbox.Business{Owner: "test:buyer", BusinessID: uuid.NewString(), ServiceID: "BUY3R003",
			Certificate: s.keys.Certificate, PrivateKeyPEM: s.keys.PrivateKeyPEM, APIKey: "key-" + uuid.NewString(), APISecret: "secret-" + uuid.NewString()}
		info, err := s.h.Register(context.Background(), buyer)
		if err != nil {
			t.Fatal(err)
		}
		seller, _ := s.client(t, nil)
		bc, _ := newClient(t, s.srv.URL, buyer.APIKey, buyer.APISecret, nil)
		ctx := context.Background()

		inv, irn := s.fixture(t, "invoice-b2b-1.1.json", "INV90")
		inv["accounting_customer_party"].(map[string]any)["tin"] = info.TIN
		if _, _, err := seller.SignInvoice(ctx, inv); err != nil {
			t.Fatal(err)
		}
		if _, _, err := seller.Transmit(ctx, irn); err != nil {
			t.Fatal(err)
		}
		unconfirmed := false
		got, _, err := bc.Pull(ctx, mbs.PullQuery{Confirmed: &unconfirmed})
		if err != nil || len(got) != 1 || got[0].IRN != irn {
			t.Fatalf("pull: %+v %v", got, err)
		}
		doc, _, err := bc.DownloadInvoice(ctx, irn)
		if err != nil || doc.IRN != irn || doc.Sealed == plain {
			t.Fatalf("download (plain %v): %+v %v", plain, doc, err)
		}
		if !plain {
			// Sealed for the buyer: the supplier's key does not open it.
			stranger, _ := newClient(t, s.srv.URL, buyer.APIKey, "not-the-secret", nil)
			if _, _, err := stranger.DownloadInvoice(ctx, irn); err == nil {
				t.Fatal("a bad secret downloaded")
			}
		}
		if _, _, err := bc.ConfirmReceipt(ctx, irn); err != nil {
			t.Fatal(err)
		}
		c, _ := s.h.Counts(ctx, s.biz.BusinessID, irn)
		if c.Confirmations != 1 || c.ConfirmRepeats != 0 {
			t.Fatalf("counts: %+v", c)
		}
	}
}

// recorder answers every request with 200 {"code":200,"data":{"ok":true}}
// and keeps what it received.
type recorder struct {
	mu   sync.Mutex
	reqs []recorded
}

type recorded struct {
	method, path string
	body         string
}

func (r *recorder) server(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.reqs = append(r.reqs, recorded{req.Method, req.URL.Path, string(b)})
		r.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"code":200,"data":{"ok":true}}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func (r *recorder) last() recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reqs[len(r.reqs)-1]
}

// ConfirmReceipt's body and the report's route, host and body follow the
// settings.
func TestExchangeSettings(t *testing.T) {
	var main, reports recorder
	mainSrv, reportSrv := main.server(t), reports.server(t)
	ctx := context.Background()

	c, _ := newClient(t, mainSrv.URL, "k", "s", nil)
	if _, _, err := c.ConfirmReceipt(ctx, "INV1-94ND90NR-20260315"); err != nil {
		t.Fatal(err)
	}
	if r := main.last(); r.method != "PATCH" || r.body != `{"message":"ACKNOWLEDGED"}` {
		t.Fatalf("confirm: %+v", r)
	}
	empty, _ := newClient(t, mainSrv.URL, "k", "s", func(cfg *mbs.Config) { cfg.ConfirmReceiptEmptyBody = true })
	if _, _, err := empty.ConfirmReceipt(ctx, "INV1-94ND90NR-20260315"); err != nil {
		t.Fatal(err)
	}
	if r := main.last(); r.body != "" {
		t.Fatalf("confirm with the empty-body setting: %+v", r)
	}

	report := mbs.Report{AgentTIN: "01060087-0001", BaseAmount: "100000.00", BeneficiaryTIN: "20983315-0001", Currency: "NGN",
		ItemDescription: "Cement", IRN: "INV1-94ND90NR-20260315", OtherTaxes: "5000.00", TotalAmount: "112500.00",
		TransactionDate: "2024-11-18", IntegratorServiceID: "772392", VATCalculated: "7500.00", VATRate: "7.5", VATStatus: mbs.VATStandard}
	rc, _ := newClient(t, mainSrv.URL, "k", "s", func(cfg *mbs.Config) { cfg.ReportBaseURL = reportSrv.URL })
	if _, _, err := mbs.SendReport(ctx, rc, report); err != nil {
		t.Fatal(err)
	}
	r := reports.last()
	var body map[string]any
	_ = json.Unmarshal([]byte(r.body), &body)
	if r.path != "/api/v1/vat/postpayment" || body["agent_tin"] != "01060087-0001" || body["vat_status"] != "STANDARD_VAT" || body["vat_rate"] != "7.5" {
		t.Fatalf("report: %+v", r)
	}
	legacy, _ := newClient(t, mainSrv.URL, "k", "s", func(cfg *mbs.Config) { cfg.LegacyReportRoute = true; cfg.ReportBaseURL = reportSrv.URL })
	_, _, _ = mbs.SendReport(ctx, legacy, report)
	r = main.last()
	body = nil
	_ = json.Unmarshal([]byte(r.body), &body)
	if r.path != "/v1/vat/postPayment" || body["agentTin"] != "01060087-0001" || body["vendorTransactionId"] != report.IRN {
		t.Fatalf("legacy report: %+v", r)
	}
	// A host without the route (the stand-in answers MBS's no-route 404 on
	// a path it lacks): the older route is tried, and answers its own 404.
	s := newStandIn(t, nrssandbox.Options{})
	fallback, _ := newClient(t, s.srv.URL, s.biz.APIKey, s.biz.APISecret, func(cfg *mbs.Config) { cfg.ReportBaseURL = s.srv.URL + "/elsewhere" })
	_, call, err := mbs.SendReport(ctx, fallback, report)
	var e *mbs.Error
	if !errors.As(err, &e) || e.HTTPStatus != 404 || call.Path != "/v1/vat/postPayment" {
		t.Fatalf("fallback: %+v %v", call, err)
	}
	if _, err := mbs.New(mbs.Config{BaseURL: mainSrv.URL, APIKey: "k", APISecret: "s", ReportBaseURL: "ftp://x.invalid"}); err == nil {
		t.Fatal("a bad report host was accepted")
	}
}
