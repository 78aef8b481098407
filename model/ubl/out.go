package ubl

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
)

// Peppol BIS Billing 3.0's identifiers, written into every document.
const (
	PeppolCustomizationID = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0"
	PeppolProfileID       = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0"
)

// OutOptions are what FromNRS writes besides the payload.
type OutOptions struct {
	// QRPayload is the QR payload NRS confirmed; written, with QRPNG (the
	// QR image, PNG) when given, as an AdditionalDocumentReference with ID
	// NRS-QR.
	QRPayload string
	QRPNG     []byte
	// Carried is what the source document of an invoice submitted as UBL
	// said that NRS has no field for (electronic addresses, accounts).
	Carried Carried
}

// MediaType is the media type of a UBL document.
const MediaType = "application/xml"

var reUnitCode = regexp.MustCompile(`^[A-Z0-9]{1,3}$`)

// FromNRS writes an NRS invoice payload as a UBL 2.1 Invoice, or a
// CreditNote for NRS's credit note types, following Peppol BIS Billing
// 3.0's use of UBL: cbc:ID is the IRN. A payload whose invoice type has no
// UNTDID 1001 counterpart is a conflict.
func FromNRS(payload map[string]any, opt OutOptions) ([]byte, error) {
	inv, err := nrs.Decode(payload)
	if err != nil {
		return nil, err
	}
	untdid, credit, ok := untdidOf(inv.InvoiceTypeCode)
	if !ok {
		return nil, model.Errorf(model.CodeConflict,
			"NRS invoice type %q has no UNTDID 1001 document type einvoice writes as UBL (it writes %s)", inv.InvoiceTypeCode, typeList())
	}
	w := &writer{}
	root, lineTag, qtyTag := "Invoice", "cac:InvoiceLine", "cbc:InvoicedQuantity"
	ns := NSInvoice
	if credit {
		root, lineTag, qtyTag, ns = "CreditNote", "cac:CreditNoteLine", "cbc:CreditedQuantity", NSCreditNote
	}
	w.b.WriteString(xml.Header)
	w.b.WriteString("<" + root + ` xmlns="` + ns + `" xmlns:cac="` + NSCAC + `" xmlns:cbc="` + NSCBC + `">`)
	w.leaf("cbc:CustomizationID", PeppolCustomizationID)
	w.leaf("cbc:ProfileID", PeppolProfileID)
	w.leaf("cbc:ID", inv.IRN)
	w.leaf("cbc:IssueDate", inv.IssueDate)
	w.leaf("cbc:IssueTime", inv.IssueTime)
	if credit {
		w.leaf("cbc:TaxPointDate", inv.TaxPointDate)
		w.leaf("cbc:CreditNoteTypeCode", untdid)
		w.notes(inv.Note)
	} else {
		w.leaf("cbc:DueDate", inv.DueDate)
		w.leaf("cbc:InvoiceTypeCode", untdid)
		w.notes(inv.Note)
		w.leaf("cbc:TaxPointDate", inv.TaxPointDate)
	}
	w.leaf("cbc:DocumentCurrencyCode", inv.DocumentCurrencyCode)
	if inv.TaxCurrencyCode != inv.DocumentCurrencyCode {
		w.leaf("cbc:TaxCurrencyCode", inv.TaxCurrencyCode)
	}
	w.leaf("cbc:AccountingCost", inv.AccountingCost)
	w.leaf("cbc:BuyerReference", inv.BuyerReference)
	if p := inv.DeliveryPeriod; p != nil && (p.StartDate != "" || p.EndDate != "") {
		w.open("cac:InvoicePeriod")
		w.leaf("cbc:StartDate", p.StartDate)
		w.leaf("cbc:EndDate", p.EndDate)
		w.close("cac:InvoicePeriod")
	}
	if inv.OrderReference != "" {
		w.open("cac:OrderReference")
		w.leaf("cbc:ID", inv.OrderReference)
		w.close("cac:OrderReference")
	}
	for _, b := range inv.BillingReferences {
		w.open("cac:BillingReference")
		w.docRef("cac:InvoiceDocumentReference", &b)
		w.close("cac:BillingReference")
	}
	w.docRef("cac:DespatchDocumentReference", inv.DispatchDocumentReference)
	w.docRef("cac:ReceiptDocumentReference", inv.ReceiptDocumentReference)
	if credit {
		w.docRef("cac:ContractDocumentReference", inv.ContractDocumentReference)
		w.additional(inv, opt)
		w.docRef("cac:OriginatorDocumentReference", inv.OriginatorDocumentReference)
	} else {
		w.docRef("cac:OriginatorDocumentReference", inv.OriginatorDocumentReference)
		w.docRef("cac:ContractDocumentReference", inv.ContractDocumentReference)
		w.additional(inv, opt)
	}
	w.open("cac:AccountingSupplierParty")
	w.party(inv.Supplier, opt.Carried.Supplier, true)
	w.close("cac:AccountingSupplierParty")
	w.open("cac:AccountingCustomerParty")
	if inv.Customer != nil {
		w.party(inv.Customer, opt.Carried.Customer, true)
	}
	w.close("cac:AccountingCustomerParty")
	if inv.Payee != nil {
		w.open("cac:PayeeParty")
		w.partyBody(inv.Payee, nil, false)
		w.close("cac:PayeeParty")
	}
	if inv.Bill != nil {
		w.open("cac:BuyerCustomerParty")
		w.party(inv.Bill, nil, false)
		w.close("cac:BuyerCustomerParty")
	}
	if inv.TaxRepresentative != nil {
		w.open("cac:TaxRepresentativeParty")
		w.partyBody(inv.TaxRepresentative, nil, false)
		w.close("cac:TaxRepresentativeParty")
	}
	if inv.ActualDeliveryDate != "" || inv.Ship != nil {
		w.open("cac:Delivery")
		w.leaf("cbc:ActualDeliveryDate", inv.ActualDeliveryDate)
		if s := inv.Ship; s != nil {
			if s.PostalAddress != nil {
				w.open("cac:DeliveryLocation")
				w.address("cac:Address", s.PostalAddress)
				w.close("cac:DeliveryLocation")
			}
			w.open("cac:DeliveryParty")
			ship := *s
			ship.PostalAddress = nil
			w.partyBody(&ship, nil, false)
			w.close("cac:DeliveryParty")
		}
		w.close("cac:Delivery")
	}
	for i, pm := range inv.PaymentMeans {
		w.open("cac:PaymentMeans")
		w.leaf("cbc:PaymentMeansCode", pm.Code)
		w.leaf("cbc:PaymentDueDate", pm.DueDate)
		if i < len(opt.Carried.PayeeAccounts) && opt.Carried.PayeeAccounts[i] != "" {
			w.open("cac:PayeeFinancialAccount")
			w.leaf("cbc:ID", opt.Carried.PayeeAccounts[i])
			w.close("cac:PayeeFinancialAccount")
		}
		w.close("cac:PaymentMeans")
	}
	if inv.PaymentTermsNote != "" {
		w.open("cac:PaymentTerms")
		w.leaf("cbc:Note", inv.PaymentTermsNote)
		w.close("cac:PaymentTerms")
	}
	cat := documentCategory(inv)
	cur := inv.DocumentCurrencyCode
	allowances, charges := decimal.Zero, decimal.Zero
	for _, ac := range inv.AllowanceCharges {
		w.open("cac:AllowanceCharge")
		w.leaf("cbc:ChargeIndicator", boolText(ac.ChargeIndicator))
		if ac.ChargeIndicator {
			w.leaf("cbc:AllowanceChargeReason", "Charge")
			charges = charges.Add(amount(ac.Amount))
		} else {
			w.leaf("cbc:AllowanceChargeReason", "Allowance")
			allowances = allowances.Add(amount(ac.Amount))
		}
		w.money("cbc:Amount", ac.Amount, cur)
		w.taxCategory("cac:TaxCategory", cat)
		w.close("cac:AllowanceCharge")
	}
	for _, tt := range inv.TaxTotals {
		w.open("cac:TaxTotal")
		w.money("cbc:TaxAmount", tt.TaxAmount, cur)
		for _, st := range tt.TaxSubtotals {
			w.open("cac:TaxSubtotal")
			w.money("cbc:TaxableAmount", st.TaxableAmount, cur)
			w.money("cbc:TaxAmount", st.TaxAmount, cur)
			c := st.Category
			w.taxCategory("cac:TaxCategory", &c)
			w.close("cac:TaxSubtotal")
		}
		w.close("cac:TaxTotal")
	}
	lmt := inv.LegalMonetaryTotal
	w.open("cac:LegalMonetaryTotal")
	w.money("cbc:LineExtensionAmount", lmt.LineExtensionAmount, cur)
	w.money("cbc:TaxExclusiveAmount", lmt.TaxExclusiveAmount, cur)
	w.money("cbc:TaxInclusiveAmount", lmt.TaxInclusiveAmount, cur)
	if len(inv.AllowanceCharges) > 0 {
		w.money("cbc:AllowanceTotalAmount", valid(allowances), cur)
		w.money("cbc:ChargeTotalAmount", valid(charges), cur)
	}
	w.money("cbc:PayableAmount", lmt.PayableAmount, cur)
	w.close("cac:LegalMonetaryTotal")
	for i, l := range inv.Lines {
		w.line(lineTag, qtyTag, i+1, l, cat, cur)
	}
	w.b.WriteString("</" + root + ">\n")
	return w.b.Bytes(), nil
}

func typeList() string {
	var parts []string
	for _, t := range typeCodes {
		parts = append(parts, t.nrs)
	}
	return strings.Join(parts, ", ")
}

// documentCategory is the tax category written on every line and
// document-level allowance or charge (NRS's lines carry none): the first
// tax subtotal's.
func documentCategory(inv *nrs.Invoice) *nrs.TaxCategory {
	for _, tt := range inv.TaxTotals {
		for _, st := range tt.TaxSubtotals {
			c := st.Category
			return &c
		}
	}
	return nil
}

func amount(a nrs.Amount) decimal.Decimal {
	if a.Valid {
		return a.Decimal
	}
	return decimal.Zero
}

func valid(d decimal.Decimal) nrs.Amount { return nrs.Amount{Decimal: d, Valid: true} }

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

type writer struct{ b bytes.Buffer }

func (w *writer) open(tag string)  { w.b.WriteString("<" + tag + ">") }
func (w *writer) close(tag string) { w.b.WriteString("</" + tag + ">") }

func (w *writer) leaf(tag, v string, attrs ...string) {
	if v == "" {
		return
	}
	w.b.WriteString("<" + tag)
	for i := 0; i+1 < len(attrs); i += 2 {
		if attrs[i+1] == "" {
			continue
		}
		w.b.WriteString(" " + attrs[i] + `="`)
		_ = xml.EscapeText(&w.b, []byte(attrs[i+1]))
		w.b.WriteString(`"`)
	}
	w.b.WriteString(">")
	_ = xml.EscapeText(&w.b, []byte(v))
	w.b.WriteString("</" + tag + ">")
}

func (w *writer) notes(note string) {
	if note == "" {
		return
	}
	for _, n := range strings.Split(note, "\n") {
		w.leaf("cbc:Note", n)
	}
}

func (w *writer) money(tag string, a nrs.Amount, currency string) {
	if !a.Valid {
		return
	}
	w.leaf(tag, a.Decimal.String(), "currencyID", currency)
}

func (w *writer) number(tag string, a nrs.Amount, attrs ...string) {
	if !a.Valid {
		return
	}
	w.leaf(tag, a.Decimal.String(), attrs...)
}

func (w *writer) docRef(tag string, r *nrs.DocumentReference) {
	if r == nil || r.IRN == "" {
		return
	}
	w.open(tag)
	w.leaf("cbc:ID", r.IRN)
	w.leaf("cbc:IssueDate", r.IssueDate)
	w.close(tag)
}

func (w *writer) additional(inv *nrs.Invoice, opt OutOptions) {
	for i := range inv.AdditionalDocumentReferences {
		w.docRef("cac:AdditionalDocumentReference", &inv.AdditionalDocumentReferences[i])
	}
	if opt.QRPayload == "" {
		return
	}
	w.open("cac:AdditionalDocumentReference")
	w.leaf("cbc:ID", qrReferenceID)
	w.leaf("cbc:DocumentDescription", opt.QRPayload)
	if len(opt.QRPNG) > 0 {
		w.open("cac:Attachment")
		w.leaf("cbc:EmbeddedDocumentBinaryObject", base64.StdEncoding.EncodeToString(opt.QRPNG),
			"mimeCode", "image/png", "filename", inv.IRN+"-qr.png")
		w.close("cac:Attachment")
	}
	w.close("cac:AdditionalDocumentReference")
}

// party writes a cac:Party (the accounting parties, the buyer).
func (w *writer) party(p *nrs.Party, ep *Endpoint, identify bool) {
	w.open("cac:Party")
	w.partyFields(p, ep, identify)
	w.close("cac:Party")
}

// partyBody writes a party's content where UBL's element is itself a
// party (PayeeParty, TaxRepresentativeParty, DeliveryParty).
func (w *writer) partyBody(p *nrs.Party, ep *Endpoint, identify bool) {
	w.partyFields(p, ep, identify)
}

// partyFields writes a party: its TIN as the party identifier (EN 16931
// BT-29/BT-46) and as a tax registration under the TIN scheme (BT-32),
// its name as trading and legal name, its address (state as the
// subdivision, LGA as an address line) and contact.
func (w *writer) partyFields(p *nrs.Party, ep *Endpoint, identify bool) {
	if p == nil {
		p = &nrs.Party{}
	}
	if ep != nil && ep.ID != "" {
		w.leaf("cbc:EndpointID", ep.ID, "schemeID", ep.SchemeID)
	}
	if identify && p.TIN != "" {
		w.open("cac:PartyIdentification")
		w.leaf("cbc:ID", p.TIN)
		w.close("cac:PartyIdentification")
	}
	if p.Name != "" {
		w.open("cac:PartyName")
		w.leaf("cbc:Name", p.Name)
		w.close("cac:PartyName")
	}
	w.address("cac:PostalAddress", p.PostalAddress)
	if p.TIN != "" {
		w.open("cac:PartyTaxScheme")
		w.leaf("cbc:CompanyID", p.TIN)
		w.open("cac:TaxScheme")
		w.leaf("cbc:ID", "TIN")
		w.close("cac:TaxScheme")
		w.close("cac:PartyTaxScheme")
	}
	if identify && p.Name != "" {
		w.open("cac:PartyLegalEntity")
		w.leaf("cbc:RegistrationName", p.Name)
		w.close("cac:PartyLegalEntity")
	}
	if p.Telephone != "" || p.Email != "" {
		w.open("cac:Contact")
		w.leaf("cbc:Telephone", p.Telephone)
		w.leaf("cbc:ElectronicMail", p.Email)
		w.close("cac:Contact")
	}
}

func (w *writer) address(tag string, a *nrs.Address) {
	if a == nil {
		return
	}
	w.open(tag)
	w.leaf("cbc:StreetName", a.StreetName)
	w.leaf("cbc:CityName", a.CityName)
	w.leaf("cbc:PostalZone", a.PostalZone)
	w.leaf("cbc:CountrySubentity", a.State)
	if a.LGA != "" {
		w.open("cac:AddressLine")
		w.leaf("cbc:Line", a.LGA)
		w.close("cac:AddressLine")
	}
	if a.Country != "" {
		w.open("cac:Country")
		w.leaf("cbc:IdentificationCode", a.Country)
		w.close("cac:Country")
	}
	w.close(tag)
}

func (w *writer) taxCategory(tag string, c *nrs.TaxCategory) {
	if c == nil || c.ID == "" {
		return
	}
	scheme, code := ublTaxCategory(c.ID)
	w.open(tag)
	w.leaf("cbc:ID", code)
	w.number("cbc:Percent", c.Percent)
	w.open("cac:TaxScheme")
	w.leaf("cbc:ID", scheme)
	w.close("cac:TaxScheme")
	w.close(tag)
}

var hundred = decimal.NewFromInt(100)

func (w *writer) line(tag, qtyTag string, n int, l nrs.Line, cat *nrs.TaxCategory, cur string) {
	w.open(tag)
	w.leaf("cbc:ID", itoa(n))
	unit := "C62" // UN/ECE Rec. 20 "one", for a free-text price_unit
	if reUnitCode.MatchString(l.Price.PriceUnit) {
		unit = l.Price.PriceUnit
	}
	w.number(qtyTag, l.InvoicedQuantity, "unitCode", unit)
	w.money("cbc:LineExtensionAmount", l.LineExtensionAmount, cur)
	gross := decimal.Zero
	if l.InvoicedQuantity.Valid && l.Price.PriceAmount.Valid {
		gross = l.InvoicedQuantity.Decimal.Mul(l.Price.PriceAmount.Decimal)
		if b := l.Price.BaseQuantity; b.Valid && b.Decimal.Sign() > 0 {
			gross = gross.DivRound(b.Decimal, 10)
		}
	}
	w.lineAC(false, l.DiscountRate, l.DiscountAmount, gross, cur)
	w.lineAC(true, l.FeeRate, l.FeeAmount, gross, cur)
	w.open("cac:Item")
	w.leaf("cbc:Description", l.Item.Description)
	w.leaf("cbc:Name", l.Item.Name)
	if l.Item.SellersItemIdentification != "" {
		w.open("cac:SellersItemIdentification")
		w.leaf("cbc:ID", l.Item.SellersItemIdentification)
		w.close("cac:SellersItemIdentification")
	}
	if l.HSNCode != "" {
		w.open("cac:CommodityClassification")
		w.leaf("cbc:ItemClassificationCode", l.HSNCode, "listID", "HS", "name", l.ProductCategory)
		w.close("cac:CommodityClassification")
	}
	if l.ISICCode != "" {
		w.open("cac:CommodityClassification")
		w.leaf("cbc:ItemClassificationCode", l.ISICCode, "listID", "ZZZ", "listName", "ISIC", "name", l.ServiceCategory)
		w.close("cac:CommodityClassification")
	}
	w.taxCategory("cac:ClassifiedTaxCategory", cat)
	w.close("cac:Item")
	w.open("cac:Price")
	w.money("cbc:PriceAmount", l.Price.PriceAmount, cur)
	w.number("cbc:BaseQuantity", l.Price.BaseQuantity, "unitCode", unit)
	w.close("cac:Price")
	w.close(tag)
}

// lineAC writes a line's discount (allowance) or fee (charge) when its
// amount is not zero; its rate, with the gross amount as the base, only
// when the amount is the rate of that base (EN 16931's rule).
func (w *writer) lineAC(charge bool, rate, amt nrs.Amount, gross decimal.Decimal, cur string) {
	if !amt.Valid || amt.Decimal.IsZero() {
		return
	}
	w.open("cac:AllowanceCharge")
	w.leaf("cbc:ChargeIndicator", boolText(charge))
	if charge {
		w.leaf("cbc:AllowanceChargeReason", "Fee")
	} else {
		w.leaf("cbc:AllowanceChargeReasonCode", "95") // UNCL 5189: Discount
		w.leaf("cbc:AllowanceChargeReason", "Discount")
	}
	// The base is the line's gross amount when the rate applies to it,
	// else the amount the rate was taken of (amount × 100 / rate).
	base, withRate := gross, false
	if rate.Valid && !rate.Decimal.IsZero() {
		if gross.Sign() == 0 || !gross.Mul(rate.Decimal).Div(hundred).Round(2).Equal(amt.Decimal.Round(2)) {
			base = amt.Decimal.Mul(hundred).DivRound(rate.Decimal, 2)
		}
		withRate = base.Mul(rate.Decimal).Div(hundred).Round(2).Equal(amt.Decimal.Round(2))
	}
	if withRate {
		w.leaf("cbc:MultiplierFactorNumeric", rate.Decimal.String())
	}
	w.money("cbc:Amount", amt, cur)
	if withRate {
		w.money("cbc:BaseAmount", valid(base.Round(2)), cur)
	}
	w.close("cac:AllowanceCharge")
}
