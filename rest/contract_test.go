package rest_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/rest"
)

// openAPISchemas names the OpenAPI schema of each request body of the
// interface document.
var openAPISchemas = map[string]string{
	"SignupRequest": "SignupRequest", "LoginRequest": "LoginRequest", "OrganizationCreate": "OrganizationRequest",
	"ProjectCreate": "ProjectRequest", "ApiKeyCreate": "KeyRequest", "InvoiceSchemaValidateRequest": "ValidateInvoiceRequest",
	"IrnGenerateRequest": "IRNRequest", "IrnValidateRequest": "ValidateIRNRequest", "QrGenerateRequest": "QRRequest",
	"RenderRequest": "RenderRequest", "CertificationRunRequest": "CertificationRequest",
}

// openAPIDoc is a served document with $ref resolution.
type openAPIDoc struct {
	raw map[string]any
}

func loadOpenAPI(t *testing.T, version string) openAPIDoc {
	t.Helper()
	b, err := rest.OpenAPI(version)
	if err != nil {
		t.Fatal(err)
	}
	var d openAPIDoc
	if err := json.Unmarshal(b, &d.raw); err != nil {
		t.Fatal(err)
	}
	return d
}

// schema returns a component schema.
func (d openAPIDoc) schema(name string) map[string]any {
	c, _ := d.raw["components"].(map[string]any)
	s, _ := c["schemas"].(map[string]any)
	out, _ := s[name].(map[string]any)
	return out
}

// resolve merges a schema with the one its $ref names (the schema's own
// keywords win, as OpenAPI 3.1 allows siblings of $ref).
func (d openAPIDoc) resolve(s map[string]any) map[string]any {
	ref, ok := s["$ref"].(string)
	if !ok {
		return s
	}
	out := map[string]any{}
	for k, v := range d.resolve(d.schema(strings.TrimPrefix(ref, "#/components/schemas/"))) {
		out[k] = v
	}
	for k, v := range s {
		if k != "$ref" {
			out[k] = v
		}
	}
	return out
}

func number(v any) (int, bool) {
	f, ok := v.(float64)
	return int(f), ok
}

// types lists the JSON types a schema allows: its type, or those of its
// anyOf or oneOf branches (how the documents say "or null").
func (d openAPIDoc) types(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			out = append(out, e.(string))
		}
		return out
	}
	var out []string
	for _, k := range []string{"anyOf", "oneOf"} {
		branches, _ := s[k].([]any)
		for _, b := range branches {
			bm, _ := b.(map[string]any)
			out = append(out, d.types(d.resolve(bm))...)
		}
	}
	return out
}

// branch returns the first anyOf or oneOf branch of s that is not null, or
// s itself: where the bounds of a nullable value are stated.
func (d openAPIDoc) branch(s map[string]any) map[string]any {
	for _, k := range []string{"anyOf", "oneOf"} {
		branches, _ := s[k].([]any)
		for _, b := range branches {
			if bm, _ := b.(map[string]any); bm["type"] != "null" {
				return d.resolve(bm)
			}
		}
	}
	return s
}

// TestOpenAPIStatesTheBounds checks both OpenAPI documents against
// model.Requests, the interface document's tables: every request schema is
// closed, requires exactly the required fields, and states each field's
// type, length (minLength, maxLength), allowed values and default.
func TestOpenAPIStatesTheBounds(t *testing.T) {
	if len(openAPISchemas) != len(model.Requests) {
		t.Fatalf("%d schemas mapped for %d request bodies", len(openAPISchemas), len(model.Requests))
	}
	for _, version := range []string{"v2", "v1"} {
		doc := loadOpenAPI(t, version)
		for _, req := range model.Requests {
			name := openAPISchemas[req.Name]
			s := doc.schema(name)
			if s == nil {
				t.Errorf("%s: no schema %s", version, name)
				continue
			}
			if s["additionalProperties"] != false {
				t.Errorf("%s %s: not closed (additionalProperties: false)", version, name)
			}
			var required []string
			for _, r := range s["required"].([]any) {
				required = append(required, r.(string))
			}
			props, _ := s["properties"].(map[string]any)
			var want []string
			for _, f := range req.Fields {
				if f.Required {
					want = append(want, f.Name)
				}
				where := version + " " + name + "." + f.Name
				p, ok := props[f.Name].(map[string]any)
				if !ok {
					t.Errorf("%s: not documented", where)
					continue
				}
				p = doc.resolve(p)
				checkProperty(t, doc, where, f, p)
			}
			slices.Sort(required)
			slices.Sort(want)
			if !slices.Equal(required, want) {
				t.Errorf("%s %s: required %v, document %v", version, name, required, want)
			}
		}
	}
}

func checkProperty(t *testing.T, doc openAPIDoc, where string, f model.RequestField, p map[string]any) {
	t.Helper()
	wantType := map[model.FieldKind]string{
		model.KindString: "string", model.KindUUID: "string", model.KindStrings: "array",
		model.KindObject: "object", model.KindIntegerOrNull: "integer",
	}[f.Kind]
	if ts := doc.types(p); !slices.Contains(ts, wantType) {
		t.Errorf("%s: type %v, want %s", where, ts, wantType)
	}
	if f.Kind == model.KindIntegerOrNull && !slices.Contains(doc.types(p), "null") {
		t.Errorf("%s: null not allowed", where)
	}
	b := doc.branch(p) // a nullable value states its bounds in its other branch
	if f.Kind == model.KindUUID && b["format"] != "uuid" {
		t.Errorf("%s: format %v, want uuid", where, b["format"])
	}
	lo, hasLo := number(b["minLength"])
	hi, hasHi := number(b["maxLength"])
	if l := f.Length; l != nil {
		if !hasLo || !hasHi || lo != l.Min || hi != l.Max {
			t.Errorf("%s: minLength %v maxLength %v, document %d to %d", where, b["minLength"], b["maxLength"], l.Min, l.Max)
		}
	}
	switch {
	case f.Enum == nil:
	case slices.Equal(f.Enum, model.InvoiceKinds):
		// Read in any case: a pattern, not an enum, states it.
		pattern, _ := b["pattern"].(string)
		re, err := regexp.Compile(pattern)
		if err != nil {
			t.Errorf("%s: pattern: %v", where, err)
			break
		}
		for _, k := range f.Enum {
			for _, v := range []string{k, strings.ToLower(k), " " + k} {
				if !re.MatchString(v) {
					t.Errorf("%s: pattern %s refuses %q", where, re, v)
				}
			}
		}
		for _, v := range []string{"B2X", "B2BB", "381", ""} {
			if re.MatchString(v) {
				t.Errorf("%s: pattern %s allows %q", where, re, v)
			}
		}
	default:
		var enum []string
		for _, e := range b["enum"].([]any) {
			enum = append(enum, e.(string))
		}
		if !slices.Equal(enum, f.Enum) {
			t.Errorf("%s: enum %v, document %v", where, enum, f.Enum)
		}
	}
	def, hasDef := p["default"]
	switch {
	case f.Default == "" && hasDef:
		t.Errorf("%s: default %v, document none", where, def)
	case f.Default != "" && def != f.Default:
		t.Errorf("%s: default %v, document %q", where, def, f.Default)
	}
}

// TestOpenAPIBodyErrors: every operation with a body documents the 415 of
// a body not sent as JSON, and the error codes include it.
func TestOpenAPIBodyErrors(t *testing.T) {
	for _, version := range []string{"v2", "v1"} {
		doc := loadOpenAPI(t, version)
		paths := doc.raw["paths"].(map[string]any)
		n := 0
		for path, item := range paths {
			for method, op := range item.(map[string]any) {
				o, ok := op.(map[string]any)
				if !ok || o["requestBody"] == nil {
					continue
				}
				n++
				if _, ok := o["responses"].(map[string]any)["415"]; !ok {
					t.Errorf("%s %s %s: no 415", version, method, path)
				}
			}
		}
		if n < len(model.Requests) {
			t.Errorf("%s: only %d operations take a body", version, n)
		}
		var codes []string
		for _, c := range doc.schema("ErrorCode")["enum"].([]any) {
			codes = append(codes, c.(string))
		}
		if !slices.Contains(codes, string(model.CodeUnsupportedMediaType)) {
			t.Errorf("%s: ErrorCode lacks unsupported_media_type", version)
		}
	}
}

// generatedNames are the names code generators give an operation's own
// types, by operation id ("signup" -> "SignupResponse"): a component schema
// of one of these names collides with them (oapi-codegen, ogen).
var generatedNames = []string{"Response", "Params", "JSONBody", "JSONRequestBody", "RequestBody", "Res", "OK", "Req", "Created"}

// TestOpenAPIGeneratorForms keeps the documents in the forms every client
// generator of the CI step (make clients) reads: no type lists (a nullable
// value is an anyOf with {"type":"null"}), no writeOnly or readOnly, no
// default beside a $ref, no component named after an operation's generated
// types, every operation with a unique id, a summary, a description and a
// 4xx response, and no unused component. make clients runs the generators themselves.
func TestOpenAPIGeneratorForms(t *testing.T) {
	for _, version := range []string{"v2", "v1"} {
		doc := loadOpenAPI(t, version)
		var walk func(where string, v any)
		walk = func(where string, v any) {
			switch n := v.(type) {
			case map[string]any:
				if _, list := n["type"].([]any); list {
					t.Errorf("%s %s: type is a list; write anyOf: [{type: …}, {type: \"null\"}]", version, where)
				}
				for _, k := range []string{"writeOnly", "readOnly"} {
					if n[k] == true {
						t.Errorf("%s %s: %s (generators make the field a pointer or drop it); say it in the description", version, where, k)
					}
				}
				if _, isRef := n["$ref"]; isRef {
					if _, def := n["default"]; def {
						t.Errorf("%s %s: a default beside $ref makes the field required in generated TypeScript; put it in the referenced schema", version, where)
					}
				}
				for k, e := range n {
					walk(where+"/"+k, e)
				}
			case []any:
				for i, e := range n {
					walk(fmt.Sprintf("%s/%d", where, i), e)
				}
			}
		}
		walk("#", doc.raw)

		schemas := doc.raw["components"].(map[string]any)["schemas"].(map[string]any)
		ids := map[string]bool{}
		for path, item := range doc.raw["paths"].(map[string]any) {
			for method, o := range item.(map[string]any) {
				op, _ := o.(map[string]any)
				id, _ := op["operationId"].(string)
				where := version + " " + strings.ToUpper(method) + " " + path
				if id == "" || ids[id] {
					t.Errorf("%s: operationId %q missing or repeated", where, id)
					continue
				}
				ids[id] = true
				for _, k := range []string{"summary", "description"} {
					if s, _ := op[k].(string); strings.TrimSpace(s) == "" {
						t.Errorf("%s: no %s", where, k)
					}
				}
				clientError := false
				for code := range op["responses"].(map[string]any) {
					clientError = clientError || strings.HasPrefix(code, "4")
				}
				if !clientError {
					t.Errorf("%s: no 4xx response", where)
				}
				for _, suffix := range generatedNames {
					name := strings.ToUpper(id[:1]) + id[1:] + suffix
					if _, taken := schemas[name]; taken {
						t.Errorf("%s: component schema %s collides with a generated type of operation %s", version, name, id)
					}
				}
			}
		}
		if unused := rest.UnusedComponents(doc.raw); len(unused) > 0 {
			t.Errorf("%s: unused components %v", version, unused)
		}
	}
}
