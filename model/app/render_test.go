package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/invoices"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// renderService is a service with the NRS authority registered, on a
// fixed clock.
func renderService(tb testing.TB, now time.Time) *app.App {
	tb.Helper()
	return apptest.New(tb, storetest.SQLite(tb), func(c *app.Config) {
		c.UsageFlushInterval, c.Now = time.Hour, func() time.Time { return now }
	})
}

// principal signs up, creates a project of env with a key and returns the
// authenticated key and the project's view.
func principal(tb testing.TB, svc *app.App, env string) (*model.Principal, *portal.ProjectView) {
	tb.Helper()
	ctx := context.Background()
	slug := "r" + uuid.NewString()[:8]
	su, err := svc.Auth.Signup(ctx, auth.SignupInput{Email: slug + "@example.com", Password: "correct horse battery", OrganizationName: "Org", OrganizationSlug: slug})
	if err != nil {
		tb.Fatal(err)
	}
	u, err := svc.Auth.AuthenticateToken(ctx, su.AccessToken)
	if err != nil {
		tb.Fatal(err)
	}
	pr, err := svc.Portal.CreateProject(ctx, u, portal.ProjectInput{OrganizationID: su.Organization.ID.String(), Name: "Shop", Environment: env})
	if err != nil {
		tb.Fatal(err)
	}
	k, err := svc.Keys.Create(ctx, u, pr.ID, keys.Input{KeyName: "render"})
	if err != nil {
		tb.Fatal(err)
	}
	p, err := svc.Keys.Authenticate(ctx, k.ClientID, k.ClientSecret)
	if err != nil {
		tb.Fatal(err)
	}
	return p, pr
}

func fixture(tb testing.TB, name string) map[string]any {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("../../testdata/fixtures", name))
	if err != nil {
		tb.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		tb.Fatal(err)
	}
	return m
}

func TestRenderInvoice(t *testing.T) {
	now := time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)
	svc := renderService(t, now)
	k, pr := principal(t, svc, "sandbox")
	ctx := context.Background()
	serviceID := *pr.Authority.ServiceID

	out, err := svc.Invoices.Render(ctx, k, invoices.RenderInput{InvoiceType: "B2B", Payload: fixture(t, "invoice-b2b-1.1.json")}, true)
	if err != nil {
		t.Fatal(err)
	}
	v := out.View
	if want := "SGN2026000123-" + serviceID + "-20260315"; v.IRN != want {
		t.Errorf("irn %q, want %q", v.IRN, want)
	}
	if v.BusinessID != *pr.Authority.BusinessID || !v.Valid() || v.Totals.PayableAmount != "75250.00" {
		t.Errorf("view: business %q valid %v payable %q", v.BusinessID, v.Valid(), v.Totals.PayableAmount)
	}
	for _, w := range v.Warnings {
		if w.Loc[0] != "body" || w.Loc[1] != "payload" {
			t.Errorf("warning loc %v is not relative to the body", w.Loc)
		}
	}
	if v.QR.Timestamp != now.Unix() || len(v.QR.Payload) != 344 || !strings.HasPrefix(v.QR.KeyFingerprint, "SHA256:") {
		t.Errorf("qr: %+v", v.QR)
	}
	sk, _ := apptest.SandboxKeys()
	priv, err := nrs.ParsePrivateKey(sk.PrivateKeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	irnTS, cert, err := nrs.DecryptQR(priv, v.QR.Payload, v.QR.Encryption)
	if err != nil || irnTS != v.IRN+"."+strconv.FormatInt(now.Unix(), 10) || cert != sk.Certificate {
		t.Errorf("decrypted %q %q %v", irnTS, cert, err)
	}
	if !bytes.HasPrefix(out.PDF, []byte("%PDF-1.7")) {
		t.Errorf("no PDF/A PDF")
	}
	// The PDF is PDF/A-3b and carries the payload and its UBL document.
	if !bytes.Contains(out.PDF, []byte("<pdfaid:part>3</pdfaid:part>")) {
		t.Error("PDF has no PDF/A-3 identification")
	}
	if _, err := exec.LookPath("pdfdetach"); err == nil {
		dir := t.TempDir()
		path := filepath.Join(dir, "invoice.pdf")
		if err := os.WriteFile(path, out.PDF, 0o644); err != nil {
			t.Fatal(err)
		}
		if msg, err := exec.Command("pdfdetach", "-saveall", "-o", dir, path).CombinedOutput(); err != nil {
			t.Fatalf("pdfdetach: %v %s", err, msg)
		}
		js, _ := os.ReadFile(filepath.Join(dir, "invoice.json"))
		var back map[string]any
		if err := json.Unmarshal(js, &back); err != nil || back["irn"] != v.IRN || back["invoice_type_code"] == nil {
			t.Errorf("embedded invoice.json: %v %.80s", err, js)
		}
		x, _ := os.ReadFile(filepath.Join(dir, "invoice.xml"))
		if !bytes.Contains(x, []byte("<cbc:ID>"+v.IRN+"</cbc:ID>")) {
			t.Errorf("embedded invoice.xml lacks the IRN: %.200s", x)
		}
	} else if os.Getenv("CI") != "" {
		t.Fatal("pdfdetach not found: install poppler-utils")
	}

	// Without withPDF no PDF is drawn. The kind is read in any case and
	// shown in canonical form.
	out, err = svc.Invoices.Render(ctx, k, invoices.RenderInput{InvoiceType: "b2B", Payload: fixture(t, "invoice-b2b-1.1.json")}, false)
	if err != nil || out.PDF != nil {
		t.Fatalf("json only: %v %d bytes", err, len(out.PDF))
	}
	if out.View.InvoiceType != model.InvoiceKindB2B {
		t.Errorf("invoice_type %q, want B2B", out.View.InvoiceType)
	}

	// Business-rule failures render, flagged, with body-relative locations.
	out, err = svc.Invoices.Render(ctx, k, invoices.RenderInput{InvoiceType: "B2B", Payload: fixture(t, "invalid-missing-supplier-tin.json")}, false)
	if err != nil {
		t.Fatal(err)
	}
	if out.View.Valid() || len(out.View.Validation.Errors) != 1 || out.View.Validation.Errors[0].Path != "/accounting_supplier_party/tin" ||
		out.View.Validation.Errors[0].Loc[0] != "body" {
		t.Errorf("invalid invoice: %+v", out.View.Validation)
	}
}

func TestRenderInvoiceRejects(t *testing.T) {
	svc := renderService(t, time.Now())
	k, _ := principal(t, svc, "sandbox")
	ctx := context.Background()
	cases := []struct {
		name string
		in   invoices.RenderInput
		want []string // type@loc
	}{
		{"unknown kind", invoices.RenderInput{InvoiceType: "B2X", Payload: fixture(t, "invoice-b2b-1.1.json")}, []string{"enum@invoice_type"}},
		{"payload not an object", invoices.RenderInput{InvoiceType: "B2B", Payload: "x"}, []string{"dict_type@payload"}},
		{"both", invoices.RenderInput{InvoiceType: "", Payload: []any{}}, []string{"enum@invoice_type", "dict_type@payload"}},
		{"wrong types", invoices.RenderInput{InvoiceType: "B2C", Payload: map[string]any{
			"invoice_line": "none", "legal_monetary_total": map[string]any{"payable_amount": "3225"},
		}}, []string{"list_type@payload/invoice_line", "value_error@payload/legal_monetary_total/payable_amount"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := svc.Invoices.Render(ctx, k, c.in, false)
			e := model.AsError(err)
			if e == nil || e.Code != model.CodeInvalid {
				t.Fatalf("err = %v, want invalid", err)
			}
			var got []string
			for _, f := range e.Fields {
				parts := make([]string, len(f.Loc))
				for i, l := range f.Loc {
					parts[i] = toString(l)
				}
				got = append(got, string(f.Type)+"@"+strings.Join(parts, "/"))
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}

	prod, _ := principal(t, svc, "production")
	_, err := svc.Invoices.Render(ctx, prod, invoices.RenderInput{InvoiceType: "B2B", Payload: fixture(t, "invoice-b2b-1.1.json")}, true)
	if model.ErrorCodeOf(err) != model.CodeAuthorityNotConfigured {
		t.Fatalf("unconfigured project: %v", err)
	}
}

func toString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	}
	return ""
}
