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
	RuleSchemaEnum     = "NRS-SCHEMA-ENUM"
	RuleSchemaOther    = "NRS-SCHEMA"
	RuleUnknownField   = "NRS-UNKNOWN-FIELD"
	RuleNumberRange    = "NRS-NUMBER-RANGE"

	RuleBusinessIDFormat = "NRS-BUSINESS-ID-FORMAT"
	RuleIRNFormat        = "NRS-IRN-FORMAT"
	RuleIRNDateMismatch  = "NRS-IRN-DATE-MISMATCH"

	RuleCodeInvoiceType   = "NRS-CODE-INVOICE-TYPE"
	RuleCodeInvoiceKind   = "NRS-CODE-INVOICE-KIND"
	RuleCodePaymentStatus = "NRS-CODE-PAYMENT-STATUS"
	RuleCodeCurrency      = "NRS-CODE-CURRENCY"
	RuleCodeCountry       = "NRS-CODE-COUNTRY"
	RuleCodeState         = "NRS-CODE-STATE"
	RuleCodeTaxCategory   = "NRS-CODE-TAX-CATEGORY"
	RuleCodePaymentMeans  = "NRS-CODE-PAYMENT-MEANS"

	RuleDateInvalid               = "NRS-DATE-INVALID"
	RuleTimeInvalid               = "NRS-TIME-INVALID"
	RuleDateDueBeforeIssue        = "NRS-DATE-DUE-BEFORE-ISSUE"
	RuleDatePaymentDueBeforeIssue = "NRS-DATE-PAYMENT-DUE-BEFORE-ISSUE"
	RuleDatePeriodOrder           = "NRS-DATE-PERIOD-ORDER"

	RuleKindUnknown         = "NRS-KIND-UNKNOWN"
	RuleRequestTypeMismatch = "NRS-REQUEST-TYPE-MISMATCH"

	RulePartyCustomerRequired = "NRS-PARTY-CUSTOMER-REQUIRED"
	RulePartyTINRequired      = "NRS-PARTY-TIN-REQUIRED"
	RulePartyTINFormat        = "NRS-PARTY-TIN-FORMAT"
	RulePartyEmailRequired    = "NRS-PARTY-EMAIL-REQUIRED"
	RulePartyEmailFormat      = "NRS-PARTY-EMAIL-FORMAT"
	RulePartyTelephoneFormat  = "NRS-PARTY-TELEPHONE-FORMAT"
	RulePartyLGAFormat        = "NRS-PARTY-LGA-FORMAT"
	RulePartyLGAStateMismatch = "NRS-PARTY-LGA-STATE-MISMATCH"
	RulePartyStateCountry     = "NRS-PARTY-STATE-COUNTRY"

	RuleBillingReferenceRequired = "NRS-BILLING-REFERENCE-REQUIRED"

	RuleLineClassificationRequired  = "NRS-LINE-CLASSIFICATION-REQUIRED"
	RuleLineHSNFormat               = "NRS-LINE-HSN-FORMAT"
	RuleLineProductCategoryRequired = "NRS-LINE-PRODUCT-CATEGORY-REQUIRED"
	RuleLineISICFormat              = "NRS-LINE-ISIC-FORMAT"
	RuleLineServiceCategoryRequired = "NRS-LINE-SERVICE-CATEGORY-REQUIRED"
	RuleLinePriceUnitFormat         = "NRS-LINE-PRICE-UNIT-FORMAT"
	RuleLineBaseQuantity            = "NRS-LINE-BASE-QUANTITY"

	RuleTaxCategoryPercent = "NRS-TAX-CATEGORY-PERCENT"

	RuleArithLine         = "NRS-ARITH-LINE"
	RuleArithLineTotal    = "NRS-ARITH-LINE-TOTAL"
	RuleArithTaxExclusive = "NRS-ARITH-TAX-EXCLUSIVE"
	RuleArithTaxSubtotal  = "NRS-ARITH-TAX-SUBTOTAL"
	RuleArithTaxTotal     = "NRS-ARITH-TAX-TOTAL"
	RuleArithTaxInclusive = "NRS-ARITH-TAX-INCLUSIVE"
	RuleArithPayable      = "NRS-ARITH-PAYABLE"
)

// RuleInfo documents one rule.
type RuleInfo struct {
	ID string `json:"id"`
	// Severity is the default severity. Arithmetic rules take theirs from
	// Options.ArithmeticSeverity (error in 1.1, warning in 1.0).
	Severity model.Severity `json:"severity"`
	// Arithmetic marks the NRS-ARITH-* rules.
	Arithmetic bool `json:"arithmetic,omitempty"`
	// Checks says what the rule checks.
	Checks string `json:"checks"`
	// ExamplePath is a typical JSON Pointer the rule reports at.
	ExamplePath string `json:"example_path"`
}

const (
	sevError   = model.SeverityError
	sevWarning = model.SeverityWarning
)

var ruleInfos = []RuleInfo{
	{RuleSchemaRequired, sevError, false, "A mandatory field is missing (reported at the missing field's own path).", "/legal_monetary_total/payable_amount"},
	{RuleSchemaType, sevError, false, "A field has the wrong JSON type (string, number, boolean, object, array).", "/invoice_line/0/invoiced_quantity"},
	{RuleSchemaMinItems, sevError, false, "An array has fewer elements than required (invoice_line needs at least one).", "/invoice_line"},
	{RuleSchemaPattern, sevError, false, "A string does not match the schema's pattern (where no business rule checks the field more precisely, e.g. an empty issue_time).", "/issue_time"},
	{RuleSchemaEnum, sevError, false, "A value is not one of the schema's allowed values (where no code-list rule applies, e.g. an empty payment_status).", "/payment_status"},
	{RuleSchemaOther, sevError, false, "Any other JSON Schema violation, such as a Go value that is not JSON.", "/note"},
	{RuleUnknownField, sevWarning, false, "A field is not part of the schema version (a typo, or a 1.1 field in a 1.0 payload).", "/invoice_line/0/isic_code"},
	{RuleNumberRange, sevError, false, "A number has more than 18 integer digits or 30 decimals, or cannot be read.", "/legal_monetary_total/payable_amount"},

	{RuleBusinessIDFormat, sevError, false, "business_id is a UUID.", "/business_id"},
	{RuleIRNFormat, sevError, false, "An IRN has the form {InvoiceNumber}-{ServiceID}-{YYYYMMDD} with a real date.", "/irn"},
	{RuleIRNDateMismatch, sevWarning, false, "The IRN's date part equals issue_date.", "/irn"},

	{RuleCodeInvoiceType, sevError, false, "invoice_type_code is in the NRS invoice type list (380 Credit Note, 381 Commercial Invoice, ...).", "/invoice_type_code"},
	{RuleCodeInvoiceKind, sevError, false, "invoice_kind is B2B, B2G or B2C.", "/invoice_kind"},
	{RuleCodePaymentStatus, sevError, false, "payment_status is PENDING, PAID, PARTIAL or REJECTED.", "/payment_status"},
	{RuleCodeCurrency, sevError, false, "Currency codes are active ISO 4217 codes.", "/document_currency_code"},
	{RuleCodeCountry, sevError, false, "Countries are ISO 3166-1 alpha-2 codes.", "/accounting_supplier_party/postal_address/country"},
	{RuleCodeState, sevError, false, "States are ISO 3166-2:NG codes (36 states and NG-FC).", "/accounting_supplier_party/postal_address/state"},
	{RuleCodeTaxCategory, sevError, false, "Tax category ids are in the NRS tax category list.", "/tax_total/0/tax_subtotal/0/tax_category/id"},
	{RuleCodePaymentMeans, sevError, false, "Payment means codes are in the NRS payment means list.", "/payment_means/0/payment_means_code"},

	{RuleDateInvalid, sevError, false, "Dates are real calendar dates written YYYY-MM-DD.", "/issue_date"},
	{RuleTimeInvalid, sevError, false, "issue_time is a real time written HH:MM:SS.", "/issue_time"},
	{RuleDateDueBeforeIssue, sevError, false, "due_date is not before issue_date.", "/due_date"},
	{RuleDatePaymentDueBeforeIssue, sevWarning, false, "A payment means' payment_due_date is not before issue_date.", "/payment_means/0/payment_due_date"},
	{RuleDatePeriodOrder, sevError, false, "The delivery period's end_date is not before its start_date.", "/invoice_delivery_period/end_date"},

	{RuleKindUnknown, sevWarning, false, "A 1.0 payload names no invoice kind and the request supplies none: kind-dependent party rules are skipped.", "/invoice_kind"},
	{RuleRequestTypeMismatch, sevError, false, "The request's invoice_type_code (a kind or a type code) agrees with the payload.", "/invoice_kind"},

	{RulePartyCustomerRequired, sevError, false, "B2B and B2G invoices have an accounting_customer_party.", "/accounting_customer_party"},
	{RulePartyTINRequired, sevError, false, "The supplier has a TIN; so has the customer of a B2B or B2G invoice.", "/accounting_supplier_party/tin"},
	{RulePartyTINFormat, sevError, false, "A TIN has the form 12345678-0001.", "/accounting_customer_party/tin"},
	{RulePartyEmailRequired, sevError, false, "The supplier has an e-mail address; so has the customer of a B2B or B2G invoice.", "/accounting_supplier_party/email"},
	{RulePartyEmailFormat, sevError, false, "An e-mail address has the shape local@domain.tld.", "/accounting_supplier_party/email"},
	{RulePartyTelephoneFormat, sevError, false, "A telephone number is + followed by 7 to 15 digits.", "/accounting_supplier_party/telephone"},
	{RulePartyLGAFormat, sevError, false, "An LGA code has the form NG-XX-YYY and names a real state.", "/accounting_supplier_party/postal_address/lga"},
	{RulePartyLGAStateMismatch, sevError, false, "An LGA lies in the address's state.", "/accounting_supplier_party/postal_address/lga"},
	{RulePartyStateCountry, sevError, false, "An address with a Nigerian state or LGA has country NG.", "/accounting_supplier_party/postal_address/country"},

	{RuleBillingReferenceRequired, sevError, false, "Credit and debit notes (380, 384, 393) name the invoices they correct in billing_reference.", "/billing_reference"},

	{RuleLineClassificationRequired, sevError, false, "A line is goods (hsn_code) or, from 1.1, a service (isic_code).", "/invoice_line/0"},
	{RuleLineHSNFormat, sevError, false, "An HS code has 4 to 10 digits, optionally dotted (2523.29).", "/invoice_line/0/hsn_code"},
	{RuleLineProductCategoryRequired, sevError, false, "A goods line has a product_category.", "/invoice_line/0/product_category"},
	{RuleLineISICFormat, sevError, false, "An ISIC code has exactly 4 digits.", "/invoice_line/1/isic_code"},
	{RuleLineServiceCategoryRequired, sevError, false, "A service line has a service_category.", "/invoice_line/1/service_category"},
	{RuleLinePriceUnitFormat, sevError, false, "price_unit is a UN/ECE Rec 20 code: 2 or 3 upper-case letters and digits.", "/invoice_line/0/price/price_unit"},
	{RuleLineBaseQuantity, sevError, false, "base_quantity is greater than zero.", "/invoice_line/0/price/base_quantity"},

	{RuleTaxCategoryPercent, sevWarning, false, "A category with a fixed rate uses it (STANDARD_VAT 7.5, ZERO_VAT, ZERO_GST and EXEMPTED 0).", "/tax_total/0/tax_subtotal/0/tax_category/percent"},

	{RuleArithLine, sevError, true, "line_extension_amount = invoiced_quantity × price_amount / base_quantity − discount_amount + fee_amount.", "/invoice_line/0/line_extension_amount"},
	{RuleArithLineTotal, sevError, true, "legal_monetary_total.line_extension_amount = Σ invoice_line[].line_extension_amount.", "/legal_monetary_total/line_extension_amount"},
	{RuleArithTaxExclusive, sevError, true, "tax_exclusive_amount = line_extension_amount − Σ allowances + Σ charges.", "/legal_monetary_total/tax_exclusive_amount"},
	{RuleArithTaxSubtotal, sevError, true, "tax_subtotal.tax_amount = taxable_amount × percent / 100.", "/tax_total/0/tax_subtotal/0/tax_amount"},
	{RuleArithTaxTotal, sevError, true, "tax_total.tax_amount = Σ its tax_subtotal[].tax_amount.", "/tax_total/0/tax_amount"},
	{RuleArithTaxInclusive, sevError, true, "tax_inclusive_amount = tax_exclusive_amount + Σ tax_total[].tax_amount.", "/legal_monetary_total/tax_inclusive_amount"},
	{RuleArithPayable, sevError, true, "payable_amount ≤ tax_inclusive_amount.", "/legal_monetary_total/payable_amount"},
}

var ruleIndex = func() map[string]int {
	m := make(map[string]int, len(ruleInfos))
	for i, r := range ruleInfos {
		m[r.ID] = i
	}
	return m
}()

// Rules lists every rule the validator can report, with its default
// severity. Arithmetic rules show the 1.1 default (error).
func Rules() []RuleInfo {
	return append([]RuleInfo(nil), ruleInfos...)
}
