package nrs

import (
	"github.com/shopspring/decimal"
)

// Arithmetic follows UBL semantics (NRS publishes none, and its own samples
// do not add up, so every arithmetic rule is a consistency check). One
// rounding rule, in kobo: each line's amount is computed exactly (division
// by base_quantity kept to 20 decimals) and rounded to 2 decimals, half
// away from zero; totals are sums of the lines' rounded amounts; a tax
// amount is taxable × percent / 100 rounded the same way. A stated amount,
// also rounded to kobo, agrees with the computed one when they differ by at
// most Tolerance (one kobo), which absorbs an integrator who rounds tax per
// line or totals before rounding.
const (
	kobo         = 2
	divPrecision = 20
)

// Tolerance is the largest difference between a stated and a computed
// amount that still agrees: 0.01, one kobo.
var Tolerance = decimal.New(1, -kobo)

var hundred = decimal.NewFromInt(100)

// agrees reports whether a stated amount (rounded to kobo) matches a
// computed one within Tolerance.
func agrees(stated, computed decimal.Decimal) bool {
	return stated.Sub(computed).Abs().LessThanOrEqual(Tolerance)
}

// LineAmounts are the computed amounts of one invoice line.
type LineAmounts struct {
	// Gross is invoiced_quantity × price_amount / base_quantity.
	Gross decimal.Decimal `json:"gross"`
	// Discount and Fee are the line's dicount_amount and fee_amount (0 when absent).
	Discount decimal.Decimal `json:"discount"`
	Fee      decimal.Decimal `json:"fee"`
	// Net is Gross − Discount + Fee, rounded to kobo: the computed
	// line_extension_amount.
	Net decimal.Decimal `json:"net"`
	// Complete is false when the quantity or price is missing or unusable;
	// the amounts are then zero.
	Complete bool `json:"complete"`
}

// TaxBreakdown is the tax of one category and rate.
type TaxBreakdown struct {
	CategoryID    string          `json:"category_id"`
	Percent       decimal.Decimal `json:"percent"`
	TaxableAmount decimal.Decimal `json:"taxable_amount"`
	// TaxAmount is TaxableAmount × Percent / 100.
	TaxAmount decimal.Decimal `json:"tax_amount"`
}

// Totals are an invoice's amounts computed from its lines, allowances,
// charges and tax subtotals, every amount rounded to kobo. A renderer shows
// them next to (or instead of) the amounts the payload states.
type Totals struct {
	Lines []LineAmounts `json:"lines"`
	// LineExtensionAmount is Σ Lines[].Net.
	LineExtensionAmount decimal.Decimal `json:"line_extension_amount"`
	AllowanceTotal      decimal.Decimal `json:"allowance_total"`
	ChargeTotal         decimal.Decimal `json:"charge_total"`
	// TaxExclusiveAmount is LineExtensionAmount − AllowanceTotal + ChargeTotal.
	TaxExclusiveAmount decimal.Decimal `json:"tax_exclusive_amount"`
	// Taxes groups the tax subtotals by category and rate, in first-seen order.
	Taxes []TaxBreakdown `json:"taxes"`
	// TaxAmount is Σ Taxes[].TaxAmount, plus the stated amount of any tax
	// total without subtotals.
	TaxAmount decimal.Decimal `json:"tax_amount"`
	// TaxInclusiveAmount is TaxExclusiveAmount + TaxAmount.
	TaxInclusiveAmount decimal.Decimal `json:"tax_inclusive_amount"`
	// PayableAmount is TaxInclusiveAmount (the schema has no prepaid amount).
	PayableAmount decimal.Decimal `json:"payable_amount"`
}

// lineGross computes invoiced_quantity × price_amount / base_quantity,
// unrounded. ok is false when an input is missing or unusable or the base
// quantity is not positive.
func lineGross(l Line) (decimal.Decimal, bool) {
	q, p, b := l.InvoicedQuantity, l.Price.PriceAmount, l.Price.BaseQuantity
	if !q.Valid || !p.Valid {
		return decimal.Decimal{}, false
	}
	g := q.Decimal.Mul(p.Decimal)
	if b.Valid && !b.Decimal.Equal(decimal.NewFromInt(1)) {
		if b.Decimal.Sign() <= 0 {
			return decimal.Decimal{}, false
		}
		g = g.DivRound(b.Decimal, divPrecision)
	}
	return g, true
}

func orZero(a Amount) decimal.Decimal {
	if a.Valid {
		return a.Decimal
	}
	return decimal.Zero
}

// subtotalTax computes taxable × percent / 100 rounded to kobo.
func subtotalTax(taxable, percent decimal.Decimal) decimal.Decimal {
	return taxable.Mul(percent).DivRound(hundred, divPrecision).Round(kobo)
}

// ComputeTotals computes the line amounts and document totals of an invoice
// from its own inputs, ignoring the totals it states. Missing or unusable
// numbers count as zero (and mark the line incomplete).
func ComputeTotals(inv *Invoice) Totals {
	t := Totals{Lines: make([]LineAmounts, len(inv.Lines)), Taxes: []TaxBreakdown{}}
	for i, l := range inv.Lines {
		g, ok := lineGross(l)
		if !ok {
			continue
		}
		la := LineAmounts{
			Gross:    g.Round(kobo),
			Discount: orZero(l.DiscountAmount).Round(kobo),
			Fee:      orZero(l.FeeAmount).Round(kobo),
			Complete: true,
		}
		la.Net = g.Sub(orZero(l.DiscountAmount)).Add(orZero(l.FeeAmount)).Round(kobo)
		t.Lines[i] = la
		t.LineExtensionAmount = t.LineExtensionAmount.Add(la.Net)
	}
	for _, ac := range inv.AllowanceCharges {
		if ac.ChargeIndicator {
			t.ChargeTotal = t.ChargeTotal.Add(orZero(ac.Amount))
		} else {
			t.AllowanceTotal = t.AllowanceTotal.Add(orZero(ac.Amount))
		}
	}
	t.AllowanceTotal = t.AllowanceTotal.Round(kobo)
	t.ChargeTotal = t.ChargeTotal.Round(kobo)
	t.TaxExclusiveAmount = t.LineExtensionAmount.Sub(t.AllowanceTotal).Add(t.ChargeTotal)

	for _, tt := range inv.TaxTotals {
		if len(tt.TaxSubtotals) == 0 {
			t.TaxAmount = t.TaxAmount.Add(orZero(tt.TaxAmount).Round(kobo))
			continue
		}
		for _, st := range tt.TaxSubtotals {
			percent := orZero(st.Category.Percent)
			k := -1
			for j, b := range t.Taxes {
				if b.CategoryID == st.Category.ID && b.Percent.Equal(percent) {
					k = j
					break
				}
			}
			if k < 0 {
				t.Taxes = append(t.Taxes, TaxBreakdown{CategoryID: st.Category.ID, Percent: percent})
				k = len(t.Taxes) - 1
			}
			t.Taxes[k].TaxableAmount = t.Taxes[k].TaxableAmount.Add(orZero(st.TaxableAmount))
		}
	}
	for i := range t.Taxes {
		b := &t.Taxes[i]
		b.TaxableAmount = b.TaxableAmount.Round(kobo)
		b.TaxAmount = subtotalTax(b.TaxableAmount, b.Percent)
		t.TaxAmount = t.TaxAmount.Add(b.TaxAmount)
	}
	t.TaxInclusiveAmount = t.TaxExclusiveAmount.Add(t.TaxAmount)
	t.PayableAmount = t.TaxInclusiveAmount
	return t
}

// arithmetic checks the stated amounts against each other. Each check uses
// the amounts the payload states as its inputs, so one wrong number gives one
// finding rather than a cascade; a check whose inputs are missing or
// unusable is skipped (the schema reports those).
func (c *checker) arithmetic() {
	inv := c.inv
	rawLines, _ := c.raw["invoice_line"].([]any)

	// usable reports whether an optional amount can be used: absent (counts
	// as zero) or a valid number.
	usable := func(o map[string]any, key string, a Amount) bool {
		return a.Valid || !has(o, key)
	}

	linesOK := len(inv.Lines) > 0
	sumLines := decimal.Zero
	for i, l := range inv.Lines {
		var lo map[string]any
		if i < len(rawLines) {
			lo = asObj(rawLines[i])
		}
		if lo == nil || !l.LineExtensionAmount.Valid {
			linesOK = false
			continue
		}
		sumLines = sumLines.Add(l.LineExtensionAmount.Decimal)
		g, ok := lineGross(l)
		if !ok || !usable(lo, discountKey(lo, 1), l.DiscountAmount) || !usable(lo, "fee_amount", l.FeeAmount) {
			continue
		}
		want := g.Sub(orZero(l.DiscountAmount)).Add(orZero(l.FeeAmount)).Round(kobo)
		if got := l.LineExtensionAmount.Decimal.Round(kobo); !agrees(got, want) {
			c.add(RuleArithLine, "line_extension_amount is "+got.StringFixed(kobo)+
				" but invoiced_quantity × price_amount / base_quantity − dicount_amount + fee_amount is "+want.StringFixed(kobo),
				"invoice_line", i, "line_extension_amount")
		}
	}

	lmt := inv.LegalMonetaryTotal
	if linesOK && lmt.LineExtensionAmount.Valid {
		want := sumLines.Round(kobo)
		if got := lmt.LineExtensionAmount.Decimal.Round(kobo); !agrees(got, want) {
			c.add(RuleArithLineTotal, "line_extension_amount is "+got.StringFixed(kobo)+
				" but the lines add up to "+want.StringFixed(kobo), "legal_monetary_total", "line_extension_amount")
		}
	}

	if lmt.LineExtensionAmount.Valid && lmt.TaxExclusiveAmount.Valid && arrayOrAbsent(c.raw, "allowance_charge") {
		want, ok := lmt.LineExtensionAmount.Decimal, true
		for _, ac := range inv.AllowanceCharges {
			if !ac.Amount.Valid {
				ok = false
				break
			}
			if ac.ChargeIndicator {
				want = want.Add(ac.Amount.Decimal)
			} else {
				want = want.Sub(ac.Amount.Decimal)
			}
		}
		if ok {
			want = want.Round(kobo)
			if got := lmt.TaxExclusiveAmount.Decimal.Round(kobo); !agrees(got, want) {
				c.add(RuleArithTaxExclusive, "tax_exclusive_amount is "+got.StringFixed(kobo)+
					" but line_extension_amount − allowances + charges is "+want.StringFixed(kobo),
					"legal_monetary_total", "tax_exclusive_amount")
			}
		}
	}

	taxOK := true
	sumTax := decimal.Zero
	for i, tt := range inv.TaxTotals {
		if !tt.TaxAmount.Valid {
			taxOK = false
		} else {
			sumTax = sumTax.Add(tt.TaxAmount.Decimal)
		}
		subsOK := len(tt.TaxSubtotals) > 0
		sumSubs := decimal.Zero
		for j, st := range tt.TaxSubtotals {
			if !st.TaxAmount.Valid {
				subsOK = false
				continue
			}
			sumSubs = sumSubs.Add(st.TaxAmount.Decimal)
			if !st.TaxableAmount.Valid || !st.Category.Percent.Valid {
				continue
			}
			want := subtotalTax(st.TaxableAmount.Decimal, st.Category.Percent.Decimal)
			if got := st.TaxAmount.Decimal.Round(kobo); !agrees(got, want) {
				c.add(RuleArithTaxSubtotal, "tax_amount is "+got.StringFixed(kobo)+
					" but taxable_amount × percent / 100 is "+want.StringFixed(kobo),
					"tax_total", i, "tax_subtotal", j, "tax_amount")
			}
		}
		if subsOK && tt.TaxAmount.Valid {
			want := sumSubs.Round(kobo)
			if got := tt.TaxAmount.Decimal.Round(kobo); !agrees(got, want) {
				c.add(RuleArithTaxTotal, "tax_amount is "+got.StringFixed(kobo)+
					" but its subtotals add up to "+want.StringFixed(kobo), "tax_total", i, "tax_amount")
			}
		}
	}
	if !arrayOrAbsent(c.raw, "tax_total") {
		taxOK = false // not an array: the schema reports it
	}

	if taxOK && lmt.TaxExclusiveAmount.Valid && lmt.TaxInclusiveAmount.Valid {
		want := lmt.TaxExclusiveAmount.Decimal.Add(sumTax).Round(kobo)
		if got := lmt.TaxInclusiveAmount.Decimal.Round(kobo); !agrees(got, want) {
			c.add(RuleArithTaxInclusive, "tax_inclusive_amount is "+got.StringFixed(kobo)+
				" but tax_exclusive_amount + tax is "+want.StringFixed(kobo), "legal_monetary_total", "tax_inclusive_amount")
		}
	}

	if lmt.PayableAmount.Valid && lmt.TaxInclusiveAmount.Valid {
		payable := lmt.PayableAmount.Decimal.Round(kobo)
		if incl := lmt.TaxInclusiveAmount.Decimal.Round(kobo); payable.Sub(incl).GreaterThan(Tolerance) {
			c.add(RuleArithPayable, "payable_amount "+payable.StringFixed(kobo)+
				" exceeds tax_inclusive_amount "+incl.StringFixed(kobo), "legal_monetary_total", "payable_amount")
		}
	}
}

// arrayOrAbsent reports whether o[key] is absent or an array: a value of
// another type is reported by the schema and must not be read as "none".
func arrayOrAbsent(o map[string]any, key string) bool {
	v, ok := o[key]
	if !ok {
		return true
	}
	_, isArr := v.([]any)
	return isArr
}
