package nrssandbox

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"time"
)

// countReport counts the reports received for an IRN (Counts.Reports).
const countReport = "count:vat_report"

// reportFields are the fields of the report as live integrations send it
// (integrator-evidence.md E2), all strings; agent_id is one integration's
// name for agent_tin.
var reportFields = []string{"agent_tin", "base_amount", "beneficiary_tin", "currency", "item_description", "irn",
	"other_taxes", "total_amount", "transaction_date", "integrator_service_id", "vat_calculated", "vat_rate", "vat_status"}

// reportVATStatuses are the vat_status values integrations send.
var reportVATStatuses = []string{"STANDARD_VAT", "ZERO_VAT", "REDUCED_VAT"}

var reportAmount = regexp.MustCompile(`^-?[0-9]{1,15}(\.[0-9]{1,4})?$`)

// postPayment is POST /api/v1/vat/postpayment, the report (a B2C
// invoice's, within 24 hours) as four independent integrations send it,
// with snake_case string fields. NRS's own collection documents another
// route (/v1/vat/postPayment, camelCase), which its sandbox answered with
// the no-route 404, as the stand-in does. The stand-in checks the fields it
// can (all present and strings, amounts decimal, the date YYYY-MM-DD,
// vat_status one of the three integrations send) and answers
// {"code":200,"data":{"ok":true}} (einvoice's reading: the answer is not
// published).
func (h *Handler) postPayment(w http.ResponseWriter, r *http.Request) error {
	return h.authed(func(w http.ResponseWriter, r *http.Request, b *business) error {
		var in map[string]any
		if _, err := h.decodeBody(r, &in); err != nil {
			return err
		}
		if _, ok := in["agent_tin"]; !ok {
			if v, ok := in["agent_id"]; ok {
				in["agent_tin"] = v
			}
		}
		var problems []string
		str := func(k string) string {
			switch v := in[k].(type) {
			case string:
				return strings.TrimSpace(v)
			case json.Number:
				return v.String()
			}
			return ""
		}
		for _, k := range reportFields {
			switch in[k].(type) {
			case string, json.Number:
				if str(k) == "" && k != "other_taxes" {
					problems = append(problems, k+" is required")
				}
			case nil:
				if k != "other_taxes" {
					problems = append(problems, k+" is required")
				}
			default:
				problems = append(problems, k+" must be a string")
			}
		}
		for _, k := range []string{"base_amount", "total_amount", "vat_calculated", "vat_rate", "other_taxes"} {
			if v := str(k); v != "" && !reportAmount.MatchString(v) {
				problems = append(problems, k+" must be a decimal amount such as \"7500.00\"")
			}
		}
		if v := str("transaction_date"); v != "" {
			if _, err := time.Parse(time.DateOnly, v); err != nil {
				problems = append(problems, "transaction_date must be a date (YYYY-MM-DD)")
			}
		}
		if v := str("vat_status"); v != "" && !contains(reportVATStatuses, strings.ToUpper(v)) {
			problems = append(problems, "vat_status must be one of "+strings.Join(reportVATStatuses, ", "))
		}
		if len(problems) > 0 {
			sort.Strings(problems)
			return invalid("%s", strings.Join(problems, "; "))
		}
		if _, err := h.db.Attempts().Count(context.WithoutCancel(r.Context()), b.BusinessID, countReport, str("irn"), h.now()); err != nil {
			return err
		}
		writeData(w, http.StatusOK, ok)
		return nil
	})(w, r)
}
