// Package render turns an NRS invoice into what a person reads: a View
// (the JSON representation, every amount computed and every code named) and
// an A4 PDF of that view with one layout per invoice kind (B2B, B2C, B2G),
// the IRN printed in full and the encrypted QR payload drawn at error
// correction level H.
//
// The package is pure: no HTTP, no database, no clock unless the caller
// gives none. Building a view takes the decoded invoice, its computed totals,
// the validation report, the IRN and the QR payload, all produced elsewhere
// (model/nrs, the service); rendering takes only the view.
package render

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
)

// View is an invoice as it is shown: parties, lines with computed amounts,
// allowances and charges, the tax breakdown, totals, the IRN and QR payload
// the document carries, and the outcome of validating the payload. Amounts
// are decimal strings with two decimals ("75250.00"); quantities, prices and
// rates keep the precision the payload gives.
type View struct {
	// InvoiceType is the layout: B2B, B2C or B2G (every model.InvoiceKind
	// has one).
	InvoiceType model.InvoiceKind `json:"invoice_type"`
	Document    Document          `json:"document"`
	// IRN is the IRN printed and encoded in the QR payload; "" when none
	// could be built (see Warnings).
	IRN        string `json:"irn"`
	BusinessID string `json:"business_id"`

	IssueDate     string `json:"issue_date"`
	IssueTime     string `json:"issue_time"`
	DueDate       string `json:"due_date"`
	TaxPointDate  string `json:"tax_point_date"`
	Currency      string `json:"currency"`
	TaxCurrency   string `json:"tax_currency"`
	PaymentStatus string `json:"payment_status"`
	Note          string `json:"note"`

	References References `json:"references"`
	Delivery   Delivery   `json:"delivery"`

	Supplier          *Party `json:"supplier"`
	Customer          *Party `json:"customer"`
	Payee             *Party `json:"payee"`
	TaxRepresentative *Party `json:"tax_representative"`

	Lines            []Line            `json:"lines"`
	AllowanceCharges []AllowanceCharge `json:"allowance_charges"`
	Taxes            []Tax             `json:"taxes"`
	// Totals are computed from the lines, allowances, charges and tax
	// subtotals; StatedTotals are what the payload says (null where absent
	// or not a usable number).
	Totals       Totals       `json:"totals"`
	StatedTotals StatedTotals `json:"stated_totals"`
	Payment      Payment      `json:"payment"`

	QR QR `json:"qr"`
	// Validation is the report of the payload against the authority's
	// schema and rules. An invalid invoice still renders, flagged.
	Validation model.ValidationReport `json:"validation"`
	// Warnings say what rendering changed or could not do (an IRN rebuilt
	// for this project, a business id replaced), in the issue shape.
	Warnings []model.Issue `json:"warnings"`
}

// Valid reports whether the payload passed validation.
func (v *View) Valid() bool { return v.Validation.Valid }

// Filename is the name a PDF of the view is served under: "<irn>.pdf".
func (v *View) Filename() string {
	if v.IRN == "" {
		return "invoice.pdf"
	}
	return v.IRN + ".pdf"
}

// Document names what kind of document the invoice is.
type Document struct {
	TypeCode string `json:"type_code"`
	TypeName string `json:"type_name"`
	// Title is the heading printed on the document.
	Title string `json:"title"`
}

// References are the other documents and accounts an invoice points to.
type References struct {
	Order          string              `json:"order"`
	Buyer          string              `json:"buyer"`
	AccountingCost string              `json:"accounting_cost"`
	Contract       *DocumentReference  `json:"contract"`
	Billing        []DocumentReference `json:"billing"`
	Dispatch       *DocumentReference  `json:"dispatch"`
	Receipt        *DocumentReference  `json:"receipt"`
	Originator     *DocumentReference  `json:"originator"`
	Additional     []DocumentReference `json:"additional"`
}

// DocumentReference points at another document by IRN.
type DocumentReference struct {
	IRN       string `json:"irn"`
	IssueDate string `json:"issue_date"`
}

// Delivery is when goods or services were delivered.
type Delivery struct {
	ActualDeliveryDate string `json:"actual_delivery_date"`
	PeriodStart        string `json:"period_start"`
	PeriodEnd          string `json:"period_end"`
}

// Party is a supplier, customer, payee or tax representative.
type Party struct {
	Name                string   `json:"name"`
	TIN                 string   `json:"tin"`
	Email               string   `json:"email"`
	Telephone           string   `json:"telephone"`
	BusinessDescription string   `json:"business_description"`
	Address             *Address `json:"address"`
}

// Address is a postal address with its codes named.
type Address struct {
	StreetName  string `json:"street_name"`
	CityName    string `json:"city_name"`
	PostalZone  string `json:"postal_zone"`
	LGA         string `json:"lga"`
	State       string `json:"state"`
	StateName   string `json:"state_name"`
	Country     string `json:"country"`
	CountryName string `json:"country_name"`
	// Lines is the address as printed, one line each.
	Lines []string `json:"lines"`
}

// Line is one invoice line with its computed amounts.
type Line struct {
	Number int `json:"number"`
	// Kind is "goods" (HS code) or "service" (ISIC code).
	Kind                      string `json:"kind"`
	Name                      string `json:"name"`
	Description               string `json:"description"`
	SellersItemIdentification string `json:"sellers_item_identification"`
	HSNCode                   string `json:"hsn_code"`
	ProductCategory           string `json:"product_category"`
	ISICCode                  string `json:"isic_code"`
	ServiceCategory           string `json:"service_category"`
	Quantity                  string `json:"quantity"`
	Unit                      string `json:"unit"`
	UnitPrice                 string `json:"unit_price"`
	BaseQuantity              string `json:"base_quantity"`
	// Gross is quantity × unit price / base quantity; Amount is Gross −
	// Discount + Fee, the computed line_extension_amount.
	Gross    string `json:"gross"`
	Discount string `json:"discount"`
	Fee      string `json:"fee"`
	Amount   string `json:"amount"`
	// StatedAmount is the payload's line_extension_amount (null when absent).
	StatedAmount *string `json:"stated_amount"`
	// Complete is false when the quantity or price is missing or unusable;
	// the computed amounts are then zero.
	Complete bool `json:"complete"`
}

// AllowanceCharge is a document-level allowance (subtracted) or charge
// (added).
type AllowanceCharge struct {
	Charge bool   `json:"charge"`
	Label  string `json:"label"`
	Amount string `json:"amount"`
}

// Tax is the tax of one category and rate.
type Tax struct {
	CategoryID    string `json:"category_id"`
	CategoryName  string `json:"category_name"`
	Percent       string `json:"percent"`
	TaxableAmount string `json:"taxable_amount"`
	TaxAmount     string `json:"tax_amount"`
}

// Totals are the document totals computed from the invoice's own inputs.
type Totals struct {
	LineExtensionAmount string `json:"line_extension_amount"`
	AllowanceTotal      string `json:"allowance_total"`
	ChargeTotal         string `json:"charge_total"`
	TaxExclusiveAmount  string `json:"tax_exclusive_amount"`
	TaxAmount           string `json:"tax_amount"`
	TaxInclusiveAmount  string `json:"tax_inclusive_amount"`
	PayableAmount       string `json:"payable_amount"`
}

// StatedTotals are the document totals the payload states.
type StatedTotals struct {
	LineExtensionAmount *string `json:"line_extension_amount"`
	TaxExclusiveAmount  *string `json:"tax_exclusive_amount"`
	TaxInclusiveAmount  *string `json:"tax_inclusive_amount"`
	PayableAmount       *string `json:"payable_amount"`
}

// Payment is how and when the invoice is to be paid.
type Payment struct {
	Means []PaymentMeans `json:"means"`
	Terms string         `json:"terms"`
}

// PaymentMeans is one accepted way to pay.
type PaymentMeans struct {
	Code    string `json:"code"`
	Name    string `json:"name"`
	DueDate string `json:"due_date"`
}

// QR is the encrypted QR payload the document carries and how it was made.
type QR struct {
	Payload        string             `json:"payload"`
	Timestamp      int64              `json:"timestamp"`
	Encryption     model.QREncryption `json:"encryption"`
	KeyFingerprint string             `json:"key_fingerprint"`
}

// Input is everything a view is built from.
type Input struct {
	// InvoiceType is the layout asked for: B2B, B2C or B2G.
	InvoiceType model.InvoiceKind
	Invoice     *nrs.Invoice
	Totals      nrs.Totals
	Report      *model.ValidationReport
	// IRN and BusinessID are the ones to print (see Identify).
	IRN        string
	BusinessID string
	QR         QR
	// Warnings are carried into the view as they are.
	Warnings []model.Issue
}

// NewView builds the view of an invoice. It only arranges and names what it
// is given; it never fails.
func NewView(in Input) View {
	inv := in.Invoice
	if inv == nil {
		inv = &nrs.Invoice{}
	}
	v := View{
		InvoiceType:   in.InvoiceType,
		Document:      document(inv.InvoiceTypeCode),
		IRN:           in.IRN,
		BusinessID:    in.BusinessID,
		IssueDate:     inv.IssueDate,
		IssueTime:     inv.IssueTime,
		DueDate:       inv.DueDate,
		TaxPointDate:  inv.TaxPointDate,
		Currency:      inv.DocumentCurrencyCode,
		TaxCurrency:   inv.TaxCurrencyCode,
		PaymentStatus: inv.PaymentStatus,
		Note:          inv.Note,
		References: References{
			Order:          inv.OrderReference,
			Buyer:          inv.BuyerReference,
			AccountingCost: inv.AccountingCost,
			Contract:       docRef(inv.ContractDocumentReference),
			Billing:        docRefs(inv.BillingReferences),
			Dispatch:       docRef(inv.DispatchDocumentReference),
			Receipt:        docRef(inv.ReceiptDocumentReference),
			Originator:     docRef(inv.OriginatorDocumentReference),
			Additional:     docRefs(inv.AdditionalDocumentReferences),
		},
		Delivery:          Delivery{ActualDeliveryDate: inv.ActualDeliveryDate},
		Supplier:          party(inv.Supplier),
		Customer:          party(inv.Customer),
		Payee:             party(inv.Payee),
		TaxRepresentative: party(inv.TaxRepresentative),
		Lines:             make([]Line, len(inv.Lines)),
		AllowanceCharges:  make([]AllowanceCharge, len(inv.AllowanceCharges)),
		Taxes:             make([]Tax, len(in.Totals.Taxes)),
		Totals: Totals{
			LineExtensionAmount: money(in.Totals.LineExtensionAmount),
			AllowanceTotal:      money(in.Totals.AllowanceTotal),
			ChargeTotal:         money(in.Totals.ChargeTotal),
			TaxExclusiveAmount:  money(in.Totals.TaxExclusiveAmount),
			TaxAmount:           money(in.Totals.TaxAmount),
			TaxInclusiveAmount:  money(in.Totals.TaxInclusiveAmount),
			PayableAmount:       money(in.Totals.PayableAmount),
		},
		StatedTotals: StatedTotals{
			LineExtensionAmount: statedMoney(inv.LegalMonetaryTotal.LineExtensionAmount),
			TaxExclusiveAmount:  statedMoney(inv.LegalMonetaryTotal.TaxExclusiveAmount),
			TaxInclusiveAmount:  statedMoney(inv.LegalMonetaryTotal.TaxInclusiveAmount),
			PayableAmount:       statedMoney(inv.LegalMonetaryTotal.PayableAmount),
		},
		Payment:  Payment{Means: make([]PaymentMeans, len(inv.PaymentMeans)), Terms: inv.PaymentTermsNote},
		QR:       in.QR,
		Warnings: append([]model.Issue{}, in.Warnings...),
	}
	if p := inv.DeliveryPeriod; p != nil {
		v.Delivery.PeriodStart, v.Delivery.PeriodEnd = p.StartDate, p.EndDate
	}
	for i, l := range inv.Lines {
		var la nrs.LineAmounts
		if i < len(in.Totals.Lines) {
			la = in.Totals.Lines[i]
		}
		v.Lines[i] = line(i, l, la)
	}
	for i, ac := range inv.AllowanceCharges {
		label := "Allowance"
		if ac.ChargeIndicator {
			label = "Charge"
		}
		v.AllowanceCharges[i] = AllowanceCharge{Charge: ac.ChargeIndicator, Label: label, Amount: money(orZero(ac.Amount))}
	}
	for i, t := range in.Totals.Taxes {
		name := t.CategoryID
		if e, ok := codes.TaxCategories.Lookup(t.CategoryID); ok {
			name = e.Value
		}
		v.Taxes[i] = Tax{
			CategoryID: t.CategoryID, CategoryName: name, Percent: t.Percent.String(),
			TaxableAmount: money(t.TaxableAmount), TaxAmount: money(t.TaxAmount),
		}
	}
	for i, pm := range inv.PaymentMeans {
		name := ""
		if e, ok := codes.PaymentMeans.Lookup(pm.Code); ok {
			name = e.Value
		}
		v.Payment.Means[i] = PaymentMeans{Code: pm.Code, Name: name, DueDate: pm.DueDate}
	}
	if v.InvoiceType == model.InvoiceKindB2C && v.PaymentStatus == "PAID" && v.Document.TypeCode == "381" {
		v.Document.Title = "RECEIPT"
	}
	if in.Report != nil {
		v.Validation = *in.Report
	}
	if v.Validation.Errors == nil {
		v.Validation.Errors = []model.Issue{}
	}
	if v.Validation.Warnings == nil {
		v.Validation.Warnings = []model.Issue{}
	}
	return v
}

// document names an invoice type code; the title is what the page says.
func document(code string) Document {
	d := Document{TypeCode: code, Title: "INVOICE"}
	if e, ok := codes.InvoiceTypes.Lookup(code); ok {
		d.TypeName = e.Value
		d.Title = strings.ToUpper(e.Value)
	}
	return d
}

func docRef(r *nrs.DocumentReference) *DocumentReference {
	if r == nil {
		return nil
	}
	return &DocumentReference{IRN: r.IRN, IssueDate: r.IssueDate}
}

func docRefs(rs []nrs.DocumentReference) []DocumentReference {
	out := make([]DocumentReference, len(rs))
	for i, r := range rs {
		out[i] = DocumentReference{IRN: r.IRN, IssueDate: r.IssueDate}
	}
	return out
}

func party(p *nrs.Party) *Party {
	if p == nil {
		return nil
	}
	out := &Party{
		Name: p.Name, TIN: p.TIN, Email: p.Email, Telephone: p.Telephone,
		BusinessDescription: p.BusinessDescription,
	}
	if a := p.PostalAddress; a != nil {
		out.Address = address(a)
	}
	return out
}

func address(a *nrs.Address) *Address {
	out := &Address{
		StreetName: a.StreetName, CityName: a.CityName, PostalZone: a.PostalZone,
		LGA: a.LGA, State: a.State, Country: a.Country,
	}
	if e, ok := codes.States.Lookup(a.State); ok {
		out.StateName = e.Value
	}
	if e, ok := codes.Countries.Lookup(strings.ToUpper(a.Country)); ok {
		out.CountryName = e.Value
	}
	out.Lines = []string{}
	if a.StreetName != "" {
		out.Lines = append(out.Lines, a.StreetName)
	}
	if city := join(" ", a.CityName, a.PostalZone); city != "" {
		out.Lines = append(out.Lines, city)
	}
	state := out.StateName
	if state == "" {
		state = a.State
	}
	country := out.CountryName
	if country == "" {
		country = a.Country
	}
	if region := join(", ", state, country); region != "" {
		out.Lines = append(out.Lines, region)
	}
	return out
}

// join joins the non-empty parts with sep.
func join(sep string, parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(p)
	}
	return b.String()
}

func line(i int, l nrs.Line, la nrs.LineAmounts) Line {
	kind := "goods"
	if l.IsService() {
		kind = "service"
	}
	out := Line{
		Number: i + 1, Kind: kind,
		Name: l.Item.Name, Description: l.Item.Description, SellersItemIdentification: l.Item.SellersItemIdentification,
		HSNCode: l.HSNCode, ProductCategory: l.ProductCategory, ISICCode: l.ISICCode, ServiceCategory: l.ServiceCategory,
		Quantity:     number(l.InvoicedQuantity),
		Unit:         l.Price.PriceUnit,
		UnitPrice:    price(l.Price.PriceAmount),
		BaseQuantity: number(l.Price.BaseQuantity),
		Gross:        money(la.Gross),
		Discount:     money(la.Discount),
		Fee:          money(la.Fee),
		Amount:       money(la.Net),
		StatedAmount: statedMoney(l.LineExtensionAmount),
		Complete:     la.Complete,
	}
	if out.BaseQuantity == "" {
		out.BaseQuantity = "1"
	}
	return out
}

func orZero(a nrs.Amount) decimal.Decimal {
	if a.Valid {
		return a.Decimal
	}
	return decimal.Zero
}

// money writes an amount with exactly two decimals.
func money(d decimal.Decimal) string { return d.StringFixed(2) }

// statedMoney writes a payload amount with two decimals, nil when absent.
func statedMoney(a nrs.Amount) *string {
	if !a.Valid {
		return nil
	}
	s := a.Decimal.Round(2).StringFixed(2)
	return &s
}

// price writes a unit price with at least two decimals and no fewer than
// the payload gives.
func price(a nrs.Amount) string {
	if !a.Valid {
		return ""
	}
	s := a.Decimal.String()
	if dot := strings.IndexByte(s, '.'); dot >= 0 && len(s)-dot-1 > 2 {
		return s
	}
	return a.Decimal.StringFixed(2)
}

// number writes a quantity as given, "" when absent.
func number(a nrs.Amount) string {
	if !a.Valid {
		return ""
	}
	return a.Decimal.String()
}
