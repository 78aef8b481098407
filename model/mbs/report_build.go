package mbs

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/einvoice-ng/einvoice/model"
)

// lagos is Nigeria's time (UTC+1, no daylight saving): the day of a
// transaction.
var lagos = time.FixedZone("WAT", 3600)

// reportInvoice is what the report reads of an invoice's NRS payload.
type reportInvoice struct {
	DocumentCurrencyCode string `json:"document_currency_code"`
	Supplier             struct {
		TIN string `json:"tin"`
	} `json:"accounting_supplier_party"`
	Customer struct {
		TIN string `json:"tin"`
	} `json:"accounting_customer_party"`
	TaxTotal           json.RawMessage `json:"tax_total"`
	LegalMonetaryTotal struct {
		LineExtensionAmount json.Number `json:"line_extension_amount"`
		PayableAmount       json.Number `json:"payable_amount"`
	} `json:"legal_monetary_total"`
	InvoiceLine []struct {
		Item struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		} `json:"item"`
	} `json:"invoice_line"`
}

type reportTaxTotal struct {
	TaxAmount   json.Number `json:"tax_amount"`
	TaxSubtotal []struct {
		TaxAmount   json.Number `json:"tax_amount"`
		TaxCategory struct {
			ID      string      `json:"id"`
			Percent json.Number `json:"percent"`
		} `json:"tax_category"`
	} `json:"tax_subtotal"`
}

// paymentReport builds the report of a paid invoice (integrator-evidence
// E2): the supplier's TIN as agent, the customer's as beneficiary, the
// lines' total as base amount, VAT (the STANDARD_VAT, REDUCED_VAT and
// ZERO_VAT subtotals) apart from other taxes, the payable amount, the
// lines' item names, the project's service id, and the day of payment.
func paymentReport(inv *model.SubmittedInvoice, serviceID string, paidAt time.Time) (Report, error) {
	var doc reportInvoice
	d := json.NewDecoder(strings.NewReader(inv.Payload))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return Report{}, err
	}
	// tax_total is an object in 1.1 and an array in some 1.0 payloads.
	var totals []reportTaxTotal
	if t := strings.TrimSpace(string(doc.TaxTotal)); strings.HasPrefix(t, "[") {
		_ = json.Unmarshal(doc.TaxTotal, &totals)
	} else if t != "" && t != "null" {
		var one reportTaxTotal
		_ = json.Unmarshal(doc.TaxTotal, &one)
		totals = append(totals, one)
	}
	tax, vat := new(big.Rat), new(big.Rat)
	status, rate := "", ""
	for _, tt := range totals {
		tax.Add(tax, amount(tt.TaxAmount))
		for _, st := range tt.TaxSubtotal {
			switch id := strings.ToUpper(st.TaxCategory.ID); id {
			case VATStandard, VATReduced, VATZero:
				vat.Add(vat, amount(st.TaxAmount))
				if status == "" {
					f, _ := amount(st.TaxCategory.Percent).Float64()
					status, rate = id, strconv.FormatFloat(f, 'f', -1, 64)
				}
			}
		}
	}
	if status == "" {
		status, rate = VATZero, "0"
	}
	other := new(big.Rat).Sub(tax, vat)
	if other.Sign() < 0 {
		other.SetInt64(0)
	}
	names := make([]string, 0, len(doc.InvoiceLine))
	for _, l := range doc.InvoiceLine {
		if n := strings.TrimSpace(l.Item.Name); n != "" {
			names = append(names, n)
		} else if n := strings.TrimSpace(l.Item.Description); n != "" {
			names = append(names, n)
		}
	}
	desc := strings.Join(names, "; ")
	if r := []rune(desc); len(r) > 500 {
		desc = string(r[:500])
	}
	return Report{
		AgentTIN: doc.Supplier.TIN, BeneficiaryTIN: doc.Customer.TIN, Currency: doc.DocumentCurrencyCode,
		BaseAmount: amount(doc.LegalMonetaryTotal.LineExtensionAmount).FloatString(2), VATCalculated: vat.FloatString(2),
		OtherTaxes: other.FloatString(2), TotalAmount: amount(doc.LegalMonetaryTotal.PayableAmount).FloatString(2),
		VATRate: rate, VATStatus: status, ItemDescription: desc, IRN: inv.IRN, IntegratorServiceID: serviceID,
		TransactionDate: paidAt.In(lagos).Format(time.DateOnly),
	}, nil
}

// amount reads a JSON number exactly (zero when it is none).
func amount(n json.Number) *big.Rat {
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return new(big.Rat)
	}
	return r
}
