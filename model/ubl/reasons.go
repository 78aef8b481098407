package ubl

import "strings"

// reasons say why an element has no place in NRS's invoice, by the
// element's name and, where the same name means different things, its
// parent's. The first entry whose suffix the element's path ends with
// wins; dropReason falls back to a general reason.
var reasons = []struct{ suffix, reason string }{
	{"/cbc:UBLVersionID", "the UBL version of the document; NRS's invoice has no version field"},
	{"/cbc:CustomizationID", "the specification the document follows (kept in the report as customization_id); NRS's invoice has no field for it"},
	{"/cbc:ProfileID", "the business process of the document (kept in the report as profile_id); NRS's invoice has no field for it"},
	{"/cbc:CopyIndicator", "NRS's invoice has no copy indicator"},
	{"/cbc:UUID", "a document UUID; NRS identifies the invoice by its IRN"},
	{"/cbc:LineCountNumeric", "NRS counts the lines of invoice_line itself"},
	{"/cbc:PricingCurrencyCode", "NRS's invoice has no pricing currency"},
	{"/cbc:PaymentCurrencyCode", "NRS's invoice has no payment currency"},
	{"cac:TaxTotal/cbc:TaxAmount", "the VAT total in the tax currency (EN 16931 BT-111); NRS's amounts are all in the document currency"},
	{"cac:InvoicePeriod/cbc:DescriptionCode", "NRS's invoice_delivery_period has only start_date and end_date"},
	{"cac:OrderReference/cbc:SalesOrderID", "NRS's order_reference is the buyer's order number only"},
	{"/cbc:DocumentTypeCode", "NRS's document references carry only irn and issue_date"},
	{"/cbc:DocumentType", "NRS's document references carry only irn and issue_date"},
	{"/cbc:DocumentDescription", "NRS's document references carry only irn and issue_date"},
	{"cac:Attachment/cbc:EmbeddedDocumentBinaryObject", "an attached file; NRS's document references carry only irn and issue_date, and NRS takes no attachments"},
	{"cac:ExternalReference/cbc:URI", "a link to an external document; NRS's document references carry only irn and issue_date"},
	{"cac:ProjectReference/cbc:ID", "NRS's invoice has no project reference"},
	{"/cbc:EndpointID", "the party's electronic address (Peppol); NRS's party has none. It is kept with the source document and written back into the invoice's UBL"},
	{"cac:PartyIdentification/cbc:ID", "a party identifier (GLN, company number, ...); NRS's party id is the UUID of a party stored at NRS, not this"},
	{"cac:PartyName/cbc:Name", "the trading name; NRS's party_name is filled from the legal name (RegistrationName) when there is one"},
	{"cac:PartyLegalEntity/cbc:CompanyID", "a legal registration number (company register); NRS's party has only its TIN"},
	{"cac:PartyLegalEntity/cbc:CompanyLegalForm", "NRS's party has no legal form"},
	{"cac:PartyTaxScheme/cbc:CompanyID", "a second tax identifier; NRS's party has one TIN"},
	{"cac:PartyTaxScheme/cac:TaxScheme/cbc:ID", "the scheme of a tax identifier not used for the TIN"},
	{"cac:Contact/cbc:Name", "a contact person; NRS's party has no contact name"},
	{"cac:Contact/cbc:Telefax", "NRS's party has no fax number"},
	{"/cbc:AdditionalStreetName", "NRS's postal address has one street_name"},
	{"cac:AddressLine/cbc:Line", "an address line that is not an LGA of NRS's list; NRS's postal address has no further lines"},
	{"/cbc:CountrySubentity", "a region that is not a state of NRS's states list"},
	{"/cbc:CountrySubentityCode", "a region that is not a state of NRS's states list"},
	{"/cbc:District", "a district that is not an LGA of NRS's LGA list"},
	{"/cbc:CitySubdivisionName", "a city subdivision that is not an LGA of NRS's LGA list"},
	{"cac:DeliveryLocation/cbc:ID", "a delivery location identifier; NRS's ship_party has none"},
	{"cac:DeliveryLocation/cac:Address/cbc:StreetName", "the delivery address, used only for a ship_party (DeliveryParty)"},
	{"cac:DeliveryLocation/cac:Address", "the delivery address, used only for a ship_party (DeliveryParty)"},
	{"cac:PaymentMeans/cbc:PaymentMeansCode", "NRS's payment_means code"},
	{"cac:PaymentMeans/cbc:PaymentID", "the remittance reference; NRS's payment_means carries only payment_means_code and payment_due_date"},
	{"cac:PaymentMeans/cbc:InstructionNote", "NRS's payment_means carries only payment_means_code and payment_due_date"},
	{"cac:PayeeFinancialAccount/cbc:ID", "the payee's bank account; NRS's payment_means carries only payment_means_code and payment_due_date"},
	{"cac:PayeeFinancialAccount/cbc:Name", "the payee's bank account; NRS's payment_means carries only payment_means_code and payment_due_date"},
	{"cac:FinancialInstitutionBranch/cbc:ID", "the payee's bank; NRS's payment_means carries only payment_means_code and payment_due_date"},
	{"cac:CardAccount/cbc:PrimaryAccountNumberID", "card details; NRS's payment_means carries only payment_means_code and payment_due_date"},
	{"cac:CardAccount/cbc:NetworkID", "card details; NRS's payment_means carries only payment_means_code and payment_due_date"},
	{"cac:CardAccount/cbc:HolderName", "card details; NRS's payment_means carries only payment_means_code and payment_due_date"},
	{"cac:PaymentMandate/cbc:ID", "a direct debit mandate; NRS's payment_means carries only payment_means_code and payment_due_date"},
	{"cac:PayerFinancialAccount/cbc:ID", "a direct debit account; NRS's payment_means carries only payment_means_code and payment_due_date"},
	{"cac:AllowanceCharge/cbc:AllowanceChargeReasonCode", "NRS's allowance_charge and a line's discount and fee carry amounts and rates only, no reason"},
	{"cac:AllowanceCharge/cbc:AllowanceChargeReason", "NRS's allowance_charge and a line's discount and fee carry amounts and rates only, no reason"},
	{"cac:AllowanceCharge/cbc:BaseAmount", "NRS's allowance_charge and a line's discount and fee carry no base amount"},
	{"cac:AllowanceCharge/cbc:MultiplierFactorNumeric", "NRS's document-level allowance_charge has no percentage (a line's has, as dicount_rate and fee_rate)"},
	{"cac:AllowanceCharge/cac:TaxCategory/cbc:ID", "NRS's allowance_charge has no tax category"},
	{"cac:AllowanceCharge/cac:TaxCategory/cbc:Percent", "NRS's allowance_charge has no tax category"},
	{"cac:AllowanceCharge/cac:TaxCategory/cac:TaxScheme/cbc:ID", "NRS's allowance_charge has no tax category"},
	{"cac:TaxCategory/cbc:TaxExemptionReasonCode", "NRS's tax category has only id and percent"},
	{"cac:TaxCategory/cbc:TaxExemptionReason", "NRS's tax category has only id and percent"},
	{"cac:LegalMonetaryTotal/cbc:AllowanceTotalAmount", "NRS's legal_monetary_total has four amounts; the allowances are in allowance_charge"},
	{"cac:LegalMonetaryTotal/cbc:ChargeTotalAmount", "NRS's legal_monetary_total has four amounts; the charges are in allowance_charge"},
	{"cac:LegalMonetaryTotal/cbc:PrepaidAmount", "NRS's legal_monetary_total has no prepaid amount (payable_amount is what is due)"},
	{"cac:LegalMonetaryTotal/cbc:PayableRoundingAmount", "NRS's legal_monetary_total has no rounding amount"},
	{"Line/cbc:ID", "NRS numbers invoice lines by their position in invoice_line"},
	{"Line/cbc:Note", "NRS's invoice line has no note"},
	{"Line/cbc:AccountingCost", "NRS's invoice line has no accounting cost"},
	{"Line/cac:InvoicePeriod/cbc:StartDate", "NRS's invoice line has no period"},
	{"Line/cac:InvoicePeriod/cbc:EndDate", "NRS's invoice line has no period"},
	{"cac:OrderLineReference/cbc:LineID", "NRS's invoice line has no order line reference"},
	{"Line/cac:DocumentReference/cbc:ID", "NRS's invoice line has no document reference"},
	{"cac:Item/cac:ClassifiedTaxCategory/cbc:ID", "NRS's invoice line has no tax category: the categories are in tax_total"},
	{"cac:Item/cac:ClassifiedTaxCategory/cbc:Percent", "NRS's invoice line has no tax rate: the rates are in tax_total"},
	{"cac:ClassifiedTaxCategory/cac:TaxScheme/cbc:ID", "NRS's invoice line has no tax category: the categories are in tax_total"},
	{"cac:Item/cac:StandardItemIdentification/cbc:ID", "a standard item identifier (GTIN, ...); NRS's item has only sellers_item_identification"},
	{"cac:Item/cac:BuyersItemIdentification/cbc:ID", "the buyer's item identifier; NRS's item has only sellers_item_identification"},
	{"cac:Item/cac:OriginCountry/cbc:IdentificationCode", "NRS's item has no country of origin"},
	{"cac:CommodityClassification/cbc:ItemClassificationCode", "an item classification that is neither HS (hsn_code) nor ISIC (isic_code), or a second one of them"},
	{"cac:AdditionalItemProperty/cbc:Name", "NRS's item has no further properties"},
	{"cac:AdditionalItemProperty/cbc:Value", "NRS's item has no further properties"},
	{"cac:Price/cac:AllowanceCharge/cbc:Amount", "a price discount (EN 16931 BT-147); NRS's price is the net price_amount"},
	{"cac:Price/cac:AllowanceCharge/cbc:BaseAmount", "the gross price (EN 16931 BT-148); NRS's price is the net price_amount"},
	{"cac:Price/cac:AllowanceCharge/cbc:ChargeIndicator", "a price discount (EN 16931 BT-147); NRS's price is the net price_amount"},
	{"cac:Delivery/cac:DeliveryParty/cac:PartyName/cbc:Name", "the deliver-to party's name"},
}

func dropReason(n *node) string {
	p := stripIndexes(n.path())
	p = strings.ReplaceAll(p, "cac:InvoiceLine", "Line")
	p = strings.ReplaceAll(p, "cac:CreditNoteLine", "Line")
	if strings.HasPrefix(n.Name, "other:") {
		return "an element outside the UBL namespaces; NRS's invoice has no field for it"
	}
	if strings.Contains(p, "ext:UBLExtensions") {
		return "a UBL extension; NRS's invoice has no field for it"
	}
	if strings.Contains(p, "cac:Signature") {
		return "a signature of the UBL document; NRS signs the invoice itself"
	}
	if strings.HasSuffix(p, "cac:AdditionalDocumentReference/cbc:ID") {
		return "the QR payload NRS issued when it cleared this invoice before; NRS's invoice has no field for it"
	}
	for _, r := range reasons {
		if strings.HasSuffix(p, r.suffix) {
			return r.reason
		}
	}
	return "NRS's invoice has no field for it"
}

func stripIndexes(p string) string {
	var b strings.Builder
	skip := false
	for _, c := range p {
		switch {
		case c == '[':
			skip = true
		case c == ']':
			skip = false
		case !skip:
			b.WriteRune(c)
		}
	}
	return b.String()
}
