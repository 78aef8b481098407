package nrs

import (
	"testing"

	"github.com/einvoice-ng/einvoice/model"
)

// ruleCase mutates a fixture and checks one rule: with path set, the rule
// must fire there (with the matching loc and the rule's severity); with path
// empty, the rule must not fire at all.
type ruleCase struct {
	name    string
	fixture string // default invoice-b2b-1.1.json
	version string // default 1.1
	request string // request-level invoice_type_code
	edits   []edit
	rule    string
	path    string
}

const (
	b2b = "invoice-b2b-1.1.json"
	b2c = "invoice-b2c-1.1.json"
	b2g = "invoice-b2g-1.1.json"

	supplier = "/accounting_supplier_party"
	customer = "/accounting_customer_party"
	lmt      = "/legal_monetary_total"
)

// creditNote turns the B2B fixture into a credit note for an earlier invoice.
var creditNoteRef = []any{map[string]any{"irn": "SGN2026000100-7XQ4LM2P-20260301", "issue_date": "2026-03-01"}}

var ruleCases = []ruleCase{
	// Schema keywords.
	{name: "missing payable amount", rule: RuleSchemaRequired, path: lmt + "/payable_amount",
		edits: []edit{{lmt + "/payable_amount", del}}},
	{name: "missing line price", rule: RuleSchemaRequired, path: "/invoice_line/1/price",
		edits: []edit{{"/invoice_line/1/price", del}}},
	{name: "complete invoice", rule: RuleSchemaRequired},
	{name: "quantity is a string", rule: RuleSchemaType, path: "/invoice_line/0/invoiced_quantity",
		edits: []edit{{"/invoice_line/0/invoiced_quantity", "ten"}}},
	{name: "charge indicator is a string", fixture: b2g, rule: RuleSchemaType, path: "/allowance_charge/0/charge_indicator",
		edits: []edit{{"/allowance_charge/0/charge_indicator", "false"}}},
	{name: "types right", rule: RuleSchemaType},
	{name: "no lines", rule: RuleSchemaMinItems, path: "/invoice_line",
		edits: []edit{{"/invoice_line", []any{}}}},
	{name: "one line", fixture: b2c, rule: RuleSchemaMinItems},
	{name: "empty issue time", rule: RuleSchemaPattern, path: "/issue_time",
		edits: []edit{{"/issue_time", ""}}},
	{name: "issue time present", rule: RuleSchemaPattern},
	{name: "empty payment status", rule: RuleSchemaEnum, path: "/payment_status",
		edits: []edit{{"/payment_status", ""}}},
	{name: "payment status set", rule: RuleSchemaEnum},
	{name: "value that is not JSON", rule: RuleSchemaOther, path: "/note",
		edits: []edit{{"/note", []string{"not", "json"}}}},
	{name: "note is text", rule: RuleSchemaOther},
	{name: "typo in a line field", rule: RuleUnknownField, path: "/invoice_line/0/colour",
		edits: []edit{{"/invoice_line/0/colour", "grey"}}},
	{name: "1.1 field in a 1.0 payload", version: "1.0", fixture: b2c, rule: RuleUnknownField, path: supplier + "/postal_address/lga"},
	{name: "extension inside an unknown object is not reported twice", rule: RuleUnknownField, path: "/x_extension",
		edits: []edit{{"/x_extension", map[string]any{"a": "b"}}}},
	{name: "known fields only", rule: RuleUnknownField},
	{name: "exponent too large", rule: RuleNumberRange, path: lmt + "/tax_inclusive_amount",
		edits: []edit{{lmt + "/tax_inclusive_amount", num("1e19")}}},
	{name: "too many decimals", rule: RuleNumberRange, path: "/invoice_line/0/invoiced_quantity",
		edits: []edit{{"/invoice_line/0/invoiced_quantity", num("10.0000000000000000000000000000001")}}},
	{name: "large but in range", rule: RuleNumberRange,
		edits: []edit{{"/note", "x"}, {"/invoice_line/0/discount_rate", num("0.000000000000000000000000000001")}}},

	// Identity.
	{name: "business id not a uuid", rule: RuleBusinessIDFormat, path: "/business_id",
		edits: []edit{{"/business_id", "3f6c2a9e8b414d7a9c551e2f7a0b6d34"}}},
	{name: "business id upper case", rule: RuleBusinessIDFormat,
		edits: []edit{{"/business_id", "3F6C2A9E-8B41-4D7A-9C55-1E2F7A0B6D34"}}},
	{name: "irn with hyphen in reference", rule: RuleIRNFormat, path: "/irn",
		edits: []edit{{"/irn", "SGN-2026000123-7XQ4LM2P-20260315"}}},
	{name: "irn with impossible date", rule: RuleIRNFormat, path: "/irn",
		edits: []edit{{"/irn", "SGN2026000123-7XQ4LM2P-20261315"}}},
	{name: "billing reference irn malformed", rule: RuleIRNFormat, path: "/billing_reference/0/irn",
		edits: []edit{{"/billing_reference", []any{map[string]any{"irn": "SGN100", "issue_date": "2026-03-01"}}}}},
	{name: "contract reference irn malformed", fixture: b2g, rule: RuleIRNFormat, path: "/contract_document_reference/irn",
		edits: []edit{{"/contract_document_reference/irn", "CTR2025117-7XQ4LM2-20251101"}}},
	{name: "irn in lower case", rule: RuleIRNFormat,
		edits: []edit{{"/irn", "sgn2026000123-7xq4lm2p-20260315"}}},
	{name: "irn date is not the issue date", rule: RuleIRNDateMismatch, path: "/irn",
		edits: []edit{{"/irn", "SGN2026000123-7XQ4LM2P-20260316"}}},
	{name: "irn date is the issue date", fixture: b2g, rule: RuleIRNDateMismatch},

	// Code lists.
	{name: "type code 999", rule: RuleCodeInvoiceType, path: "/invoice_type_code",
		edits: []edit{{"/invoice_type_code", "999"}}},
	{name: "UNTDID 380 meaning is NRS credit note, 388 statement", rule: RuleCodeInvoiceType,
		edits: []edit{{"/invoice_type_code", "388"}}},
	{name: "kind B2X", rule: RuleCodeInvoiceKind, path: "/invoice_kind",
		edits: []edit{{"/invoice_kind", "B2X"}}},
	{name: "kind lower case", rule: RuleCodeInvoiceKind, path: "/invoice_kind",
		edits: []edit{{"/invoice_kind", "b2b"}}},
	{name: "kind B2G", rule: RuleCodeInvoiceKind, edits: []edit{{"/invoice_kind", "B2G"}}},
	{name: "status UNPAID", rule: RuleCodePaymentStatus, path: "/payment_status",
		edits: []edit{{"/payment_status", "UNPAID"}}},
	{name: "status PARTIAL", rule: RuleCodePaymentStatus, edits: []edit{{"/payment_status", "PARTIAL"}}},
	{name: "document currency NGX", rule: RuleCodeCurrency, path: "/document_currency_code",
		edits: []edit{{"/document_currency_code", "NGX"}}},
	{name: "tax currency withdrawn HRK", rule: RuleCodeCurrency, path: "/tax_currency_code",
		edits: []edit{{"/tax_currency_code", "HRK"}}},
	{name: "currency USD", rule: RuleCodeCurrency,
		edits: []edit{{"/document_currency_code", "USD"}, {"/tax_currency_code", "NGN"}}},
	{name: "country XX", rule: RuleCodeCountry, path: customer + "/postal_address/country",
		edits: []edit{{customer + "/postal_address/country", "XX"}}},
	{name: "payee in Ghana", rule: RuleCodeCountry,
		edits: []edit{{"/payee_party", map[string]any{"party_name": "Sango GH", "postal_address": map[string]any{"country": "GH"}}}}},
	{name: "state NG-XX", rule: RuleCodeState, path: supplier + "/postal_address/state",
		edits: []edit{{supplier + "/postal_address/state", "NG-XX"}, {supplier + "/postal_address/lga", del}}},
	{name: "state FCT", rule: RuleCodeState,
		edits: []edit{{supplier + "/postal_address/state", "NG-FC"}, {supplier + "/postal_address/lga", "NG-FC-AMC"}}},
	{name: "tax category VAT", rule: RuleCodeTaxCategory, path: "/tax_total/0/tax_subtotal/0/tax_category/id",
		edits: []edit{{"/tax_total/0/tax_subtotal/0/tax_category/id", "VAT"}}},
	{name: "tax category STANDARD_GST", rule: RuleCodeTaxCategory,
		edits: []edit{{"/tax_total/0/tax_subtotal/0/tax_category/id", "STANDARD_GST"}}},
	{name: "payment means 99", rule: RuleCodePaymentMeans, path: "/payment_means/0/payment_means_code",
		edits: []edit{{"/payment_means/0/payment_means_code", "99"}}},
	{name: "payment means 42", rule: RuleCodePaymentMeans, edits: []edit{{"/payment_means/0/payment_means_code", "42"}}},

	// Dates and times.
	{name: "due date 31 April", rule: RuleDateInvalid, path: "/due_date",
		edits: []edit{{"/due_date", "2026-04-31"}}},
	{name: "issue date 29 February of a common year", rule: RuleDateInvalid, path: "/issue_date",
		edits: []edit{{"/issue_date", "2026-02-29"}}},
	{name: "payment due month 13", rule: RuleDateInvalid, path: "/payment_means/0/payment_due_date",
		edits: []edit{{"/payment_means/0/payment_due_date", "2026-13-01"}}},
	{name: "tax point date with time", rule: RuleDateInvalid, path: "/tax_point_date",
		edits: []edit{{"/tax_point_date", "2026-03-15T10:00:00Z"}}},
	{name: "delivery date year 0", rule: RuleDateInvalid, path: "/actual_delivery_date",
		edits: []edit{{"/actual_delivery_date", "0000-01-01"}}},
	{name: "delivery period start", rule: RuleDateInvalid, path: "/invoice_delivery_period/start_date",
		edits: []edit{{"/invoice_delivery_period", map[string]any{"start_date": "2026-3-1", "end_date": "2026-03-10"}}}},
	{name: "billing reference date", rule: RuleDateInvalid, path: "/billing_reference/0/issue_date",
		edits: []edit{{"/billing_reference", []any{map[string]any{"irn": "SGN100-7XQ4LM2P-20260301", "issue_date": "2026-03-32"}}}}},
	{name: "contract reference date", fixture: b2g, rule: RuleDateInvalid, path: "/contract_document_reference/issue_date",
		edits: []edit{{"/contract_document_reference/issue_date", "2025-11-00"}}},
	{name: "leap day 2028", rule: RuleDateInvalid,
		edits: []edit{{"/due_date", "2028-02-29"}, {"/tax_point_date", "2026-03-15"}, {"/actual_delivery_date", "2000-02-29"}}},
	{name: "time 24:00:00", rule: RuleTimeInvalid, path: "/issue_time",
		edits: []edit{{"/issue_time", "24:00:00"}}},
	{name: "time with minutes 60", rule: RuleTimeInvalid, path: "/issue_time",
		edits: []edit{{"/issue_time", "10:60:00"}}},
	{name: "time 23:59:59", rule: RuleTimeInvalid, edits: []edit{{"/issue_time", "23:59:59"}}},
	{name: "due before issue", rule: RuleDateDueBeforeIssue, path: "/due_date",
		edits: []edit{{"/due_date", "2026-03-14"}}},
	{name: "due on issue day", rule: RuleDateDueBeforeIssue, edits: []edit{{"/due_date", "2026-03-15"}}},
	{name: "payment due before issue", rule: RuleDatePaymentDueBeforeIssue, path: "/payment_means/0/payment_due_date",
		edits: []edit{{"/payment_means/0/payment_due_date", "2026-03-01"}}},
	{name: "payment due on issue day", fixture: b2c, rule: RuleDatePaymentDueBeforeIssue},
	{name: "period ends before it starts", rule: RuleDatePeriodOrder, path: "/invoice_delivery_period/end_date",
		edits: []edit{{"/invoice_delivery_period", map[string]any{"start_date": "2026-03-10", "end_date": "2026-03-01"}}}},
	{name: "one-day period", rule: RuleDatePeriodOrder,
		edits: []edit{{"/invoice_delivery_period", map[string]any{"start_date": "2026-03-10", "end_date": "2026-03-10"}}}},

	// Kind and request type.
	{name: "1.0 payload without kind", version: "1.0", fixture: b2c, rule: RuleKindUnknown, path: "/invoice_kind",
		edits: []edit{{"/invoice_kind", del}}},
	{name: "1.0 payload, kind from request", version: "1.0", fixture: b2c, request: "B2C", rule: RuleKindUnknown,
		edits: []edit{{"/invoice_kind", del}}},
	{name: "request kind disagrees", request: "B2C", rule: RuleRequestTypeMismatch, path: "/invoice_kind"},
	{name: "request code disagrees", request: "380", rule: RuleRequestTypeMismatch, path: "/invoice_type_code"},
	{name: "request kind agrees, any case", request: " b2b ", rule: RuleRequestTypeMismatch},
	{name: "request code agrees", request: "381", rule: RuleRequestTypeMismatch},

	// Parties.
	{name: "B2B without customer", rule: RulePartyCustomerRequired, path: customer,
		edits: []edit{{customer, del}}},
	{name: "B2G without customer", fixture: b2g, rule: RulePartyCustomerRequired, path: customer,
		edits: []edit{{customer, del}}},
	{name: "1.0 without customer, B2B from the request", version: "1.0", fixture: b2c, request: "B2B",
		rule: RulePartyCustomerRequired, path: customer, edits: []edit{{"/invoice_kind", del}}},
	{name: "B2C without customer", fixture: b2c, rule: RulePartyCustomerRequired},
	{name: "supplier without tin", rule: RulePartyTINRequired, path: supplier + "/tin",
		edits: []edit{{supplier + "/tin", del}}},
	{name: "supplier with empty tin", rule: RulePartyTINRequired, path: supplier + "/tin",
		edits: []edit{{supplier + "/tin", ""}}},
	{name: "B2B customer without tin", rule: RulePartyTINRequired, path: customer + "/tin",
		edits: []edit{{customer + "/tin", del}}},
	{name: "B2C customer without tin", fixture: b2c, rule: RulePartyTINRequired,
		edits: []edit{{customer, map[string]any{"party_name": "Walk-in buyer"}}}},
	{name: "tin without branch", rule: RulePartyTINFormat, path: supplier + "/tin",
		edits: []edit{{supplier + "/tin", "31447720"}}},
	{name: "tin with letters", rule: RulePartyTINFormat, path: customer + "/tin",
		edits: []edit{{customer + "/tin", "2098331X-0001"}}},
	{name: "tin well formed", rule: RulePartyTINFormat, edits: []edit{{customer + "/tin", "00000001-0002"}}},
	{name: "supplier without email", rule: RulePartyEmailRequired, path: supplier + "/email",
		edits: []edit{{supplier + "/email", del}}},
	{name: "B2G customer without email", fixture: b2g, rule: RulePartyEmailRequired, path: customer + "/email",
		edits: []edit{{customer + "/email", del}}},
	{name: "B2C customer without email", fixture: b2c, rule: RulePartyEmailRequired,
		edits: []edit{{customer, map[string]any{"party_name": "Walk-in buyer", "telephone": "+2348031112222"}}}},
	{name: "email without dot in domain", rule: RulePartyEmailFormat, path: supplier + "/email",
		edits: []edit{{supplier + "/email", "billing@sango"}}},
	{name: "email with space", rule: RulePartyEmailFormat, path: customer + "/email",
		edits: []edit{{customer + "/email", "ap @ekitihomes.example"}}},
	{name: "email plus-tagged", rule: RulePartyEmailFormat, edits: []edit{{supplier + "/email", "a.b+inv@sub.sango.com.ng"}}},
	{name: "telephone national form", rule: RulePartyTelephoneFormat, path: supplier + "/telephone",
		edits: []edit{{supplier + "/telephone", "08031234567"}}},
	{name: "telephone with spaces", rule: RulePartyTelephoneFormat, path: customer + "/telephone",
		edits: []edit{{customer + "/telephone", "+234 805 987 6543"}}},
	{name: "telephone international", rule: RulePartyTelephoneFormat, edits: []edit{{supplier + "/telephone", "+14155550100"}}},
	{name: "lga without state", rule: RulePartyLGAFormat, path: supplier + "/postal_address/lga",
		edits: []edit{{supplier + "/postal_address/lga", "IBN"}}},
	{name: "lga in unknown state", rule: RulePartyLGAFormat, path: customer + "/postal_address/lga",
		edits: []edit{{customer + "/postal_address/lga", "NG-QQ-ADE"}}},
	{name: "lga Eti-Osa", rule: RulePartyLGAFormat,
		edits: []edit{{supplier + "/postal_address/lga", "NG-LA-EOS"}, {supplier + "/postal_address/state", "NG-LA"}}},
	{name: "lga in another state", rule: RulePartyLGAStateMismatch, path: supplier + "/postal_address/lga",
		edits: []edit{{supplier + "/postal_address/lga", "NG-LA-EOS"}}},
	{name: "lga in its state", rule: RulePartyLGAStateMismatch},
	{name: "Nigerian state abroad", rule: RulePartyStateCountry, path: customer + "/postal_address/country",
		edits: []edit{{customer + "/postal_address/country", "GH"}}},
	{name: "foreign address without state", rule: RulePartyStateCountry,
		edits: []edit{{customer + "/postal_address", map[string]any{"city_name": "Accra", "country": "GH"}}}},

	// References.
	{name: "credit note without billing reference", rule: RuleBillingReferenceRequired, path: "/billing_reference",
		edits: []edit{{"/invoice_type_code", "380"}}},
	{name: "debit note without billing reference", rule: RuleBillingReferenceRequired, path: "/billing_reference",
		edits: []edit{{"/invoice_type_code", "384"}}},
	{name: "self-billed credit note without billing reference", rule: RuleBillingReferenceRequired, path: "/billing_reference",
		edits: []edit{{"/invoice_type_code", "393"}}},
	{name: "empty billing reference on a credit note", rule: RuleBillingReferenceRequired, path: "/billing_reference",
		edits: []edit{{"/invoice_type_code", "380"}, {"/billing_reference", []any{}}}},
	{name: "credit note with billing reference", rule: RuleBillingReferenceRequired,
		edits: []edit{{"/invoice_type_code", "380"}, {"/billing_reference", creditNoteRef}}},
	{name: "invoice without billing reference", rule: RuleBillingReferenceRequired},

	// Lines.
	{name: "line with neither code", rule: RuleLineClassificationRequired, path: "/invoice_line/0",
		edits: []edit{{"/invoice_line/0/hsn_code", del}, {"/invoice_line/0/product_category", del}}},
	{name: "1.0 service line", version: "1.0", rule: RuleLineClassificationRequired, path: "/invoice_line/1"},
	{name: "goods and service lines", rule: RuleLineClassificationRequired},
	{name: "hs code with dot too early", rule: RuleLineHSNFormat, path: "/invoice_line/0/hsn_code",
		edits: []edit{{"/invoice_line/0/hsn_code", "25.2329"}}},
	{name: "hs code odd digits", rule: RuleLineHSNFormat, path: "/invoice_line/0/hsn_code",
		edits: []edit{{"/invoice_line/0/hsn_code", "2523.2"}}},
	{name: "hs code national 10 digits", rule: RuleLineHSNFormat, edits: []edit{{"/invoice_line/0/hsn_code", "2523.29.00.10"}}},
	{name: "hs code undotted", rule: RuleLineHSNFormat, edits: []edit{{"/invoice_line/0/hsn_code", "252329"}}},
	{name: "goods line without category", rule: RuleLineProductCategoryRequired, path: "/invoice_line/0/product_category",
		edits: []edit{{"/invoice_line/0/product_category", del}}},
	{name: "goods line with category", rule: RuleLineProductCategoryRequired},
	{name: "isic 3 digits", rule: RuleLineISICFormat, path: "/invoice_line/1/isic_code",
		edits: []edit{{"/invoice_line/1/isic_code", "433"}}},
	{name: "isic with letter", rule: RuleLineISICFormat, path: "/invoice_line/1/isic_code",
		edits: []edit{{"/invoice_line/1/isic_code", "F433"}}},
	{name: "isic 4 digits", rule: RuleLineISICFormat, edits: []edit{{"/invoice_line/1/isic_code", "6201"}}},
	{name: "service line without category", rule: RuleLineServiceCategoryRequired, path: "/invoice_line/1/service_category",
		edits: []edit{{"/invoice_line/1/service_category", del}}},
	{name: "service line with category", rule: RuleLineServiceCategoryRequired},
	{name: "unit in lower case", rule: RuleLinePriceUnitFormat, path: "/invoice_line/0/price/price_unit",
		edits: []edit{{"/invoice_line/0/price/price_unit", "kg"}}},
	{name: "unit spelled out", rule: RuleLinePriceUnitFormat, path: "/invoice_line/1/price/price_unit",
		edits: []edit{{"/invoice_line/1/price/price_unit", "HOUR"}}},
	{name: "unit KGM", rule: RuleLinePriceUnitFormat, edits: []edit{{"/invoice_line/0/price/price_unit", "KGM"}}},
	{name: "base quantity zero", rule: RuleLineBaseQuantity, path: "/invoice_line/0/price/base_quantity",
		edits: []edit{{"/invoice_line/0/price/base_quantity", num("0")}}},
	{name: "base quantity negative", rule: RuleLineBaseQuantity, path: "/invoice_line/0/price/base_quantity",
		edits: []edit{{"/invoice_line/0/price/base_quantity", num("-1")}}},
	{name: "price per two bags", rule: RuleLineBaseQuantity,
		edits: []edit{{"/invoice_line/0/price/base_quantity", num("2")}, {"/invoice_line/0/price/price_amount", num("10000")}}},

	// Tax.
	{name: "standard VAT at 5 %", rule: RuleTaxCategoryPercent, path: "/tax_total/0/tax_subtotal/0/tax_category/percent",
		edits: []edit{{"/tax_total/0/tax_subtotal/0/tax_category/percent", num("5")}}},
	{name: "standard VAT at 7.50 %", rule: RuleTaxCategoryPercent,
		edits: []edit{{"/tax_total/0/tax_subtotal/0/tax_category/percent", num("7.50")}}},

	// Arithmetic.
	{name: "line amount off", rule: RuleArithLine, path: "/invoice_line/0/line_extension_amount",
		edits: []edit{{"/invoice_line/0/invoiced_quantity", num("9")}}},
	{name: "line with discount not applied", rule: RuleArithLine, path: "/invoice_line/1/line_extension_amount",
		edits: []edit{{"/invoice_line/1/discount_amount", num("1000")}}},
	{name: "line with discount and fee", rule: RuleArithLine,
		edits: []edit{{"/invoice_line/0/discount_amount", num("1000")}, {"/invoice_line/0/fee_amount", num("1000.00")}}},
	{name: "line price per dozen", rule: RuleArithLine,
		edits: []edit{{"/invoice_line/0/invoiced_quantity", num("5")}, {"/invoice_line/0/price/base_quantity", num("12")},
			{"/invoice_line/0/price/price_amount", num("120000")}}},
	{name: "line rounding to kobo", rule: RuleArithLine,
		edits: []edit{{"/invoice_line/1/invoiced_quantity", num("3")}, {"/invoice_line/1/price/price_amount", num("6666.666666")}}},
	{name: "document line total off", rule: RuleArithLineTotal, path: lmt + "/line_extension_amount",
		edits: []edit{{lmt + "/line_extension_amount", num("70001")}}},
	{name: "document line total within half a kobo", rule: RuleArithLineTotal,
		edits: []edit{{lmt + "/line_extension_amount", num("70000.004")}}},
	{name: "allowance not subtracted", fixture: b2g, rule: RuleArithTaxExclusive, path: lmt + "/tax_exclusive_amount",
		edits: []edit{{"/allowance_charge/0/amount", num("9000")}}},
	{name: "charge not added", rule: RuleArithTaxExclusive, path: lmt + "/tax_exclusive_amount",
		edits: []edit{{"/allowance_charge", []any{map[string]any{"charge_indicator": true, "amount": num("500")}}}}},
	{name: "allowance and charge", fixture: b2g, rule: RuleArithTaxExclusive,
		edits: []edit{{"/allowance_charge", []any{
			map[string]any{"charge_indicator": false, "amount": num("15000")},
			map[string]any{"charge_indicator": true, "amount": num("5000")},
		}}}},
	{name: "subtotal tax off", rule: RuleArithTaxSubtotal, path: "/tax_total/0/tax_subtotal/0/tax_amount",
		edits: []edit{{"/tax_total/0/tax_subtotal/0/taxable_amount", num("70001")}}},
	{name: "subtotal tax rounds to kobo", rule: RuleArithTaxSubtotal,
		edits: []edit{{"/tax_total/0/tax_subtotal/0/taxable_amount", num("70000.06")}}},
	{name: "tax total differs from subtotals", rule: RuleArithTaxTotal, path: "/tax_total/0/tax_amount",
		edits: []edit{{"/tax_total/0/tax_amount", num("5251")}, {lmt + "/tax_inclusive_amount", num("75251")}, {lmt + "/payable_amount", num("75251")}}},
	{name: "tax total of two subtotals", rule: RuleArithTaxTotal,
		edits: []edit{{"/tax_total/0/tax_subtotal", []any{
			map[string]any{"taxable_amount": num("50000"), "tax_amount": num("3750"), "tax_category": map[string]any{"id": "STANDARD_VAT", "percent": num("7.5")}},
			map[string]any{"taxable_amount": num("20000"), "tax_amount": num("1500"), "tax_category": map[string]any{"id": "STANDARD_VAT", "percent": num("7.5")}},
		}}}},
	{name: "tax inclusive off", rule: RuleArithTaxInclusive, path: lmt + "/tax_inclusive_amount",
		edits: []edit{{lmt + "/tax_inclusive_amount", num("75300")}}},
	{name: "tax inclusive without tax", rule: RuleArithTaxInclusive,
		edits: []edit{{"/tax_total", del}, {lmt + "/tax_inclusive_amount", num("70000")}, {lmt + "/payable_amount", num("70000")}}},
	{name: "payable above tax inclusive", rule: RuleArithPayable, path: lmt + "/payable_amount",
		edits: []edit{{lmt + "/payable_amount", num("75250.01")}}},
	{name: "partly paid: payable below tax inclusive", rule: RuleArithPayable,
		edits: []edit{{lmt + "/payable_amount", num("50000")}, {"/payment_status", "PARTIAL"}}},
}

func TestRules(t *testing.T) {
	a := newAuthority(t)
	for _, tc := range ruleCases {
		t.Run(tc.rule+"/"+tc.name, func(t *testing.T) {
			fixture := tc.fixture
			if fixture == "" {
				fixture = b2b
			}
			version := tc.version
			if version == "" {
				version = SchemaVersion11
			}
			doc := loadFixture(t, fixture)
			applyEdits(t, doc, tc.edits)
			r := validate(t, a, model.ValidateInput{SchemaVersion: version, InvoiceTypeCode: tc.request, Payload: doc})
			if tc.path == "" {
				if hasRule(r, tc.rule) {
					t.Fatalf("%s fired on a passing case:%s", tc.rule, dump(r))
				}
				return
			}
			is, ok := findIssue(t, r, tc.rule, tc.path)
			if !ok {
				t.Fatalf("no %s at %s:%s", tc.rule, tc.path, dump(r))
			}
			if want := a.versions[version].severity[tc.rule]; is.Severity != want {
				t.Errorf("severity = %s, want %s", is.Severity, want)
			}
			if is.Message == "" {
				t.Error("empty message")
			}
			if is.Severity == model.SeverityError && r.Valid {
				t.Error("valid with an error")
			}
		})
	}
}

// TestEveryRuleHasCases keeps the table honest: each rule needs a failing and
// a passing case.
func TestEveryRuleHasCases(t *testing.T) {
	failing, passing := map[string]bool{}, map[string]bool{}
	for _, tc := range ruleCases {
		if tc.path != "" {
			failing[tc.rule] = true
		} else {
			passing[tc.rule] = true
		}
	}
	for _, r := range Rules() {
		if !failing[r.ID] {
			t.Errorf("rule %s has no failing case", r.ID)
		}
		if !passing[r.ID] {
			t.Errorf("rule %s has no passing case", r.ID)
		}
	}
}
