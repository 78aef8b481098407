package rest_test

import (
	"encoding/json"
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

func types(s map[string]any) []string {
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
	return nil
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
				checkProperty(t, where, f, p)
			}
			slices.Sort(required)
			slices.Sort(want)
			if !slices.Equal(required, want) {
				t.Errorf("%s %s: required %v, document %v", version, name, required, want)
			}
		}
	}
}

func checkProperty(t *testing.T, where string, f model.RequestField, p map[string]any) {
	t.Helper()
	wantType := map[model.FieldKind]string{
		model.KindString: "string", model.KindUUID: "string", model.KindStrings: "array",
		model.KindObject: "object", model.KindIntegerOrNull: "integer",
	}[f.Kind]
	if ts := types(p); !slices.Contains(ts, wantType) {
		t.Errorf("%s: type %v, want %s", where, ts, wantType)
	}
	if f.Kind == model.KindIntegerOrNull && !slices.Contains(types(p), "null") {
		t.Errorf("%s: null not allowed", where)
	}
	if f.Kind == model.KindUUID && p["format"] != "uuid" {
		t.Errorf("%s: format %v, want uuid", where, p["format"])
	}
	lo, hasLo := number(p["minLength"])
	hi, hasHi := number(p["maxLength"])
	if l := f.Length; l != nil {
		if !hasLo || !hasHi || lo != l.Min || hi != l.Max {
			t.Errorf("%s: minLength %v maxLength %v, document %d to %d", where, p["minLength"], p["maxLength"], l.Min, l.Max)
		}
	}
	switch {
	case f.Enum == nil:
	case slices.Equal(f.Enum, model.InvoiceKinds):
		// Read in any case: a pattern, not an enum, states it.
		pattern, _ := p["pattern"].(string)
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
		for _, e := range p["enum"].([]any) {
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
