package nrs

import (
	"sort"
	"strings"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
)

// Validate checks a payload against the schema of the requested version and
// then against the business rules, with the severities of the requested
// profile and the code lists of the requested environment. The result is a
// report; an invalid *model.Error comes back only for an unusable request:
// an unknown schema version (loc "schema_version", type enum) or profile
// (loc "profile"), a payload that is not a JSON object (loc "payload", type
// dict_type) or a request invoice_type_code that is neither an invoice kind
// nor an NRS type code (loc "invoice_type_code", type enum).
//
// Findings are reported once per spot: where the schema and a business rule
// both object to one field, the rule's finding (with its specific id) wins;
// where a value has the wrong JSON type, rules depending on it stay silent.
// Errors and warnings are sorted by path, then rule id.
func (a *Authority) Validate(in model.ValidateInput) (*model.ValidationReport, error) {
	version := in.SchemaVersion
	if version == "" {
		version = a.defaultVersion
	}
	sv, ok := a.versions[version]
	if !ok {
		return nil, model.Invalid(model.ProblemEnum, "schema_version must be 1.0 or 1.1", "schema_version")
	}
	profile := in.Profile
	if profile == "" {
		profile = model.ProfileNRS
	}
	sev, ok := sv.severity[profile]
	if !ok {
		return nil, model.Invalid(model.ProblemEnum, "profile must be nrs or strict", "profile")
	}
	payload, ok := in.Payload.(map[string]any)
	if !ok {
		return nil, model.Invalid(model.ProblemDictType, "payload must be a JSON object", "payload")
	}
	req, err := parseRequestType(in.InvoiceTypeCode)
	if err != nil {
		return nil, err
	}

	var schemaFound []finding
	if payload == nil {
		payload = map[string]any{}
	}
	if err := sv.schema.Validate(payload); err != nil {
		schemaFound = schemaFindings(err, payload)
	}
	for i := range schemaFound {
		schemaFound[i].Severity = sev[schemaFound[i].Rule]
	}

	lists := a.CodeLists(in.Environment)
	c := &checker{a: a, ver: sv, sev: sev, lists: lists, raw: payload, inv: decodeInvoice(payload), req: req}
	c.run()

	errs, warns := merge(schemaFound, c.found)
	return &model.ValidationReport{
		Valid:            len(errs) == 0,
		TaxAuthorityCode: Code,
		SchemaVersion:    sv.name,
		Profile:          profile,
		Ruleset:          Ruleset(sv.name, profile, lists),
		Errors:           errs,
		Warnings:         warns,
	}, nil
}

// requestType is the caller's declared invoice type: a kind or a type code.
type requestType struct {
	kind string
	code string
}

func parseRequestType(s string) (requestType, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return requestType{}, nil
	}
	if k, ok := model.ParseInvoiceKind(t); ok {
		return requestType{kind: string(k)}, nil
	}
	if codes.InvoiceTypes.Contains(t) {
		return requestType{code: t}, nil
	}
	return requestType{}, model.Invalid(model.ProblemEnum,
		"invoice_type_code must be an invoice kind (B2B, B2G, B2C) or an NRS invoice type code (381, 380, ...)",
		"invoice_type_code")
}

// merge drops double reports and follow-on findings, then splits and sorts.
func merge(schemaFound, ruleFound []finding) (errs, warns []model.Issue) {
	structural := map[string]bool{}
	for _, f := range schemaFound {
		if f.structural {
			structural[f.Path] = true
		}
	}
	rulePaths := make(map[string]bool, len(ruleFound))
	for _, f := range ruleFound {
		rulePaths[f.Path] = true
	}
	errs, warns = []model.Issue{}, []model.Issue{}
	seen := map[[2]string]bool{}
	keep := func(i model.Issue) {
		k := [2]string{i.Rule, i.Path}
		if seen[k] {
			return
		}
		seen[k] = true
		if i.Severity == model.SeverityWarning {
			warns = append(warns, i)
		} else {
			errs = append(errs, i)
		}
	}
	for _, f := range schemaFound {
		if rulePaths[f.Path] && !f.structural {
			continue
		}
		keep(f.Issue)
	}
	for _, f := range ruleFound {
		if underStructural(f.Path, structural) {
			continue
		}
		keep(f.Issue)
	}
	sortIssues(errs)
	sortIssues(warns)
	return errs, warns
}

// underStructural reports whether path or one of its ancestors carries a
// wrong-type schema finding.
func underStructural(path string, structural map[string]bool) bool {
	if len(structural) == 0 {
		return false
	}
	for p := path; p != ""; {
		if structural[p] {
			return true
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return false
}

func sortIssues(list []model.Issue) {
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].Path != list[j].Path {
			return list[i].Path < list[j].Path
		}
		return list[i].Rule < list[j].Rule
	})
}
