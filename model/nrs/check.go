package nrs

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
)

// checker runs the business rules over one decoded payload.
type checker struct {
	a     *Authority
	ver   *schemaVersion
	sev   map[string]model.Severity
	lists *codes.Lists
	raw   map[string]any
	inv   *Invoice
	req   requestType

	kind     string // effective invoice kind, "" when unknown
	typeCode string // effective invoice type code, "" when unknown
	issue    date
	issueOK  bool

	found []finding
}

// add records a finding at loc. The loc slice is kept: callers pass a fresh
// one (a variadic list), never a shared buffer.
func (c *checker) add(rule, msg string, loc ...any) {
	c.found = append(c.found, finding{Issue: model.Issue{
		Rule:     rule,
		Severity: c.sev[rule],
		Path:     pointer(loc),
		Loc:      loc,
		Message:  msg,
	}})
}

// addLoc records a finding at a loc that lives in a shared buffer.
func (c *checker) addLoc(rule, msg string, loc []any) {
	c.add(rule, msg, append([]any(nil), loc...)...)
}

// addAt records a finding at base followed by more segments.
func (c *checker) addAt(rule, msg string, base []any, more ...any) {
	loc := make([]any, 0, len(base)+len(more))
	c.add(rule, msg, append(append(loc, base...), more...)...)
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

// list returns the code list of a resource in use (nil for an optional
// list never refreshed from NRS).
func (c *checker) list(name string) *codes.List { return c.lists.List(name) }

func (c *checker) identity() {
	inv := c.inv
	if inv.BusinessID != "" && !uuidShape(inv.BusinessID) {
		c.add(RuleBusinessIDFormat, "business_id must be a UUID, as NRS assigns it", "business_id")
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
	if v := inv.InvoiceTypeCode; v != "" && !c.list(codes.ResourceInvoiceTypes).Contains(v) {
		c.add(RuleCodeInvoiceType, show(v)+" is not in NRS's invoice-types list (381 Commercial Invoice, 380 Credit Note, ...)", "invoice_type_code")
	}
	if v := inv.InvoiceKind; v != "" && !codes.InvoiceKinds.Contains(v) {
		c.add(RuleCodeInvoiceKind, show(v)+" is not an invoice kind NRS shows: B2B, B2G or B2C", "invoice_kind")
	}
	switch v := inv.PaymentStatus; {
	case v == "" || codes.NRSPaymentStatus(v):
	case v == codes.PaymentRejected:
		c.add(RulePaymentStatusRejected, PaymentRejectedReason, "payment_status")
	default:
		c.add(RuleCodePaymentStatus, show(v)+" is not a payment status: PENDING, PAID, CANCELED or PARTIAL", "payment_status")
	}
	currencies := c.list(codes.ResourceCurrencies)
	if v := inv.DocumentCurrencyCode; v != "" && !currencies.Contains(v) {
		c.add(RuleCodeCurrency, show(v)+" is not in NRS's currencies list", "document_currency_code")
	}
	if v := inv.TaxCurrencyCode; v != "" && !currencies.Contains(v) {
		c.add(RuleCodeCurrency, show(v)+" is not in NRS's currencies list", "tax_currency_code")
	}
	means := c.list(codes.ResourcePaymentMeans)
	for i, pm := range inv.PaymentMeans {
		if pm.Code != "" && !means.Contains(pm.Code) {
			c.add(RuleCodePaymentMeans, show(pm.Code)+" is not in NRS's payment-means list (10 Cash, 30 Credit Transfer, 43 ACH Debit, ...)", "payment_means", i, "payment_means_code")
		}
	}
	categories := c.list(codes.ResourceTaxCategories)
	for i, tt := range inv.TaxTotals {
		for j, st := range tt.TaxSubtotals {
			if id := st.Category.ID; id != "" && !categories.Contains(id) {
				c.add(RuleCodeTaxCategory, show(id)+" is not in NRS's tax-categories list", "tax_total", i, "tax_subtotal", j, "tax_category", "id")
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
	c.eachRef(func(loc []any, r DocumentReference) {
		if r.IssueDate != "" {
			if _, ok := parseDate(r.IssueDate); !ok {
				c.addAt(RuleDateInvalid, show(r.IssueDate)+" is not a real calendar date as YYYY-MM-DD", loc, "issue_date")
			}
		}
	})
}

// refFields are the document reference fields, each an object or an array
// of objects.
var refFields = [...]string{
	"billing_reference", "dispatch_document_reference", "receipt_document_reference",
	"originator_document_reference", "contract_document_reference", "additional_document_reference",
}

// eachRef calls fn for every document reference with its location: the
// field for a single object, the field and index in an array.
func (c *checker) eachRef(fn func(loc []any, r DocumentReference)) {
	for _, field := range refFields {
		switch x := c.raw[field].(type) {
		case map[string]any:
			o := obj(x)
			fn([]any{field}, DocumentReference{IRN: o.str("irn"), IssueDate: o.str("issue_date")})
		case []any:
			for i, e := range x {
				if o := asObj(e); o != nil {
					fn([]any{field, i}, DocumentReference{IRN: o.str("irn"), IssueDate: o.str("issue_date")})
				}
			}
		}
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
	if c.list(codes.ResourceInvoiceTypes).Contains(inv.InvoiceTypeCode) {
		payloadCode = inv.InvoiceTypeCode
	}
	c.kind, c.typeCode = payloadKind, payloadCode
	if k := c.req.kind; k != "" {
		switch {
		case payloadKind != "" && payloadKind != k:
			c.add(RuleRequestTypeMismatch, "invoice_kind "+payloadKind+" disagrees with the request's invoice_type_code "+k, "invoice_kind")
		case payloadKind == "":
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
	if c.kind == "" && inv.InvoiceKind == "" {
		c.add(RuleKindUnknown, "no invoice kind in the payload or the request: the B2B/B2G customer check was skipped", "invoice_kind")
	}
}

// partyRole says which requirements a party meets.
type partyRole int

const (
	roleSupplier partyRole = iota
	roleCustomer
	roleOther
)

func (c *checker) parties() {
	inv := c.inv
	list := [...]struct {
		field string
		p     *Party
		role  partyRole
	}{
		{"accounting_supplier_party", inv.Supplier, roleSupplier},
		{"accounting_customer_party", inv.Customer, roleCustomer},
		{"payee_party", inv.Payee, roleOther},
		{"bill_party", inv.Bill, roleOther},
		{"ship_party", inv.Ship, roleOther},
		{"tax_representative_party", inv.TaxRepresentative, roleOther},
	}
	for _, e := range list {
		if e.p == nil || (!c.ver.v11 && (e.field == "bill_party" || e.field == "ship_party")) {
			continue
		}
		c.requireParty(e.p, e.field, e.role)
		c.party(e.p, e.field)
	}
	if inv.Customer == nil && (c.kind == codes.KindB2B || c.kind == codes.KindB2G) {
		c.add(RulePartyCustomerRequired, "a "+c.kind+" invoice should name its buyer in accounting_customer_party", "accounting_customer_party")
	}
}

// requireParty checks the fields NRS makes mandatory: for the supplier and
// the customer party_name (unless id), tin, email and an address (unless id
// or postal_address_id) with its fields; other parties get warnings.
func (c *checker) requireParty(p *Party, field string, role partyRole) {
	stored := p.ID != ""
	storedAddress := stored || p.PostalAddressID != ""
	missing := func(rule, what string, loc ...any) {
		if role == roleOther {
			rule = RulePartyOtherFieldMissing
		}
		c.add(rule, field+" has no "+what, append([]any{field}, loc...)...)
	}
	if p.Name == "" && !stored {
		missing(RulePartyNameRequired, "party_name (or id of a stored party)", "party_name")
	}
	if p.TIN == "" {
		missing(RulePartyTINRequired, "tin", "tin")
	}
	if p.Email == "" {
		missing(RulePartyEmailRequired, "email", "email")
	}
	a := p.PostalAddress
	switch {
	case a == nil && !storedAddress:
		missing(RulePartyAddressRequired, "postal_address (or postal_address_id of a stored address)", "postal_address")
	case a != nil && !storedAddress && role != roleOther:
		need := [...]struct{ name, v string }{
			{"street_name", a.StreetName}, {"city_name", a.CityName}, {"postal_zone", a.PostalZone},
			{"country", a.Country}, {"lga", a.LGA}, {"state", a.State},
		}
		n := 4
		if c.ver.v11 && role == roleSupplier {
			n = 6 // lga and state are mandatory for the supplier from 1.1
		}
		for _, f := range need[:n] {
			if f.v == "" {
				c.add(RulePartyAddressFieldRequired, field+".postal_address has no "+f.name, field, "postal_address", f.name)
			}
		}
	}
}

// party checks the formats and codes of any party's fields.
func (c *checker) party(p *Party, field string) {
	if p.ID != "" && !uuidShape(p.ID) {
		c.add(RulePartyIDFormat, "id must be the UUID of a party stored at NRS", field, "id")
	}
	if p.PostalAddressID != "" && !uuidShape(p.PostalAddressID) {
		c.add(RulePartyIDFormat, "postal_address_id must be the UUID of an address stored at NRS", field, "postal_address_id")
	}
	if p.TIN != "" {
		switch tinForm(p.TIN) {
		case tinFIRS, tinRN:
		case tinTaxID:
			c.add(RulePartyTaxID, "a 13-digit tin is the unified Tax ID; NRS has not documented that MBS accepts it in tin", field, "tin")
		default:
			c.add(RulePartyTINFormat, show(p.TIN)+" is not a TIN form NRS shows (12345678-0001, RN-847789)", field, "tin")
		}
	}
	if p.Email != "" && !emailShape(p.Email) {
		c.add(RulePartyEmailFormat, show(p.Email)+" is not an e-mail address", field, "email")
	}
	if t := p.Telephone; t != "" {
		if t[0] != '+' {
			c.add(RulePartyTelephoneFormat, "telephone must start with + and the country code", field, "telephone")
		} else if !telephoneShape(t) {
			c.add(RulePartyTelephoneDigits, "telephone should be + followed by 7 to 15 digits", field, "telephone")
		}
	}
	a := p.PostalAddress
	if a == nil {
		return
	}
	countryOK := a.Country != "" && c.list(codes.ResourceCountries).Contains(a.Country)
	if a.Country != "" && !countryOK {
		c.add(RuleCodeCountry, show(a.Country)+" is not in NRS's countries list (ISO 3166-1 alpha-2)", field, "postal_address", "country")
	}
	if !c.ver.v11 {
		return
	}
	stateOK := false
	if a.State != "" {
		if stateOK = c.list(codes.ResourceStates).Contains(a.State); !stateOK {
			c.add(RuleCodeState, show(a.State)+" is not in NRS's states list (NG-LA, NG-FC, ...)", field, "postal_address", "state")
		}
	}
	lgaOK := false
	if a.LGA != "" {
		e, ok := c.list(codes.ResourceLGAs).Lookup(a.LGA)
		switch lgaOK = ok; {
		case !ok:
			c.add(RuleCodeLGA, show(a.LGA)+" is not in NRS's lgas list (NG-LA-IKE for Ikeja, ...)", field, "postal_address", "lga")
		case stateOK && e.State != a.State:
			c.add(RulePartyLGAStateMismatch, "lga "+a.LGA+" ("+e.Value+") lies in "+e.State+", not in state "+a.State, field, "postal_address", "lga")
		}
	}
	if (stateOK || lgaOK) && countryOK && a.Country != "NG" {
		c.add(RulePartyStateCountry, "an address with a Nigerian state or LGA should have country NG", field, "postal_address", "country")
	}
}

func (c *checker) references() {
	switch c.typeCode {
	case codes.InvoiceTypeCreditNote, codes.InvoiceTypeDebitNote, codes.InvoiceTypeSelfBilledCreditNote:
		if len(c.inv.BillingReferences) == 0 {
			name, _ := c.list(codes.ResourceInvoiceTypes).Lookup(c.typeCode)
			c.add(RuleBillingReferenceRequired, "a "+name.Value+" ("+c.typeCode+") should name the invoice(s) it corrects in billing_reference", "billing_reference")
		}
	}
	c.eachRef(func(loc []any, r DocumentReference) {
		if r.IRN == "" {
			return
		}
		ref, sid, day, ok := splitIRN(r.IRN)
		if _, dayOK := parseCompactDate(day); !ok || !irnShape(ref, sid, day) || !dayOK {
			c.addAt(RuleIRNFormat, "irn must have the form {InvoiceNumber}-{ServiceID}-{YYYYMMDD}", loc, "irn")
		}
	})
}

// discountKeys are a line's discount fields: NRS's spelling, then the
// other one read as the same field.
var discountKeys = [2][2]string{{"dicount_rate", "discount_rate"}, {"dicount_amount", "discount_amount"}}

func (c *checker) lines() {
	rawLines, _ := c.raw["invoice_line"].([]any)
	hs := c.list(codes.ResourceHSCodes)
	units := c.list(codes.ResourceQuantityCodes)
	services := c.list(codes.ResourceServicesCodes)
	for i, l := range c.inv.Lines {
		var lo obj
		if i < len(rawLines) {
			lo = asObj(rawLines[i])
		}
		if lo == nil {
			continue
		}
		isic := ""
		if c.ver.v11 {
			isic = l.ISICCode
		}
		switch {
		case l.HSNCode == "" && isic == "":
			msg := "a line needs hsn_code (goods) or isic_code (services)"
			if !c.ver.v11 {
				msg = "a line needs hsn_code in schema 1.0 (service lines with isic_code need schema 1.1)"
			}
			c.add(RuleLineClassificationRequired, msg, "invoice_line", i)
		case l.HSNCode != "" && isic != "":
			c.add(RuleLineClassificationBoth, "a line is goods (hsn_code) or a service (isic_code), not both", "invoice_line", i)
		}
		if l.HSNCode != "" {
			switch {
			case hs != nil && !hs.Contains(l.HSNCode):
				c.add(RuleCodeHS, show(l.HSNCode)+" is not in NRS's hs-codes list", "invoice_line", i, "hsn_code")
			case hs == nil && !hsnShape(l.HSNCode):
				c.add(RuleLineHSNFormat, show(l.HSNCode)+" is not an HS code (4 digits, then pairs of digits: 1006.30)", "invoice_line", i, "hsn_code")
			}
			if l.ProductCategory == "" {
				c.add(RuleLineProductCategoryRequired, "a goods line needs product_category", "invoice_line", i, "product_category")
			}
		}
		if isic != "" {
			if !services.Contains(isic) {
				c.add(RuleCodeISIC, show(isic)+" is not in NRS's services-codes list (ISIC classes such as 5610)", "invoice_line", i, "isic_code")
			}
			if l.ServiceCategory == "" {
				c.add(RuleLineServiceCategoryRequired, "a service line needs service_category", "invoice_line", i, "service_category")
			}
		}
		c.lineFields(i, lo, l, units)
	}
}

// lineFields checks a line's discount and fee fields, the item and price
// fields NRS's samples always carry, and signs.
func (c *checker) lineFields(i int, lo obj, l Line, units *codes.List) {
	var missing []string
	for _, k := range discountKeys {
		nrsKey, alt := k[0], k[1]
		switch {
		case has(lo, nrsKey) && has(lo, alt):
			a, b := lo.num(nrsKey), lo.num(alt)
			if a.Valid && b.Valid && !a.Decimal.Equal(b.Decimal) {
				c.add(RuleLineDiscountConflict, alt+" differs from "+nrsKey+", which is used", "invoice_line", i, alt)
			}
		case has(lo, alt):
			c.add(RuleLineDiscountSpelling, alt+" is read as "+nrsKey+", the name NRS's schema gives the field", "invoice_line", i, alt)
		case !has(lo, nrsKey):
			missing = append(missing, nrsKey)
		}
	}
	for _, k := range [...]string{"fee_rate", "fee_amount"} {
		if !has(lo, k) {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 && c.ver.v11 {
		c.add(RuleLineDiscountFeeMissing, "NRS's 1.1 table marks "+strings.Join(missing, ", ")+" mandatory (0 when unused)", "invoice_line", i)
	}
	if item := lo.obj("item"); item != nil && !has(item, "description") {
		c.add(RuleLineFieldMissing, "item has no description", "invoice_line", i, "item", "description")
	}
	if price := lo.obj("price"); price != nil {
		for _, k := range [...]string{"base_quantity", "price_unit"} {
			if !has(price, k) {
				c.add(RuleLineFieldMissing, "price has no "+k, "invoice_line", i, "price", k)
			}
		}
	}
	if pu := l.Price.PriceUnit; units != nil && unitShape(pu) && !units.Contains(pu) {
		c.add(RuleLinePriceUnitCode, show(pu)+" is not in NRS's invoice-quantity-codes list", "invoice_line", i, "price", "price_unit")
	}
	if b := l.Price.BaseQuantity; b.Valid && b.Decimal.Sign() <= 0 {
		c.add(RuleLineBaseQuantity, "base_quantity must be greater than zero", "invoice_line", i, "price", "base_quantity")
	}
	negative := func(a Amount, loc ...any) {
		if a.Valid && a.Decimal.Sign() < 0 {
			c.add(RuleLineNegative, "must not be negative", append([]any{"invoice_line", i}, loc...)...)
		}
	}
	negative(l.InvoicedQuantity, "invoiced_quantity")
	negative(l.Price.PriceAmount, "price", "price_amount")
	negative(l.DiscountRate, discountKey(lo, 0))
	negative(l.DiscountAmount, discountKey(lo, 1))
	negative(l.FeeRate, "fee_rate")
	negative(l.FeeAmount, "fee_amount")
}

// discountKey is the key a line's discount field i (0 rate, 1 amount) was
// read from.
func discountKey(lo obj, i int) string {
	if !has(lo, discountKeys[i][0]) && has(lo, discountKeys[i][1]) {
		return discountKeys[i][1]
	}
	return discountKeys[i][0]
}

func (c *checker) taxes() {
	categories := c.list(codes.ResourceTaxCategories)
	for i, tt := range c.inv.TaxTotals {
		for j, st := range tt.TaxSubtotals {
			e, ok := categories.Lookup(st.Category.ID)
			if !ok || !st.Category.Percent.Valid {
				continue
			}
			rate, err := decimal.NewFromString(e.Percent)
			if err != nil {
				continue // "Not Available", "": NRS gives no rate
			}
			if !st.Category.Percent.Decimal.Equal(rate) {
				c.add(RuleTaxCategoryPercent, e.Code+" is "+rate.String()+" % in NRS's list, not "+st.Category.Percent.Decimal.String()+" %",
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
			if !isDigit(c) && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
				return false
			}
		}
	}
	return true
}

// TIN forms.
const (
	tinOther = iota
	tinFIRS  // 12345678-0001
	tinRN    // RN-847789
	tinTaxID // 13 digits
)

func tinForm(s string) int {
	switch {
	case len(s) == 13 && s[8] == '-':
		if _, ok1 := digits(s[:8]); ok1 {
			if _, ok2 := digits(s[9:]); ok2 {
				return tinFIRS
			}
		}
	case len(s) > 3 && s[:3] == "RN-":
		if _, ok := digits(s[3:]); ok {
			return tinRN
		}
	case len(s) == 13:
		if _, ok := digits(s); ok {
			return tinTaxID
		}
	}
	return tinOther
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

// unitShape reports whether a price_unit is written as a unit code: 2 or 3
// capitals and digits (UN/ECE Rec 20, such as EA, KGM, H87).
func unitShape(s string) bool {
	if len(s) < 2 || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isDigit(c) && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

// PaymentRejectedReason is why REJECTED is not NRS's: the validator's
// warning, and the payment route's refusal.
const PaymentRejectedReason = "REJECTED is a payment status only approved providers document; NRS lists PENDING, PAID, CANCELED and PARTIAL"
