package render

import (
	"strconv"
	"strings"

	"github.com/einvoice-ng/einvoice/model"
)

// business draws the B2B and B2G layouts: supplier and QR code on top, the
// buyer (for B2G the ministry, department or agency, with the contract) and
// the invoice details, the lines, the tax breakdown beside the totals, then
// payment, notes and the validation outcome.
func (d *doc) business() {
	v := d.v
	gov := v.InvoiceType == model.InvoiceKindB2G
	d.newPage()
	top := d.f.GetY()
	qx := pageW - margin - qrSide
	leftW := qx - margin - 6

	y := d.draw(margin, top, leftW, d.layout(d.supplierSpans(true), leftW))
	y = d.titleBlock(margin, y+3, leftW, "L")
	qy := d.qr(qx, top)
	d.f.SetY(max(y, qy) + 4)

	// Buyer and details side by side.
	buyerTitle, buyerMissing := "BILL TO", "No buyer given"
	if gov {
		buyerTitle, buyerMissing = "MINISTRY, DEPARTMENT OR AGENCY (GOVERNMENT BUYER)", "No government buyer given"
	}
	const gap = 6.0
	bw := (contentW - gap) * 0.55
	dw := contentW - gap - bw
	buyer := d.layout(d.partySpans(buyerTitle, v.Customer, buyerMissing), bw-6)
	details := d.layout(d.detailSpans(gov), dw-6)
	d.boxes(margin, bw, buyer, margin+bw+gap, dw, details)

	if gov {
		d.f.SetY(d.f.GetY() + 4)
		contract := d.layout(d.contractSpans(), contentW-6)
		d.boxes(margin, contentW, contract, 0, 0, nil)
	}
	if v.Payee != nil || v.TaxRepresentative != nil {
		d.f.SetY(d.f.GetY() + 4)
		var left, right []span
		if v.Payee != nil {
			left = d.layout(d.partySpans("PAYEE", v.Payee, ""), bw-6)
		}
		if v.TaxRepresentative != nil {
			right = d.layout(d.partySpans("TAX REPRESENTATIVE", v.TaxRepresentative, ""), dw-6)
		}
		if left == nil {
			left, right = right, nil
		}
		d.boxes(margin, bw, left, margin+bw+gap, dw, right)
	}

	d.f.SetY(d.f.GetY() + 6)
	d.lineTable()
	d.f.SetY(d.f.GetY() + 5)
	d.taxesAndTotals()
	d.f.SetY(d.f.GetY() + 5)
	d.paymentBlock(margin, contentW)
	d.notes(margin, contentW)
	d.validation(margin, contentW)
}

// receipt draws the B2C layout: a centred receipt column with the supplier
// on top, the buyer only when given, the items, totals, payment and the QR
// code at the foot.
func (d *doc) receipt() {
	v := d.v
	const w = 124.0
	x := (pageW - w) / 2
	d.newPage()
	y := d.draw(x, d.f.GetY(), w, d.layout(d.supplierSpans(false), w))
	y = d.titleBlock(x, y+3, w, "C")

	d.font("", 8.5)
	info := d.layout([]span{
		{size: 8.5, color: ink, align: "C", text: join(" · ", join(" ", v.IssueDate, v.IssueTime), statusText(v.PaymentStatus), v.Currency)},
		{size: 8, color: muted, align: "C", text: join(" · ", labelled("Order", v.References.Order), labelled("Buyer reference", v.References.Buyer))},
	}, w)
	y = d.draw(x, y+1, w, info)
	if c := v.Customer; c != nil {
		y = d.draw(x, y+1, w, d.layout([]span{
			{size: 8.5, color: ink, align: "C", text: "Customer: " + join(" · ", c.Name, labelled("TIN", c.TIN))},
			{size: 8, color: muted, align: "C", text: join(" · ", strings.Join(addressLines(c.Address), ", "), c.Email, c.Telephone)},
		}, w))
	}
	d.f.SetY(y + 3)

	d.receiptItems(x, w)
	d.dashed(x, w)
	d.receiptTotals(x, w)
	d.dashed(x, w)

	var pay []span
	for _, pm := range v.Payment.Means {
		pay = append(pay, span{size: 8.5, color: ink, align: "C", text: "Payment: " + meansText(pm)})
	}
	if v.Payment.Terms != "" {
		pay = append(pay, span{size: 8, color: muted, align: "C", text: v.Payment.Terms})
	}
	if lines := d.layout(pay, w); len(lines) > 0 {
		d.ensure(height(lines))
		d.f.SetY(d.draw(x, d.f.GetY(), w, lines) + 2)
	}

	d.ensure(qrSide + 4)
	d.f.SetY(d.qr((pageW-qrSide)/2, d.f.GetY()) + 2)
	d.notes(x, w)
	d.validation(x, w)
}

// Header blocks.

func (d *doc) supplierSpans(left bool) []span {
	align := "L"
	if !left {
		align = "C"
	}
	p := d.v.Supplier
	if p == nil {
		return []span{{style: "B", size: 14, color: alert, align: align, text: "No supplier given"}}
	}
	name := p.Name
	if name == "" {
		name = "Supplier without a name"
	}
	out := []span{
		{style: "B", size: 15, color: ink, align: align, text: name},
		{size: 8, color: muted, align: align, text: p.BusinessDescription},
	}
	if left {
		for _, l := range addressLines(p.Address) {
			out = append(out, span{size: 8.5, color: ink, align: align, text: l})
		}
	} else {
		out = append(out, span{size: 8.5, color: ink, align: align, text: strings.Join(addressLines(p.Address), ", ")})
	}
	return append(out,
		span{size: 8.5, color: ink, align: align, text: labelled("TIN", p.TIN)},
		span{size: 8.5, color: ink, align: align, text: join(" · ", p.Email, p.Telephone)},
	)
}

// titleBlock writes the document title, what it is, and the IRN in full
// on one line (smaller when it has to be).
func (d *doc) titleBlock(x, y, w float64, align string) float64 {
	v := d.v
	lines := d.layout([]span{
		{style: "B", size: 18, color: accent, align: align, text: v.Document.Title},
		{size: 8, color: muted, align: align, text: join(" · ", join(" ", v.Document.TypeCode, v.Document.TypeName), kindName(v.InvoiceType))},
	}, w)
	y = d.draw(x, y, w, lines)
	d.font("", 7)
	d.color(muted)
	d.cell(x, y+1, w, 7, "INVOICE REFERENCE NUMBER (IRN)", align)
	y += 1 + lh(7)
	irn := v.IRN
	if irn == "" {
		irn = "not available"
	}
	size := d.fit("B", irn, 11, w)
	d.font("B", size)
	d.color(ink)
	d.cell(x, y, w, size, irn, align)
	return y + lh(size)
}

func (d *doc) partySpans(title string, p *Party, missing string) []span {
	out := []span{{style: "B", size: 7, color: accent, text: title}}
	if p == nil {
		return append(out, span{size: 8.5, color: muted, text: missing, gap: 1})
	}
	out = append(out, span{style: "B", size: 10, color: ink, text: p.Name, gap: 1})
	for _, l := range addressLines(p.Address) {
		out = append(out, span{size: 8.5, color: ink, text: l})
	}
	return append(out,
		span{size: 8.5, color: ink, text: labelled("TIN", p.TIN), gap: 0.8},
		span{size: 8, color: muted, text: p.Email},
		span{size: 8, color: muted, text: p.Telephone},
		span{size: 8, color: muted, text: p.BusinessDescription},
	)
}

func (d *doc) detailSpans(gov bool) []span {
	v := d.v
	rows := [][2]string{
		{"Issue date", join(" ", v.IssueDate, v.IssueTime)},
		{"Due date", v.DueDate},
		{"Tax point date", v.TaxPointDate},
		{"Currency", currencyText(v.Currency, v.TaxCurrency)},
		{"Payment status", statusText(v.PaymentStatus)},
		{"Order reference", v.References.Order},
		{"Delivery date", v.Delivery.ActualDeliveryDate},
		{"Delivery period", period(v.Delivery)},
	}
	if !gov {
		rows = append(rows, [2]string{"Buyer reference", v.References.Buyer}, [2]string{"Accounting cost", v.References.AccountingCost})
	}
	for _, r := range v.References.Billing {
		rows = append(rows, [2]string{"Corrects", join(" of ", r.IRN, r.IssueDate)})
	}
	rows = append(rows,
		[2]string{"Dispatch advice", refText(v.References.Dispatch)},
		[2]string{"Receipt advice", refText(v.References.Receipt)},
		[2]string{"Originator document", refText(v.References.Originator)},
	)
	for _, r := range v.References.Additional {
		rows = append(rows, [2]string{"Related document", join(" of ", r.IRN, r.IssueDate)})
	}
	rows = append(rows, [2]string{"Business ID", v.BusinessID})
	out := []span{{style: "B", size: 7, color: accent, text: "INVOICE DETAILS"}}
	first := true
	for _, r := range rows {
		if r[1] == "" {
			continue
		}
		gap := 0.0
		if first {
			gap, first = 1, false
		}
		out = append(out, span{size: 7, color: muted, text: r[0], gap: gap}, span{size: 8.5, color: ink, text: r[1]})
	}
	return out
}

func (d *doc) contractSpans() []span {
	v := d.v
	out := []span{{style: "B", size: 7, color: accent, text: "CONTRACT"}}
	if c := v.References.Contract; c != nil && c.IRN != "" {
		out = append(out, span{style: "B", size: 9.5, color: ink, gap: 1, text: "Contract reference " + join(" of ", c.IRN, c.IssueDate)})
	} else {
		out = append(out, span{size: 8.5, color: muted, gap: 1, text: "No contract reference given"})
	}
	return append(out,
		span{size: 8.5, color: ink, text: labelled("Buyer reference", v.References.Buyer)},
		span{size: 8.5, color: ink, text: labelled("Budget / accounting cost", v.References.AccountingCost)},
	)
}

// boxes draws one or two framed blocks side by side, starting a new page
// first when the taller one does not fit.
func (d *doc) boxes(x1, w1 float64, l1 []span, x2, w2 float64, l2 []span) {
	const pad = 3.0
	h := max(height(l1), height(l2)) + 2*pad
	d.ensure(h)
	y := d.f.GetY()
	for _, b := range []struct {
		x, w  float64
		lines []span
	}{{x1, w1, l1}, {x2, w2, l2}} {
		if b.lines == nil {
			continue
		}
		d.pen(rule, 0.25)
		d.f.Rect(b.x, y, b.w, h, "D")
		d.draw(b.x+pad, y+pad, b.w-2*pad, b.lines)
	}
	d.f.SetY(y + h)
}

// Lines.

type column struct {
	title string
	w     float64
	align string
}

var lineColumns = []column{
	{"#", 8, "C"},
	{"Description", 72, "L"},
	{"HS / ISIC", 20, "L"},
	{"Qty", 15, "R"},
	{"Unit", 11, "C"},
	{"Unit price", 26, "R"},
	{"Amount", 28, "R"},
}

const cellPad = 1.5

// tableHead draws a table header row at the current y.
func (d *doc) tableHead(x float64, cols []column) {
	y := d.f.GetY()
	w := 0.0
	for _, c := range cols {
		w += c.w
	}
	d.fill(tint)
	d.f.Rect(x, y, w, 6.5, "F")
	d.font("B", 7.5)
	d.color(accent)
	cx := x
	for _, c := range cols {
		d.cell(cx+cellPad, y+1.6, c.w-2*cellPad, 7.5, c.title, c.align)
		cx += c.w
	}
	d.f.SetY(y + 6.5)
}

// lineTable draws the invoice lines; the header repeats on every page the
// table reaches.
func (d *doc) lineTable() {
	v := d.v
	d.ensure(6.5 + 12)
	d.tableHeader = func() { d.tableHead(margin, lineColumns) }
	d.tableHeader()
	if len(v.Lines) == 0 {
		d.font("", 8.5)
		d.color(muted)
		d.cell(margin+cellPad, d.f.GetY()+2, contentW, 8.5, "No invoice lines", "L")
		d.f.SetY(d.f.GetY() + 8)
	}
	for i := range v.Lines {
		d.lineRow(&v.Lines[i])
	}
	d.tableHeader = nil
}

func (d *doc) lineRow(l *Line) {
	cols := lineColumns
	desc := []span{
		{style: "B", size: 8.5, color: ink, text: l.Name},
		{size: 7.5, color: muted, text: l.Description},
		{size: 7, color: muted, text: join(" · ", l.ProductCategory, l.ServiceCategory, labelled("Item", l.SellersItemIdentification))},
	}
	if l.Discount != "" && !isZero(l.Discount) || l.Fee != "" && !isZero(l.Fee) {
		desc = append(desc, span{size: 7, color: ink, text: join(" · ",
			nonZero("Gross ", d.money(l.Gross), l.Gross), nonZero("Discount −", d.money(l.Discount), l.Discount), nonZero("Fee ", d.money(l.Fee), l.Fee))})
	}
	if !l.Complete {
		desc = append(desc, span{size: 7, color: alert, text: "Amount not computable: quantity or price missing or unusable"})
	}
	descLines := d.layout(desc, cols[1].w-2*cellPad)
	code, kind := l.HSNCode, "goods"
	if l.Kind == "service" {
		code, kind = l.ISICCode, "service"
	}
	codeLines := d.layout([]span{{size: 8, color: ink, text: code}, {size: 7, color: muted, text: kind}}, cols[2].w-2*cellPad)
	priceLines := []span{{size: 8.5, color: ink, align: "R", text: d.money(l.UnitPrice)}}
	if l.BaseQuantity != "" && l.BaseQuantity != "1" {
		priceLines = append(priceLines, span{size: 7, color: muted, align: "R", text: "per " + FormatNumber(l.BaseQuantity)})
	}
	priceLines = d.layout(priceLines, cols[5].w-2*cellPad)
	amountLines := []span{{style: "B", size: 8.5, color: ink, align: "R", text: d.money(l.Amount)}}
	if l.StatedAmount != nil && *l.StatedAmount != l.Amount {
		amountLines = append(amountLines, span{size: 7, color: alert, align: "R", text: "stated " + d.money(*l.StatedAmount)})
	}
	amountLines = d.layout(amountLines, cols[6].w-2*cellPad)

	h := max(height(descLines), height(codeLines), height(priceLines), height(amountLines), lh(8.5)) + 2*cellPad
	d.ensure(h)
	y := d.f.GetY()
	x := margin
	cells := [][]span{
		{{size: 8, color: muted, align: "C", text: strconv.Itoa(l.Number)}},
		descLines,
		codeLines,
		{{size: 8.5, color: ink, align: "R", text: FormatNumber(l.Quantity)}},
		{{size: 8, color: ink, align: "C", text: l.Unit}},
		priceLines,
		amountLines,
	}
	for i, c := range cols {
		d.draw(x+cellPad, y+cellPad, c.w-2*cellPad, cells[i])
		x += c.w
	}
	d.pen(rule, 0.2)
	d.f.Line(margin, y+h, margin+contentW, y+h)
	d.f.SetY(y + h)
}

// Totals.

type amountRow struct {
	label, value string
	note         string // a stated amount that differs, in red
	strong       bool
}

func (d *doc) totalRows() []amountRow {
	v := d.v
	t, s := v.Totals, v.StatedTotals
	rows := []amountRow{{label: "Lines total", value: d.money(t.LineExtensionAmount), note: d.differs(s.LineExtensionAmount, t.LineExtensionAmount)}}
	if !isZero(t.AllowanceTotal) {
		rows = append(rows, amountRow{label: "Allowances", value: "−" + d.money(t.AllowanceTotal)})
	}
	if !isZero(t.ChargeTotal) {
		rows = append(rows, amountRow{label: "Charges", value: d.money(t.ChargeTotal)})
	}
	rows = append(rows, amountRow{label: "Total excluding tax", value: d.money(t.TaxExclusiveAmount), note: d.differs(s.TaxExclusiveAmount, t.TaxExclusiveAmount)})
	for _, tx := range v.Taxes {
		rows = append(rows, amountRow{label: taxLabel(tx), value: d.money(tx.TaxAmount)})
	}
	if len(v.Taxes) == 0 || !isZero(t.TaxAmount) && len(v.Taxes) > 1 {
		rows = append(rows, amountRow{label: "Total tax", value: d.money(t.TaxAmount)})
	}
	rows = append(rows,
		amountRow{label: "Total including tax", value: d.money(t.TaxInclusiveAmount), note: d.differs(s.TaxInclusiveAmount, t.TaxInclusiveAmount)},
		amountRow{label: "Amount payable", value: d.money(t.PayableAmount), note: d.differs(s.PayableAmount, t.PayableAmount), strong: true},
	)
	return rows
}

// differs returns a note when the payload states another amount than the
// computed one.
func (d *doc) differs(stated *string, computed string) string {
	if stated == nil || *stated == computed {
		return ""
	}
	return "payload states " + d.money(*stated)
}

func rowsHeight(rows []amountRow) float64 {
	h := 0.0
	for _, r := range rows {
		h += rowHeight(r)
	}
	return h
}

func rowHeight(r amountRow) float64 {
	h := lh(8.5) + 1
	if r.strong {
		h = lh(11) + 3
	}
	if r.note != "" {
		h += lh(7)
	}
	return h
}

// amounts draws label/amount rows in a column of width w.
func (d *doc) amounts(x, y, w float64, rows []amountRow) float64 {
	for _, r := range rows {
		h := rowHeight(r)
		size, style := 8.5, ""
		if r.strong {
			size, style = 11, "B"
			d.fill(tint)
			d.f.Rect(x, y, w, h, "F")
			y += 1.5
		}
		d.font(style, size)
		d.color(ink)
		d.cell(x+2, y, w/2, size, r.label, "L")
		d.cell(x+w/2, y, w/2-2, size, r.value, "R")
		y += lh(size)
		if r.note != "" {
			d.font("", 7)
			d.color(alert)
			d.cell(x, y, w-2, 7, r.note, "R")
			y += lh(7)
		}
		if r.strong {
			y += 1.5
		} else {
			y++
		}
	}
	return y
}

var taxColumns = []column{
	{"Tax category", 38, "L"},
	{"Rate", 13, "R"},
	{"Taxable amount", 28, "R"},
	{"Tax", 23, "R"},
}

// taxesAndTotals draws the tax breakdown and the allowances and charges on
// the left and the totals on the right.
func (d *doc) taxesAndTotals() {
	v := d.v
	const tw = 76.0
	totals := d.totalRows()
	leftH := 6.5 + float64(max(1, len(v.Taxes)))*(2*lh(8.5)+lh(7)+1)
	if len(v.AllowanceCharges) > 0 {
		leftH += 6 + float64(len(v.AllowanceCharges))*(lh(8.5)+1)
	}
	d.ensure(max(leftH, rowsHeight(totals)))
	y := d.f.GetY()
	endR := d.amounts(pageW-margin-tw, y, tw, totals)
	d.f.SetY(y)
	d.tableHead(margin, taxColumns)
	if len(v.Taxes) == 0 {
		d.font("", 8.5)
		d.color(muted)
		d.cell(margin+cellPad, d.f.GetY()+1.5, 100, 8.5, "No tax subtotals", "L")
		d.f.SetY(d.f.GetY() + lh(8.5) + 3)
	}
	for _, t := range v.Taxes {
		ty := d.f.GetY() + 1
		cells := [][]span{
			{{size: 8.5, color: ink, text: t.CategoryName}, {size: 7, color: muted, text: t.CategoryID}},
			{{size: 8.5, color: ink, align: "R", text: t.Percent + "%"}},
			{{size: 8.5, color: ink, align: "R", text: d.money(t.TaxableAmount)}},
			{{size: 8.5, color: ink, align: "R", text: d.money(t.TaxAmount)}},
		}
		h := 0.0
		for i, c := range taxColumns {
			cells[i] = d.layout(cells[i], c.w-2*cellPad)
			h = max(h, height(cells[i]))
		}
		x := margin
		for i, c := range taxColumns {
			d.draw(x+cellPad, ty, c.w-2*cellPad, cells[i])
			x += c.w
		}
		d.f.SetY(ty + h + 1)
	}
	if len(v.AllowanceCharges) > 0 {
		ay := d.f.GetY() + 2
		d.font("B", 7)
		d.color(accent)
		d.cell(margin, ay, 100, 7, "ALLOWANCES AND CHARGES", "L")
		ay += lh(7) + 1
		for _, ac := range v.AllowanceCharges {
			value := d.money(ac.Amount)
			if !ac.Charge {
				value = "−" + value
			}
			d.font("", 8.5)
			d.color(ink)
			d.cell(margin+cellPad, ay, 60, 8.5, ac.Label, "L")
			d.cell(margin+60, ay, 44-cellPad, 8.5, value, "R")
			ay += lh(8.5) + 1
		}
		d.f.SetY(ay)
	}
	d.f.SetY(max(d.f.GetY(), endR))
}

// receiptItems draws the items of a receipt: name and amount, then
// quantity × unit price; the header repeats on every page.
func (d *doc) receiptItems(x, w float64) {
	v := d.v
	cols := []column{{"Item", w * 0.68, "L"}, {"Amount", w * 0.32, "R"}}
	d.ensure(6.5 + 12)
	d.tableHeader = func() { d.tableHead(x, cols) }
	d.tableHeader()
	for i := range v.Lines {
		l := &v.Lines[i]
		left := []span{{style: "B", size: 8.5, color: ink, text: l.Name}}
		qty := FormatNumber(l.Quantity) + " × " + d.money(l.UnitPrice)
		if l.Unit != "" {
			qty += " / " + l.Unit
		}
		left = append(left,
			span{size: 7.5, color: muted, text: qty},
			span{size: 7, color: muted, text: l.Description},
		)
		if !isZero(l.Discount) {
			left = append(left, span{size: 7, color: ink, text: "Discount −" + d.money(l.Discount)})
		}
		if !isZero(l.Fee) {
			left = append(left, span{size: 7, color: ink, text: "Fee " + d.money(l.Fee)})
		}
		right := []span{{style: "B", size: 8.5, color: ink, align: "R", text: d.money(l.Amount)}}
		if l.StatedAmount != nil && *l.StatedAmount != l.Amount {
			right = append(right, span{size: 7, color: alert, align: "R", text: "stated " + d.money(*l.StatedAmount)})
		}
		ll := d.layout(left, cols[0].w-2*cellPad)
		rl := d.layout(right, cols[1].w-2*cellPad)
		h := max(height(ll), height(rl)) + 2*cellPad
		d.ensure(h)
		y := d.f.GetY()
		d.draw(x+cellPad, y+cellPad, cols[0].w-2*cellPad, ll)
		d.draw(x+cols[0].w+cellPad, y+cellPad, cols[1].w-2*cellPad, rl)
		d.f.SetY(y + h)
	}
	d.tableHeader = nil
}

func (d *doc) receiptTotals(x, w float64) {
	rows := d.totalRows()
	d.ensure(rowsHeight(rows))
	d.f.SetY(d.amounts(x, d.f.GetY(), w, rows))
}

func (d *doc) dashed(x, w float64) {
	y := d.f.GetY() + 2
	d.pen(muted, 0.2)
	d.f.SetDashPattern([]float64{1, 1}, 0)
	d.f.Line(x, y, x+w, y)
	d.f.SetDashPattern(nil, 0)
	d.f.SetY(y + 3)
}

// Payment, notes, validation.

func (d *doc) paymentBlock(x, w float64) {
	v := d.v
	spans := []span{{style: "B", size: 7, color: accent, text: "PAYMENT"}}
	for _, pm := range v.Payment.Means {
		spans = append(spans, span{size: 8.5, color: ink, text: meansText(pm), gap: 0.8})
	}
	if len(v.Payment.Means) == 0 {
		spans = append(spans, span{size: 8.5, color: muted, text: "No payment means given", gap: 0.8})
	}
	spans = append(spans,
		span{size: 8.5, color: ink, text: labelled("Terms", v.Payment.Terms)},
		span{size: 8.5, color: ink, text: statusText(v.PaymentStatus)},
	)
	if p := v.Payee; p != nil {
		spans = append(spans, span{size: 8.5, color: ink, text: "Pay to " + join(" · ", p.Name, labelled("TIN", p.TIN))})
	}
	lines := d.layout(spans, w)
	d.ensure(height(lines))
	d.f.SetY(d.draw(x, d.f.GetY(), w, lines) + 3)
}

func (d *doc) notes(x, w float64) {
	if d.v.Note == "" {
		return
	}
	lines := d.layout([]span{
		{style: "B", size: 7, color: accent, text: "NOTE"},
		{size: 8.5, color: ink, text: d.v.Note, gap: 0.8},
	}, w)
	d.ensure(height(lines))
	d.f.SetY(d.draw(x, d.f.GetY(), w, lines) + 3)
}

// validation lists what validation found and what rendering changed.
func (d *doc) validation(x, w float64) {
	v := d.v
	rep := v.Validation
	summary := "Passed"
	c := accent
	if !rep.Valid {
		summary, c = "Failed: not valid for submission", alert
	}
	summary += " · " + plural(len(rep.Errors), "error") + ", " + plural(len(rep.Warnings), "warning")
	if rep.Ruleset != "" {
		summary += " · " + rep.Ruleset
	}
	spans := []span{
		{style: "B", size: 7, color: accent, text: "VALIDATION"},
		{style: "B", size: 8.5, color: c, text: summary, gap: 0.8},
	}
	issue := func(label string, col rgb, is model.Issue) {
		spans = append(spans,
			span{style: "B", size: 7.5, color: col, text: join(" ", label, is.Rule, is.Path), gap: 0.8},
			span{size: 7.5, color: ink, text: is.Message})
	}
	for _, is := range rep.Errors {
		issue("ERROR", alert, is)
	}
	for _, is := range rep.Warnings {
		issue("WARNING", amber, is)
	}
	for _, is := range v.Warnings {
		issue("RENDERING", amber, is)
	}
	lines := d.layout(spans, w)
	// Keep the heading with the first entries; long lists flow on.
	head := min(len(lines), 4)
	d.ensure(height(lines[:head]))
	for _, l := range lines {
		d.ensure(l.gap + lh(l.size))
		d.f.SetY(d.draw(x, d.f.GetY(), w, []span{l}))
	}
}

// Small text helpers.

func labelled(label, value string) string {
	if value == "" {
		return ""
	}
	return label + " " + value
}

func nonZero(prefix, formatted, raw string) string {
	if raw == "" || isZero(raw) {
		return ""
	}
	return prefix + strings.TrimPrefix(formatted, "-")
}

// isZero reports whether a decimal string is zero ("0", "0.00", "").
func isZero(s string) bool {
	return strings.Trim(s, "-0.") == ""
}

func plural(n int, word string) string {
	s := strconv.Itoa(n) + " " + word
	if n != 1 {
		s += "s"
	}
	return s
}

func addressLines(a *Address) []string {
	if a == nil {
		return nil
	}
	return a.Lines
}

func statusText(s string) string {
	switch s {
	case "":
		return ""
	case "PENDING":
		return "Payment pending"
	case "PAID":
		return "Paid"
	case "PARTIAL":
		return "Partially paid"
	case "REJECTED":
		return "Payment rejected"
	}
	return s
}

func kindName(k model.InvoiceKind) string {
	switch k {
	case model.InvoiceKindB2B:
		return "B2B · business to business"
	case model.InvoiceKindB2C:
		return "B2C · business to consumer"
	case model.InvoiceKindB2G:
		return "B2G · business to government"
	}
	return string(k)
}

func currencyText(doc, tax string) string {
	if tax == "" || tax == doc {
		return doc
	}
	return doc + " (tax in " + tax + ")"
}

func period(d Delivery) string {
	if d.PeriodStart == "" && d.PeriodEnd == "" {
		return ""
	}
	return d.PeriodStart + " – " + d.PeriodEnd
}

func refText(r *DocumentReference) string {
	if r == nil {
		return ""
	}
	return join(" of ", r.IRN, r.IssueDate)
}

func meansText(pm PaymentMeans) string {
	name := pm.Name
	if name == "" {
		name = "Payment means"
	}
	s := name
	if pm.Code != "" {
		s += " (" + pm.Code + ")"
	}
	if pm.DueDate != "" {
		s += " · due " + pm.DueDate
	}
	return s
}

func taxLabel(t Tax) string {
	name := t.CategoryName
	switch t.CategoryID {
	case "STANDARD_VAT", "REDUCED_VAT", "ZERO_VAT":
		name = "VAT"
	}
	return name + " " + t.Percent + "%"
}
