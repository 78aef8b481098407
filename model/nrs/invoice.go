package nrs

import (
	"encoding/json"
	"math"

	"github.com/shopspring/decimal"

	"github.com/einvoice-ng/einvoice/model"
)

// Invoice is the typed view of an NRS invoice payload (schema 1.0 or 1.1),
// as the business rules read it and as renderers show it. Decode fills it
// leniently: a field that is absent or of the wrong JSON type is left at its
// zero value (an empty string, a nil pointer, an invalid Amount), so that a
// partly broken invoice can still be shown. Arrays keep one element per
// payload element, in order, so index i is /field/i in the payload.
//
// Dates and times are kept as written (YYYY-MM-DD, HH:MM:SS). NRS's
// sources disagree on whether document references are objects or arrays,
// so each is read in either shape: the single-reference fields hold the
// first reference, the slices every one.
type Invoice struct {
	BusinessID           string `json:"business_id"`
	IRN                  string `json:"irn"`
	IssueDate            string `json:"issue_date"`
	IssueTime            string `json:"issue_time,omitempty"`
	DueDate              string `json:"due_date,omitempty"`
	InvoiceTypeCode      string `json:"invoice_type_code"`
	InvoiceKind          string `json:"invoice_kind,omitempty"`
	PaymentStatus        string `json:"payment_status,omitempty"`
	Note                 string `json:"note,omitempty"`
	TaxPointDate         string `json:"tax_point_date,omitempty"`
	DocumentCurrencyCode string `json:"document_currency_code"`
	TaxCurrencyCode      string `json:"tax_currency_code,omitempty"`
	AccountingCost       string `json:"accounting_cost,omitempty"`
	BuyerReference       string `json:"buyer_reference,omitempty"`
	OrderReference       string `json:"order_reference,omitempty"`
	ActualDeliveryDate   string `json:"actual_delivery_date,omitempty"`
	PaymentTermsNote     string `json:"payment_terms_note,omitempty"`

	DeliveryPeriod               *Period             `json:"invoice_delivery_period,omitempty"`
	BillingReferences            []DocumentReference `json:"billing_reference,omitempty"`
	DispatchDocumentReference    *DocumentReference  `json:"dispatch_document_reference,omitempty"`
	ReceiptDocumentReference     *DocumentReference  `json:"receipt_document_reference,omitempty"`
	OriginatorDocumentReference  *DocumentReference  `json:"originator_document_reference,omitempty"`
	ContractDocumentReference    *DocumentReference  `json:"contract_document_reference,omitempty"`
	AdditionalDocumentReferences []DocumentReference `json:"additional_document_reference,omitempty"`

	Supplier          *Party `json:"accounting_supplier_party,omitempty"`
	Customer          *Party `json:"accounting_customer_party,omitempty"`
	Payee             *Party `json:"payee_party,omitempty"`
	Bill              *Party `json:"bill_party,omitempty"`
	Ship              *Party `json:"ship_party,omitempty"`
	TaxRepresentative *Party `json:"tax_representative_party,omitempty"`

	PaymentMeans       []PaymentMeans    `json:"payment_means,omitempty"`
	AllowanceCharges   []AllowanceCharge `json:"allowance_charge,omitempty"`
	TaxTotals          []TaxTotal        `json:"tax_total,omitempty"`
	LegalMonetaryTotal MonetaryTotal     `json:"legal_monetary_total"`
	Lines              []Line            `json:"invoice_line"`
}

// Amount is a decimal read from the payload. Valid is false when the number
// is absent, not a number, or outside the range the rules accept (see
// MaxAmountDigits).
type Amount = decimal.NullDecimal

// Period is a date range.
type Period struct {
	StartDate string `json:"start_date,omitempty"`
	EndDate   string `json:"end_date,omitempty"`
}

// DocumentReference points at another document by IRN.
type DocumentReference struct {
	IRN       string `json:"irn"`
	IssueDate string `json:"issue_date,omitempty"`
}

// Party is a supplier, customer, payee, bill, ship or tax representative
// party. ID names a party stored at NRS (CreateParty) and PostalAddressID a
// stored address; with them the inline name and address may be left out.
type Party struct {
	ID                  string   `json:"id,omitempty"`
	Name                string   `json:"party_name,omitempty"`
	TIN                 string   `json:"tin,omitempty"`
	Email               string   `json:"email,omitempty"`
	Telephone           string   `json:"telephone,omitempty"`
	BusinessDescription string   `json:"business_description,omitempty"`
	PostalAddressID     string   `json:"postal_address_id,omitempty"`
	PostalAddress       *Address `json:"postal_address,omitempty"`
}

// Address is a party's postal address. LGA and State exist from schema 1.1.
type Address struct {
	StreetName string `json:"street_name,omitempty"`
	CityName   string `json:"city_name,omitempty"`
	PostalZone string `json:"postal_zone,omitempty"`
	Country    string `json:"country,omitempty"`
	LGA        string `json:"lga,omitempty"`
	State      string `json:"state,omitempty"`
}

// PaymentMeans is one accepted way to pay.
type PaymentMeans struct {
	Code    string `json:"payment_means_code"`
	DueDate string `json:"payment_due_date,omitempty"`
}

// AllowanceCharge is a document-level allowance (ChargeIndicator false,
// subtracted) or charge (true, added).
type AllowanceCharge struct {
	ChargeIndicator bool   `json:"charge_indicator"`
	Amount          Amount `json:"amount"`
}

// TaxTotal is one tax total with its breakdown.
type TaxTotal struct {
	TaxAmount    Amount        `json:"tax_amount"`
	TaxSubtotals []TaxSubtotal `json:"tax_subtotal,omitempty"`
}

// TaxSubtotal is the tax of one category.
type TaxSubtotal struct {
	TaxableAmount Amount      `json:"taxable_amount"`
	TaxAmount     Amount      `json:"tax_amount"`
	Category      TaxCategory `json:"tax_category"`
}

// TaxCategory names a tax category (codes.TaxCategories) and its rate.
type TaxCategory struct {
	ID      string `json:"id"`
	Percent Amount `json:"percent"`
}

// MonetaryTotal holds the document totals as stated in the payload.
type MonetaryTotal struct {
	LineExtensionAmount Amount `json:"line_extension_amount"`
	TaxExclusiveAmount  Amount `json:"tax_exclusive_amount"`
	TaxInclusiveAmount  Amount `json:"tax_inclusive_amount"`
	PayableAmount       Amount `json:"payable_amount"`
}

// Line is one invoice line. Goods carry HSNCode and ProductCategory;
// services (schema 1.1) ISICCode and ServiceCategory. The discount is read
// from dicount_rate / dicount_amount (NRS's spelling) or, when those are
// absent, from discount_rate / discount_amount: one field, two spellings.
type Line struct {
	HSNCode             string `json:"hsn_code,omitempty"`
	ProductCategory     string `json:"product_category,omitempty"`
	ISICCode            string `json:"isic_code,omitempty"`
	ServiceCategory     string `json:"service_category,omitempty"`
	InvoicedQuantity    Amount `json:"invoiced_quantity"`
	LineExtensionAmount Amount `json:"line_extension_amount"`
	DiscountRate        Amount `json:"dicount_rate"`
	DiscountAmount      Amount `json:"dicount_amount"`
	FeeRate             Amount `json:"fee_rate"`
	FeeAmount           Amount `json:"fee_amount"`
	Item                Item   `json:"item"`
	Price               Price  `json:"price"`
}

// IsService reports whether the line describes a service (it has an ISIC
// code and no HS code).
func (l Line) IsService() bool { return l.ISICCode != "" && l.HSNCode == "" }

// Item describes what a line sells.
type Item struct {
	Name                      string `json:"name,omitempty"`
	Description               string `json:"description,omitempty"`
	SellersItemIdentification string `json:"sellers_item_identification,omitempty"`
}

// Price is a line's unit price. BaseQuantity is the quantity the price
// applies to (1 when absent); PriceUnit is free text ("NGN per 1" in every
// NRS example) or a UN/ECE Rec 20 code.
type Price struct {
	PriceAmount  Amount `json:"price_amount"`
	BaseQuantity Amount `json:"base_quantity"`
	PriceUnit    string `json:"price_unit,omitempty"`
}

// Decode reads a decoded JSON payload (numbers as json.Number, float64 or
// int) into an Invoice. It never fails on the content; a payload that is not
// a JSON object is an invalid *model.Error at location "payload".
func Decode(payload any) (*Invoice, error) {
	m, ok := payload.(map[string]any)
	if !ok {
		return nil, model.Invalid(model.ProblemDictType, "payload must be a JSON object", "payload")
	}
	return decodeInvoice(m), nil
}

// Range of numbers the rules accept: at most 18 digits before the decimal
// point and 30 after, written in at most 64 characters. Wider numbers are
// reported (NRS-NUMBER-RANGE) instead of computed with, which keeps the
// arithmetic bounded whatever the input.
const (
	MaxAmountDigits   = 18
	MaxAmountDecimals = 30
	maxNumberText     = 64
)

// parseNumber converts a JSON number to a decimal. present reports whether v
// is a number at all; ok whether it is also within range.
func parseNumber(v any) (d decimal.Decimal, present, ok bool) {
	switch n := v.(type) {
	case json.Number:
		if len(n) > maxNumberText {
			return decimal.Decimal{}, true, false
		}
		var err error
		if d, err = decimal.NewFromString(string(n)); err != nil {
			return decimal.Decimal{}, true, false
		}
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return decimal.Decimal{}, true, false
		}
		d = decimal.NewFromFloat(n)
	case float32:
		if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
			return decimal.Decimal{}, true, false
		}
		d = decimal.NewFromFloat32(n)
	case int:
		d = decimal.NewFromInt(int64(n))
	case int64:
		d = decimal.NewFromInt(n)
	case int32:
		d = decimal.NewFromInt(int64(n))
	case uint64:
		if n > math.MaxInt64 {
			return decimal.Decimal{}, true, false
		}
		d = decimal.NewFromInt(int64(n))
	default:
		return decimal.Decimal{}, false, false
	}
	if d.IsZero() {
		return decimal.Zero, true, true
	}
	exp := d.Exponent()
	if exp < -MaxAmountDecimals || exp > MaxAmountDigits {
		return decimal.Decimal{}, true, false
	}
	if d.NumDigits()+int(exp) > MaxAmountDigits {
		return decimal.Decimal{}, true, false
	}
	return d, true, true
}

// obj wraps a JSON object with lenient typed getters.
type obj map[string]any

func (o obj) str(key string) string {
	s, _ := o[key].(string)
	return s
}

func (o obj) num(key string) Amount {
	d, _, ok := parseNumber(o[key])
	return Amount{Decimal: d, Valid: ok}
}

// either reads key, or alt when key is absent.
func (o obj) either(key, alt string) Amount {
	if _, ok := o[key]; ok {
		return o.num(key)
	}
	return o.num(alt)
}

func (o obj) obj(key string) obj {
	m, _ := o[key].(map[string]any)
	return m
}

func (o obj) arr(key string) []any {
	a, _ := o[key].([]any)
	return a
}

func asObj(v any) obj {
	m, _ := v.(map[string]any)
	return m
}

func decodeInvoice(m map[string]any) *Invoice {
	o := obj(m)
	inv := &Invoice{
		BusinessID:           o.str("business_id"),
		IRN:                  o.str("irn"),
		IssueDate:            o.str("issue_date"),
		IssueTime:            o.str("issue_time"),
		DueDate:              o.str("due_date"),
		InvoiceTypeCode:      o.str("invoice_type_code"),
		InvoiceKind:          o.str("invoice_kind"),
		PaymentStatus:        o.str("payment_status"),
		Note:                 o.str("note"),
		TaxPointDate:         o.str("tax_point_date"),
		DocumentCurrencyCode: o.str("document_currency_code"),
		TaxCurrencyCode:      o.str("tax_currency_code"),
		AccountingCost:       o.str("accounting_cost"),
		BuyerReference:       o.str("buyer_reference"),
		OrderReference:       o.str("order_reference"),
		ActualDeliveryDate:   o.str("actual_delivery_date"),
		PaymentTermsNote:     o.str("payment_terms_note"),

		DispatchDocumentReference:   firstRef(o["dispatch_document_reference"]),
		ReceiptDocumentReference:    firstRef(o["receipt_document_reference"]),
		OriginatorDocumentReference: firstRef(o["originator_document_reference"]),
		ContractDocumentReference:   firstRef(o["contract_document_reference"]),

		Supplier:          decodeParty(o.obj("accounting_supplier_party")),
		Customer:          decodeParty(o.obj("accounting_customer_party")),
		Payee:             decodeParty(o.obj("payee_party")),
		Bill:              decodeParty(o.obj("bill_party")),
		Ship:              decodeParty(o.obj("ship_party")),
		TaxRepresentative: decodeParty(o.obj("tax_representative_party")),
	}
	if p := o.obj("invoice_delivery_period"); p != nil {
		inv.DeliveryPeriod = &Period{StartDate: p.str("start_date"), EndDate: p.str("end_date")}
	}
	inv.BillingReferences = decodeDocRefs(o["billing_reference"])
	inv.AdditionalDocumentReferences = decodeDocRefs(o["additional_document_reference"])

	if a := o.arr("payment_means"); len(a) > 0 {
		inv.PaymentMeans = make([]PaymentMeans, len(a))
		for i, v := range a {
			e := asObj(v)
			inv.PaymentMeans[i] = PaymentMeans{Code: e.str("payment_means_code"), DueDate: e.str("payment_due_date")}
		}
	}
	if a := o.arr("allowance_charge"); len(a) > 0 {
		inv.AllowanceCharges = make([]AllowanceCharge, len(a))
		for i, v := range a {
			e := asObj(v)
			ci, _ := e["charge_indicator"].(bool)
			inv.AllowanceCharges[i] = AllowanceCharge{ChargeIndicator: ci, Amount: e.num("amount")}
		}
	}
	if a := o.arr("tax_total"); len(a) > 0 {
		inv.TaxTotals = make([]TaxTotal, len(a))
		for i, v := range a {
			e := asObj(v)
			tt := TaxTotal{TaxAmount: e.num("tax_amount")}
			if subs := e.arr("tax_subtotal"); len(subs) > 0 {
				tt.TaxSubtotals = make([]TaxSubtotal, len(subs))
				for j, sv := range subs {
					s := asObj(sv)
					c := s.obj("tax_category")
					tt.TaxSubtotals[j] = TaxSubtotal{
						TaxableAmount: s.num("taxable_amount"),
						TaxAmount:     s.num("tax_amount"),
						Category:      TaxCategory{ID: c.str("id"), Percent: c.num("percent")},
					}
				}
			}
			inv.TaxTotals[i] = tt
		}
	}
	lmt := o.obj("legal_monetary_total")
	inv.LegalMonetaryTotal = MonetaryTotal{
		LineExtensionAmount: lmt.num("line_extension_amount"),
		TaxExclusiveAmount:  lmt.num("tax_exclusive_amount"),
		TaxInclusiveAmount:  lmt.num("tax_inclusive_amount"),
		PayableAmount:       lmt.num("payable_amount"),
	}
	if a := o.arr("invoice_line"); len(a) > 0 {
		inv.Lines = make([]Line, len(a))
		for i, v := range a {
			inv.Lines[i] = decodeLine(asObj(v))
		}
	}
	return inv
}

// decodeDocRefs reads a document reference field written as one object or
// as an array of them.
func decodeDocRefs(v any) []DocumentReference {
	switch x := v.(type) {
	case map[string]any:
		o := obj(x)
		return []DocumentReference{{IRN: o.str("irn"), IssueDate: o.str("issue_date")}}
	case []any:
		if len(x) == 0 {
			return nil
		}
		out := make([]DocumentReference, len(x))
		for i, e := range x {
			o := asObj(e)
			out[i] = DocumentReference{IRN: o.str("irn"), IssueDate: o.str("issue_date")}
		}
		return out
	}
	return nil
}

// firstRef reads the first reference of a field written as an object or an
// array.
func firstRef(v any) *DocumentReference {
	refs := decodeDocRefs(v)
	if len(refs) == 0 {
		return nil
	}
	return &refs[0]
}

func decodeParty(o obj) *Party {
	if o == nil {
		return nil
	}
	p := &Party{
		ID:                  o.str("id"),
		PostalAddressID:     o.str("postal_address_id"),
		Name:                o.str("party_name"),
		TIN:                 o.str("tin"),
		Email:               o.str("email"),
		Telephone:           o.str("telephone"),
		BusinessDescription: o.str("business_description"),
	}
	if a := o.obj("postal_address"); a != nil {
		p.PostalAddress = &Address{
			StreetName: a.str("street_name"),
			CityName:   a.str("city_name"),
			PostalZone: a.str("postal_zone"),
			Country:    a.str("country"),
			LGA:        a.str("lga"),
			State:      a.str("state"),
		}
	}
	return p
}

func decodeLine(o obj) Line {
	item := o.obj("item")
	price := o.obj("price")
	return Line{
		HSNCode:             o.str("hsn_code"),
		ProductCategory:     o.str("product_category"),
		ISICCode:            o.str("isic_code"),
		ServiceCategory:     o.str("service_category"),
		InvoicedQuantity:    o.num("invoiced_quantity"),
		LineExtensionAmount: o.num("line_extension_amount"),
		DiscountRate:        o.either("dicount_rate", "discount_rate"),
		DiscountAmount:      o.either("dicount_amount", "discount_amount"),
		FeeRate:             o.num("fee_rate"),
		FeeAmount:           o.num("fee_amount"),
		Item: Item{
			Name:                      item.str("name"),
			Description:               item.str("description"),
			SellersItemIdentification: item.str("sellers_item_identification"),
		},
		Price: Price{
			PriceAmount:  price.num("price_amount"),
			BaseQuantity: price.num("base_quantity"),
			PriceUnit:    price.str("price_unit"),
		},
	}
}
