package rest_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/ubl/ubltest"
)

func ublDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ubltest.Testdata(), "ng-invoice.xml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// recordInvoice records an invoice of a tenant's project directly (this
// server has no workflow engine to clear one), with the B2B fixture as its
// payload.
func recordInvoice(t *testing.T, s *server, tn tenant, status model.InvoiceStatus, irn string) *model.SubmittedInvoice {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ubltest.Testdata(), "..", "fixtures", "invoice-b2b-1.1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	p["irn"] = irn
	doc, _ := json.Marshal(p)
	now := time.Now().UTC().Truncate(time.Microsecond)
	inv := &model.SubmittedInvoice{ID: model.NewID(), ProjectID: uuid.MustParse(tn.ProjectID), OrganizationID: uuid.MustParse(tn.OrgID),
		Environment: model.EnvironmentSandbox, IRN: irn, InvoiceType: model.InvoiceKindB2B, InvoiceTypeCode: "381",
		Payload: string(doc), PayloadHash: "x", Status: status, IssueDate: "2026-03-15", WorkflowID: "w-" + irn,
		CreatedAt: now, UpdatedAt: now}
	if status == model.InvoiceConfirmed {
		inv.QRCodeData = "cXItcGF5bG9hZA=="
		inv.ConfirmedAt = &now
	}
	if err := s.st.Submissions().Create(context.Background(), inv); err != nil {
		t.Fatal(err)
	}
	return inv
}

func xmlReq(method, path string, tn tenant, body string) req {
	return req{method: method, path: path, body: body, clientID: tn.ClientID, secret: tn.Secret,
		header: map[string]string{"Content-Type": "application/xml"}}
}

func TestConvertUBL(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := newServer(t, d)
			a := s.tenant("convert-" + d.Name)
			doc := ublDoc(t)

			res := s.do(xmlReq("POST", "/api/v2/invoices/convert", a, doc))
			if res.Status != 200 {
				t.Fatalf("convert: %d %s", res.Status, res.Body)
			}
			out := res.json(t)
			val := out["validation"].(map[string]any)
			mapping := out["mapping"].(map[string]any)
			payload := out["payload"].(map[string]any)
			if val["valid"] != true || len(mapping["problems"].([]any)) != 0 || out["invoice_reference"] != "SGN2026000123" {
				t.Fatalf("convert: %s", res.Body)
			}
			// The IRN is the reference with the project's own service id;
			// business_id is the project's.
			proj := s.must(200, req{method: "GET", path: "/api/v2/projects", token: a.Token})
			auth := proj["items"].([]any)[0].(map[string]any)["authority"].(map[string]any)
			if payload["irn"] != "SGN2026000123-"+auth["service_id"].(string)+"-20260315" || payload["business_id"] != auth["business_id"] {
				t.Fatalf("irn %v business %v, project %v", payload["irn"], payload["business_id"], auth)
			}
			// Nothing was stored: the reference is not taken.
			if list := s.must(200, req{method: "GET", path: "/api/v2/invoices", clientID: a.ClientID, secret: a.Secret}); len(list["items"].([]any)) != 0 {
				t.Fatalf("convert stored an invoice: %v", list)
			}

			// A document NRS would refuse converts, with validation false.
			broken := strings.Replace(doc, "<cbc:ElectronicMail>billing@sango.example</cbc:ElectronicMail>", "", 1)
			res = s.do(xmlReq("POST", "/api/v2/invoices/convert", a, broken))
			if res.Status != 200 || res.json(t)["validation"].(map[string]any)["valid"] != false {
				t.Fatalf("convert of an invoice without the supplier's email: %d %s", res.Status, res.Body)
			}

			// Refusals.
			r := s.do(req{method: "POST", path: "/api/v2/invoices/convert", body: doc, clientID: a.ClientID, secret: a.Secret})
			if r.Status != 415 {
				t.Fatalf("XML sent as JSON: %d %s", r.Status, r.Body)
			}
			for name, body := range map[string]string{
				"not XML":  "{}",
				"an Order": `<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>`,
				"a DTD":    `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x SYSTEM "file:///etc/passwd">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&x;</Invoice>`,
				"empty":    "",
			} {
				ds := detail(t, s.do(xmlReq("POST", "/api/v2/invoices/convert", a, body)))
				if got := locs(ds); len(got) == 0 || !strings.Contains(got[0], "@body") {
					t.Errorf("%s: %v", name, got)
				}
			}
			if got := locs(detail(t, s.do(xmlReq("POST", "/api/v2/invoices/convert?invoice_type=B2X&x=1", a, doc)))); !strings.Contains(strings.Join(got, " "), "query/invoice_type") ||
				!strings.Contains(strings.Join(got, " "), "query/x") {
				t.Errorf("bad query: %v", got)
			}
			// Without the scope: 403.
			k := s.must(200, req{method: "POST", path: "/api/v2/projects/" + a.ProjectID + "/keys", token: a.Token,
				body: map[string]any{"key_name": "reader", "scopes": []string{"invoices:read"}}})
			if r := s.do(req{method: "POST", path: "/api/v2/invoices/convert", body: doc, clientID: k["client_id"].(string), secret: k["client_secret"].(string),
				header: map[string]string{"Content-Type": "application/xml"}}); r.Status != 403 {
				t.Fatalf("convert without invoices:validate: %d %s", r.Status, r.Body)
			}
			// Submitting as XML without the workflow engine: 503, nothing stored.
			if r := s.do(xmlReq("POST", "/api/v2/invoices", a, doc)); r.Status != 503 {
				t.Fatalf("submit without the engine: %d %s", r.Status, r.Body)
			}
			if r := s.do(xmlReq("POST", "/api/v2/invoices", a, broken)); r.Status != 422 || !strings.Contains(string(r.Body), `"payload","accounting_supplier_party","email"`) {
				t.Fatalf("submit of an invalid invoice: %d %s", r.Status, r.Body)
			}
		})
	}
}

func TestUBLOutAndNotesAcrossTenants(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := newServer(t, d)
			a, b := s.tenant("ubl-a-"+d.Name), s.tenant("ubl-b-"+d.Name)
			proj := s.must(200, req{method: "GET", path: "/api/v2/projects", token: b.Token})
			sid := proj["items"].([]any)[0].(map[string]any)["authority"].(map[string]any)["service_id"].(string)
			bInv := recordInvoice(t, s, b, model.InvoiceConfirmed, "SGN2026000123-"+sid+"-20260315")
			bQueued := recordInvoice(t, s, b, model.InvoiceQueued, "SGN2026000124-"+sid+"-20260315")
			own := func(path string) req { return req{method: "GET", path: path, clientID: b.ClientID, secret: b.Secret} }
			other := func(path string) req { return req{method: "GET", path: path, clientID: a.ClientID, secret: a.Secret} }
			id := bInv.ID.String()

			// B reads its invoice as UBL, by link and by Accept.
			js := s.must(200, own("/api/v2/invoices/"+id))
			if js["links"].(map[string]any)["ubl"] != "/api/v2/invoices/"+id+"/ubl" {
				t.Fatalf("links: %v", js["links"])
			}
			x := s.do(own("/api/v2/invoices/" + id + "/ubl"))
			if x.Status != 200 || !strings.HasPrefix(x.Header.Get("Content-Type"), "application/xml") ||
				!strings.Contains(string(x.Body), "<cbc:ID>"+bInv.IRN+"</cbc:ID>") || !strings.Contains(string(x.Body), "cXItcGF5bG9hZA==") {
				t.Fatalf("ubl: %d %s %s", x.Status, x.Header, x.Body)
			}
			byAccept := own("/api/v2/invoices/" + id)
			byAccept.header = map[string]string{"Accept": "application/json;q=0.5, application/xml"}
			if r := s.do(byAccept); r.Status != 200 || string(r.Body) != string(x.Body) {
				t.Fatalf("by Accept: %d %s", r.Status, r.Body)
			}
			byAccept.header = map[string]string{"Accept": "application/json, application/xml;q=0.5"}
			if r := s.do(byAccept); r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
				t.Fatalf("JSON ranked first: %d %s", r.Status, r.Header)
			}
			if msg := ubltest.ValidateXSD(t, x.Body); msg != "" {
				t.Fatalf("not valid UBL 2.1: %s", msg)
			}
			// Not confirmed yet: 409. Submitted as JSON: no mapping report.
			if r := s.do(own("/api/v2/invoices/" + bQueued.ID.String() + "/ubl")); r.Status != 409 {
				t.Fatalf("ubl of a queued invoice: %d %s", r.Status, r.Body)
			}
			if r := s.do(own("/api/v2/invoices/" + id + "/mapping")); r.Status != 404 {
				t.Fatalf("mapping of a JSON invoice: %d %s", r.Status, r.Body)
			}

			// A reaches none of it, whatever the route.
			for _, path := range []string{"/ubl", "/mapping", ""} {
				r := other("/api/v2/invoices/" + id + path)
				r.header = map[string]string{"Accept": "application/xml"}
				if res := s.do(r); res.Status != 404 || strings.Contains(string(res.Body), "SGN2026000123") {
					t.Fatalf("A reads B's invoice%s: %d %s", path, res.Status, res.Body)
				}
			}
			for _, kind := range []string{"credit-notes", "debit-notes"} {
				res := s.do(req{method: "POST", path: "/api/v2/invoices/" + id + "/" + kind, clientID: a.ClientID, secret: a.Secret,
					body: map[string]any{"invoice_reference": "CN1", "lines": []any{map[string]any{"line": 0, "quantity": 1}}}})
				if res.Status != 404 {
					t.Fatalf("A builds a %s of B's invoice: %d %s", kind, res.Status, res.Body)
				}
			}

			// B's notes: checked before anything is built.
			note := func(kind string, body any) response {
				return s.do(req{method: "POST", path: "/api/v2/invoices/" + id + "/" + kind, clientID: b.ClientID, secret: b.Secret, body: body})
			}
			if got := locs(detail(t, note("credit-notes", map[string]any{"lines": []any{map[string]any{"line": -1, "quantity": 1, "amount": 2}}}))); len(got) != 2 ||
				!strings.Contains(strings.Join(got, " "), "body/lines/0/line") {
				t.Fatalf("bad note: %v", got)
			}
			if got := locs(detail(t, note("debit-notes", map[string]any{"invoice_reference": "DN1"}))); !strings.Contains(strings.Join(got, " "), "lines") {
				t.Fatalf("a debit note without lines: %v", got)
			}
			if got := locs(detail(t, note("credit-notes", map[string]any{"invoice_reference": "CN1", "lines": []any{map[string]any{"line": 0, "quantity": 11}}}))); !strings.Contains(strings.Join(got, " "), "lines/0/quantity") {
				t.Fatalf("crediting more than the line: %v", got)
			}
			if got := locs(detail(t, note("credit-notes", map[string]any{"invoice_reference": "CN1", "issue_date": "2026-03-01"}))); !strings.Contains(strings.Join(got, " "), "issue_date") {
				t.Fatalf("a note before its invoice: %v", got)
			}
			if r := s.do(req{method: "POST", path: "/api/v2/invoices/" + bQueued.ID.String() + "/credit-notes", clientID: b.ClientID, secret: b.Secret,
				body: map[string]any{"invoice_reference": "CN1"}}); r.Status != 409 {
				t.Fatalf("a note of a queued invoice: %d %s", r.Status, r.Body)
			}
			// Built and valid, the note reaches the submission: 503 here, as
			// this server has no workflow engine.
			if r := note("credit-notes", map[string]any{"invoice_reference": "CN1", "issue_date": "2026-03-20", "lines": []any{map[string]any{"line": 0, "quantity": "2"}}}); r.Status != 503 {
				t.Fatalf("a valid credit note: %d %s", r.Status, r.Body)
			}
		})
	}
}

// TestAttackXMLBodies sends the XML attacks at the UBL routes: entity
// expansion, external entities, deep nesting, an element flood and a body
// past the router's bound. Each is a 4xx, answered without expanding or
// fetching anything, and nothing is stored.
func TestAttackXMLBodies(t *testing.T) {
	s := newServer(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	a := s.tenant("xml-attack")
	inv := `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">`
	laughs := `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">` +
		`<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>` + inv + `<cbc:Note xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">&lol3;</cbc:Note></Invoice>`
	for name, c := range map[string]struct {
		body string
		want int
	}{
		"billion laughs":    {laughs, 422},
		"external entity":   {`<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "http://198.51.100.1/x">]>` + inv + `&e;</Invoice>`, 422},
		"deep nesting":      {inv + strings.Repeat("<a>", 5000) + strings.Repeat("</a>", 5000) + `</Invoice>`, 422},
		"element flood":     {inv + strings.Repeat("<a/>", 60000) + `</Invoice>`, 422},
		"past the body cap": {inv + strings.Repeat("<!-- padding -->", 80000) + `</Invoice>`, 422},
	} {
		for _, path := range []string{"/api/v2/invoices/convert", "/api/v2/invoices"} {
			res := s.do(xmlReq("POST", path, a, c.body))
			if res.Status != c.want {
				t.Errorf("%s at %s: %d, want %d: %.300s", name, path, res.Status, c.want, res.Body)
			}
			if strings.Contains(string(res.Body), "lollollol") {
				t.Errorf("%s: an entity was expanded: %.300s", name, res.Body)
			}
		}
	}
	if list := s.must(200, req{method: "GET", path: "/api/v2/invoices", clientID: a.ClientID, secret: a.Secret}); len(list["items"].([]any)) != 0 {
		t.Fatalf("an attack stored an invoice: %v", list)
	}
}
