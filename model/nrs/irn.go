package nrs

import (
	"strings"

	"github.com/einvoice-ng/einvoice/model"
)

// Limits of the IRN parts.
const (
	// MaxInvoiceReferenceLen is the longest invoice reference accepted in an IRN.
	MaxInvoiceReferenceLen = 50
	// ServiceIDLen is the exact length of a service ID.
	ServiceIDLen = 8
	irnDateLen   = 8
)

// IRN is an Invoice Reference Number split into its parts:
// {InvoiceReference}-{ServiceID}-{Date}.
type IRN struct {
	// InvoiceReference is the taxpayer's invoice number: letters and digits.
	InvoiceReference string
	// ServiceID is the business's 8-character service ID.
	ServiceID string
	// Date is the issue date as YYYYMMDD.
	Date string
}

// String joins the parts back into an IRN.
func (i IRN) String() string {
	return i.InvoiceReference + "-" + i.ServiceID + "-" + i.Date
}

// IssueDate returns Date as YYYY-MM-DD.
func (i IRN) IssueDate() string {
	if len(i.Date) != irnDateLen {
		return ""
	}
	return i.Date[0:4] + "-" + i.Date[4:6] + "-" + i.Date[6:8]
}

func alnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) {
			return false
		}
	}
	return true
}

// GenerateIRN builds the IRN of an invoice, upper case. invoiceReference is
// letters and digits only (1 to 50), serviceID exactly 8 letters and digits,
// issueDate a real calendar date as YYYY-MM-DD. Bad input is an invalid
// *model.Error listing every problem, at locations "invoice_reference",
// "service_id" and "issue_date". The same input always gives the same IRN.
func (a *Authority) GenerateIRN(invoiceReference, serviceID, issueDate string) (string, error) {
	return generateIRN(invoiceReference, serviceID, issueDate)
}

func generateIRN(ref, serviceID, issueDate string) (string, error) {
	if len(ref) == 0 || len(ref) > MaxInvoiceReferenceLen || !alnum(ref) ||
		len(serviceID) != ServiceIDLen || !alnum(serviceID) {
		return "", irnInputError(ref, serviceID, issueDate)
	}
	if _, ok := parseDate(issueDate); !ok {
		return "", irnInputError(ref, serviceID, issueDate)
	}
	var b strings.Builder
	b.Grow(len(ref) + 1 + ServiceIDLen + 1 + irnDateLen)
	writeUpper(&b, ref)
	b.WriteByte('-')
	writeUpper(&b, serviceID)
	b.WriteByte('-')
	b.WriteString(issueDate[0:4])
	b.WriteString(issueDate[5:7])
	b.WriteString(issueDate[8:10])
	return b.String(), nil
}

func writeUpper(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		b.WriteByte(c)
	}
}

// irnInputError lists every problem of GenerateIRN's arguments. It runs only
// on bad input, so it may allocate freely.
func irnInputError(ref, serviceID, issueDate string) error {
	var p model.Problems
	switch {
	case ref == "":
		p.Add(model.ProblemMissing, "invoice_reference is required", "invoice_reference")
	case len(ref) > MaxInvoiceReferenceLen:
		p.Add(model.ProblemStringTooLong, "invoice_reference must have at most 50 characters", "invoice_reference")
	case !alnum(ref):
		p.Add(model.ProblemStringPatternMismatch, "invoice_reference must contain only letters and digits", "invoice_reference")
	}
	switch {
	case serviceID == "":
		p.Add(model.ProblemMissing, "service_id is required", "service_id")
	case len(serviceID) < ServiceIDLen:
		p.Add(model.ProblemStringTooShort, "service_id must have exactly 8 letters and digits", "service_id")
	case len(serviceID) > ServiceIDLen:
		p.Add(model.ProblemStringTooLong, "service_id must have exactly 8 letters and digits", "service_id")
	case !alnum(serviceID):
		p.Add(model.ProblemStringPatternMismatch, "service_id must contain only letters and digits", "service_id")
	}
	if issueDate == "" {
		p.Add(model.ProblemMissing, "issue_date is required", "issue_date")
	} else if _, ok := parseDate(issueDate); !ok {
		p.Add(model.ProblemDateFromDatetimeParse, "issue_date must be a real calendar date as YYYY-MM-DD", "issue_date")
	}
	return p.Err()
}

// splitIRN cuts s on its last two hyphens. The reference part may itself
// contain hyphens here; callers decide whether that is acceptable.
func splitIRN(s string) (ref, serviceID, day string, ok bool) {
	j := strings.LastIndexByte(s, '-')
	if j < 0 {
		return "", "", "", false
	}
	i := strings.LastIndexByte(s[:j], '-')
	if i < 0 {
		return "", "", "", false
	}
	return s[:i], s[i+1 : j], s[j+1:], true
}

// irnShape reports whether the three parts have the IRN shape: reference of
// 1 to 50 letters and digits, 8-character alphanumeric service ID, 8 digits.
func irnShape(ref, serviceID, day string) bool {
	if len(ref) == 0 || len(ref) > MaxInvoiceReferenceLen || !alnum(ref) {
		return false
	}
	if len(serviceID) != ServiceIDLen || !alnum(serviceID) {
		return false
	}
	_, ok := digits(day)
	return ok && len(day) == irnDateLen
}

// ParseIRN splits an IRN on its last two hyphens and checks every part: the
// reference letters and digits only (so it holds no hyphen), the service ID
// 8 letters and digits, the date a real calendar date as YYYYMMDD. Letter case
// is kept as written. Errors are invalid *model.Error at location "irn".
func ParseIRN(s string) (IRN, error) {
	if s == "" {
		return IRN{}, model.Invalid(model.ProblemMissing, "irn is required", "irn")
	}
	ref, serviceID, day, ok := splitIRN(s)
	if !ok {
		return IRN{}, model.Invalid(model.ProblemStringPatternMismatch,
			"irn must have the form {InvoiceReference}-{ServiceID}-{YYYYMMDD}", "irn")
	}
	var p model.Problems
	switch {
	case ref == "":
		p.Add(model.ProblemStringPatternMismatch, "irn has an empty invoice reference", "irn")
	case len(ref) > MaxInvoiceReferenceLen:
		p.Add(model.ProblemStringTooLong, "irn invoice reference must have at most 50 characters", "irn")
	case !alnum(ref):
		p.Add(model.ProblemStringPatternMismatch, "irn invoice reference must contain only letters and digits", "irn")
	}
	if len(serviceID) != ServiceIDLen || !alnum(serviceID) {
		p.Add(model.ProblemStringPatternMismatch, "irn service ID must be exactly 8 letters and digits", "irn")
	}
	if _, ok := parseCompactDate(day); !ok {
		p.Add(model.ProblemDateFromDatetimeParse, "irn date must be a real calendar date as YYYYMMDD", "irn")
	}
	if err := p.Err(); err != nil {
		return IRN{}, err
	}
	return IRN{InvoiceReference: ref, ServiceID: serviceID, Date: day}, nil
}

// Names of the checks ValidateIRN reports, in order.
const (
	IRNCheckFormat           = "format"
	IRNCheckInvoiceReference = "invoice_reference"
	IRNCheckServiceID        = "service_id"
	IRNCheckDate             = "date"
)

// ValidateIRN checks an IRN the way NRS's irn/validate does and reports every
// check: "format" (the shape), "invoice_reference" (part 1 equals the
// reference, ignoring case), "service_id" (part 2 equals the business's
// service ID, ignoring case) and "date" (part 3 is a real calendar date).
func (a *Authority) ValidateIRN(irn, invoiceReference, serviceID string) model.IRNValidation {
	return validateIRN(irn, invoiceReference, serviceID)
}

func validateIRN(irn, invoiceReference, serviceID string) model.IRNValidation {
	ref, sid, day, split := splitIRN(irn)
	checks := make([]model.IRNCheck, 0, 4)

	format := model.IRNCheck{Name: IRNCheckFormat}
	switch {
	case irn == "":
		format.Message = "irn is empty"
	case !split:
		format.Message = "irn must have the form {InvoiceReference}-{ServiceID}-{YYYYMMDD}"
	case !irnShape(ref, sid, day):
		format.Message = "irn parts must be 1-50 letters and digits, 8 letters and digits, and 8 digits"
	default:
		format.Passed = true
		format.Message = "irn has the form {InvoiceReference}-{ServiceID}-{YYYYMMDD}"
	}
	checks = append(checks, format)

	refCheck := model.IRNCheck{Name: IRNCheckInvoiceReference}
	switch {
	case !split:
		refCheck.Message = "irn has no invoice reference part to compare"
	case invoiceReference == "":
		refCheck.Message = "no invoice reference given to compare with"
	case strings.EqualFold(ref, invoiceReference):
		refCheck.Passed = true
		refCheck.Message = "irn invoice reference matches"
	default:
		refCheck.Message = "irn invoice reference " + quoteShort(ref) + " does not match " + quoteShort(invoiceReference)
	}
	checks = append(checks, refCheck)

	sidCheck := model.IRNCheck{Name: IRNCheckServiceID}
	switch {
	case !split:
		sidCheck.Message = "irn has no service ID part to compare"
	case serviceID == "":
		sidCheck.Message = "the business has no service ID to compare with"
	case strings.EqualFold(sid, serviceID):
		sidCheck.Passed = true
		sidCheck.Message = "irn service ID matches the business's service ID"
	default:
		sidCheck.Message = "irn service ID " + quoteShort(sid) + " is not the business's service ID"
	}
	checks = append(checks, sidCheck)

	dateCheck := model.IRNCheck{Name: IRNCheckDate}
	if _, ok := parseCompactDate(day); split && ok {
		dateCheck.Passed = true
		dateCheck.Message = "irn date is a real calendar date"
	} else {
		dateCheck.Message = "irn date must be a real calendar date as YYYYMMDD"
	}
	checks = append(checks, dateCheck)

	valid := true
	for _, c := range checks {
		valid = valid && c.Passed
	}
	return model.IRNValidation{Valid: valid, IRN: irn, Checks: checks}
}

// quoteShort quotes s for a message, cutting it so a hostile input cannot
// blow up a response.
func quoteShort(s string) string {
	const max = 64
	if len(s) > max {
		s = s[:max] + "..."
	}
	return `"` + s + `"`
}
