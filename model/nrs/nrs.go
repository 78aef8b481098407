// Package nrs implements model.Authority for Nigeria's e-invoicing platform,
// run by the Nigeria Revenue Service (NRS, formerly FIRS): IRN generation,
// parsing and validation, the encrypted QR payload, and invoice validation
// against the NRS JSON Schemas (1.0 and 1.1) followed by the business rules a
// schema cannot express (NRS's code lists, formats, party requirements) and
// einvoice's consistency checks (kobo arithmetic, dates in order). A
// validation profile decides which findings are errors: under "nrs" only
// what NRS enforces, under "strict" the consistency checks too.
//
// The package is pure: no HTTP, no database. It also exports the typed
// invoice model (Invoice, Decode, ComputeTotals) that renderers reuse, and the
// key helpers the application and the NRS sandbox stand-in need.
package nrs

import (
	"slices"
	"sync/atomic"

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
// in their ruleset so that a stored report says which rules produced it.
const RulesetRevision = "2026.12"

// Options tunes an Authority. The zero value gives the defaults.
type Options struct {
	// DefaultSchemaVersion is used when a request names none; "" means 1.1.
	DefaultSchemaVersion string
}

// Authority is the NRS rule set. It is safe for concurrent use; the code
// lists of an environment change only through UseCodeLists.
type Authority struct {
	versions       map[string]*schemaVersion
	defaultVersion string
	// lists holds the refreshed code lists per environment; an empty
	// pointer means the snapshot.
	lists map[model.Environment]*atomic.Pointer[codes.Lists]
}

var (
	_ model.Authority         = (*Authority)(nil)
	_ model.CodeListAuthority = (*Authority)(nil)
)

// schemaVersion is everything compiled once for one schema version.
type schemaVersion struct {
	name   string
	v11    bool
	doc    []byte
	schema *jsonschema.Schema
	shape  *shape
	// severity maps each rule to its severity, per profile.
	severity map[model.ValidationProfile]map[string]model.Severity
}

// New compiles the schemas and prepares the rules. It fails only on bad
// options (an unknown default version).
func New(opts Options) (*Authority, error) {
	def := opts.DefaultSchemaVersion
	if def == "" {
		def = SchemaVersion11
	}
	if !knownVersion(def) {
		return nil, model.Invalid(model.ProblemEnum, "unknown schema version "+quoteShort(def), "default_schema_version")
	}
	a := &Authority{
		versions: map[string]*schemaVersion{}, defaultVersion: def,
		lists: map[model.Environment]*atomic.Pointer[codes.Lists]{},
	}
	for _, env := range model.Environments {
		a.lists[model.Environment(env)] = new(atomic.Pointer[codes.Lists])
	}
	for _, v := range []string{SchemaVersion10, SchemaVersion11} {
		sv, err := compileVersion(v)
		if err != nil {
			return nil, model.Wrap(model.CodeInternal, err, "cannot compile NRS schema %s", v)
		}
		sv.severity = map[model.ValidationProfile]map[string]model.Severity{
			model.ProfileNRS:    severities(model.ProfileNRS, sv.v11),
			model.ProfileStrict: severities(model.ProfileStrict, sv.v11),
		}
		a.versions[v] = sv
	}
	return a, nil
}

func knownVersion(v string) bool { return v == SchemaVersion10 || v == SchemaVersion11 }

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

// CodeListNames lists NRS's resources, in the order a refresh fetches them.
func (a *Authority) CodeListNames() []string { return codes.ResourceNames() }

// CheckCodeList parses one list as NRS served it.
func (a *Authority) CheckCodeList(name string, data []byte) (int, error) {
	l, err := codes.Parse(name, data)
	if err != nil {
		return 0, err
	}
	return l.Len(), nil
}

// UseCodeLists makes validation in env use lists refreshed from NRS, each
// replacing the snapshot's list of its name; none goes back to the
// snapshot. Validations already running finish with the lists they started
// with.
func (a *Authority) UseCodeLists(env model.Environment, lists []model.CodeList) error {
	p, ok := a.lists[env]
	if !ok {
		return model.Invalid(model.ProblemEnum, "environment must be sandbox or production", "environment")
	}
	if len(lists) == 0 {
		p.Store(nil)
		return nil
	}
	served := make([]codes.Served, len(lists))
	for i, l := range lists {
		served[i] = codes.Served{Name: l.Name, Data: l.Data, FetchedAt: l.FetchedAt}
	}
	compiled, err := codes.Compile(string(env), served)
	if err != nil {
		return model.Wrap(model.CodeInvalid, err, "unusable code list")
	}
	p.Store(compiled)
	return nil
}

// CodeLists returns the lists validation uses in env: the refreshed ones,
// else the snapshot.
func (a *Authority) CodeLists(env model.Environment) *codes.Lists {
	if p, ok := a.lists[env]; ok {
		if l := p.Load(); l != nil {
			return l
		}
	}
	return codes.Snapshot()
}

// Ruleset names what produced a report, in the form
//
//	NRS-<schema version>/<rules revision>; profile <profile>; lists <date> <source>
//
// for example "NRS-1.1/2026.12; profile nrs; lists 2026-11-23 snapshot":
// the schema version, the revision of the rules, the profile, and the code
// lists' date (SnapshotDate for the lists shipped with einvoice, else the
// day they were last fetched from NRS) and source ("snapshot", or the
// environment whose refreshed lists were used).
func Ruleset(version string, profile model.ValidationProfile, lists *codes.Lists) string {
	if profile == "" {
		profile = model.ProfileNRS
	}
	if lists == nil {
		lists = codes.Snapshot()
	}
	return Code + "-" + version + "/" + RulesetRevision + "; profile " + string(profile) +
		"; lists " + lists.Date() + " " + lists.Source()
}
