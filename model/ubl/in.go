// Package ubl converts between UBL 2.1 (the OASIS Invoice and CreditNote,
// and their European profile Peppol BIS Billing 3.0) and NRS's invoice
// JSON. ToNRS maps a UBL document to an NRS payload and reports, element
// by element, what it used, what it filled and what it dropped and why;
// FromNRS writes an NRS payload as a UBL 2.1 document. docs/formats.md is
// the mapping's table, one row per NRS field.
//
// The package is a pure leaf: it reads bytes and writes bytes, with NRS's
// code lists (model/nrs/codes) for the names of states, LGAs and tax
// categories.
package ubl

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/einvoice-ng/einvoice/model"
)

// Formats of a converted document.
const (
	FormatInvoice    = "ubl-2.1-invoice"
	FormatCreditNote = "ubl-2.1-credit-note"
)

// Report says how a UBL document became an NRS payload.
type Report struct {
	// Format is ubl-2.1-invoice or ubl-2.1-credit-note.
	Format string `json:"format"`
	// CustomizationID and ProfileID are the document's own (Peppol BIS
	// Billing 3.0 writes urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0).
	CustomizationID string `json:"customization_id,omitempty"`
	ProfileID       string `json:"profile_id,omitempty"`
	// Filled lists every NRS field the conversion filled (a JSON Pointer
	// into the payload), with the elements it came from.
	Filled []Filled `json:"filled"`
	// Used lists every UBL element read, with the NRS fields it fed (none
	// for an element only read to decide, such as a tax scheme).
	Used []Used `json:"used"`
	// Dropped lists every element with a value that fed no NRS field, and
	// why.
	Dropped []Dropped `json:"dropped"`
	// Problems are what the conversion could not map (a code NRS has no
	// counterpart for, a number that is not one); the field is then left
	// out, and validation says whether NRS needs it.
	Problems []Problem `json:"problems"`
}

// Filled is one NRS field the conversion filled.
type Filled struct {
	Field string   `json:"field"`
	From  []string `json:"from"`
	// Rule says how, when not copied as it is.
	Rule string `json:"rule,omitempty"`
}

// Used is one UBL element the conversion read.
type Used struct {
	Element string   `json:"element"`
	Fields  []string `json:"fields"`
}

// Dropped is one UBL element whose content is not in the NRS payload.
type Dropped struct {
	Element string `json:"element"`
	Value   string `json:"value,omitempty"`
	Reason  string `json:"reason"`
}

// Problem is what could not be converted.
type Problem struct {
	Element string `json:"element,omitempty"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// InOptions are what the conversion takes from outside the document.
type InOptions struct {
	// BusinessID is the project's NRS business id, written as business_id.
	BusinessID string
	// ServiceID is the project's service id: a document whose ID is
	// already an IRN of this service id keeps it as the irn.
	ServiceID string
	// Kind is B2B, B2C or B2G; empty derives it from the document (B2C
	// without a customer party, else B2B).
	Kind model.InvoiceKind
}

// Result is a converted document.
type Result struct {
	// Payload is the NRS invoice; numbers are json.Number, as written in
	// the document.
	Payload map[string]any
	// Reference is the document's ID when it is not an IRN: the invoice
	// reference an IRN is generated from.
	Reference string
	// Kind is the invoice kind used (given or derived).
	Kind   model.InvoiceKind
	Report Report
	// Carried is what the document says that NRS has no field for but a
	// Peppol invoice needs: kept with the source, and written back by
	// FromNRS.
	Carried Carried
}

// Carried are the parts of a source document that NRS's invoice has no
// field for and Peppol BIS Billing 3.0 requires: the parties' electronic
// addresses (EN 16931 BT-34, BT-49) and the payee's accounts of the
// payment means (BT-84), in the order of payment_means.
type Carried struct {
	Supplier      *Endpoint `json:"supplier_endpoint,omitempty"`
	Customer      *Endpoint `json:"customer_endpoint,omitempty"`
	PayeeAccounts []string  `json:"payee_accounts,omitempty"`
}

// Endpoint is one electronic address.
type Endpoint struct {
	SchemeID string `json:"scheme_id"`
	ID       string `json:"id"`
}

type mapper struct {
	rep     *Report
	fed     map[*node][]string
	order   []*node
	root    *node
	credit  bool
	lineTag string
}

// ToNRS converts a UBL 2.1 Invoice or CreditNote. An unreadable document
// (not XML, not a UBL invoice or credit note, over the bounds) is an
// invalid *model.Error; a readable one always converts, its gaps listed in
// the report's problems.
func ToNRS(data []byte, opt InOptions) (*Result, error) {
	root, err := parse(data)
	if err != nil {
		return nil, err
	}
	m := &mapper{rep: &Report{Format: FormatInvoice}, fed: map[*node][]string{}, root: root, lineTag: "cac:InvoiceLine"}
	if root.Name == "CreditNote" {
		m.credit, m.rep.Format, m.lineTag = true, FormatCreditNote, "cac:CreditNoteLine"
	}
	m.rep.CustomizationID = m.read(root.child("cbc:CustomizationID"))
	m.rep.ProfileID = m.read(root.child("cbc:ProfileID"))
	res := &Result{Payload: map[string]any{}}
	m.header(res, opt)
	m.finish()
	res.Report = *m.rep
	return res, nil
}

// read marks an element used and returns its text.
func (m *mapper) read(n *node) string {
	if n == nil {
		return ""
	}
	if _, ok := m.fed[n]; !ok {
		m.fed[n] = nil
		m.order = append(m.order, n)
	}
	n.markUsed()
	return n.Text
}

// put sets obj[key] (the field ptr) from the elements, recording both
// ways.
func (m *mapper) put(obj map[string]any, key, ptr string, v any, rule string, from ...*node) {
	obj[key] = v
	f := Filled{Field: ptr, Rule: rule}
	for _, n := range from {
		if n == nil {
			continue
		}
		m.read(n)
		m.fed[n] = append(m.fed[n], ptr)
		f.From = append(f.From, n.path())
	}
	if f.From == nil {
		f.From = []string{}
	}
	m.rep.Filled = append(m.rep.Filled, f)
}

// str copies an element's text into obj[key] when it has one.
func (m *mapper) str(obj map[string]any, key, ptr string, n *node) {
	if v := m.read(n); v != "" {
		m.put(obj, key, ptr, v, "", n)
	}
}

var reDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}`)

// date copies a date (xs:date, a time zone dropped).
func (m *mapper) date(obj map[string]any, key, ptr string, n *node) {
	v := m.read(n)
	if v == "" {
		return
	}
	if len(v) > 10 && reDate.MatchString(v) {
		m.put(obj, key, ptr, v[:10], "the date without its time zone ("+v+")", n)
		return
	}
	m.put(obj, key, ptr, v, "", n)
}

// number copies an amount or quantity as a JSON number.
func (m *mapper) number(obj map[string]any, key, ptr string, n *node) {
	v := m.read(n)
	if v == "" {
		return
	}
	if _, err := decimal.NewFromString(v); err != nil || strings.ContainsAny(v, "eE") {
		m.problem(n, ptr, "not a decimal number: "+v)
		return
	}
	m.put(obj, key, ptr, json.Number(normNumber(v)), "", n)
}

// normNumber drops a leading plus and leading zeros JSON refuses.
func normNumber(v string) string {
	neg := strings.HasPrefix(v, "-")
	v = strings.TrimLeft(v, "+-")
	for len(v) > 1 && v[0] == '0' && v[1] != '.' {
		v = v[1:]
	}
	if strings.HasPrefix(v, ".") {
		v = "0" + v
	}
	if neg {
		return "-" + v
	}
	return v
}

func (m *mapper) problem(n *node, field, msg string) {
	p := Problem{Field: field, Message: msg}
	if n != nil {
		p.Element = n.path()
		m.read(n)
	}
	m.rep.Problems = append(m.rep.Problems, p)
}

func (m *mapper) header(res *Result, opt InOptions) {
	r, p := m.root, res.Payload
	if opt.BusinessID != "" {
		m.put(p, "business_id", "/business_id", opt.BusinessID, "the project's NRS business id")
	}
	if id := r.child("cbc:ID"); id != nil {
		v := m.read(id)
		if isIRN(v, opt.ServiceID) {
			m.put(p, "irn", "/irn", strings.ToUpper(v), "the document's ID is an IRN of the project's service id", id)
		} else if v != "" {
			res.Reference = v
			m.fed[id] = append(m.fed[id], "/irn")
			m.rep.Filled = append(m.rep.Filled, Filled{Field: "/irn", From: []string{id.path()},
				Rule: "generated from the document's ID as the invoice reference, the project's service id and the issue date"})
		}
	}
	m.date(p, "issue_date", "/issue_date", r.child("cbc:IssueDate"))
	if t := r.child("cbc:IssueTime"); t != nil {
		v := m.read(t)
		if len(v) >= 8 {
			rule := ""
			if len(v) > 8 {
				rule = "the time to the second, without fractions or time zone (" + v + ")"
			}
			m.put(p, "issue_time", "/issue_time", v[:8], rule, t)
		} else if v != "" {
			m.problem(t, "/issue_time", "not a time HH:MM:SS: "+v)
		}
	}
	m.date(p, "due_date", "/due_date", r.child("cbc:DueDate"))
	m.typeCode(p)
	kind := opt.Kind
	rule := "given with the request"
	if kind == "" {
		kind, rule = model.InvoiceKindB2B, "derived: the document has a customer party"
		if r.at("cac:AccountingCustomerParty", "cac:Party") == nil {
			kind, rule = model.InvoiceKindB2C, "derived: the document has no customer party"
		}
	}
	res.Kind = kind
	m.put(p, "invoice_kind", "/invoice_kind", string(kind), rule)
	if notes := r.all("cbc:Note"); len(notes) > 0 {
		var texts []string
		for _, n := range notes {
			if v := m.read(n); v != "" {
				texts = append(texts, v)
			}
		}
		if len(texts) > 0 {
			rule := ""
			if len(texts) > 1 {
				rule = "the notes joined, one a line"
			}
			m.put(p, "note", "/note", strings.Join(texts, "\n"), rule, notes...)
		}
	}
	m.date(p, "tax_point_date", "/tax_point_date", r.child("cbc:TaxPointDate"))
	m.str(p, "document_currency_code", "/document_currency_code", r.child("cbc:DocumentCurrencyCode"))
	if tc := r.child("cbc:TaxCurrencyCode"); tc != nil && tc.Text != "" {
		m.str(p, "tax_currency_code", "/tax_currency_code", tc)
	} else if dc := r.child("cbc:DocumentCurrencyCode"); dc != nil && dc.Text != "" {
		m.put(p, "tax_currency_code", "/tax_currency_code", dc.Text,
			"the document currency: UBL leaves TaxCurrencyCode out when VAT is accounted in the document currency", dc)
	}
	m.str(p, "accounting_cost", "/accounting_cost", r.child("cbc:AccountingCost"))
	m.str(p, "buyer_reference", "/buyer_reference", r.child("cbc:BuyerReference"))
	if per := r.child("cac:InvoicePeriod"); per != nil {
		o := map[string]any{}
		m.date(o, "start_date", "/invoice_delivery_period/start_date", per.child("cbc:StartDate"))
		m.date(o, "end_date", "/invoice_delivery_period/end_date", per.child("cbc:EndDate"))
		if len(o) > 0 {
			p["invoice_delivery_period"] = o
		}
	}
	m.str(p, "order_reference", "/order_reference", r.at("cac:OrderReference", "cbc:ID"))
	var billing []any
	for _, b := range r.all("cac:BillingReference") {
		if ref := m.docRef(b.child("cac:InvoiceDocumentReference"), "/billing_reference/"+itoa(len(billing))); ref != nil {
			billing = append(billing, ref)
		} else if ref := m.docRef(b.child("cac:CreditNoteDocumentReference"), "/billing_reference/"+itoa(len(billing))); ref != nil {
			billing = append(billing, ref)
		}
	}
	if billing != nil {
		p["billing_reference"] = billing
	}
	for _, d := range []struct{ ubl, nrs string }{
		{"cac:DespatchDocumentReference", "dispatch_document_reference"},
		{"cac:ReceiptDocumentReference", "receipt_document_reference"},
		{"cac:OriginatorDocumentReference", "originator_document_reference"},
		{"cac:ContractDocumentReference", "contract_document_reference"},
	} {
		if ref := m.docRef(r.child(d.ubl), "/"+d.nrs); ref != nil {
			p[d.nrs] = ref
		}
	}
	var additional []any
	for _, a := range r.all("cac:AdditionalDocumentReference") {
		if isQRReference(a) {
			continue
		}
		if ref := m.docRef(a, "/additional_document_reference/"+itoa(len(additional))); ref != nil {
			additional = append(additional, ref)
		}
	}
	if additional != nil {
		p["additional_document_reference"] = additional
	}
	if sup := r.at("cac:AccountingSupplierParty", "cac:Party"); sup != nil {
		p["accounting_supplier_party"] = m.party(sup, "/accounting_supplier_party", true)
		res.Carried.Supplier = m.endpoint(sup)
	}
	if cus := r.at("cac:AccountingCustomerParty", "cac:Party"); cus != nil {
		p["accounting_customer_party"] = m.party(cus, "/accounting_customer_party", true)
		res.Carried.Customer = m.endpoint(cus)
	}
	if pay := r.child("cac:PayeeParty"); pay != nil {
		p["payee_party"] = m.party(pay, "/payee_party", false)
	}
	if bill := r.at("cac:BuyerCustomerParty", "cac:Party"); bill != nil {
		p["bill_party"] = m.party(bill, "/bill_party", false)
	}
	del := r.child("cac:Delivery")
	if ship := del.child("cac:DeliveryParty"); ship != nil {
		party := m.party(ship, "/ship_party", false)
		if _, has := party["postal_address"]; !has {
			if a := m.address(del.at("cac:DeliveryLocation", "cac:Address"), "/ship_party/postal_address", false); a != nil {
				party["postal_address"] = a
			}
		}
		p["ship_party"] = party
	}
	if tr := r.child("cac:TaxRepresentativeParty"); tr != nil {
		p["tax_representative_party"] = m.party(tr, "/tax_representative_party", false)
	}
	m.date(p, "actual_delivery_date", "/actual_delivery_date", del.child("cbc:ActualDeliveryDate"))
	var means []any
	for _, pm := range r.all("cac:PaymentMeans") {
		ptr := "/payment_means/" + itoa(len(means))
		o := map[string]any{}
		m.str(o, "payment_means_code", ptr+"/payment_means_code", pm.child("cbc:PaymentMeansCode"))
		m.date(o, "payment_due_date", ptr+"/payment_due_date", pm.child("cbc:PaymentDueDate"))
		if len(o) > 0 {
			means = append(means, o)
			res.Carried.PayeeAccounts = append(res.Carried.PayeeAccounts, pm.at("cac:PayeeFinancialAccount", "cbc:ID").textOr())
		}
	}
	if means != nil {
		p["payment_means"] = means
	}
	if terms := r.all("cac:PaymentTerms"); len(terms) > 0 {
		var texts []string
		var from []*node
		for _, t := range terms {
			for _, n := range t.all("cbc:Note") {
				if v := m.read(n); v != "" {
					texts = append(texts, v)
					from = append(from, n)
				}
			}
		}
		if len(texts) > 0 {
			m.put(p, "payment_terms_note", "/payment_terms_note", strings.Join(texts, "\n"), "", from...)
		}
	}
	var acs []any
	for _, ac := range r.all("cac:AllowanceCharge") {
		ptr := "/allowance_charge/" + itoa(len(acs))
		o := map[string]any{}
		ind := ac.child("cbc:ChargeIndicator")
		switch strings.ToLower(m.read(ind)) {
		case "true", "1":
			m.put(o, "charge_indicator", ptr+"/charge_indicator", true, "", ind)
		case "false", "0":
			m.put(o, "charge_indicator", ptr+"/charge_indicator", false, "", ind)
		default:
			m.problem(ind, ptr+"/charge_indicator", "ChargeIndicator is not true or false")
		}
		m.number(o, "amount", ptr+"/amount", ac.child("cbc:Amount"))
		acs = append(acs, o)
	}
	if acs != nil {
		p["allowance_charge"] = acs
	}
	m.taxTotals(p)
	if lmt := r.child("cac:LegalMonetaryTotal"); lmt != nil {
		o := map[string]any{}
		for _, k := range []struct{ ubl, nrs string }{
			{"cbc:LineExtensionAmount", "line_extension_amount"}, {"cbc:TaxExclusiveAmount", "tax_exclusive_amount"},
			{"cbc:TaxInclusiveAmount", "tax_inclusive_amount"}, {"cbc:PayableAmount", "payable_amount"},
		} {
			m.number(o, k.nrs, "/legal_monetary_total/"+k.nrs, lmt.child(k.ubl))
		}
		p["legal_monetary_total"] = o
	}
	var lines []any
	for _, l := range r.all(m.lineTag) {
		lines = append(lines, m.line(l, "/invoice_line/"+itoa(len(lines))))
	}
	if lines != nil {
		p["invoice_line"] = lines
	}
}

func (m *mapper) typeCode(p map[string]any) {
	tag := "cbc:InvoiceTypeCode"
	if m.credit {
		tag = "cbc:CreditNoteTypeCode"
	}
	n := m.root.child(tag)
	v := m.read(n)
	if v == "" {
		if m.credit {
			m.put(p, "invoice_type_code", "/invoice_type_code", "380",
				"a CreditNote without a type code is a credit note: NRS's 380 Credit Note")
		}
		return
	}
	code, ok := nrsTypeOf(v)
	if !ok {
		m.problem(n, "/invoice_type_code", "UNTDID 1001 document type "+v+" has no NRS invoice type of the same name")
		return
	}
	m.put(p, "invoice_type_code", "/invoice_type_code", code, "UNTDID 1001 "+v+" is NRS's "+code+" (NRS numbers its invoice types in its own list)", n)
}

// isIRN reports whether v is an IRN of the service id:
// {reference}-{service id}-{YYYYMMDD}.
func isIRN(v, serviceID string) bool {
	if serviceID == "" {
		return false
	}
	parts := strings.Split(strings.ToUpper(v), "-")
	if len(parts) != 3 || parts[1] != strings.ToUpper(serviceID) || len(parts[2]) != 8 || parts[0] == "" {
		return false
	}
	for _, c := range parts[2] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// qrReferenceID names the AdditionalDocumentReference FromNRS writes the
// QR payload in; read back, it is left out of the NRS payload.
const qrReferenceID = "NRS-QR"

func isQRReference(n *node) bool {
	return n.child("cbc:ID") != nil && n.child("cbc:ID").Text == qrReferenceID
}

func (m *mapper) docRef(n *node, ptr string) map[string]any {
	if n == nil {
		return nil
	}
	o := map[string]any{}
	m.str(o, "irn", ptr+"/irn", n.child("cbc:ID"))
	m.date(o, "issue_date", ptr+"/issue_date", n.child("cbc:IssueDate"))
	if len(o) == 0 {
		return nil
	}
	return o
}

func (m *mapper) endpoint(party *node) *Endpoint {
	e := party.child("cbc:EndpointID")
	if e == nil || e.Text == "" {
		return nil
	}
	return &Endpoint{SchemeID: e.attr("schemeID"), ID: e.Text}
}

func (m *mapper) party(n *node, ptr string, full bool) map[string]any {
	o := map[string]any{}
	if name := n.at("cac:PartyLegalEntity", "cbc:RegistrationName"); name != nil && name.Text != "" {
		m.str(o, "party_name", ptr+"/party_name", name)
	} else {
		m.str(o, "party_name", ptr+"/party_name", n.at("cac:PartyName", "cbc:Name"))
	}
	if tin := partyTIN(n); tin != nil {
		m.read(tin.Parent.at("cac:TaxScheme", "cbc:ID"))
		m.str(o, "tin", ptr+"/tin", tin)
	}
	m.str(o, "email", ptr+"/email", n.at("cac:Contact", "cbc:ElectronicMail"))
	m.str(o, "telephone", ptr+"/telephone", n.at("cac:Contact", "cbc:Telephone"))
	if a := m.address(n.child("cac:PostalAddress"), ptr+"/postal_address", full); a != nil {
		o["postal_address"] = a
	}
	return o
}

// partyTIN is the party's tax identifier: its PartyTaxScheme CompanyID
// under the TIN scheme (as FromNRS writes it), else under VAT, else the
// first one.
func partyTIN(n *node) *node {
	schemes := n.all("cac:PartyTaxScheme")
	for _, want := range []string{"TIN", "VAT", ""} {
		for _, s := range schemes {
			id := s.child("cbc:CompanyID")
			if id == nil || id.Text == "" {
				continue
			}
			if want == "" || strings.EqualFold(s.at("cac:TaxScheme", "cbc:ID").textOr(), want) {
				return id
			}
		}
	}
	return nil
}

func (n *node) textOr() string {
	if n == nil {
		return ""
	}
	return n.Text
}

// address maps a postal address. With lgaState (the supplier and
// customer) the state and LGA are looked for: CountrySubentityCode or
// CountrySubentity (an NRS state code, or a state's name), and District,
// CitySubdivisionName or an AddressLine (an NRS LGA code, or an LGA's
// name in the state).
func (m *mapper) address(n *node, ptr string, lgaState bool) map[string]any {
	if n == nil {
		return nil
	}
	o := map[string]any{}
	street, extra := n.child("cbc:StreetName"), n.child("cbc:AdditionalStreetName")
	switch {
	case street.textOr() != "" && extra.textOr() != "":
		m.put(o, "street_name", ptr+"/street_name", m.read(street)+", "+m.read(extra), "StreetName and AdditionalStreetName joined", street, extra)
	case street.textOr() != "":
		m.str(o, "street_name", ptr+"/street_name", street)
	}
	m.str(o, "city_name", ptr+"/city_name", n.child("cbc:CityName"))
	m.str(o, "postal_zone", ptr+"/postal_zone", n.child("cbc:PostalZone"))
	state := ""
	for _, c := range []*node{n.child("cbc:CountrySubentityCode"), n.child("cbc:CountrySubentity")} {
		if c == nil || c.Text == "" || state != "" {
			continue
		}
		m.read(c)
		if code, ok := stateCode(c.Text); ok {
			state = code
			rule := ""
			if code != c.Text {
				rule = "the state's name (" + c.Text + ") as NRS's state code"
			}
			m.put(o, "state", ptr+"/state", code, rule, c)
		} else if lgaState {
			m.problem(c, ptr+"/state", "'"+c.Text+"' is neither a code nor a name in NRS's states list")
		}
	}
	cands := []*node{n.child("cbc:District"), n.child("cbc:CitySubdivisionName")}
	for _, l := range n.all("cac:AddressLine") {
		cands = append(cands, l.child("cbc:Line"))
	}
	for _, c := range cands {
		if c == nil || c.Text == "" {
			continue
		}
		if _, has := o["lga"]; has {
			break
		}
		if code, ok := lgaCode(c.Text, state); ok {
			rule := ""
			if code != c.Text {
				rule = "the LGA's name (" + c.Text + ") as NRS's LGA code"
			}
			m.put(o, "lga", ptr+"/lga", code, rule, c)
		}
	}
	m.str(o, "country", ptr+"/country", n.at("cac:Country", "cbc:IdentificationCode"))
	if len(o) == 0 {
		return nil
	}
	return o
}

func (m *mapper) taxTotals(p map[string]any) {
	doc := m.root.child("cbc:DocumentCurrencyCode").textOr()
	var totals []any
	for _, tt := range m.root.all("cac:TaxTotal") {
		amt := tt.child("cbc:TaxAmount")
		if cur := amt.attr("currencyID"); cur != "" && doc != "" && cur != doc && len(tt.all("cac:TaxSubtotal")) == 0 {
			continue // the VAT in the tax currency (BT-111): dropped, see reasons
		}
		ptr := "/tax_total/" + itoa(len(totals))
		o := map[string]any{}
		m.number(o, "tax_amount", ptr+"/tax_amount", amt)
		var subs []any
		for _, st := range tt.all("cac:TaxSubtotal") {
			sp := ptr + "/tax_subtotal/" + itoa(len(subs))
			so := map[string]any{}
			m.number(so, "taxable_amount", sp+"/taxable_amount", st.child("cbc:TaxableAmount"))
			m.number(so, "tax_amount", sp+"/tax_amount", st.child("cbc:TaxAmount"))
			cat := st.child("cac:TaxCategory")
			co := map[string]any{}
			id, scheme := cat.child("cbc:ID"), cat.at("cac:TaxScheme", "cbc:ID")
			if v := m.read(id); v != "" {
				m.read(scheme)
				if code, ok := nrsTaxCategory(scheme.textOr(), v); ok {
					rule := ""
					if code != v {
						rule = "UNCL 5305 " + v + " under the " + strings.ToUpper(orDefault(scheme.textOr(), "VAT")) + " scheme is NRS's " + code
					}
					m.put(co, "id", sp+"/tax_category/id", code, rule, id, scheme)
				} else {
					m.problem(id, sp+"/tax_category/id", "tax category "+v+" ("+orDefault(scheme.textOr(), "VAT")+
						") has no NRS tax category (NRS's tax-categories list has no exempt, outside-scope, reverse-charge or export category)")
				}
			}
			m.number(co, "percent", sp+"/tax_category/percent", cat.child("cbc:Percent"))
			so["tax_category"] = co
			subs = append(subs, so)
		}
		if subs != nil {
			o["tax_subtotal"] = subs
		}
		totals = append(totals, o)
	}
	if totals != nil {
		p["tax_total"] = totals
	}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func (m *mapper) line(l *node, ptr string) map[string]any {
	o := map[string]any{}
	item := l.child("cac:Item")
	for _, cc := range item.all("cac:CommodityClassification") {
		code := cc.child("cbc:ItemClassificationCode")
		if code == nil || code.Text == "" {
			continue
		}
		switch list := strings.ToUpper(code.attr("listID")); {
		case list == "HS" && o["hsn_code"] == nil:
			m.str(o, "hsn_code", ptr+"/hsn_code", code)
			if name := code.attr("name"); name != "" {
				m.put(o, "product_category", ptr+"/product_category", name, "the classification code's name attribute", code)
			}
		case (list == "ISIC" || list == "ZZZ" && strings.EqualFold(code.attr("listName"), "ISIC")) && o["isic_code"] == nil:
			m.str(o, "isic_code", ptr+"/isic_code", code)
			if name := code.attr("name"); name != "" {
				m.put(o, "service_category", ptr+"/service_category", name, "the classification code's name attribute", code)
			}
		}
	}
	var disc, fee []*node
	for _, ac := range l.all("cac:AllowanceCharge") {
		ind := ac.child("cbc:ChargeIndicator")
		switch strings.ToLower(m.read(ind)) {
		case "true", "1":
			fee = append(fee, ac)
		default:
			disc = append(disc, ac)
		}
	}
	m.lineAC(o, ptr, "dicount_rate", "dicount_amount", disc)
	m.lineAC(o, ptr, "fee_rate", "fee_amount", fee)
	qty := l.child("cbc:InvoicedQuantity")
	if m.credit {
		qty = l.child("cbc:CreditedQuantity")
	}
	m.number(o, "invoiced_quantity", ptr+"/invoiced_quantity", qty)
	m.number(o, "line_extension_amount", ptr+"/line_extension_amount", l.child("cbc:LineExtensionAmount"))
	io := map[string]any{}
	m.str(io, "name", ptr+"/item/name", item.child("cbc:Name"))
	if descs := item.all("cbc:Description"); len(descs) > 0 {
		var texts []string
		for _, d := range descs {
			if v := m.read(d); v != "" {
				texts = append(texts, v)
			}
		}
		if len(texts) > 0 {
			m.put(io, "description", ptr+"/item/description", strings.Join(texts, "\n"), "", descs...)
		}
	}
	m.str(io, "sellers_item_identification", ptr+"/item/sellers_item_identification", item.at("cac:SellersItemIdentification", "cbc:ID"))
	o["item"] = io
	price := l.child("cac:Price")
	po := map[string]any{}
	m.number(po, "price_amount", ptr+"/price/price_amount", price.child("cbc:PriceAmount"))
	base := price.child("cbc:BaseQuantity")
	if base != nil && base.Text != "" {
		m.number(po, "base_quantity", ptr+"/price/base_quantity", base)
	} else {
		m.put(po, "base_quantity", ptr+"/price/base_quantity", json.Number("1"), "1: UBL's price is for one unit when BaseQuantity is absent")
	}
	switch {
	case base.attr("unitCode") != "":
		m.put(po, "price_unit", ptr+"/price/price_unit", base.attr("unitCode"), "the base quantity's unitCode (UN/ECE Rec. 20)", base)
	case qty.attr("unitCode") != "":
		m.put(po, "price_unit", ptr+"/price/price_unit", qty.attr("unitCode"), "the quantity's unitCode (UN/ECE Rec. 20)", qty)
	}
	o["price"] = po
	return o
}

// lineAC maps a line's allowances (discount) or charges (fee): the amounts
// added up, the rate (MultiplierFactorNumeric, a percentage in EN 16931)
// when there is one allowance or charge; 0 when there is none, as NRS
// asks.
func (m *mapper) lineAC(o map[string]any, ptr, rateKey, amountKey string, acs []*node) {
	if len(acs) == 0 {
		m.put(o, rateKey, ptr+"/"+rateKey, json.Number("0"), "0: the line has none")
		m.put(o, amountKey, ptr+"/"+amountKey, json.Number("0"), "0: the line has none")
		return
	}
	if len(acs) == 1 {
		if f := acs[0].child("cbc:MultiplierFactorNumeric"); f != nil && f.Text != "" {
			m.number(o, rateKey, ptr+"/"+rateKey, f)
		} else {
			m.put(o, rateKey, ptr+"/"+rateKey, json.Number("0"), "0: the line's "+strings.TrimSuffix(rateKey, "_rate")+" states no percentage")
		}
		m.number(o, amountKey, ptr+"/"+amountKey, acs[0].child("cbc:Amount"))
		return
	}
	sum := decimal.Zero
	var from []*node
	for _, ac := range acs {
		a := ac.child("cbc:Amount")
		d, err := decimal.NewFromString(m.read(a))
		if err != nil {
			m.problem(a, ptr+"/"+amountKey, "not a decimal number: "+a.textOr())
			continue
		}
		sum = sum.Add(d)
		from = append(from, a)
	}
	m.put(o, rateKey, ptr+"/"+rateKey, json.Number("0"), "0: the line has several, with no one percentage")
	m.put(o, amountKey, ptr+"/"+amountKey, json.Number(sum.String()), "the amounts added up", from...)
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// finish lists the elements used and dropped.
func (m *mapper) finish() {
	for _, n := range m.order {
		fields := m.fed[n]
		if fields == nil {
			fields = []string{}
		}
		m.rep.Used = append(m.rep.Used, Used{Element: n.path(), Fields: fields})
	}
	m.root.walk(func(n *node) {
		if len(n.Children) > 0 || n.used || n == m.root {
			return
		}
		if _, read := m.fed[n]; read {
			return
		}
		m.rep.Dropped = append(m.rep.Dropped, Dropped{Element: n.path(), Value: clip(n.Text), Reason: dropReason(n)})
	})
	if m.rep.Problems == nil {
		m.rep.Problems = []Problem{}
	}
	if m.rep.Dropped == nil {
		m.rep.Dropped = []Dropped{}
	}
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
