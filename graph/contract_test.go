package graph_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// gqlInputs names the GraphQL input of each request body GraphQL takes.
var gqlInputs = map[string]string{
	"SignupRequest": "SignupInput", "LoginRequest": "LoginInput", "OrganizationCreate": "CreateOrganizationInput",
	"ProjectCreate": "CreateProjectInput", "ApiKeyCreate": "CreateApiKeyInput", "CertificationRunRequest": "StartCertificationRunInput",
}

func loadSchema(t *testing.T) *ast.Schema {
	t.Helper()
	files, err := filepath.Glob("*.graphqls")
	if err != nil || len(files) == 0 {
		t.Fatalf("schema files: %v %v", files, err)
	}
	var sources []*ast.Source
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, &ast.Source{Name: f, Input: string(b)})
	}
	s, gerr := gqlparser.LoadSchema(sources...)
	if gerr != nil {
		t.Fatal(gerr)
	}
	return s
}

// TestSchemaStatesTheBounds checks the GraphQL inputs against
// model.Requests, the interface document's tables: every field is there,
// non-null exactly when required (and without a default), its description
// states its length as "N to M characters", an enum field lists the
// allowed values and its default is the document's, and each input says
// that lengths count characters.
func TestSchemaStatesTheBounds(t *testing.T) {
	schema := loadSchema(t)
	if len(gqlInputs) != len(gqlRequestBodies) {
		t.Fatal("gqlInputs and gqlRequestBodies disagree")
	}
	for _, name := range gqlRequestBodies {
		req, _ := model.RequestNamed(name)
		def := schema.Types[gqlInputs[name]]
		if def == nil || def.Kind != ast.InputObject {
			t.Fatalf("%s: no input %s", name, gqlInputs[name])
		}
		bounded := slices.ContainsFunc(req.Fields, func(f model.RequestField) bool { return f.Length != nil })
		if bounded && !strings.Contains(def.Description, "Unicode code points") {
			t.Errorf("%s: description does not say lengths count characters (Unicode code points)", def.Name)
		}
		for _, f := range req.Fields {
			where := def.Name + "." + camel(f.Name)
			fd := def.Fields.ForName(camel(f.Name))
			if fd == nil {
				t.Errorf("%s: missing", where)
				continue
			}
			if required := fd.Type.NonNull && fd.DefaultValue == nil; required != f.Required {
				t.Errorf("%s: required %v, document %v", where, required, f.Required)
			}
			if l := f.Length; l != nil {
				if want := fmt.Sprintf("%d to %d characters", l.Min, l.Max); !strings.Contains(fd.Description, want) {
					t.Errorf("%s: description %q does not state %q", where, fd.Description, want)
				}
			}
			switch {
			case f.Enum == nil:
			case slices.Equal(f.Enum, model.InvoiceKinds):
				if !strings.Contains(fd.Description, "B2B, B2C or B2G") || !strings.Contains(fd.Description, "any case") {
					t.Errorf("%s: description %q does not state B2B, B2C or B2G in any case", where, fd.Description)
				}
			default:
				enum := schema.Types[fd.Type.Name()]
				if enum == nil || enum.Kind != ast.Enum {
					t.Errorf("%s: %s is not an enum", where, fd.Type.Name())
					break
				}
				var values []string
				for _, v := range enum.EnumValues {
					values = append(values, strings.ToLower(v.Name))
				}
				if !slices.Equal(values, f.Enum) {
					t.Errorf("%s: values %v, document %v", where, values, f.Enum)
				}
			}
			got := ""
			if fd.DefaultValue != nil {
				got = strings.ToLower(fd.DefaultValue.Raw)
			}
			if got != f.Default {
				t.Errorf("%s: default %q, document %q", where, got, f.Default)
			}
		}
	}
}

// TestNamesRefuseControlCharacters: GraphQL refuses control and
// bidirectional formatting characters in names as REST does, with invalid
// and value_error at the field, on both dialects, storing nothing.
func TestNamesRefuseControlCharacters(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		s := conformanceServer(t, d)
		tn := s.tenant("acme")
		for name, v := range map[string]string{"NUL": "Acme\x00Ltd", "newline": "Acme\nLtd", "C1": "Acme\u009bLtd",
			"RLO": "Acme\u202edtL", "RLI": "\u2067Acme", "LRM": "Acme\u200e"} {
			t.Run(name, func(t *testing.T) {
				for _, c := range []struct {
					query string
					input map[string]any
					loc   string
				}{
					{signupMutation, map[string]any{"email": "n@example.com", "password": "correct horse battery",
						"organizationName": v, "organizationSlug": "nul"}, "value_error@input/organizationName"},
					{`mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }`,
						map[string]any{"name": v, "slug": "nul"}, "value_error@input/name"},
					{createProjectMutation, map[string]any{"organizationId": tn.OrgID, "name": v}, "value_error@input/name"},
					{createKeyMutation, map[string]any{"projectId": tn.ProjectID, "keyName": v}, "value_error@input/keyName"},
					{`mutation($input: LoginInput!) { login(input: $input) { accessToken } }`,
						map[string]any{"email": "acme\x00@example.com", "password": "correct horse battery"}, "value_error@input/email"},
				} {
					token := tn.Token
					if strings.Contains(c.query, "SignupInput") || strings.Contains(c.query, "LoginInput") {
						token = ""
					}
					if got := s.do(token, c.query, map[string]any{"input": c.input}).locs(t); !slices.Equal(got, []string{c.loc}) {
						t.Fatalf("%s: got %v, want [%s]", c.loc, got, c.loc)
					}
				}
			})
		}
		var me struct {
			Me struct {
				Organizations struct {
					Edges []struct {
						Node struct{ Projects struct{ Edges []any } }
					}
				}
			}
		}
		s.must(tn.Token, `{ me { organizations { edges { node { projects { edges { cursor } } } } } } }`, nil, &me)
		if orgs := me.Me.Organizations.Edges; len(orgs) != 1 || len(orgs[0].Node.Projects.Edges) != 1 {
			t.Fatalf("refused names were stored: %+v", me)
		}
	})
}
