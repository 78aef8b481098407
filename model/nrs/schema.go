package nrs

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/einvoice-ng/einvoice/model"
)

//go:embed schemas/invoice-1.0.json schemas/invoice-1.1.json
var schemaFS embed.FS

// SchemaDocument returns the JSON Schema (draft 2020-12) document of a
// schema version as shipped, without compiling it: what the OpenAPI
// documents type invoice payloads with.
func SchemaDocument(version string) ([]byte, bool) {
	if !knownVersion(version) {
		return nil, false
	}
	data, err := schemaFS.ReadFile("schemas/invoice-" + version + ".json")
	return data, err == nil
}

// SchemaID returns the $id of a schema version's document.
func SchemaID(version string) string {
	return "https://einvoice.ng/schemas/nrs/invoice-" + version + ".json"
}

func compileVersion(v string) (*schemaVersion, error) {
	data, err := schemaFS.ReadFile("schemas/invoice-" + v + ".json")
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(SchemaID(v), doc); err != nil {
		return nil, err
	}
	sch, err := c.Compile(SchemaID(v))
	if err != nil {
		return nil, err
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("schema document is not an object")
	}
	return &schemaVersion{
		name:   v,
		v11:    v == SchemaVersion11,
		doc:    data,
		schema: sch,
		shape:  buildShape(root, root, 0),
	}, nil
}

// shape is the set of fields a schema version defines, derived from the
// schema document itself so that the unknown-field check can never disagree
// with the schema.
type shape struct {
	fields map[string]*shape // nil unless the node describes an object
	elem   *shape            // element shape of an array
}

// buildShape follows properties, items and local $refs ("#/$defs/x").
func buildShape(node, root map[string]any, depth int) *shape {
	if depth > 32 {
		return nil
	}
	s := &shape{}
	if ref, ok := node["$ref"].(string); ok && strings.HasPrefix(ref, "#/$defs/") {
		defs, _ := root["$defs"].(map[string]any)
		if target, ok := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any); ok {
			s = buildShape(target, root, depth+1)
		}
	}
	if props, ok := node["properties"].(map[string]any); ok {
		if s.fields == nil {
			s.fields = make(map[string]*shape, len(props))
		}
		for name, p := range props {
			if pm, ok := p.(map[string]any); ok {
				s.fields[name] = buildShape(pm, root, depth+1)
			}
		}
	}
	if items, ok := node["items"].(map[string]any); ok {
		s.elem = buildShape(items, root, depth+1)
	}
	return s
}

// finding is an issue plus where it came from, for merging.
type finding struct {
	model.Issue
	fromSchema bool
	// structural marks a schema finding that makes the value unusable (wrong
	// JSON type): business findings at or below it are follow-on noise.
	structural bool
}

// schemaFindings converts a validation error into one finding per leaf.
func schemaFindings(err error, payload any) []finding {
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return []finding{{Issue: model.Issue{Rule: RuleSchemaOther, Path: "", Loc: []any{}, Message: "payload cannot be checked against the schema"}, fromSchema: true, structural: true}}
	}
	var out []finding
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		loc := instanceLoc(e.InstanceLocation, payload)
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			for _, name := range k.Missing {
				l := append(append(make([]any, 0, len(loc)+1), loc...), name)
				out = append(out, schemaFinding(RuleSchemaRequired, name+" is required", l, false))
			}
		case *kind.Type:
			out = append(out, schemaFinding(RuleSchemaType,
				"must be "+article(strings.Join(k.Want, " or "))+", not "+article(k.Got), loc, true))
		case *kind.Pattern:
			out = append(out, schemaFinding(RuleSchemaPattern, "does not match the pattern "+k.Want, loc, false))
		case *kind.MinItems:
			out = append(out, schemaFinding(RuleSchemaMinItems,
				"must have at least "+strconv.Itoa(k.Want)+" element(s)", loc, false))
		case *kind.InvalidJsonValue:
			out = append(out, schemaFinding(RuleSchemaOther, "is not a JSON value", loc, true))
		default:
			kw := strings.Join(e.ErrorKind.KeywordPath(), "/")
			out = append(out, schemaFinding(RuleSchemaOther, "does not satisfy the schema keyword "+kw, loc, false))
		}
	}
	walk(verr)
	return out
}

func schemaFinding(rule, msg string, loc []any, structural bool) finding {
	return finding{
		Issue:      model.Issue{Rule: rule, Path: pointer(loc), Loc: loc, Message: msg},
		fromSchema: true,
		structural: structural,
	}
}

func article(t string) string {
	switch t {
	case "array", "object", "integer":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

// instanceLoc turns the validator's string segments into a loc, with array
// indexes as ints, by walking the payload alongside.
func instanceLoc(segs []string, payload any) []any {
	loc := make([]any, 0, len(segs))
	cur := payload
	for _, s := range segs {
		switch c := cur.(type) {
		case []any:
			if i, err := strconv.Atoi(s); err == nil && i >= 0 && i < len(c) {
				loc = append(loc, i)
				cur = c[i]
				continue
			}
			loc = append(loc, s)
			cur = nil
		case map[string]any:
			loc = append(loc, s)
			cur = c[s]
		default:
			loc = append(loc, s)
			cur = nil
		}
	}
	return loc
}

// pointer renders a loc as a JSON Pointer (RFC 6901).
func pointer(loc []any) string {
	if len(loc) == 0 {
		return ""
	}
	var b strings.Builder
	for _, seg := range loc {
		b.WriteByte('/')
		switch s := seg.(type) {
		case string:
			if strings.ContainsAny(s, "~/") {
				s = strings.ReplaceAll(s, "~", "~0")
				s = strings.ReplaceAll(s, "/", "~1")
			}
			b.WriteString(s)
		case int:
			b.WriteString(strconv.Itoa(s))
		default:
			fmt.Fprint(&b, s)
		}
	}
	return b.String()
}

// unknownFields walks the payload alongside the version's shape, reporting
// fields the version does not define and numbers outside the accepted range.
func (c *checker) unknownFields(v any, s *shape, loc []any) {
	switch x := v.(type) {
	case map[string]any:
		if s == nil || s.fields == nil {
			return
		}
		for k, child := range x {
			cs, ok := s.fields[k]
			l := append(loc, k)
			if !ok {
				msg := k + " is not a field of NRS schema " + c.ver.name
				if !c.ver.v11 && c.v11Field(l) {
					msg += " (it exists from 1.1)"
				}
				c.addLoc(RuleUnknownField, msg, l)
				continue
			}
			c.unknownFields(child, cs, l)
		}
	case []any:
		if s == nil || s.elem == nil {
			return
		}
		for i, e := range x {
			c.unknownFields(e, s.elem, append(loc, i))
		}
	case json.Number, float64, float32, int, int64, int32, uint64:
		if _, present, ok := parseNumber(x); present && !ok {
			c.addLoc(RuleNumberRange, "number has more than 18 integer digits or 30 decimals, or cannot be read", loc)
		}
	}
}

// v11Field reports whether loc names a field that schema 1.1 defines.
func (c *checker) v11Field(loc []any) bool {
	s := c.a.versions[SchemaVersion11].shape
	for _, seg := range loc {
		if s == nil {
			return false
		}
		switch x := seg.(type) {
		case string:
			if s.fields == nil {
				return false
			}
			s = s.fields[x]
		case int:
			s = s.elem
		}
	}
	return s != nil
}
