package render

import "strings"

// currencySigns are the signs printed before amounts; other currencies are
// printed with their ISO code ("XOF 1,000.00").
var currencySigns = map[string]string{
	"NGN": "₦",
	"USD": "$",
	"EUR": "€",
	"GBP": "£",
}

// FormatMoney writes a decimal amount ("75250.00", "-1000.5") with thousands
// separators, two decimals at least and the currency's sign:
// FormatMoney("NGN", "75250.00") is "₦75,250.00". An empty amount stays
// empty.
func FormatMoney(currency, amount string) string {
	if amount == "" {
		return ""
	}
	neg := strings.HasPrefix(amount, "-")
	amount = strings.TrimPrefix(amount, "-")
	whole, frac, _ := strings.Cut(amount, ".")
	for len(frac) < 2 {
		frac += "0"
	}
	var b strings.Builder
	b.Grow(len(amount) + len(whole)/3 + 8)
	if neg {
		b.WriteByte('-')
	}
	if sign, ok := currencySigns[strings.ToUpper(currency)]; ok {
		b.WriteString(sign)
	} else if currency != "" {
		b.WriteString(currency)
		b.WriteByte(' ')
	}
	b.WriteString(group(whole))
	b.WriteByte('.')
	b.WriteString(frac)
	return b.String()
}

// FormatNumber writes a decimal with thousands separators and the decimals
// it has ("1500" → "1,500", "2.5" → "2.5").
func FormatNumber(n string) string {
	neg := strings.HasPrefix(n, "-")
	n = strings.TrimPrefix(n, "-")
	whole, frac, hasFrac := strings.Cut(n, ".")
	out := group(whole)
	if hasFrac {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out
}

// group inserts a comma every three digits from the right.
func group(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	b.Grow(len(digits) + len(digits)/3)
	head := len(digits) % 3
	if head > 0 {
		b.WriteString(digits[:head])
	}
	for i := head; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}
