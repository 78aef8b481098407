// Package nrs implements model.Authority for Nigeria's e-invoicing platform,
// run by the Nigeria Revenue Service (NRS, formerly FIRS): IRN generation,
// parsing and validation, the encrypted QR payload, and invoice validation
// against the NRS JSON Schemas (1.0 and 1.1) followed by the business rules a
// schema cannot express (code lists, calendar dates, kobo-exact arithmetic,
// party rules per invoice kind).
//
// The package is pure: no HTTP, no database. It also exports the typed
// invoice model (Invoice, Decode, ComputeTotals) that renderers reuse, and the
// key helpers the service layer and the NRS sandbox stand-in need.
package nrs

import (
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
)

// Code is the canonical tax_authority_code. The registry adds "FIRS" as an
// alias.
const Code = "NRS"

// Schema versions.
const (
	SchemaVersion10 = "1.0"
	SchemaVersion11 = "1.1"
)

// RulesetRevision names the revision of the business rules. Reports carry it
// in their ruleset ("NRS-1.1/2026.11") so that a stored report says which
// rules produced it.
const RulesetRevision = "2026.11"

// Options tunes an Authority. The zero value gives the defaults.
type Options struct {
	// ArithmeticSeverity sets the severity of the NRS-ARITH-* rules per schema
	// version. Versions not listed keep the default: error in 1.1, warning in
	// 1.0 (NRS publishes no arithmetic rules, 1.0 integrations predate ours).
	ArithmeticSeverity map[string]model.Severity
	// RuleSeverity overrides the severity of single rules (by id) in every
	// schema version. It wins over ArithmeticSeverity.
	RuleSeverity map[string]model.Severity
	// DefaultSchemaVersion is used when a request names none; "" means 1.1.
	DefaultSchemaVersion string
}

// Authority is the NRS rule set. It is immutable after New and safe for
// concurrent use.
type Authority struct {
	versions       map[string]*schemaVersion
	defaultVersion string
}

var _ model.Authority = (*Authority)(nil)

// schemaVersion is everything compiled once for one schema version.
type schemaVersion struct {
	name     string
	v11      bool
	doc      []byte
	schema   *jsonschema.Schema
	shape    *shape
	severity map[string]model.Severity
	ruleset  string
}

// New compiles the schemas and prepares the rules. It fails only on bad
// options (an unknown version, rule id or severity).
func New(opts Options) (*Authority, error) {
	var p model.Problems
	for v, s := range opts.ArithmeticSeverity {
		if !knownVersion(v) {
			p.Add(model.ProblemEnum, "unknown schema version "+quoteShort(v), "arithmetic_severity", v)
		}
		if !validSeverity(s) {
			p.Add(model.ProblemEnum, "severity must be error or warning", "arithmetic_severity", v)
		}
	}
	for id, s := range opts.RuleSeverity {
		if _, ok := ruleIndex[id]; !ok {
			p.Add(model.ProblemEnum, "unknown rule id "+quoteShort(id), "rule_severity", id)
		}
		if !validSeverity(s) {
			p.Add(model.ProblemEnum, "severity must be error or warning", "rule_severity", id)
		}
	}
	def := opts.DefaultSchemaVersion
	if def == "" {
		def = SchemaVersion11
	}
	if !knownVersion(def) {
		p.Add(model.ProblemEnum, "unknown schema version "+quoteShort(def), "default_schema_version")
	}
	if err := p.Err(); err != nil {
		return nil, err
	}

	a := &Authority{versions: map[string]*schemaVersion{}, defaultVersion: def}
	for _, v := range []string{SchemaVersion10, SchemaVersion11} {
		sv, err := compileVersion(v)
		if err != nil {
			return nil, model.Wrap(model.CodeInternal, err, "cannot compile NRS schema %s", v)
		}
		arith := sevWarning
		if v == SchemaVersion11 {
			arith = sevError
		}
		if s, ok := opts.ArithmeticSeverity[v]; ok {
			arith = s
		}
		sv.severity = make(map[string]model.Severity, len(ruleInfos))
		for _, r := range ruleInfos {
			s := r.Severity
			if r.Arithmetic {
				s = arith
			}
			if o, ok := opts.RuleSeverity[r.ID]; ok {
				s = o
			}
			sv.severity[r.ID] = s
		}
		a.versions[v] = sv
	}
	return a, nil
}

func knownVersion(v string) bool { return v == SchemaVersion10 || v == SchemaVersion11 }

func validSeverity(s model.Severity) bool {
	return s == model.SeverityError || s == model.SeverityWarning
}

// Code returns "NRS".
func (a *Authority) Code() string { return Code }

// SchemaVersions returns "1.0" and "1.1".
func (a *Authority) SchemaVersions() []string {
	return []string{SchemaVersion10, SchemaVersion11}
}

// ValidInvoiceType reports whether code is an invoice kind (B2B, B2C, B2G)
// or a document type code in NRS numbering ("381").
func (a *Authority) ValidInvoiceType(code string) bool {
	_, kind := model.ParseInvoiceKind(code)
	return kind || codes.InvoiceTypes.Contains(code)
}

// DefaultSchemaVersion returns the version used when a request names none.
func (a *Authority) DefaultSchemaVersion() string { return a.defaultVersion }

// Schema returns the JSON Schema (draft 2020-12) document of a version.
func (a *Authority) Schema(version string) ([]byte, bool) {
	sv, ok := a.versions[version]
	if !ok {
		return nil, false
	}
	return slices.Clone(sv.doc), true
}

// Ruleset names the rules applied to a schema version ("NRS-1.1/2026.11").
func Ruleset(version string) string {
	return Code + "-" + version + "/" + RulesetRevision
}
