package nrs

import "github.com/einvoice-ng/einvoice/model"

// Rule ids. They are stable: clients match on them, so a rule that changes
// meaning gets a new id. docs/validation-rules.md describes every one.
const (
	// Schema (structure) problems, one id per JSON Schema keyword.
	RuleSchemaRequired = "NRS-SCHEMA-REQUIRED"
	RuleSchemaType     = "NRS-SCHEMA-TYPE"
	RuleSchemaMinItems = "NRS-SCHEMA-MIN-ITEMS"
	RuleSchemaPattern  = "NRS-SCHEMA-PATTERN"
	RuleSchemaOther    = "NRS-SCHEMA"
	RuleUnknownField   = "NRS-UNKNOWN-FIELD"
	RuleNumberRange    = "NRS-NUMBER-RANGE"

	RuleBusinessIDFormat = "NRS-BUSINESS-ID-FORMAT"
	RulePartyIDFormat    = "NRS-PARTY-ID-FORMAT"
	RuleIRNFormat        = "NRS-IRN-FORMAT"
	RuleIRNDateMismatch  = "NRS-IRN-DATE-MISMATCH"

	RuleCodeInvoiceType       = "NRS-CODE-INVOICE-TYPE"
	RuleCodeInvoiceKind       = "NRS-CODE-INVOICE-KIND"
	RuleCodePaymentStatus     = "NRS-CODE-PAYMENT-STATUS"
	RulePaymentStatusRejected = "NRS-PAYMENT-STATUS-REJECTED"
	RuleCodeCurrency          = "NRS-CODE-CURRENCY"
	RuleCodeCountry           = "NRS-CODE-COUNTRY"
	RuleCodeState             = "NRS-CODE-STATE"
	RuleCodeLGA               = "NRS-CODE-LGA"
	RuleCodeTaxCategory       = "NRS-CODE-TAX-CATEGORY"
	RuleCodePaymentMeans      = "NRS-CODE-PAYMENT-MEANS"
	RuleCodeISIC              = "NRS-CODE-ISIC"
	RuleCodeHS                = "NRS-CODE-HS"
	RuleLineHSNFormat         = "NRS-LINE-HSN-FORMAT"
	RuleLinePriceUnitCode     = "NRS-LINE-PRICE-UNIT-CODE"

	RuleDateInvalid               = "NRS-DATE-INVALID"
	RuleTimeInvalid               = "NRS-TIME-INVALID"
	RuleDateDueBeforeIssue        = "NRS-DATE-DUE-BEFORE-ISSUE"
	RuleDatePaymentDueBeforeIssue = "NRS-DATE-PAYMENT-DUE-BEFORE-ISSUE"
	RuleDatePeriodOrder           = "NRS-DATE-PERIOD-ORDER"

	RuleKindUnknown         = "NRS-KIND-UNKNOWN"
	RuleRequestTypeMismatch = "NRS-REQUEST-TYPE-MISMATCH"

	RulePartyCustomerRequired     = "NRS-PARTY-CUSTOMER-REQUIRED"
	RulePartyNameRequired         = "NRS-PARTY-NAME-REQUIRED"
	RulePartyTINRequired          = "NRS-PARTY-TIN-REQUIRED"
	RulePartyEmailRequired        = "NRS-PARTY-EMAIL-REQUIRED"
	RulePartyAddressRequired      = "NRS-PARTY-ADDRESS-REQUIRED"
	RulePartyAddressFieldRequired = "NRS-PARTY-ADDRESS-FIELD-REQUIRED"
	RulePartyOtherFieldMissing    = "NRS-PARTY-OTHER-FIELD-MISSING"
	RulePartyTINFormat            = "NRS-PARTY-TIN-FORMAT"
	RulePartyTaxID                = "NRS-PARTY-TAX-ID"
	RulePartyEmailFormat          = "NRS-PARTY-EMAIL-FORMAT"
	RulePartyTelephoneFormat      = "NRS-PARTY-TELEPHONE-FORMAT"
	RulePartyTelephoneDigits      = "NRS-PARTY-TELEPHONE-DIGITS"
	RulePartyLGAStateMismatch     = "NRS-PARTY-LGA-STATE-MISMATCH"
	RulePartyStateCountry         = "NRS-PARTY-STATE-COUNTRY"

	RuleBillingReferenceRequired = "NRS-BILLING-REFERENCE-REQUIRED"

	RuleLineClassificationRequired  = "NRS-LINE-CLASSIFICATION-REQUIRED"
	RuleLineClassificationBoth      = "NRS-LINE-CLASSIFICATION-BOTH"
	RuleLineProductCategoryRequired = "NRS-LINE-PRODUCT-CATEGORY-REQUIRED"
	RuleLineServiceCategoryRequired = "NRS-LINE-SERVICE-CATEGORY-REQUIRED"
	RuleLineDiscountFeeMissing      = "NRS-LINE-DISCOUNT-FEE-MISSING"
	RuleLineDiscountSpelling        = "NRS-LINE-DISCOUNT-SPELLING"
	RuleLineDiscountConflict        = "NRS-LINE-DISCOUNT-CONFLICT"
	RuleLineFieldMissing            = "NRS-LINE-FIELD-MISSING"
	RuleLineBaseQuantity            = "NRS-LINE-BASE-QUANTITY"
	RuleLineNegative                = "NRS-LINE-NEGATIVE"

	RuleTaxCategoryPercent = "NRS-TAX-CATEGORY-PERCENT"

	RuleArithLine         = "NRS-ARITH-LINE"
	RuleArithLineTotal    = "NRS-ARITH-LINE-TOTAL"
	RuleArithTaxExclusive = "NRS-ARITH-TAX-EXCLUSIVE"
	RuleArithTaxSubtotal  = "NRS-ARITH-TAX-SUBTOTAL"
	RuleArithTaxTotal     = "NRS-ARITH-TAX-TOTAL"
	RuleArithTaxInclusive = "NRS-ARITH-TAX-INCLUSIVE"
	RuleArithPayable      = "NRS-ARITH-PAYABLE"
)

// SourceConsistency is the Source of a rule NRS does not enforce: one of
// einvoice's own consistency checks, a warning under the nrs profile and an
// error under strict.
const SourceConsistency = "einvoice consistency check"

// RuleInfo documents one rule: what it checks, where the rule comes from and
// how severe its findings are under each profile.
type RuleInfo struct {
	ID string `json:"id"`
	// NRS and Strict are the severities under the nrs and strict profiles.
	NRS    model.Severity `json:"nrs"`
	Strict model.Severity `json:"strict"`
	// NRS10, when set, replaces NRS for schema 1.0 payloads.
	NRS10 model.Severity `json:"nrs_1_0,omitempty"`
	// Source is the NRS document the rule comes from, by the source keys
	// of the shared NRS notes (FIRS-DOC-1.0, NRS-DOC-1.1, reference lists
	// ...), or SourceConsistency.
	Source string `json:"source"`
	// Checks says what the rule checks.
	Checks string `json:"checks"`
	// ExamplePath is a typical JSON Pointer the rule reports at.
	ExamplePath string `json:"example_path"`
}

const (
	sevError   = model.SeverityError
	sevWarning = model.SeverityWarning
)

// Source keys, as the shared NRS notes name them.
const (
	srcTables    = "NRS-DOC-1.1 field tables (1.1), FIRS-SCHEMA (1.0)"
	srcIDs       = "FIRS-DOC-1.0 (MBS parses ids as UUIDs: \"invalid UUID length\")"
	srcIRN       = "nrs.md IRN; FIRS-DOC-1.0, PASCA (\"irn validation failed\")"
	srcParty     = "NRS-DOC-1.1 party table; FIRS-DOC-1.0 party comments (\"now mandatory\", \"optional if id is set\")"
	srcLists     = "NRS resource lists, reference/SOURCES.md: "
	srcDatesType = "NRS-DOC-1.1, FIRS-SCHEMA (Date YYYY-MM-DD, Time HH:MM:SS)"
)

var ruleInfos = []RuleInfo{
	{RuleSchemaRequired, sevError, sevError, "", srcTables, "A field NRS marks mandatory is missing (reported at the missing field's own path).", "/tax_currency_code"},
	{RuleSchemaType, sevError, sevError, "", srcTables, "A field has the wrong JSON type (string, number, boolean, object, array).", "/invoice_line/0/invoiced_quantity"},
	{RuleSchemaMinItems, sevError, sevError, "", srcTables, "An array NRS requires is empty (invoice_line; in 1.1 tax_total and tax_subtotal).", "/invoice_line"},
	{RuleSchemaPattern, sevError, sevError, "", srcDatesType, "A string does not have its documented form where no business rule reports more precisely (such as an empty issue_time).", "/issue_time"},
	{RuleSchemaOther, sevError, sevError, "", srcTables, "Any other JSON Schema violation, such as a Go value that is not JSON.", "/note"},
	{RuleUnknownField, sevWarning, sevError, "", SourceConsistency, "A field is not part of the schema version (a typo, NRS ignores it, or a 1.1 field in a 1.0 payload).", "/invoice_line/0/isic_code"},
	{RuleNumberRange, sevError, sevError, "", "einvoice input bound", "A number has more than 18 integer digits or 30 decimals, or cannot be read: einvoice does not compute with it.", "/legal_monetary_total/payable_amount"},

	{RuleBusinessIDFormat, sevError, sevError, "", srcIDs, "business_id is a UUID.", "/business_id"},
	{RulePartyIDFormat, sevError, sevError, "", srcIDs, "A party's id and postal_address_id are UUIDs.", "/accounting_customer_party/id"},
	{RuleIRNFormat, sevError, sevError, "", srcIRN, "An IRN has the form {InvoiceNumber}-{ServiceID}-{YYYYMMDD}: letters and digits, 8 letters and digits, a real date.", "/irn"},
	{RuleIRNDateMismatch, sevWarning, sevError, "", SourceConsistency, "The IRN's date part equals issue_date (NRS's own samples differ).", "/irn"},

	{RuleCodeInvoiceType, sevError, sevError, "", srcLists + "invoice-types (FIRS-DOC-1.0 GetInvoiceTypes)", "invoice_type_code is in NRS's invoice-types list (381 Commercial Invoice, 380 Credit Note, ...).", "/invoice_type_code"},
	{RuleCodeInvoiceKind, sevWarning, sevError, "", "NRS-DOC-1.1 (\"B2B, B2C, etc.\"), approved providers' docs", "invoice_kind is B2B, B2G or B2C.", "/invoice_kind"},
	{RuleCodePaymentStatus, sevError, sevError, "", "FIRS-COLL (PENDING, PAID, CANCELED), CHANGELOG (PARTIAL)", "payment_status is PENDING, PAID, CANCELED or PARTIAL (REJECTED: see NRS-PAYMENT-STATUS-REJECTED).", "/payment_status"},
	{RulePaymentStatusRejected, sevWarning, sevWarning, "", "PASCA, FLOWBOOKS (providers only; no NRS source)", "payment_status REJECTED appears only in approved providers' documents.", "/payment_status"},
	{RuleCodeCurrency, sevError, sevError, "", srcLists + "currencies (FIRS-DOC-1.0 GetCurrencies, 118 codes, not ISO 4217)", "document_currency_code and tax_currency_code are in NRS's currencies list.", "/document_currency_code"},
	{RuleCodeCountry, sevError, sevError, "", srcLists + "countries (FIRS-DOC-1.0 GetCountries)", "A postal address's country is an alpha_2 code of NRS's countries list.", "/accounting_supplier_party/postal_address/country"},
	{RuleCodeState, sevError, sevError, "", srcLists + "states", "A postal address's state is in NRS's states list.", "/accounting_supplier_party/postal_address/state"},
	{RuleCodeLGA, sevError, sevError, "", srcLists + "lgas", "A postal address's lga is in NRS's lgas list.", "/accounting_supplier_party/postal_address/lga"},
	{RuleCodeTaxCategory, sevError, sevError, "", srcLists + "tax-categories", "A tax category id is in NRS's tax-categories list.", "/tax_total/0/tax_subtotal/0/tax_category/id"},
	{RuleCodePaymentMeans, sevError, sevError, "", srcLists + "payment-means", "A payment means code is in NRS's payment-means list (10, 20, 30, 31, 42, 43, 48, 49, 50, 58, 97, ZZZ).", "/payment_means/0/payment_means_code"},
	{RuleCodeISIC, sevError, sevError, "", srcLists + "services-codes (FIRS-DOC-1.0 GetServicesCodes)", "A service line's isic_code is in NRS's services-codes list (schema 1.1).", "/invoice_line/1/isic_code"},
	{RuleCodeHS, sevError, sevError, sevWarning, "NRS-DOC-1.1 (hsn_code from /resources/hs-codes)", "Once the hs-codes list was refreshed from NRS: hsn_code is in it. Under schema 1.0 a warning (FIRS's 1.0 samples send placeholders such as CC-001).", "/invoice_line/0/hsn_code"},
	{RuleLineHSNFormat, sevError, sevError, sevWarning, "NRS-DOC-1.1 (hsn_code from /resources/hs-codes)", "Until the hs-codes list is refreshed from NRS: hsn_code has the shape of an HS code (4 digits, then pairs, optionally dotted: 1006.30). Under schema 1.0 a warning.", "/invoice_line/0/hsn_code"},
	{RuleLinePriceUnitCode, sevWarning, sevWarning, "", "CHANGELOG (invoice-quantity-codes, Apr 2026); no source requires price_unit to be one", "Once invoice-quantity-codes was refreshed from NRS: a price_unit written as a code (2 or 3 capitals and digits) is in it. price_unit is otherwise free text (\"NGN per 1\").", "/invoice_line/0/price/price_unit"},

	{RuleDateInvalid, sevError, sevError, "", srcDatesType, "Dates are real calendar dates written YYYY-MM-DD.", "/issue_date"},
	{RuleTimeInvalid, sevError, sevError, "", srcDatesType, "issue_time is a real time written HH:MM:SS.", "/issue_time"},
	{RuleDateDueBeforeIssue, sevWarning, sevError, "", SourceConsistency, "due_date is not before issue_date.", "/due_date"},
	{RuleDatePaymentDueBeforeIssue, sevWarning, sevError, "", SourceConsistency, "A payment means' payment_due_date is not before issue_date.", "/payment_means/0/payment_due_date"},
	{RuleDatePeriodOrder, sevWarning, sevError, "", SourceConsistency, "The delivery period's end_date is not before its start_date.", "/invoice_delivery_period/end_date"},

	{RuleKindUnknown, sevWarning, sevWarning, "", "einvoice notice (invoice_kind is optional in NRS-DOC-1.1)", "Neither the payload (invoice_kind) nor the request names the invoice kind: the B2B/B2G customer check is skipped.", "/invoice_kind"},
	{RuleRequestTypeMismatch, sevWarning, sevError, "", SourceConsistency, "The request's invoice_type_code (a kind or a type code) agrees with the payload.", "/invoice_kind"},

	{RulePartyCustomerRequired, sevWarning, sevError, "", SourceConsistency, "B2B and B2G invoices have an accounting_customer_party (no NRS table ties it to the kind).", "/accounting_customer_party"},
	{RulePartyNameRequired, sevError, sevError, "", srcParty, "The supplier and the customer have a party_name unless they name a stored party (id).", "/accounting_supplier_party/party_name"},
	{RulePartyTINRequired, sevError, sevError, "", srcParty, "The supplier and the customer have a tin.", "/accounting_supplier_party/tin"},
	{RulePartyEmailRequired, sevError, sevError, "", srcParty, "The supplier and the customer have an email.", "/accounting_supplier_party/email"},
	{RulePartyAddressRequired, sevError, sevError, "", srcParty, "The supplier and the customer have a postal_address unless they name a stored party (id) or address (postal_address_id).", "/accounting_supplier_party/postal_address"},
	{RulePartyAddressFieldRequired, sevError, sevError, "", srcParty, "An inline postal_address of the supplier or customer has street_name, city_name, postal_zone and country; in schema 1.1 the supplier's also lga and state.", "/accounting_supplier_party/postal_address/lga"},
	{RulePartyOtherFieldMissing, sevWarning, sevError, "", "FIRS-DOC-1.0 (\"party object, just like accounting_customer_party\"); NRS-DOC-1.1 marks mandatory fields for the supplier only", "A payee, bill, ship or tax representative party has what a customer must have (party_name or id, tin, email, an address).", "/payee_party/tin"},
	{RulePartyTINFormat, sevWarning, sevError, "", "NRS publishes no TIN pattern; forms seen: 12345678-0001 (FIRS-DOC-1.0), RN-847789 (NRS-DOC-1.1)", "A tin has a form NRS shows: 8 digits, hyphen, 4 digits, or RN- and digits. Placeholders such as TIN-000001 are warnings.", "/accounting_customer_party/tin"},
	{RulePartyTaxID, sevWarning, sevWarning, "", "TAXID (unified 13-digit Tax ID, May 2026; no source says MBS takes it)", "A tin of 13 digits is the new unified Tax ID: accepted, with a warning until NRS documents it.", "/accounting_supplier_party/tin"},
	{RulePartyEmailFormat, sevWarning, sevError, "", SourceConsistency, "An email has the shape local@domain.tld.", "/accounting_supplier_party/email"},
	{RulePartyTelephoneFormat, sevError, sevError, "", "NRS-DOC-1.1, FIRS-DOC-1.0 (\"must start with +\")", "A telephone starts with + (the country code).", "/accounting_supplier_party/telephone"},
	{RulePartyTelephoneDigits, sevWarning, sevError, "", SourceConsistency, "After the +, a telephone has 7 to 15 digits and nothing else.", "/accounting_supplier_party/telephone"},
	{RulePartyLGAStateMismatch, sevError, sevError, "", srcLists + "lgas (each LGA's state_code)", "An address's lga lies in its state.", "/accounting_supplier_party/postal_address/lga"},
	{RulePartyStateCountry, sevWarning, sevError, "", SourceConsistency, "An address with a Nigerian state or LGA has country NG.", "/accounting_supplier_party/postal_address/country"},

	{RuleBillingReferenceRequired, sevWarning, sevError, "", SourceConsistency, "Credit and debit notes (380, 384, 393) name the invoices they correct in billing_reference (no NRS table requires it).", "/billing_reference"},

	{RuleLineClassificationRequired, sevError, sevError, "", "NRS-DOC-1.1 (hsn_code M for goods, isic_code M for services)", "A line is goods (hsn_code) or, from 1.1, a service (isic_code).", "/invoice_line/0"},
	{RuleLineClassificationBoth, sevWarning, sevError, "", "NRSC (\"per NRS Support\", integrators)", "A line is not both goods and a service (hsn_code and isic_code).", "/invoice_line/0"},
	{RuleLineProductCategoryRequired, sevError, sevError, "", "NRS-DOC-1.1 (M for goods)", "A goods line has a product_category.", "/invoice_line/0/product_category"},
	{RuleLineServiceCategoryRequired, sevError, sevError, "", "NRS-DOC-1.1 (M for services)", "A service line has a service_category.", "/invoice_line/1/service_category"},
	{RuleLineDiscountFeeMissing, sevWarning, sevWarning, "", "NRS-DOC-1.1 marks them M; FIRS-DOC-1.0 and integrators treat them as optional", "A 1.1 line carries dicount_rate, dicount_amount, fee_rate and fee_amount (0 when unused).", "/invoice_line/0"},
	{RuleLineDiscountSpelling, sevWarning, sevWarning, "", "FIRS-DOC-1.0, PORTAL-SAMPLE, NRS-DOC-1.1 mapping (dicount_*); FIRS-COLL (discount_*)", "A line spells the discount discount_rate / discount_amount: read as dicount_*, NRS's name, which no source says MBS reads otherwise.", "/invoice_line/0/discount_amount"},
	{RuleLineDiscountConflict, sevWarning, sevError, "", SourceConsistency, "A line has both spellings of a discount field with different values (dicount_* is used).", "/invoice_line/0/discount_amount"},
	{RuleLineFieldMissing, sevWarning, sevError, "", "FIRS-DOC-1.0 samples (not marked optional); no NRS table", "A line's item has a description and its price a base_quantity and a price_unit.", "/invoice_line/0/price/price_unit"},
	{RuleLineBaseQuantity, sevWarning, sevError, "", SourceConsistency, "base_quantity is greater than zero.", "/invoice_line/0/price/base_quantity"},
	{RuleLineNegative, sevWarning, sevError, "", SourceConsistency, "A line's quantity, price, discount and fee (amounts and rates) are not negative.", "/invoice_line/0/invoiced_quantity"},

	{RuleTaxCategoryPercent, sevWarning, sevWarning, "", srcLists + "tax-categories (percent)", "A category NRS serves with a rate (STANDARD_VAT 7.5, REDUCED_VAT 7.5, ZERO_VAT 0.0) is used at that rate.", "/tax_total/0/tax_subtotal/0/tax_category/percent"},

	{RuleArithLine, sevWarning, sevError, "", SourceConsistency, "line_extension_amount = invoiced_quantity × price_amount / base_quantity − dicount_amount + fee_amount, rounded to kobo.", "/invoice_line/0/line_extension_amount"},
	{RuleArithLineTotal, sevWarning, sevError, "", SourceConsistency, "legal_monetary_total.line_extension_amount = Σ invoice_line[].line_extension_amount.", "/legal_monetary_total/line_extension_amount"},
	{RuleArithTaxExclusive, sevWarning, sevError, "", SourceConsistency, "tax_exclusive_amount = line_extension_amount − Σ allowances + Σ charges.", "/legal_monetary_total/tax_exclusive_amount"},
	{RuleArithTaxSubtotal, sevWarning, sevError, "", SourceConsistency, "tax_subtotal.tax_amount = taxable_amount × percent / 100, rounded to kobo.", "/tax_total/0/tax_subtotal/0/tax_amount"},
	{RuleArithTaxTotal, sevWarning, sevError, "", SourceConsistency, "tax_total.tax_amount = Σ its tax_subtotal[].tax_amount.", "/tax_total/0/tax_amount"},
	{RuleArithTaxInclusive, sevWarning, sevError, "", SourceConsistency, "tax_inclusive_amount = tax_exclusive_amount + Σ tax_total[].tax_amount.", "/legal_monetary_total/tax_inclusive_amount"},
	{RuleArithPayable, sevWarning, sevError, "", SourceConsistency, "payable_amount ≤ tax_inclusive_amount.", "/legal_monetary_total/payable_amount"},
}

var ruleIndex = func() map[string]int {
	m := make(map[string]int, len(ruleInfos))
	for i, r := range ruleInfos {
		if _, dup := m[r.ID]; dup {
			panic("nrs: rule " + r.ID + " listed twice")
		}
		m[r.ID] = i
	}
	return m
}()

// Rules lists every rule the validator can report.
func Rules() []RuleInfo {
	return append([]RuleInfo(nil), ruleInfos...)
}

// severities returns each rule's severity under a profile and version.
func severities(profile model.ValidationProfile, v11 bool) map[string]model.Severity {
	out := make(map[string]model.Severity, len(ruleInfos))
	for _, r := range ruleInfos {
		s := r.NRS
		switch {
		case profile == model.ProfileStrict:
			s = r.Strict
		case !v11 && r.NRS10 != "":
			s = r.NRS10
		}
		out[r.ID] = s
	}
	return out
}
