package render

import (
	"strings"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
)

// Rule ids of the warnings rendering adds to a view. Like the validation
// rules they are stable: clients match on them.
const (
	// RuleBusinessIDReplaced: the payload's business_id is missing or not
	// the rendering project's, so the project's is printed.
	RuleBusinessIDReplaced = "RENDER-BUSINESS-ID-REPLACED"
	// RuleIRNRebuilt: the payload's IRN is missing, malformed or carries
	// another business's service id, so the IRN printed (and encoded in the
	// QR payload) was rebuilt from its invoice reference, the project's
	// service id and the issue date.
	RuleIRNRebuilt = "RENDER-IRN-REBUILT"
	// RuleIRNUnavailable: no IRN could be built (no invoice reference or
	// no real date), so the document carries neither IRN nor QR code.
	RuleIRNUnavailable = "RENDER-IRN-UNAVAILABLE"
)

// Issuer is the project a document is rendered for: its business id and
// the service id its IRNs carry.
type Issuer struct {
	BusinessID string
	ServiceID  string
}

// IRNBuilder builds an IRN from an invoice reference, a service id and an
// issue date (YYYY-MM-DD); model.Authority implements it.
type IRNBuilder interface {
	GenerateIRN(invoiceReference, serviceID, issueDate string) (string, error)
}

// Identify decides the IRN and business id a document of inv carries when
// is renders it. Payloads often hold placeholders from another business
// (fixtures, copies from the documentation), so:
//   - the business id printed is always the issuer's; a payload business_id
//     that is missing or different gives a RuleBusinessIDReplaced warning;
//   - a well-formed payload IRN with the issuer's service id is kept (upper
//     case, as QR payloads carry it); any other IRN is rebuilt from its
//     invoice reference part, the issuer's service id and issue_date (the
//     IRN's own date when issue_date is not a real date), with a
//     RuleIRNRebuilt warning;
//   - when nothing usable is left, the IRN is "" with a RuleIRNUnavailable
//     warning.
//
// Warning locations are relative to the payload.
func Identify(b IRNBuilder, inv *nrs.Invoice, is Issuer) (irn, businessID string, warnings []model.Issue) {
	warnings = []model.Issue{}
	businessID = strings.ToLower(is.BusinessID)
	switch {
	case inv.BusinessID == "":
		warnings = append(warnings, warning(RuleBusinessIDReplaced, "business_id",
			"the payload has no business_id; the document carries this project's business id "+businessID))
	case !strings.EqualFold(inv.BusinessID, is.BusinessID):
		warnings = append(warnings, warning(RuleBusinessIDReplaced, "business_id",
			"business_id "+quote(inv.BusinessID)+" is not this project's business; the document carries "+businessID))
	}

	parsed, perr := nrs.ParseIRN(inv.IRN)
	if perr == nil && strings.EqualFold(parsed.ServiceID, is.ServiceID) {
		return strings.ToUpper(inv.IRN), businessID, warnings
	}
	ref, day := irnParts(inv.IRN)
	date := inv.IssueDate
	if _, err := model.ParseDate(date); err != nil {
		date = day
	}
	if ref != "" && date != "" {
		if built, err := b.GenerateIRN(ref, is.ServiceID, date); err == nil {
			why := "irn " + quote(inv.IRN) + " is not a valid IRN"
			if perr == nil {
				why = "irn " + quote(inv.IRN) + " carries service id " + quote(parsed.ServiceID) + ", not this project's " + is.ServiceID
			}
			warnings = append(warnings, warning(RuleIRNRebuilt, "irn",
				why+"; the document carries "+built+", built from the invoice reference, this project's service id and the issue date"))
			return built, businessID, warnings
		}
	}
	msg := "the payload has no IRN to take an invoice reference from"
	if inv.IRN != "" {
		msg = "irn " + quote(inv.IRN) + " has no usable invoice reference or date"
	}
	warnings = append(warnings, warning(RuleIRNUnavailable, "irn", msg+"; the document carries no IRN and no QR code"))
	return "", businessID, warnings
}

// irnParts cuts a possibly malformed IRN on its last two hyphens and keeps
// the invoice reference when it is 1 to 50 letters and digits, and the date
// (as YYYY-MM-DD) when it is a real one.
func irnParts(s string) (ref, date string) {
	j := strings.LastIndexByte(s, '-')
	if j < 0 {
		return "", ""
	}
	i := strings.LastIndexByte(s[:j], '-')
	if i < 0 {
		return "", ""
	}
	ref, day := s[:i], s[j+1:]
	if len(ref) == 0 || len(ref) > nrs.MaxInvoiceReferenceLen || !alnum(ref) {
		ref = ""
	}
	if len(day) == 8 {
		d := day[0:4] + "-" + day[4:6] + "-" + day[6:8]
		if _, err := model.ParseDate(d); err == nil {
			date = d
		}
	}
	return ref, date
}

func alnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

func warning(rule, field, msg string) model.Issue {
	return model.Issue{Rule: rule, Severity: model.SeverityWarning, Path: "/" + field, Loc: []any{field}, Message: msg}
}

// quote quotes s for a message, cut so that a hostile value cannot blow up
// a response.
func quote(s string) string {
	const max = 64
	if len(s) > max {
		s = s[:max] + "..."
	}
	return `"` + s + `"`
}
