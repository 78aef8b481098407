package rest

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/einvoice-ng/einvoice/model/nrs"
)

// nrsInvoiceVersion is the NRS invoice schema the documents type payloads
// with: the version a request without schema_version is validated against.
const nrsInvoiceVersion = nrs.SchemaVersion11

// addNRSInvoice brings the NRS invoice JSON Schema that
// /api/v2/invoices/schemas/NRS/1.1 serves into the document's component
// schemas, in a form every code generator reads: the document itself as
// NRSInvoice, each object of its $defs as NRS<Name> (party as NRSParty),
// scalar $defs (dates, amounts, ids) written out where they are used, a
// value that may be an object or an array as a oneOf of the two, and
// numbers (amounts, quantities, rates) as "format: double", which code
// generators read as 64-bit floats rather than float32. The
// schema is the one source: a change to it changes the documents.
func addNRSInvoice(doc map[string]any) error {
	raw, ok := nrs.SchemaDocument(nrsInvoiceVersion)
	if !ok {
		return fmt.Errorf("no NRS invoice schema %s", nrsInvoiceVersion)
	}
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil {
		return fmt.Errorf("NRS invoice schema %s: %w", nrsInvoiceVersion, err)
	}
	defs, _ := root["$defs"].(map[string]any)
	c := nrsConverter{defs: defs, out: map[string]any{}}
	// Objects first, so that a oneOf branch equal to one of them refers to it.
	for _, name := range slices.Sorted(maps.Keys(defs)) {
		if def, _ := defs[name].(map[string]any); def["type"] == "object" || isTypeList(def) {
			c.out[nrsComponentName(name)] = nil
		}
	}
	for _, pass := range []func(def map[string]any) bool{
		func(def map[string]any) bool { return def["type"] == "object" },
		isTypeList,
	} {
		for _, name := range slices.Sorted(maps.Keys(defs)) {
			if def, _ := defs[name].(map[string]any); pass(def) {
				c.out[nrsComponentName(name)] = c.convert(def)
			}
		}
	}
	invoice := c.convert(root)
	delete(invoice, "$schema")
	delete(invoice, "$id")
	delete(invoice, "$defs")
	invoice["description"] = fmt.Sprintf("%s\n\nThe JSON Schema itself: GET /api/v2/invoices/schemas/NRS/%s.", invoice["description"], nrsInvoiceVersion)
	c.out["NRSInvoice"] = invoice

	components, _ := doc["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	if schemas == nil {
		return fmt.Errorf("openapi.yaml: no components.schemas")
	}
	for name, s := range c.out {
		if _, taken := schemas[name]; taken {
			return fmt.Errorf("openapi.yaml: component %s is the NRS schema's", name)
		}
		schemas[name] = s
	}
	// Keep only what the document uses: an unused $def is no component.
	used := map[string]bool{}
	var mark func(v any)
	mark = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			if r, ok := t["$ref"].(string); ok {
				name := strings.TrimPrefix(r, "#/components/schemas/")
				if s, ok := c.out[name]; ok && !used[name] {
					used[name] = true
					mark(s)
				}
			}
			for _, e := range t {
				mark(e)
			}
		case []any:
			for _, e := range t {
				mark(e)
			}
		}
	}
	mark(doc["paths"])
	for name, s := range schemas {
		if _, ours := c.out[name]; !ours {
			mark(s)
		}
	}
	for name := range c.out {
		if !used[name] {
			delete(schemas, name)
		}
	}
	return nil
}

// nrsComponentName names the component of a $def: party is NRSParty,
// invoice_line NRSInvoiceLine.
func nrsComponentName(def string) string {
	var b strings.Builder
	b.WriteString("NRS")
	for _, part := range strings.Split(def, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

func isTypeList(s map[string]any) bool {
	_, ok := s["type"].([]any)
	return ok
}

type nrsConverter struct {
	defs map[string]any
	out  map[string]any // component name -> schema (nil while pending)
}

// convert returns a copy of the schema s with its $defs references
// rewritten.
func (c nrsConverter) convert(s map[string]any) map[string]any {
	if r, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(r, "#/$defs/")
		if _, component := c.out[nrsComponentName(name)]; component {
			out := map[string]any{"$ref": "#/components/schemas/" + nrsComponentName(name)}
			if d, ok := s["description"]; ok {
				out["description"] = d
			}
			return out
		}
		// A scalar: written out, the place's own keywords winning.
		def, _ := c.defs[name].(map[string]any)
		out := c.convert(def)
		for k, v := range s {
			if k != "$ref" {
				out[k] = deepCopy(v)
			}
		}
		return out
	}
	if types, ok := s["type"].([]any); ok {
		return c.split(s, types)
	}
	out := make(map[string]any, len(s))
	if s["type"] == "number" && s["format"] == nil {
		// Amounts: generators read a number without a format as float32.
		out["format"] = "double"
	}
	for k, v := range s {
		switch k {
		case "properties":
			props, _ := v.(map[string]any)
			conv := make(map[string]any, len(props))
			for name, p := range props {
				pm, _ := p.(map[string]any)
				conv[name] = c.convert(pm)
			}
			out[k] = conv
		case "items", "additionalProperties":
			if sub, ok := v.(map[string]any); ok {
				out[k] = c.convert(sub)
			} else {
				out[k] = v
			}
		case "oneOf", "anyOf", "allOf":
			list, _ := v.([]any)
			conv := make([]any, len(list))
			for i, e := range list {
				em, _ := e.(map[string]any)
				conv[i] = c.convert(em)
			}
			out[k] = conv
		default:
			out[k] = deepCopy(v)
		}
	}
	return out
}

// keywordsOf lists the keywords that apply to one JSON type.
var keywordsOf = map[string][]string{
	"object": {"required", "properties", "additionalProperties", "minProperties", "maxProperties"},
	"array":  {"items", "minItems", "maxItems", "uniqueItems"},
	"string": {"pattern", "minLength", "maxLength", "format", "enum"},
	"number": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
}

// split writes a schema of several types as a oneOf with one branch per
// type (the types exclude one another, so oneOf and the type list mean the
// same), each with the keywords that apply to it; a branch equal to a
// component refers to it.
func (c nrsConverter) split(s map[string]any, types []any) map[string]any {
	out := map[string]any{}
	typed := map[string]bool{"type": true}
	for _, kws := range keywordsOf {
		for _, k := range kws {
			typed[k] = true
		}
	}
	for k, v := range s {
		if !typed[k] {
			out[k] = deepCopy(v)
		}
	}
	var branches []any
	for _, t := range types {
		name, _ := t.(string)
		b := map[string]any{"type": name}
		for _, k := range keywordsOf[name] {
			if v, ok := s[k]; ok {
				b[k] = v
			}
		}
		conv := c.convert(b)
		for comp, schema := range c.out {
			if schema != nil && reflect.DeepEqual(withoutDescription(schema.(map[string]any)), conv) {
				conv = map[string]any{"$ref": "#/components/schemas/" + comp}
				break
			}
		}
		branches = append(branches, conv)
	}
	out["oneOf"] = branches
	return out
}

func withoutDescription(s map[string]any) map[string]any {
	out := maps.Clone(s)
	delete(out, "description")
	return out
}
