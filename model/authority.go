package model

import (
	"crypto/rsa"
	"io"
	"sort"
	"strings"
	"time"
)

// Severity of a validation issue.
type Severity string

// Severities.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Issue is one problem an authority's rules found in an invoice payload.
// Path is a JSON Pointer into the payload ("/accounting_supplier_party/tin");
// Loc is the same location as segments (strings and ints), relative to the
// payload: transports prefix it with where the payload sits in the request.
type Issue struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Path     string   `json:"path"`
	Loc      []any    `json:"loc"`
	Message  string   `json:"message"`
}

// ValidationReport is the outcome of validating one invoice payload. An
// invalid invoice is a report with Valid false, not an error.
type ValidationReport struct {
	Valid            bool              `json:"valid"`
	TaxAuthorityCode string            `json:"tax_authority_code"`
	SchemaVersion    string            `json:"schema_version"`
	Profile          ValidationProfile `json:"profile"`
	Ruleset          string            `json:"ruleset"`
	Errors           []Issue           `json:"errors"`
	Warnings         []Issue           `json:"warnings"`
}

// ValidationProfile says which findings make an invoice invalid.
type ValidationProfile string

// Validation profiles. Under ProfileNRS (the default, named after the
// authority einvoice serves first) only what the tax authority itself
// enforces is an error, so that valid means the authority accepts the
// invoice; einvoice's own consistency checks (arithmetic, dates in order,
// references a credit note should carry) are warnings. ProfileStrict makes
// those consistency checks errors.
const (
	ProfileNRS    ValidationProfile = "nrs"
	ProfileStrict ValidationProfile = "strict"
)

// ValidationProfiles lists the accepted profiles, the default first.
var ValidationProfiles = []string{string(ProfileNRS), string(ProfileStrict)}

// ValidateInput is what an authority validates.
type ValidateInput struct {
	// SchemaVersion selects the schema; "" means the authority's default.
	SchemaVersion string
	// InvoiceTypeCode is the caller's declared type: "" (take the payload's),
	// an invoice kind (B2B, B2C, B2G) or a document type code ("381").
	InvoiceTypeCode string
	// Payload is the decoded JSON payload (numbers as json.Number).
	Payload any
	// Profile selects the severities; "" means ProfileNRS.
	Profile ValidationProfile
	// Environment selects the code lists last refreshed from the
	// authority's API in that environment; "" (or an environment never
	// refreshed) means the lists shipped with einvoice.
	Environment Environment
}

// IRNCheck is one check made while validating an IRN.
type IRNCheck struct {
	Name    string `json:"name"`
	Passed  bool   `json:"passed"`
	Message string `json:"message"`
}

// IRNValidation is the outcome of validating an IRN.
type IRNValidation struct {
	Valid  bool       `json:"valid"`
	IRN    string     `json:"irn"`
	Checks []IRNCheck `json:"checks"`
}

// QREncryption names the public-key encryption used for QR payloads.
type QREncryption string

// QR encryption schemes.
const (
	QREncryptionPKCS1v15   QREncryption = "RSA-PKCS1-v1_5"
	QREncryptionOAEPSHA256 QREncryption = "RSA-OAEP-SHA256"
)

// QRInput is what an authority needs to build a QR payload.
type QRInput struct {
	IRN         string
	Timestamp   int64 // Unix seconds
	PublicKey   *rsa.PublicKey
	Certificate string
	Encryption  QREncryption
	Rand        io.Reader // nil means crypto/rand
}

// Authority is the rule set of one tax authority: pure code, no HTTP and no
// database. A second authority is a new package implementing this interface
// and one more entry in the registry built in cmd.
type Authority interface {
	// Code is the canonical tax_authority_code ("NRS").
	Code() string
	// SchemaVersions lists the supported schema versions, oldest first.
	SchemaVersions() []string
	// DefaultSchemaVersion is used when a request names none.
	DefaultSchemaVersion() string
	// ValidInvoiceType reports whether code is an invoice kind (B2B, B2C,
	// B2G) or one of the authority's document type codes.
	ValidInvoiceType(code string) bool
	// Schema returns the JSON Schema document of a version.
	Schema(version string) ([]byte, bool)
	// Validate checks a payload against the schema and the business rules.
	// It returns an invalid *Error only for an unusable request (unknown
	// schema version, payload not an object); an invalid invoice is a report.
	Validate(in ValidateInput) (*ValidationReport, error)
	// GenerateIRN builds the IRN of an invoice. issueDate is YYYY-MM-DD.
	// Bad input is an invalid *Error with locations named after the
	// arguments ("invoice_reference", "service_id", "issue_date").
	GenerateIRN(invoiceReference, serviceID, issueDate string) (string, error)
	// ValidateIRN checks an IRN against the invoice reference and the
	// business's service id, reporting every check.
	ValidateIRN(irn, invoiceReference, serviceID string) IRNValidation
	// QRPayload builds the encrypted QR content for an IRN.
	QRPayload(in QRInput) (string, error)
	// Facts reads what submitting an invoice needs of its payload (an
	// object as decoded, numbers as json.Number), from the authority's own
	// field names, so that submission reads none of them.
	Facts(payload map[string]any) InvoiceFacts
	// SetIRN writes an IRN generated for a payload into it.
	SetIRN(payload map[string]any, irn string)
}

// InvoiceFacts are what submission reads of an invoice payload. Texts are
// trimmed; "" when the payload holds none.
type InvoiceFacts struct {
	// IRN is the payload's own IRN, upper-case.
	IRN string
	// IssueDate is YYYY-MM-DD; IssueTime HH:MM:SS.
	IssueDate string
	IssueTime string
	// InvoiceTypeCode is the authority's document type code ("381").
	InvoiceTypeCode string
	// CustomerTIN is the buyer's tax identification number.
	CustomerTIN string
	// PaymentStatus is upper-case.
	PaymentStatus string
	// BillingReferences are the invoices a credit or debit note refers
	// to, in the payload's order.
	BillingReferences []BillingReference
}

// BillingReference is one invoice a payload refers to.
type BillingReference struct {
	// IRN is the IRN referred to, upper-case; "" when the reference
	// names none.
	IRN string
	// ServiceID is the service id of the business the IRN belongs to;
	// "" when the IRN cannot be read.
	ServiceID string
	// Loc is where the IRN sits in the payload.
	Loc []any
}

// CodeList is one code list as the authority's API served it.
type CodeList struct {
	// Name is the authority's resource name ("payment-means").
	Name string
	// Data is the list as served (for NRS, the "data" array of the answer).
	Data []byte
	// FetchedAt is when einvoice fetched it.
	FetchedAt time.Time
}

// CodeListAuthority is an Authority whose code lists can be refreshed from
// its own API, per environment.
type CodeListAuthority interface {
	Authority
	// CodeListNames lists the resources to fetch, in order.
	CodeListNames() []string
	// CheckCodeList parses one list as served and returns its number of
	// entries; an unusable list is an error.
	CheckCodeList(name string, data []byte) (int, error)
	// UseCodeLists makes validation in env use lists (each replacing the
	// shipped list of its name); nil or empty goes back to the shipped
	// lists. It fails, changing nothing, when a list is unusable.
	UseCodeLists(env Environment, lists []CodeList) error
}

// Authorities is the registry of tax authorities keyed by upper-case
// tax_authority_code, aliases included.
type Authorities map[string]Authority

// NewAuthorities builds a registry. aliases maps an extra code to a canonical
// one ("FIRS" -> "NRS").
func NewAuthorities(list []Authority, aliases map[string]string) Authorities {
	r := Authorities{}
	for _, a := range list {
		r[strings.ToUpper(a.Code())] = a
	}
	for alias, canonical := range aliases {
		if a, ok := r[strings.ToUpper(canonical)]; ok {
			r[strings.ToUpper(alias)] = a
		}
	}
	return r
}

// Lookup finds an authority by code, case-insensitively.
func (r Authorities) Lookup(code string) (Authority, bool) {
	a, ok := r[strings.ToUpper(strings.TrimSpace(code))]
	return a, ok
}

// Codes lists every accepted code, aliases included, sorted.
func (r Authorities) Codes() []string {
	out := make([]string, 0, len(r))
	for c := range r {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}
