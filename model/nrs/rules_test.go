package nrs

import (
	"strconv"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
)

// ruleCase mutates a fixture and checks one rule under both profiles: with
// path set, the rule must fire there (with the matching loc and the rule's
// severity of the profile); with path empty, the rule must not fire at all.
type ruleCase struct {
	name    string
	fixture string // default invoice-b2b-1.1.json
	version string // default 1.1
	request string // request-level invoice_type_code
	// env "sandbox" validates with refreshed lists that include hs-codes and
	// invoice-quantity-codes (testLists); "" with the snapshot.
	env   model.Environment
	edits []edit
	rule  string
	path  string
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
	// Schema: what NRS marks mandatory, and JSON types.
	{name: "missing payable amount", rule: RuleSchemaRequired, path: lmt + "/payable_amount",
		edits: []edit{{lmt + "/payable_amount", del}}},
	{name: "missing line price", rule: RuleSchemaRequired, path: "/invoice_line/1/price",
		edits: []edit{{"/invoice_line/1/price", del}}},
	{name: "1.1 without tax currency", rule: RuleSchemaRequired, path: "/tax_currency_code",
		edits: []edit{{"/tax_currency_code", del}}},
	{name: "1.1 without tax total", rule: RuleSchemaRequired, path: "/tax_total",
		edits: []edit{{"/tax_total", del}}},
	{name: "1.1 tax total without subtotals", rule: RuleSchemaRequired, path: "/tax_total/0/tax_subtotal",
		edits: []edit{{"/tax_total/0/tax_subtotal", del}}},
	{name: "1.1 without supplier", rule: RuleSchemaRequired, path: supplier,
		edits: []edit{{supplier, del}}},
	{name: "1.0 without supplier, tax total or tax currency", version: "1.0", fixture: b2c, rule: RuleSchemaRequired,
		edits: []edit{{supplier, del}, {"/tax_total", del}, {"/tax_currency_code", del}, {"/invoice_kind", del},
			{"/invoice_line/0/price/price_unit", "NGN per 1"}}},
	{name: "1.1 without invoice kind", rule: RuleSchemaRequired, request: "B2B", edits: []edit{{"/invoice_kind", del}}},
	{name: "complete invoice", rule: RuleSchemaRequired},
	{name: "quantity is a string", rule: RuleSchemaType, path: "/invoice_line/0/invoiced_quantity",
		edits: []edit{{"/invoice_line/0/invoiced_quantity", "ten"}}},
	{name: "charge indicator is a string", fixture: b2g, rule: RuleSchemaType, path: "/allowance_charge/0/charge_indicator",
		edits: []edit{{"/allowance_charge/0/charge_indicator", "false"}}},
	{name: "contract reference is a string", fixture: b2g, rule: RuleSchemaType, path: "/contract_document_reference",
		edits: []edit{{"/contract_document_reference", "CTR2025117-7XQ4LM2P-20251101"}}},
	{name: "contract reference as an array", fixture: b2g, rule: RuleSchemaType,
		edits: []edit{{"/contract_document_reference", []any{map[string]any{"irn": "CTR2025117-7XQ4LM2P-20251101", "issue_date": "2025-11-01"}}}}},
	{name: "billing reference as one object", rule: RuleSchemaType,
		edits: []edit{{"/billing_reference", map[string]any{"irn": "SGN2026000100-7XQ4LM2P-20260301", "issue_date": "2026-03-01"}}}},
	{name: "types right", rule: RuleSchemaType},
	{name: "no lines", rule: RuleSchemaMinItems, path: "/invoice_line",
		edits: []edit{{"/invoice_line", []any{}}}},
	{name: "1.1 empty subtotals", rule: RuleSchemaMinItems, path: "/tax_total/0/tax_subtotal",
		edits: []edit{{"/tax_total/0/tax_subtotal", []any{}}, {"/tax_total/0/tax_amount", num("0")},
			{lmt + "/tax_inclusive_amount", num("70000")}, {lmt + "/payable_amount", num("70000")}}},
	{name: "one line", fixture: b2c, rule: RuleSchemaMinItems},
	{name: "empty issue time", rule: RuleSchemaPattern, path: "/issue_time",
		edits: []edit{{"/issue_time", ""}}},
	{name: "issue time present", rule: RuleSchemaPattern},
	{name: "value that is not JSON", rule: RuleSchemaOther, path: "/note",
		edits: []edit{{"/note", []string{"not", "json"}}}},
	{name: "note is text", rule: RuleSchemaOther},
	{name: "typo in a line field", rule: RuleUnknownField, path: "/invoice_line/0/colour",
		edits: []edit{{"/invoice_line/0/colour", "grey"}}},
	{name: "1.1 field in a 1.0 payload", version: "1.0", fixture: b2c, rule: RuleUnknownField, path: supplier + "/postal_address/lga"},
	{name: "FIRS-COLL's mangled additional reference key", rule: RuleUnknownField, path: "/_document_reference",
		edits: []edit{{"/_document_reference", []any{map[string]any{"irn": "ITW001-E9E0C0D3-20240619", "issue_date": "2024-05-14"}}}}},
	{name: "extension inside an unknown object is not reported twice", rule: RuleUnknownField, path: "/x_extension",
		edits: []edit{{"/x_extension", map[string]any{"a": "b"}}}},
	{name: "both discount spellings, party ids, bill and ship parties are known", rule: RuleUnknownField,
		edits: []edit{{"/invoice_line/0/dicount_rate", num("0")}, {"/invoice_line/0/discount_rate", num("0")},
			{customer + "/id", "2e41e692-0d43-4462-8317-92621e778721"},
			{"/bill_party", map[string]any{"party_name": "Ekiti Homes", "tin": "20983315-0001", "email": "ap@ekitihomes.example", "postal_address_id": "5c1b1a9e-0d43-4462-8317-92621e778721"}},
			{"/ship_party", map[string]any{"party_name": "Ekiti Homes site", "tin": "20983315-0001", "email": "site@ekitihomes.example", "postal_address": map[string]any{"street_name": "Site 4", "city_name": "Ado-Ekiti", "postal_zone": "360101", "country": "NG"}}}}},
	{name: "exponent too large", rule: RuleNumberRange, path: lmt + "/tax_inclusive_amount",
		edits: []edit{{lmt + "/tax_inclusive_amount", num("1e19")}}},
	{name: "too many decimals", rule: RuleNumberRange, path: "/invoice_line/0/invoiced_quantity",
		edits: []edit{{"/invoice_line/0/invoiced_quantity", num("10.0000000000000000000000000000001")}}},
	{name: "large but in range", rule: RuleNumberRange,
		edits: []edit{{"/note", "x"}, {"/invoice_line/0/dicount_rate", num("0.000000000000000000000000000001")}}},

	// Identity.
	{name: "business id not a uuid", rule: RuleBusinessIDFormat, path: "/business_id",
		edits: []edit{{"/business_id", "3f6c2a9e8b414d7a9c551e2f7a0b6d34"}}},
	{name: "business id template placeholder", rule: RuleBusinessIDFormat, path: "/business_id",
		edits: []edit{{"/business_id", "{{BUSINESS_ID}}"}}},
	{name: "business id upper case", rule: RuleBusinessIDFormat,
		edits: []edit{{"/business_id", "3F6C2A9E-8B41-4D7A-9C55-1E2F7A0B6D34"}}},
	{name: "party id placeholder", rule: RulePartyIDFormat, path: customer + "/id",
		edits: []edit{{customer + "/id", "{{PARTY_ID}}"}}},
	{name: "postal address id placeholder", rule: RulePartyIDFormat, path: supplier + "/postal_address_id",
		edits: []edit{{supplier + "/postal_address_id", "{{TEST_ADDRESS_ID}}"}}},
	{name: "party id a uuid", rule: RulePartyIDFormat,
		edits: []edit{{customer + "/id", "2e41e692-0d43-4462-8317-92621e778721"}}},
	{name: "irn with hyphen in reference", rule: RuleIRNFormat, path: "/irn",
		edits: []edit{{"/irn", "SGN-2026000123-7XQ4LM2P-20260315"}}},
	{name: "irn with impossible date", rule: RuleIRNFormat, path: "/irn",
		edits: []edit{{"/irn", "SGN2026000123-7XQ4LM2P-20261315"}}},
	{name: "billing reference irn malformed", rule: RuleIRNFormat, path: "/billing_reference/0/irn",
		edits: []edit{{"/billing_reference", []any{map[string]any{"irn": "SGN100", "issue_date": "2026-03-01"}}}}},
	{name: "contract reference irn malformed", fixture: b2g, rule: RuleIRNFormat, path: "/contract_document_reference/irn",
		edits: []edit{{"/contract_document_reference/irn", "CTR2025117-7XQ4LM2-20251101"}}},
	{name: "contract reference array, irn malformed", fixture: b2g, rule: RuleIRNFormat, path: "/contract_document_reference/1/irn",
		edits: []edit{{"/contract_document_reference", []any{
			map[string]any{"irn": "CTR2025117-7XQ4LM2P-20251101"}, map[string]any{"irn": "CTR2025118"}}}}},
	{name: "irn in lower case", rule: RuleIRNFormat,
		edits: []edit{{"/irn", "sgn2026000123-7xq4lm2p-20260315"}}},
	{name: "irn date is not the issue date", rule: RuleIRNDateMismatch, path: "/irn",
		edits: []edit{{"/irn", "SGN2026000123-7XQ4LM2P-20260316"}}},
	{name: "irn date is the issue date", fixture: b2g, rule: RuleIRNDateMismatch},

	// Code lists: NRS's own.
	{name: "type code 999", rule: RuleCodeInvoiceType, path: "/invoice_type_code",
		edits: []edit{{"/invoice_type_code", "999"}}},
	{name: "type code 383, UNTDID's debit note", rule: RuleCodeInvoiceType, path: "/invoice_type_code",
		edits: []edit{{"/invoice_type_code", "383"}}},
	{name: "type code 396 of FIRS's samples", rule: RuleCodeInvoiceType,
		edits: []edit{{"/invoice_type_code", "396"}}},
	{name: "kind B2X", rule: RuleCodeInvoiceKind, path: "/invoice_kind",
		edits: []edit{{"/invoice_kind", "B2X"}}},
	{name: "kind lower case", rule: RuleCodeInvoiceKind, path: "/invoice_kind",
		edits: []edit{{"/invoice_kind", "b2b"}}},
	{name: "kind B2G", rule: RuleCodeInvoiceKind, edits: []edit{{"/invoice_kind", "B2G"}}},
	{name: "status UNPAID", rule: RuleCodePaymentStatus, path: "/payment_status",
		edits: []edit{{"/payment_status", "UNPAID"}}},
	{name: "status CANCELLED, two Ls", rule: RuleCodePaymentStatus, path: "/payment_status",
		edits: []edit{{"/payment_status", "CANCELLED"}}},
	{name: "empty payment status", rule: RuleCodePaymentStatus, edits: []edit{{"/payment_status", ""}}},
	{name: "status CANCELED", rule: RuleCodePaymentStatus, edits: []edit{{"/payment_status", "CANCELED"}}},
	{name: "status PARTIAL", rule: RuleCodePaymentStatus, edits: []edit{{"/payment_status", "PARTIAL"}}},
	{name: "status REJECTED", rule: RulePaymentStatusRejected, path: "/payment_status",
		edits: []edit{{"/payment_status", "REJECTED"}}},
	{name: "status PAID", rule: RulePaymentStatusRejected, edits: []edit{{"/payment_status", "PAID"}}},
	{name: "document currency NGX", rule: RuleCodeCurrency, path: "/document_currency_code",
		edits: []edit{{"/document_currency_code", "NGX"}}},
	{name: "tax currency ZMW, ISO but not in NRS's list", rule: RuleCodeCurrency, path: "/tax_currency_code",
		edits: []edit{{"/tax_currency_code", "ZMW"}}},
	{name: "currency HRK, retired but in NRS's list", rule: RuleCodeCurrency,
		edits: []edit{{"/document_currency_code", "HRK"}, {"/tax_currency_code", "NGN"}}},
	{name: "country XX", rule: RuleCodeCountry, path: customer + "/postal_address/country",
		edits: []edit{{customer + "/postal_address/country", "XX"}}},
	{name: "payee in Ghana", rule: RuleCodeCountry,
		edits: []edit{{"/payee_party", map[string]any{"party_name": "Sango GH", "postal_address": map[string]any{"country": "GH"}}}}},
	{name: "state NG-XX", rule: RuleCodeState, path: supplier + "/postal_address/state",
		edits: []edit{{supplier + "/postal_address/state", "NG-XX"}}},
	{name: "state FCT", rule: RuleCodeState,
		edits: []edit{{supplier + "/postal_address/state", "NG-FC"}, {supplier + "/postal_address/lga", "NG-FC-AML"}}},
	{name: "lga that is not a code", rule: RuleCodeLGA, path: supplier + "/postal_address/lga",
		edits: []edit{{supplier + "/postal_address/lga", "IBN"}}},
	{name: "lga of an old fixture, not NRS's", rule: RuleCodeLGA, path: customer + "/postal_address/lga",
		edits: []edit{{customer + "/postal_address/lga", "NG-EK-ADE"}}},
	{name: "lga of NRS-DOC-1.1's XML example", rule: RuleCodeLGA, path: supplier + "/postal_address/lga",
		edits: []edit{{supplier + "/postal_address/lga", "NG-LA-IKJ"}, {supplier + "/postal_address/state", "NG-LA"}}},
	{name: "lga Ikeja", rule: RuleCodeLGA,
		edits: []edit{{supplier + "/postal_address/lga", "NG-LA-IKE"}, {supplier + "/postal_address/state", "NG-LA"}}},
	{name: "tax category VAT", rule: RuleCodeTaxCategory, path: "/tax_total/0/tax_subtotal/0/tax_category/id",
		edits: []edit{{"/tax_total/0/tax_subtotal/0/tax_category/id", "VAT"}}},
	{name: "tax category EXEMPTED", rule: RuleCodeTaxCategory, path: "/tax_total/0/tax_subtotal/0/tax_category/id",
		edits: []edit{{"/tax_total/0/tax_subtotal/0/tax_category/id", "EXEMPTED"}}},
	{name: "tax category WITHHOLDING_TAX", rule: RuleCodeTaxCategory, path: "/tax_total/0/tax_subtotal/0/tax_category/id",
		edits: []edit{{"/tax_total/0/tax_subtotal/0/tax_category/id", "WITHHOLDING_TAX"}}},
	{name: "tax category STAMP_DUTY", rule: RuleCodeTaxCategory, path: "/tax_total/0/tax_subtotal/0/tax_category/id",
		edits: []edit{{"/tax_total/0/tax_subtotal/0/tax_category/id", "STAMP_DUTY"}}},
	{name: "tax category LOCAL_SALES_TAX", rule: RuleCodeTaxCategory,
		edits: []edit{{"/tax_total/0/tax_subtotal/0/tax_category/id", "LOCAL_SALES_TAX"}}},
	{name: "payment means 99", rule: RuleCodePaymentMeans, path: "/payment_means/0/payment_means_code",
		edits: []edit{{"/payment_means/0/payment_means_code", "99"}}},
	{name: "payment means 21, not NRS's", rule: RuleCodePaymentMeans, path: "/payment_means/0/payment_means_code",
		edits: []edit{{"/payment_means/0/payment_means_code", "21"}}},
	{name: "payment means 54, not NRS's", rule: RuleCodePaymentMeans, path: "/payment_means/0/payment_means_code",
		edits: []edit{{"/payment_means/0/payment_means_code", "54"}}},
	{name: "payment means 43, 50, 58 and ZZZ", rule: RuleCodePaymentMeans,
		edits: []edit{{"/payment_means", []any{
			map[string]any{"payment_means_code": "43"}, map[string]any{"payment_means_code": "50"},
			map[string]any{"payment_means_code": "58"}, map[string]any{"payment_means_code": "ZZZ"}}}}},
	{name: "isic 3 digits", rule: RuleCodeISIC, path: "/invoice_line/1/isic_code",
		edits: []edit{{"/invoice_line/1/isic_code", "433"}}},
	{name: "isic not in NRS's list", rule: RuleCodeISIC, path: "/invoice_line/1/isic_code",
		edits: []edit{{"/invoice_line/1/isic_code", "9999"}}},
	{name: "isic 6201", rule: RuleCodeISIC, edits: []edit{{"/invoice_line/1/isic_code", "6201"}}},
	{name: "hs code not in the refreshed list", env: model.EnvironmentSandbox, rule: RuleCodeHS, path: "/invoice_line/0/hsn_code",
		edits: []edit{{"/invoice_line/0/hsn_code", "2523.30"}}},
	{name: "1.0 hs placeholder, refreshed list", env: model.EnvironmentSandbox, version: "1.0", fixture: b2c, rule: RuleCodeHS,
		path: "/invoice_line/0/hsn_code", edits: []edit{{"/invoice_line/0/hsn_code", "CC-001"}}},
	{name: "hs code in the refreshed list", env: model.EnvironmentSandbox, rule: RuleCodeHS},
	{name: "hs code with dot too early", rule: RuleLineHSNFormat, path: "/invoice_line/0/hsn_code",
		edits: []edit{{"/invoice_line/0/hsn_code", "25.2329"}}},
	{name: "hs code odd digits", rule: RuleLineHSNFormat, path: "/invoice_line/0/hsn_code",
		edits: []edit{{"/invoice_line/0/hsn_code", "2523.2"}}},
	{name: "1.0 hs placeholder CC-001", version: "1.0", fixture: b2c, rule: RuleLineHSNFormat, path: "/invoice_line/0/hsn_code",
		edits: []edit{{"/invoice_line/0/hsn_code", "CC-001"}}},
	{name: "hs code national 10 digits", rule: RuleLineHSNFormat, edits: []edit{{"/invoice_line/0/hsn_code", "2523.29.00.10"}}},
	{name: "hs code undotted", rule: RuleLineHSNFormat, edits: []edit{{"/invoice_line/0/hsn_code", "252329"}}},
	{name: "unit code not in the refreshed list", env: model.EnvironmentSandbox, rule: RuleLinePriceUnitCode, path: "/invoice_line/0/price/price_unit",
		edits: []edit{{"/invoice_line/0/price/price_unit", "ZZX"}}},
	{name: "unit as NRS writes it", env: model.EnvironmentSandbox, rule: RuleLinePriceUnitCode,
		edits: []edit{{"/invoice_line/0/price/price_unit", "NGN per 1"}, {"/invoice_line/1/price/price_unit", "hour"}}},
	{name: "unit code without a refreshed list", rule: RuleLinePriceUnitCode,
		edits: []edit{{"/invoice_line/0/price/price_unit", "ZZX"}}},

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
	{name: "billing reference object date", rule: RuleDateInvalid, path: "/billing_reference/issue_date",
		edits: []edit{{"/billing_reference", map[string]any{"irn": "SGN100-7XQ4LM2P-20260301", "issue_date": "2026-03-32"}}}},
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
	{name: "1.1 payload without kind", rule: RuleKindUnknown, path: "/invoice_kind",
		edits: []edit{{"/invoice_kind", del}}},
	{name: "1.0 payload, kind from request", version: "1.0", fixture: b2c, request: "B2C", rule: RuleKindUnknown,
		edits: []edit{{"/invoice_kind", del}}},
	{name: "request kind disagrees", request: "B2C", rule: RuleRequestTypeMismatch, path: "/invoice_kind"},
	{name: "request code disagrees", request: "380", rule: RuleRequestTypeMismatch, path: "/invoice_type_code"},
	{name: "request kind agrees, any case", request: " b2b ", rule: RuleRequestTypeMismatch},
	{name: "request code agrees", request: "381", rule: RuleRequestTypeMismatch},

	// Parties: what NRS makes mandatory.
	{name: "B2B without customer", rule: RulePartyCustomerRequired, path: customer,
		edits: []edit{{customer, del}}},
	{name: "B2G without customer", fixture: b2g, rule: RulePartyCustomerRequired, path: customer,
		edits: []edit{{customer, del}}},
	{name: "1.0 without customer, B2B from the request", version: "1.0", fixture: b2c, request: "B2B",
		rule: RulePartyCustomerRequired, path: customer, edits: []edit{{"/invoice_kind", del}}},
	{name: "B2C without customer", fixture: b2c, rule: RulePartyCustomerRequired},
	{name: "supplier without name", rule: RulePartyNameRequired, path: supplier + "/party_name",
		edits: []edit{{supplier + "/party_name", del}}},
	{name: "customer named by a stored party id", rule: RulePartyNameRequired,
		edits: []edit{{customer + "/party_name", del}, {customer + "/postal_address", del},
			{customer + "/id", "2e41e692-0d43-4462-8317-92621e778721"}}},
	{name: "supplier without tin", rule: RulePartyTINRequired, path: supplier + "/tin",
		edits: []edit{{supplier + "/tin", del}}},
	{name: "supplier with empty tin", rule: RulePartyTINRequired, path: supplier + "/tin",
		edits: []edit{{supplier + "/tin", ""}}},
	{name: "customer without tin", rule: RulePartyTINRequired, path: customer + "/tin",
		edits: []edit{{customer + "/tin", del}}},
	{name: "B2C customer without tin", fixture: b2c, rule: RulePartyTINRequired, path: customer + "/tin",
		edits: []edit{{customer, map[string]any{"party_name": "Walk-in buyer", "email": "buyer@example.com",
			"postal_address": map[string]any{"street_name": "1 Market Road", "city_name": "Ibadan", "postal_zone": "200211", "country": "NG"}}}}},
	{name: "stored customer still has a tin", rule: RulePartyTINRequired,
		edits: []edit{{customer + "/id", "2e41e692-0d43-4462-8317-92621e778721"}}},
	{name: "supplier without email", rule: RulePartyEmailRequired, path: supplier + "/email",
		edits: []edit{{supplier + "/email", del}}},
	{name: "B2G customer without email", fixture: b2g, rule: RulePartyEmailRequired, path: customer + "/email",
		edits: []edit{{customer + "/email", del}}},
	{name: "emails present", rule: RulePartyEmailRequired},
	{name: "supplier without address", rule: RulePartyAddressRequired, path: supplier + "/postal_address",
		edits: []edit{{supplier + "/postal_address", del}}},
	{name: "supplier with a stored address", rule: RulePartyAddressRequired,
		edits: []edit{{supplier + "/postal_address", del}, {supplier + "/postal_address_id", "5c1b1a9e-0d43-4462-8317-92621e778721"}}},
	{name: "1.1 supplier address without lga", rule: RulePartyAddressFieldRequired, path: supplier + "/postal_address/lga",
		edits: []edit{{supplier + "/postal_address/lga", del}}},
	{name: "1.1 supplier address without state", rule: RulePartyAddressFieldRequired, path: supplier + "/postal_address/state",
		edits: []edit{{supplier + "/postal_address/state", del}}},
	{name: "customer address without postal zone", rule: RulePartyAddressFieldRequired, path: customer + "/postal_address/postal_zone",
		edits: []edit{{customer + "/postal_address/postal_zone", del}}},
	{name: "1.1 customer address without lga and state", rule: RulePartyAddressFieldRequired,
		edits: []edit{{customer + "/postal_address/lga", del}, {customer + "/postal_address/state", del}}},
	{name: "1.0 supplier address without lga and state", version: "1.0", fixture: b2c, rule: RulePartyAddressFieldRequired,
		edits: []edit{{supplier + "/postal_address/lga", del}, {supplier + "/postal_address/state", del}}},
	{name: "payee without tin", rule: RulePartyOtherFieldMissing, path: "/payee_party/tin",
		edits: []edit{{"/payee_party", map[string]any{"party_name": "Sango Holdings", "email": "pay@sango.example", "postal_address": map[string]any{"country": "NG"}}}}},
	{name: "tax representative without address", rule: RulePartyOtherFieldMissing, path: "/tax_representative_party/postal_address",
		edits: []edit{{"/tax_representative_party", map[string]any{"party_name": "Tax Agent", "tin": "89487982-0001", "email": "tax@agent.example"}}}},
	{name: "complete payee", rule: RulePartyOtherFieldMissing,
		edits: []edit{{"/payee_party", map[string]any{"party_name": "ABC Holdings Ltd", "tin": "89487982-0001", "email": "paytest@email.com",
			"postal_address": map[string]any{"street_name": "45 Marina Road", "city_name": "Ikeja", "postal_zone": "101233", "country": "NG"}}}}},

	// Parties: formats.
	{name: "tin placeholder of NRS's samples", rule: RulePartyTINFormat, path: supplier + "/tin",
		edits: []edit{{supplier + "/tin", "TIN-000001"}}},
	{name: "tin without branch", rule: RulePartyTINFormat, path: supplier + "/tin",
		edits: []edit{{supplier + "/tin", "31447720"}}},
	{name: "tin with letters", rule: RulePartyTINFormat, path: customer + "/tin",
		edits: []edit{{customer + "/tin", "2098331X-0001"}}},
	{name: "tin forms NRS shows", rule: RulePartyTINFormat,
		edits: []edit{{supplier + "/tin", "RN-847789"}, {customer + "/tin", "00000001-0002"}}},
	{name: "13-digit Tax ID", rule: RulePartyTaxID, path: supplier + "/tin",
		edits: []edit{{supplier + "/tin", "1234567890123"}}},
	{name: "FIRS TIN", rule: RulePartyTaxID},
	{name: "email without dot in domain", rule: RulePartyEmailFormat, path: supplier + "/email",
		edits: []edit{{supplier + "/email", "billing@sango"}}},
	{name: "email with space", rule: RulePartyEmailFormat, path: customer + "/email",
		edits: []edit{{customer + "/email", "ap @ekitihomes.example"}}},
	{name: "email plus-tagged", rule: RulePartyEmailFormat, edits: []edit{{supplier + "/email", "a.b+inv@sub.sango.com.ng"}}},
	{name: "telephone national form", rule: RulePartyTelephoneFormat, path: supplier + "/telephone",
		edits: []edit{{supplier + "/telephone", "08031234567"}}},
	{name: "telephone international", rule: RulePartyTelephoneFormat, edits: []edit{{supplier + "/telephone", "+14155550100"}}},
	{name: "telephone with spaces", rule: RulePartyTelephoneDigits, path: customer + "/telephone",
		edits: []edit{{customer + "/telephone", "+234 805 987 6543"}}},
	{name: "telephone of NRS's samples", rule: RulePartyTelephoneDigits, edits: []edit{{supplier + "/telephone", "+23480254099000"}}},
	{name: "lga in another state", rule: RulePartyLGAStateMismatch, path: supplier + "/postal_address/lga",
		edits: []edit{{supplier + "/postal_address/lga", "NG-LA-EOS"}}},
	{name: "lga in its state", rule: RulePartyLGAStateMismatch},
	{name: "Nigerian state abroad", rule: RulePartyStateCountry, path: customer + "/postal_address/country",
		edits: []edit{{customer + "/postal_address/country", "GH"}}},
	{name: "foreign address without state", rule: RulePartyStateCountry,
		edits: []edit{{customer + "/postal_address", map[string]any{"street_name": "1 Oxford Street", "city_name": "Accra", "postal_zone": "00233", "country": "GH"}}}},

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
	{name: "credit note with billing reference object", rule: RuleBillingReferenceRequired,
		edits: []edit{{"/invoice_type_code", "380"}, {"/billing_reference", creditNoteRef[0]}}},
	{name: "invoice without billing reference", rule: RuleBillingReferenceRequired},

	// Lines.
	{name: "line with neither code", rule: RuleLineClassificationRequired, path: "/invoice_line/0",
		edits: []edit{{"/invoice_line/0/hsn_code", del}, {"/invoice_line/0/product_category", del}}},
	{name: "1.0 service line", version: "1.0", rule: RuleLineClassificationRequired, path: "/invoice_line/1"},
	{name: "goods and service lines", rule: RuleLineClassificationRequired},
	{name: "line with both codes", rule: RuleLineClassificationBoth, path: "/invoice_line/0",
		edits: []edit{{"/invoice_line/0/isic_code", "4330"}, {"/invoice_line/0/service_category", "Finishing"}}},
	{name: "lines with one code each", rule: RuleLineClassificationBoth},
	{name: "goods line without category", rule: RuleLineProductCategoryRequired, path: "/invoice_line/0/product_category",
		edits: []edit{{"/invoice_line/0/product_category", del}}},
	{name: "goods line with category", rule: RuleLineProductCategoryRequired},
	{name: "service line without category", rule: RuleLineServiceCategoryRequired, path: "/invoice_line/1/service_category",
		edits: []edit{{"/invoice_line/1/service_category", del}}},
	{name: "service line with category", rule: RuleLineServiceCategoryRequired},
	{name: "1.1 line without discount and fee fields", rule: RuleLineDiscountFeeMissing, path: "/invoice_line/0",
		edits: dropDiscountFee(0)},
	{name: "1.1 line with NRS's discount and fee fields", rule: RuleLineDiscountFeeMissing,
		edits: append(zeroDiscountFee(0), zeroDiscountFee(1)...)},
	{name: "1.1 line with discount_* spelling", rule: RuleLineDiscountFeeMissing,
		edits: []edit{{"/invoice_line/0/discount_rate", num("0")}, {"/invoice_line/0/discount_amount", num("0")},
			{"/invoice_line/0/fee_rate", num("0")}, {"/invoice_line/0/fee_amount", num("0")},
			{"/invoice_line/1/discount_rate", num("0")}, {"/invoice_line/1/discount_amount", num("0")},
			{"/invoice_line/1/fee_rate", num("0")}, {"/invoice_line/1/fee_amount", num("0")}}},
	{name: "1.0 line without discount and fee fields", version: "1.0", fixture: b2c, rule: RuleLineDiscountFeeMissing},
	{name: "discount_amount spelling", rule: RuleLineDiscountSpelling, path: "/invoice_line/0/discount_amount",
		edits: append(dropDiscountFee(0), edit{"/invoice_line/0/discount_amount", num("0")})},
	{name: "dicount_amount spelling", rule: RuleLineDiscountSpelling,
		edits: []edit{{"/invoice_line/0/dicount_amount", num("0")}}},
	{name: "both spellings differ", rule: RuleLineDiscountConflict, path: "/invoice_line/0/discount_amount",
		edits: []edit{{"/invoice_line/0/dicount_amount", num("0")}, {"/invoice_line/0/discount_amount", num("100")}}},
	{name: "both spellings agree", rule: RuleLineDiscountConflict,
		edits: []edit{{"/invoice_line/0/dicount_amount", num("0")}, {"/invoice_line/0/discount_amount", num("0.00")}}},
	{name: "item without description", rule: RuleLineFieldMissing, path: "/invoice_line/0/item/description",
		edits: []edit{{"/invoice_line/0/item/description", del}}},
	{name: "price without unit", rule: RuleLineFieldMissing, path: "/invoice_line/1/price/price_unit",
		edits: []edit{{"/invoice_line/1/price/price_unit", del}}},
	{name: "price without base quantity", rule: RuleLineFieldMissing, path: "/invoice_line/0/price/base_quantity",
		edits: []edit{{"/invoice_line/0/price/base_quantity", del}}},
	{name: "line fields present", rule: RuleLineFieldMissing},
	{name: "base quantity zero", rule: RuleLineBaseQuantity, path: "/invoice_line/0/price/base_quantity",
		edits: []edit{{"/invoice_line/0/price/base_quantity", num("0")}}},
	{name: "base quantity negative", rule: RuleLineBaseQuantity, path: "/invoice_line/0/price/base_quantity",
		edits: []edit{{"/invoice_line/0/price/base_quantity", num("-1")}}},
	{name: "price per two bags", rule: RuleLineBaseQuantity,
		edits: []edit{{"/invoice_line/0/price/base_quantity", num("2")}, {"/invoice_line/0/price/price_amount", num("10000")}}},
	{name: "negative quantity", rule: RuleLineNegative, path: "/invoice_line/0/invoiced_quantity",
		edits: []edit{{"/invoice_line/0/invoiced_quantity", num("-10")}, {"/invoice_line/0/line_extension_amount", num("-50000")}}},
	{name: "negative discount, other spelling", rule: RuleLineNegative, path: "/invoice_line/1/discount_amount",
		edits: append(dropDiscountFee(1), edit{"/invoice_line/1/discount_amount", num("-5")})},
	{name: "zero discount and fee", rule: RuleLineNegative, edits: zeroDiscountFee(0)},

	// Tax.
	{name: "standard VAT at 5 %", rule: RuleTaxCategoryPercent, path: "/tax_total/0/tax_subtotal/0/tax_category/percent",
		edits: []edit{{"/tax_total/0/tax_subtotal/0/tax_category/percent", num("5")}}},
	{name: "standard VAT at 7.50 %", rule: RuleTaxCategoryPercent,
		edits: []edit{{"/tax_total/0/tax_subtotal/0/tax_category/percent", num("7.50")}}},
	{name: "local sales tax at NRS's sample rate", rule: RuleTaxCategoryPercent,
		edits: []edit{{"/tax_total/0/tax_subtotal/0/tax_category/id", "LOCAL_SALES_TAX"}, {"/tax_total/0/tax_subtotal/0/tax_category/percent", num("2.3")}}},

	// Arithmetic.
	{name: "line amount off", rule: RuleArithLine, path: "/invoice_line/0/line_extension_amount",
		edits: []edit{{"/invoice_line/0/invoiced_quantity", num("9")}}},
	{name: "line with discount not applied", rule: RuleArithLine, path: "/invoice_line/1/line_extension_amount",
		edits: []edit{{"/invoice_line/1/dicount_amount", num("1000")}}},
	{name: "line with discount_amount not applied", rule: RuleArithLine, path: "/invoice_line/1/line_extension_amount",
		edits: append(dropDiscountFee(1), edit{"/invoice_line/1/discount_amount", num("1000")})},
	{name: "line with discount and fee", rule: RuleArithLine,
		edits: []edit{{"/invoice_line/0/dicount_amount", num("1000")}, {"/invoice_line/0/fee_amount", num("1000.00")}}},
	{name: "line price per dozen", rule: RuleArithLine,
		edits: []edit{{"/invoice_line/0/invoiced_quantity", num("5")}, {"/invoice_line/0/price/base_quantity", num("12")},
			{"/invoice_line/0/price/price_amount", num("120000")}}},
	{name: "line rounding to kobo", rule: RuleArithLine,
		edits: []edit{{"/invoice_line/1/invoiced_quantity", num("3")}, {"/invoice_line/1/price/price_amount", num("6666.666666")}}},
	{name: "document line total two kobo off", rule: RuleArithLineTotal, path: lmt + "/line_extension_amount",
		edits: []edit{{lmt + "/line_extension_amount", num("70000.02")}}},
	{name: "document line total within one kobo", rule: RuleArithLineTotal,
		edits: []edit{{lmt + "/line_extension_amount", num("70000.01")}}},
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
	{name: "1.0 tax inclusive without tax", version: "1.0", rule: RuleArithTaxInclusive,
		edits: []edit{{"/tax_total", del}, {lmt + "/tax_inclusive_amount", num("70000")}, {lmt + "/payable_amount", num("70000")}}},
	{name: "payable above tax inclusive", rule: RuleArithPayable, path: lmt + "/payable_amount",
		edits: []edit{{lmt + "/payable_amount", num("75250.02")}}},
	{name: "partly paid: payable below tax inclusive", rule: RuleArithPayable,
		edits: []edit{{lmt + "/payable_amount", num("50000")}, {"/payment_status", "PARTIAL"}}},
}

// zeroDiscountFee sets a line's four discount and fee fields to 0, as NRS
// writes them.
// dropDiscountFee removes NRS's discount and fee fields from a line, which
// the shared fixtures carry on every line.
func dropDiscountFee(line int) []edit {
	p := "/invoice_line/" + strconv.Itoa(line) + "/"
	return []edit{{p + "dicount_rate", del}, {p + "dicount_amount", del}, {p + "fee_rate", del}, {p + "fee_amount", del}}
}

func zeroDiscountFee(line int) []edit {
	p := "/invoice_line/" + strconv.Itoa(line) + "/"
	return []edit{{p + "dicount_rate", num("0")}, {p + "dicount_amount", num("0")}, {p + "fee_rate", num("0")}, {p + "fee_amount", num("0")}}
}

// testLists are refreshed lists with the two lists the snapshot lacks.
var testLists = []model.CodeList{
	{Name: "hs-codes", Data: []byte(`[{"hscode":"2523.29","description":"Portland cement, other than white"},{"hscode":"1006.30","description":"Rice, semi-milled or wholly milled"}]`)},
	{Name: "invoice-quantity-codes", Data: []byte(`[{"code":"H87","name":"piece"},{"code":"XBG","name":"bag"},{"code":"KGM","name":"kilogram"},{"code":"EA","name":"each"}]`)},
}

// ruleAuthority is an authority whose sandbox lists are testLists.
func ruleAuthority(t testing.TB) *Authority {
	t.Helper()
	a := newAuthority(t)
	if err := a.UseCodeLists(model.EnvironmentSandbox, testLists); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestRules(t *testing.T) {
	a := ruleAuthority(t)
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
			info := ruleInfos[ruleIndex[tc.rule]]
			for _, profile := range []model.ValidationProfile{model.ProfileNRS, model.ProfileStrict} {
				doc := loadFixture(t, fixture)
				applyEdits(t, doc, tc.edits)
				r := validate(t, a, model.ValidateInput{SchemaVersion: version, InvoiceTypeCode: tc.request, Payload: doc,
					Profile: profile, Environment: tc.env})
				if r.Profile != profile {
					t.Errorf("report profile %q, want %q", r.Profile, profile)
				}
				if tc.path == "" {
					if hasRule(r, tc.rule) {
						t.Fatalf("%s: %s fired on a passing case:%s", profile, tc.rule, dump(r))
					}
					continue
				}
				is, ok := findIssue(t, r, tc.rule, tc.path)
				if !ok {
					t.Fatalf("%s: no %s at %s:%s", profile, tc.rule, tc.path, dump(r))
				}
				want := info.NRS
				switch {
				case profile == model.ProfileStrict:
					want = info.Strict
				case version == SchemaVersion10 && info.NRS10 != "":
					want = info.NRS10
				}
				if is.Severity != want {
					t.Errorf("%s: severity = %s, want %s", profile, is.Severity, want)
				}
				if is.Message == "" {
					t.Error("empty message")
				}
				if is.Severity == model.SeverityError && r.Valid {
					t.Errorf("%s: valid with an error", profile)
				}
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

// TestRuleTable checks that every rule names its source and that only
// einvoice's consistency checks change severity between the profiles.
func TestRuleTable(t *testing.T) {
	for _, r := range Rules() {
		if r.Source == "" || r.Checks == "" || r.ExamplePath == "" {
			t.Errorf("%s: incomplete %+v", r.ID, r)
		}
		if r.Source == SourceConsistency && (r.NRS != model.SeverityWarning || r.Strict != model.SeverityError) {
			t.Errorf("%s: a consistency check must be a warning under nrs and an error under strict", r.ID)
		}
		if r.NRS == model.SeverityError && r.Strict != model.SeverityError {
			t.Errorf("%s: strict is laxer than nrs", r.ID)
		}
	}
}
