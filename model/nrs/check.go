package nrs

import (
	"strings"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
)

// checker runs the business rules over one decoded payload.
type checker struct {
	a   *Authority
	ver *schemaVersion
	raw map[string]any
	inv *Invoice
	req requestType

	kind      string // effective invoice kind, "" when unknown
	typeCode  string // effective invoice type code, "" when unknown
	issue     date
	issueOK   bool
	issueText string

	found []finding
}

// add records a finding at loc. The loc slice is kept: callers pass a fresh
// one (a variadic list), never a shared buffer.
func (c *checker) add(rule, msg string, loc ...any) {
	c.found = append(c.found, finding{Issue: model.Issue{
		Rule:     rule,
		Severity: c.ver.severity[rule],
		Path:     pointer(loc),
		Loc:      loc,
		Message:  msg,
	}})
}

// addLoc records a finding at a loc that lives in a shared buffer.
func (c *checker) addLoc(rule, msg string, loc []any) {
	c.add(rule, msg, append([]any(nil), loc...)...)
}

func (c *checker) run() {
	c.unknownFields(c.raw, c.ver.shape, make([]any, 0, 16))
	c.identity()
	c.codeLists()
	c.dates()
	c.kindAndType()
	c.parties()
	c.references()
	c.lines()
	c.taxes()
	c.arithmetic()
}

// has reports whether key is present in o, whatever its value.
func has(o map[string]any, key string) bool {
	_, ok := o[key]
	return ok
}

// show quotes a payload value for a message, cut short.
func show(s string) string { return quoteShort(s) }

func (c *checker) identity() {
	inv := c.inv
	if inv.BusinessID != "" && !uuidShape(inv.BusinessID) {
		c.add(RuleBusinessIDFormat, "business_id must be a UUID", "business_id")
	}
	if inv.IRN != "" {
		ref, sid, day, ok := splitIRN(inv.IRN)
		_, dayOK := parseCompactDate(day)
		if !ok || !irnShape(ref, sid, day) || !dayOK {
			c.add(RuleIRNFormat, "irn must have the form {InvoiceNumber}-{ServiceID}-{YYYYMMDD}: letters and digits, 8 letters and digits, a real date", "irn")
		} else if _, ok := parseDate(inv.IssueDate); ok {
			if want := inv.IssueDate[0:4] + inv.IssueDate[5:7] + inv.IssueDate[8:10]; day != want {
				c.add(RuleIRNDateMismatch, "irn date "+day+" is not the issue date "+inv.IssueDate, "irn")
			}
		}
	}
}

func (c *checker) codeLists() {
	inv := c.inv
	if v := inv.InvoiceTypeCode; v != "" && !codes.InvoiceTypes.Contains(v) {
		c.add(RuleCodeInvoiceType, show(v)+" is not an NRS invoice type code (381 Commercial Invoice, 380 Credit Note, ...)", "invoice_type_code")
	}
	if v := inv.InvoiceKind; v != "" && !codes.InvoiceKinds.Contains(v) {
		c.add(RuleCodeInvoiceKind, "invoice_kind must be B2B, B2G or B2C", "invoice_kind")
	}
	if v := inv.PaymentStatus; v != "" && !codes.PaymentStatuses.Contains(v) {
		c.add(RuleCodePaymentStatus, "payment_status must be PENDING, PAID, PARTIAL or REJECTED", "payment_status")
	}
	if v := inv.DocumentCurrencyCode; v != "" && !codes.Currencies.Contains(v) {
		c.add(RuleCodeCurrency, show(v)+" is not an ISO 4217 currency code", "document_currency_code")
	}
	if v := inv.TaxCurrencyCode; v != "" && !codes.Currencies.Contains(v) {
		c.add(RuleCodeCurrency, show(v)+" is not an ISO 4217 currency code", "tax_currency_code")
	}
	for i, pm := range inv.PaymentMeans {
		if pm.Code != "" && !codes.PaymentMeans.Contains(pm.Code) {
			c.add(RuleCodePaymentMeans, show(pm.Code)+" is not an NRS payment means code", "payment_means", i, "payment_means_code")
		}
	}
	for i, tt := range inv.TaxTotals {
		for j, st := range tt.TaxSubtotals {
			if id := st.Category.ID; id != "" && !codes.TaxCategories.Contains(id) {
				c.add(RuleCodeTaxCategory, show(id)+" is not an NRS tax category", "tax_total", i, "tax_subtotal", j, "tax_category", "id")
			}
		}
	}
}

func (c *checker) dates() {
	inv := c.inv
	check := func(s string, loc ...any) (date, bool) {
		if s == "" {
			return date{}, false
		}
		d, ok := parseDate(s)
		if !ok {
			c.add(RuleDateInvalid, show(s)+" is not a real calendar date as YYYY-MM-DD", loc...)
		}
		return d, ok
	}
	c.issue, c.issueOK = check(inv.IssueDate, "issue_date")
	if inv.IssueTime != "" && !validTime(inv.IssueTime) {
		c.add(RuleTimeInvalid, show(inv.IssueTime)+" is not a real time as HH:MM:SS", "issue_time")
	}
	if due, ok := check(inv.DueDate, "due_date"); ok && c.issueOK && due.before(c.issue) {
		c.add(RuleDateDueBeforeIssue, "due_date "+inv.DueDate+" is before issue_date "+inv.IssueDate, "due_date")
	}
	check(inv.TaxPointDate, "tax_point_date")
	check(inv.ActualDeliveryDate, "actual_delivery_date")
	if p := inv.DeliveryPeriod; p != nil {
		start, ok1 := check(p.StartDate, "invoice_delivery_period", "start_date")
		end, ok2 := check(p.EndDate, "invoice_delivery_period", "end_date")
		if ok1 && ok2 && end.before(start) {
			c.add(RuleDatePeriodOrder, "end_date "+p.EndDate+" is before start_date "+p.StartDate, "invoice_delivery_period", "end_date")
		}
	}
	for i, pm := range inv.PaymentMeans {
		if due, ok := check(pm.DueDate, "payment_means", i, "payment_due_date"); ok && c.issueOK && due.before(c.issue) {
			c.add(RuleDatePaymentDueBeforeIssue, "payment_due_date "+pm.DueDate+" is before issue_date "+inv.IssueDate, "payment_means", i, "payment_due_date")
		}
	}
	for i, r := range inv.BillingReferences {
		check(r.IssueDate, "billing_reference", i, "issue_date")
	}
	for i, r := range inv.AdditionalDocumentReferences {
		check(r.IssueDate, "additional_document_reference", i, "issue_date")
	}
	for _, r := range c.singleRefs() {
		if r.ref != nil {
			check(r.ref.IssueDate, r.field, "issue_date")
		}
	}
}

type namedRef struct {
	field string
	ref   *DocumentReference
}

func (c *checker) singleRefs() [4]namedRef {
	inv := c.inv
	return [4]namedRef{
		{"dispatch_document_reference", inv.DispatchDocumentReference},
		{"receipt_document_reference", inv.ReceiptDocumentReference},
		{"originator_document_reference", inv.OriginatorDocumentReference},
		{"contract_document_reference", inv.ContractDocumentReference},
	}
}

// kindAndType settles the effective kind and type code, and checks the
// request's declared type against the payload.
func (c *checker) kindAndType() {
	inv := c.inv
	payloadKind := ""
	if codes.InvoiceKinds.Contains(inv.InvoiceKind) {
		payloadKind = inv.InvoiceKind
	}
	payloadCode := ""
	if codes.InvoiceTypes.Contains(inv.InvoiceTypeCode) {
		payloadCode = inv.InvoiceTypeCode
	}
	c.kind, c.typeCode = payloadKind, payloadCode
	if k := c.req.kind; k != "" {
		switch {
		case payloadKind != "" && payloadKind != k:
			c.add(RuleRequestTypeMismatch, "invoice_kind "+payloadKind+" disagrees with the request's invoice_type_code "+k, "invoice_kind")
		case inv.InvoiceKind == "":
			c.kind = k
		}
	}
	if tc := c.req.code; tc != "" {
		switch {
		case payloadCode != "" && payloadCode != tc:
			c.add(RuleRequestTypeMismatch, "invoice_type_code "+payloadCode+" disagrees with the request's invoice_type_code "+tc, "invoice_type_code")
		case inv.InvoiceTypeCode == "":
			c.typeCode = tc
		}
	}
	if c.kind == "" && inv.InvoiceKind == "" && !c.ver.v11 {
		c.add(RuleKindUnknown, "no invoice kind in the payload or the request: customer party rules for B2B and B2G were skipped", "invoice_kind")
	}
}

func (c *checker) parties() {
	inv := c.inv
	businessBuyer := c.kind == codes.KindB2B || c.kind == codes.KindB2G
	if p := inv.Supplier; p != nil {
		c.requireParty(p, "accounting_supplier_party", "supplier")
		c.party(p, "accounting_supplier_party")
	}
	if p := inv.Customer; p != nil {
		if businessBuyer {
			c.requireParty(p, "accounting_customer_party", "customer of a "+c.kind+" invoice")
		}
		c.party(p, "accounting_customer_party")
	} else if businessBuyer {
		c.add(RulePartyCustomerRequired, "a "+c.kind+" invoice needs accounting_customer_party", "accounting_customer_party")
	}
	if p := inv.Payee; p != nil {
		c.party(p, "payee_party")
	}
	if p := inv.TaxRepresentative; p != nil {
		c.party(p, "tax_representative_party")
	}
}

func (c *checker) requireParty(p *Party, field, who string) {
	if p.TIN == "" {
		c.add(RulePartyTINRequired, "the "+who+" needs a tin", field, "tin")
	}
	if p.Email == "" {
		c.add(RulePartyEmailRequired, "the "+who+" needs an email", field, "email")
	}
}

func (c *checker) party(p *Party, field string) {
	if p.TIN != "" && !tinShape(p.TIN) {
		c.add(RulePartyTINFormat, "tin must have the form 12345678-0001", field, "tin")
	}
	if p.Email != "" && !emailShape(p.Email) {
		c.add(RulePartyEmailFormat, show(p.Email)+" is not an e-mail address", field, "email")
	}
	if p.Telephone != "" && !telephoneShape(p.Telephone) {
		c.add(RulePartyTelephoneFormat, "telephone must be + followed by 7 to 15 digits", field, "telephone")
	}
	a := p.PostalAddress
	if a == nil {
		return
	}
	if a.Country != "" && !codes.Countries.Contains(a.Country) {
		c.add(RuleCodeCountry, show(a.Country)+" is not an ISO 3166-1 alpha-2 country code", field, "postal_address", "country")
	}
	if !c.ver.v11 {
		return
	}
	stateOK := false
	if a.State != "" {
		if stateOK = codes.States.Contains(a.State); !stateOK {
			c.add(RuleCodeState, show(a.State)+" is not an ISO 3166-2:NG state code (NG-LA, NG-FC, ...)", field, "postal_address", "state")
		}
	}
	lgaOK := false
	if a.LGA != "" {
		if lgaOK = lgaShape(a.LGA); !lgaOK {
			c.add(RulePartyLGAFormat, show(a.LGA)+" is not an LGA code of the form NG-XX-YYY with a real state", field, "postal_address", "lga")
		} else if stateOK && a.LGA[:5] != a.State {
			c.add(RulePartyLGAStateMismatch, "lga "+a.LGA+" does not lie in state "+a.State, field, "postal_address", "lga")
		}
	}
	if (stateOK || lgaOK) && a.Country != "" && a.Country != "NG" && codes.Countries.Contains(a.Country) {
		c.add(RulePartyStateCountry, "an address with a Nigerian state or LGA must have country NG", field, "postal_address", "country")
	}
}

func (c *checker) references() {
	inv := c.inv
	switch c.typeCode {
	case codes.InvoiceTypeCreditNote, codes.InvoiceTypeDebitNote, codes.InvoiceTypeSelfBilledCreditNote:
		if len(inv.BillingReferences) == 0 {
			name, _ := codes.InvoiceTypes.Lookup(c.typeCode)
			c.add(RuleBillingReferenceRequired, "a "+name.Value+" ("+c.typeCode+") must name the invoice(s) it corrects in billing_reference", "billing_reference")
		}
	}
	checkIRN := func(irn string, loc ...any) {
		if irn == "" {
			return
		}
		ref, sid, day, ok := splitIRN(irn)
		if _, dayOK := parseCompactDate(day); !ok || !irnShape(ref, sid, day) || !dayOK {
			c.add(RuleIRNFormat, "irn must have the form {InvoiceNumber}-{ServiceID}-{YYYYMMDD}", loc...)
		}
	}
	for i, r := range inv.BillingReferences {
		checkIRN(r.IRN, "billing_reference", i, "irn")
	}
	for i, r := range inv.AdditionalDocumentReferences {
		checkIRN(r.IRN, "additional_document_reference", i, "irn")
	}
	for _, r := range c.singleRefs() {
		if r.ref != nil {
			checkIRN(r.ref.IRN, r.field, "irn")
		}
	}
}

func (c *checker) lines() {
	rawLines, _ := c.raw["invoice_line"].([]any)
	for i, l := range c.inv.Lines {
		if i >= len(rawLines) || asObj(rawLines[i]) == nil {
			continue
		}
		isic := ""
		if c.ver.v11 {
			isic = l.ISICCode
		}
		if l.HSNCode == "" && isic == "" {
			msg := "a line needs hsn_code (goods) or isic_code (services)"
			if !c.ver.v11 {
				msg = "a line needs hsn_code in schema 1.0 (service lines with isic_code need schema 1.1)"
			}
			c.add(RuleLineClassificationRequired, msg, "invoice_line", i)
		}
		if l.HSNCode != "" {
			if !hsnShape(l.HSNCode) {
				c.add(RuleLineHSNFormat, show(l.HSNCode)+" is not an HS code (4 to 10 digits, such as 2523.29)", "invoice_line", i, "hsn_code")
			}
			if l.ProductCategory == "" {
				c.add(RuleLineProductCategoryRequired, "a goods line needs product_category", "invoice_line", i, "product_category")
			}
		}
		if isic != "" {
			if _, ok := digits(isic); !ok || len(isic) != 4 {
				c.add(RuleLineISICFormat, show(isic)+" is not a 4-digit ISIC code", "invoice_line", i, "isic_code")
			}
			if l.ServiceCategory == "" {
				c.add(RuleLineServiceCategoryRequired, "a service line needs service_category", "invoice_line", i, "service_category")
			}
		}
		if c.ver.v11 && l.Price.PriceUnit != "" && !unitShape(l.Price.PriceUnit) {
			c.add(RuleLinePriceUnitFormat, show(l.Price.PriceUnit)+" is not a UN/ECE Rec 20 unit code (H87, KGM, ...)", "invoice_line", i, "price", "price_unit")
		}
		if b := l.Price.BaseQuantity; b.Valid && b.Decimal.Sign() <= 0 {
			c.add(RuleLineBaseQuantity, "base_quantity must be greater than zero", "invoice_line", i, "price", "base_quantity")
		}
	}
}

func (c *checker) taxes() {
	for i, tt := range c.inv.TaxTotals {
		for j, st := range tt.TaxSubtotals {
			e, ok := codes.TaxCategories.Lookup(st.Category.ID)
			if !ok || e.Percent == "" || !st.Category.Percent.Valid {
				continue
			}
			if st.Category.Percent.Decimal.String() != e.Percent {
				c.add(RuleTaxCategoryPercent, e.Code+" is "+e.Percent+" %, not "+st.Category.Percent.Decimal.String()+" %",
					"tax_total", i, "tax_subtotal", j, "tax_category", "percent")
			}
		}
	}
}

func uuidShape(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

func tinShape(s string) bool {
	if len(s) != 13 || s[8] != '-' {
		return false
	}
	_, ok1 := digits(s[:8])
	_, ok2 := digits(s[9:])
	return ok1 && ok2
}

func telephoneShape(s string) bool {
	if len(s) < 8 || len(s) > 16 || s[0] != '+' {
		return false
	}
	_, ok := digits(s[1:])
	return ok
}

// emailShape is a plausibility check, not RFC 5322: one @, a non-empty local
// part, a dotted domain with non-empty labels, no spaces or control bytes.
func emailShape(s string) bool {
	if len(s) > 254 {
		return false
	}
	at := strings.IndexByte(s, '@')
	if at <= 0 || at > 64 || strings.IndexByte(s[at+1:], '@') >= 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] == 0x7f {
			return false
		}
	}
	domain := s[at+1:]
	if !strings.Contains(domain, ".") {
		return false
	}
	for _, label := range strings.Split(domain, ".") {
		if label == "" {
			return false
		}
	}
	return true
}

// lgaShape accepts NG-XX-YYY where NG-XX is a real state and YYY is 2 to 5
// upper-case letters or digits.
func lgaShape(s string) bool {
	if len(s) < 8 || len(s) > 11 || s[5] != '-' || !codes.States.Contains(s[:5]) {
		return false
	}
	for i := 6; i < len(s); i++ {
		if c := s[i]; !(isDigit(c) || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// hsnShape accepts 4 to 10 digits, in pairs after the first four that may be
// separated by dots: 2523, 2523.29, 252329, 2523.29.00.
func hsnShape(s string) bool {
	if len(s) < 4 {
		return false
	}
	if _, ok := digits(s[:4]); !ok {
		return false
	}
	rest := s[4:]
	pairs := 0
	for rest != "" {
		if rest[0] == '.' {
			rest = rest[1:]
		}
		if len(rest) < 2 || !isDigit(rest[0]) || !isDigit(rest[1]) {
			return false
		}
		rest = rest[2:]
		pairs++
	}
	return pairs <= 3
}

func unitShape(s string) bool {
	if len(s) < 2 || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(isDigit(c) || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}
