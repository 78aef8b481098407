package model

// The bounds and defaults of the interface document (docs/interface.md),
// stated once. Validation uses these values, the conformance tests of both
// transports are built from Requests, and tests check that the OpenAPI
// documents and the GraphQL schema say the same.

// Length bounds a string's length, inclusive, in characters: Unicode code
// points, never bytes. A name of 255 "é" is 255 characters long.
type Length struct{ Min, Max int }

// The lengths of the interface document's Limits table.
var (
	EmailLength    = Length{Min: 3, Max: 255}
	PasswordLength = Length{Min: 8, Max: 255}
	// NameLength bounds organization and project names.
	NameLength    = Length{Min: 2, Max: 255}
	SlugLength    = Length{Min: 2, Max: 100}
	KeyNameLength = Length{Min: 2, Max: 255}
)

// ClearanceDeadlineMinutes bounds a project's clearance_deadline_minutes:
// how long after it was accepted a B2B or B2G invoice must be cleared, from
// one minute to 72 hours; DefaultClearanceDeadlineMinutes when never set.
var ClearanceDeadlineMinutes = struct{ Min, Max int }{Min: 1, Max: 72 * 60}

// DefaultClearanceDeadlineMinutes is a project's clearance deadline until
// it sets one: an hour.
const DefaultClearanceDeadlineMinutes = 60

// QueueRatePerMinute bounds a project's queue_rate_per_minute: how many of
// its waiting invoices are sent a minute once NRS answers again, from one
// to 6,000 (100 a second); the operator's default
// (EINVOICE_INVOICE_QUEUE_RATE) when never set or set to null.
var QueueRatePerMinute = struct{ Min, Max int }{Min: 1, Max: 6000}

// The interface document's defaults.
const (
	DefaultEnvironment   = EnvironmentSandbox
	DefaultSchemaVersion = "1.1"
)

// FieldKind is the JSON type of a request field.
type FieldKind string

// Field kinds, as the interface document's Type column names them.
const (
	KindString  FieldKind = "string"
	KindUUID    FieldKind = "uuid"
	KindStrings FieldKind = "array of string"
	KindObject  FieldKind = "object"
	// KindIntegerOrNull is an integer, or null meaning "not given".
	KindIntegerOrNull FieldKind = "integer or null"
)

// RequestField is one field of a request body as the interface document
// states it.
type RequestField struct {
	// Name is the JSON name in the body.
	Name     string
	Kind     FieldKind
	Required bool
	// Length bounds a string field; nil when the document gives none.
	Length *Length
	// Enum lists the allowed values (invoice kinds are read with
	// ParseInvoiceKind's case rule); nil when any value of Kind is allowed.
	Enum []string
	// Default is the value an absent optional field takes ("" when none).
	Default string
	// Extension marks a field einvoice adds beyond the interface document,
	// whose tables do not list it; it is validated, documented and tested
	// like the document's fields.
	Extension bool
}

// Request is a request body of the interface document.
type Request struct {
	// Name is the document's name of the body, such as "SignupRequest".
	Name   string
	Fields []RequestField
}

// Field returns the field called name.
func (r Request) Field(name string) (RequestField, bool) {
	for _, f := range r.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return RequestField{}, false
}

// Requests lists every request body of the interface document with its
// fields, bounds and defaults, in the document's order, and the fields
// einvoice adds to those bodies (Extension).
var Requests = []Request{
	{Name: "SignupRequest", Fields: []RequestField{
		{Name: "email", Kind: KindString, Required: true, Length: &EmailLength},
		{Name: "password", Kind: KindString, Required: true, Length: &PasswordLength},
		{Name: "organization_name", Kind: KindString, Required: true, Length: &NameLength},
		{Name: "organization_slug", Kind: KindString, Required: true, Length: &SlugLength},
	}},
	{Name: "LoginRequest", Fields: []RequestField{
		{Name: "email", Kind: KindString, Required: true, Length: &EmailLength},
		{Name: "password", Kind: KindString, Required: true, Length: &PasswordLength},
	}},
	{Name: "OrganizationCreate", Fields: []RequestField{
		{Name: "name", Kind: KindString, Required: true, Length: &NameLength},
		{Name: "slug", Kind: KindString, Required: true, Length: &SlugLength},
	}},
	{Name: "ProjectCreate", Fields: []RequestField{
		{Name: "organization_id", Kind: KindUUID, Required: true},
		{Name: "name", Kind: KindString, Required: true, Length: &NameLength},
		{Name: "environment", Kind: KindString, Enum: Environments, Default: string(DefaultEnvironment)},
	}},
	{Name: "ApiKeyCreate", Fields: []RequestField{
		{Name: "key_name", Kind: KindString, Required: true, Length: &KeyNameLength},
		{Name: "scopes", Kind: KindStrings},
	}},
	{Name: "InvoiceSchemaValidateRequest", Fields: []RequestField{
		{Name: "invoice_type_code", Kind: KindString, Required: true},
		{Name: "tax_authority_code", Kind: KindString, Required: true},
		{Name: "schema_version", Kind: KindString, Default: DefaultSchemaVersion},
		{Name: "payload", Kind: KindObject, Required: true},
		// Absent, the project's validation_profile: no fixed default.
		{Name: "profile", Kind: KindString, Enum: ValidationProfiles, Extension: true},
	}},
	{Name: "IrnGenerateRequest", Fields: []RequestField{
		{Name: "invoice_reference", Kind: KindString, Required: true},
		{Name: "invoice_type_code", Kind: KindString, Required: true},
		{Name: "tax_authority_code", Kind: KindString, Required: true},
		{Name: "issue_date", Kind: KindString, Required: true},
	}},
	{Name: "IrnValidateRequest", Fields: []RequestField{
		{Name: "invoice_reference", Kind: KindString, Required: true},
		{Name: "business_id", Kind: KindUUID, Required: true},
		{Name: "irn", Kind: KindString, Required: true},
	}},
	{Name: "QrGenerateRequest", Fields: []RequestField{
		{Name: "irn", Kind: KindString, Required: true},
		{Name: "timestamp", Kind: KindIntegerOrNull},
	}},
	{Name: "RenderRequest", Fields: []RequestField{
		{Name: "invoice_type", Kind: KindString, Required: true, Enum: InvoiceKinds},
		{Name: "payload", Kind: KindObject, Required: true},
	}},
	{Name: "CertificationRunRequest", Fields: []RequestField{
		{Name: "invoice_type", Kind: KindString, Required: true, Enum: InvoiceKinds},
		{Name: "issue_date", Kind: KindString, Required: true},
		{Name: "invoice_payload", Kind: KindObject},
	}},
}

// RequestNamed returns the request body called name.
func RequestNamed(name string) (Request, bool) {
	for _, r := range Requests {
		if r.Name == name {
			return r, true
		}
	}
	return Request{}, false
}

// The bounds of an invoice batch (POST /api/v2/invoices/batch and the
// submitInvoiceBatch mutation).
const (
	// MaxBatchItems is the most invoices one batch may hold; a batch of
	// none or of more is refused whole (invalid) and nothing is stored.
	MaxBatchItems = 100
	// MaxBatchBytes bounds the body of POST /api/v2/invoices/batch: 5 MiB.
	// A larger body is refused with payload_too_large (413) before any
	// of it is decoded. Other routes keep the router's body bound.
	MaxBatchBytes = 5 << 20
)
