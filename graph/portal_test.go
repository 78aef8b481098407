package graph_test

import (
	"context"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

const meQuery = `query($from: String, $to: String) {
  me {
    id email createdAt
    organizations {
      edges { cursor node {
        id name slug role createdAt
        projects {
          edges { cursor node {
            id organizationId name environment createdAt
            organization { id slug }
            authority { taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials }
            apiKeys { edges { cursor node { id projectId keyName clientId secretLast4 scopes status createdAt lastUsedAt rotatedAt revokedAt } } pageInfo { hasNextPage endCursor } }
            usage(from: $from, to: $to) { projectId from to total byOperation { operation count } daily { date operation count } }
          } }
          pageInfo { hasNextPage endCursor }
        }
      } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`

// meTree is meQuery's answer.
type meTree struct {
	Me struct {
		ID, Email     string
		Organizations struct {
			Edges []struct {
				Cursor string
				Node   struct {
					ID, Name, Slug, Role string
					Projects             struct {
						Edges []struct {
							Node struct {
								ID, OrganizationID, Name, Environment string
								Organization                          struct{ ID, Slug string }
								Authority                             struct {
									TaxAuthorityCode string
									BusinessID       *string
									Configured       bool
								}
								APIKeys struct {
									Edges []struct {
										Node struct {
											ID, KeyName, ClientID, SecretLast4, Status string
											Scopes                                     []string
										}
									}
									PageInfo struct{ HasNextPage bool }
								}
								Usage struct {
									ProjectID   string
									Total       int
									ByOperation []struct {
										Operation string
										Count     int
									}
									Daily []struct {
										Date, Operation string
										Count           int
									}
								}
							}
						}
					}
				}
			}
			PageInfo struct {
				HasNextPage bool
				EndCursor   *string
			}
		}
	}
}

// TestPortalFlow walks the portal's whole life through GraphQL: signup,
// organization, project, authority, keys (create, rotate, revoke), login,
// the me tree with usage, and the audit log.
func TestPortalFlow(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		s := newServer(t, d, graph.Options{})
		tn := s.tenant("acme")

		// A second organization and a production project in it.
		var org struct {
			CreateOrganization struct{ ID, Name, Slug, Role string }
		}
		s.must(tn.Token, `mutation { createOrganization(input: {name: "Acme Export", slug: "acme-export"}) { id name slug role createdAt } }`, nil, &org)
		if o := org.CreateOrganization; o.Role != "OWNER" || o.Slug != "acme-export" || o.Name != "Acme Export" {
			t.Fatalf("createOrganization = %+v", o)
		}
		var prod struct {
			CreateProject struct {
				ID, Environment string
				Authority       struct{ Configured bool }
			}
		}
		s.must(tn.Token, createProjectMutation, map[string]any{"input": map[string]any{
			"organizationId": org.CreateOrganization.ID, "name": "Exports", "environment": "PRODUCTION",
		}}, &prod)
		if prod.CreateProject.Environment != "PRODUCTION" || prod.CreateProject.Authority.Configured {
			t.Fatalf("production project = %+v", prod.CreateProject)
		}

		// Configure its authority with the sandbox key pair.
		k, err := apptest.SandboxKeys()
		if err != nil {
			t.Fatal(err)
		}
		var upd struct {
			UpdateProjectAuthority struct {
				Authority struct {
					BusinessID, ServiceID, PublicKeyFingerprint *string
					Configured, HasAPICredentials               bool
				}
			}
		}
		s.must(tn.Token, `mutation($id: ID!, $input: UpdateProjectAuthorityInput!) {
		  updateProjectAuthority(projectId: $id, input: $input) { id authority { businessId serviceId configured publicKeyFingerprint hasApiCredentials } }
		}`, map[string]any{"id": prod.CreateProject.ID, "input": map[string]any{
			"taxAuthorityCode": "NRS", "businessId": "0a1b2c3d-0000-4000-8000-000000000001", "serviceId": "ABCD1234",
			"publicKey": k.PublicKeyPEM, "certificate": k.Certificate, "apiKey": "nrs-key", "apiSecret": "nrs-secret",
		}}, &upd)
		if a := upd.UpdateProjectAuthority.Authority; !a.Configured || !a.HasAPICredentials || a.PublicKeyFingerprint == nil || *a.ServiceID != "ABCD1234" {
			t.Fatalf("updateProjectAuthority = %+v", a)
		}

		// Rotate the first key with a grace period, then revoke it.
		var rot struct{ RotateAPIKey keyPayload }
		s.must(tn.Token, `mutation($p: ID!, $k: ID!) { rotateApiKey(projectId: $p, keyId: $k, graceSeconds: 60) { key { id secretLast4 status } clientSecret } }`,
			map[string]any{"p": tn.ProjectID, "k": tn.KeyID}, &rot)
		if r := rot.RotateAPIKey; r.ClientSecret == "" || r.ClientSecret == tn.Secret || !strings.HasSuffix(r.ClientSecret, r.Key.SecretLast4) {
			t.Fatalf("rotateApiKey = %+v", r)
		}
		var rev struct {
			RevokeAPIKey struct{ ID, Status, RevokedAt string }
		}
		s.must(tn.Token, `mutation($p: ID!, $k: ID!) { revokeApiKey(projectId: $p, keyId: $k) { id status revokedAt } }`,
			map[string]any{"p": tn.ProjectID, "k": tn.KeyID}, &rev)
		if rev.RevokeAPIKey.Status != "REVOKED" || rev.RevokeAPIKey.ID != tn.KeyID || rev.RevokeAPIKey.RevokedAt == "" {
			t.Fatalf("revokeApiKey = %+v", rev.RevokeAPIKey)
		}

		// A live key, used once, so that usage has something to show.
		live := s.key(tn.Token, tn.ProjectID, "live")
		ctx := context.Background()
		kp, err := s.svc.Keys.Authenticate(ctx, live.Key.ClientID, live.ClientSecret)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.svc.Usage.Authorize(kp, "irn:generate", "irn.generate"); err != nil {
			t.Fatal(err)
		}

		// Login answers every organization.
		var login struct {
			Login struct {
				AccessToken   string
				Organization  *struct{ ID string }
				Organizations []struct{ ID, Slug string }
			}
		}
		s.must("", `mutation { login(input: {email: "ACME@example.com ", password: "correct horse battery"}) { accessToken tokenType organization { id } organizations { id slug } } }`, nil, &login)
		if l := login.Login; l.AccessToken == "" || l.Organization != nil || len(l.Organizations) != 2 {
			t.Fatalf("login = %+v", l)
		}

		// The me tree, with the new token.
		var me meTree
		s.must(login.Login.AccessToken, meQuery, nil, &me)
		if me.Me.Email != "acme@example.com" || me.Me.ID != tn.UserID {
			t.Fatalf("me = %+v", me.Me)
		}
		orgs := me.Me.Organizations.Edges
		if len(orgs) != 2 || me.Me.Organizations.PageInfo.HasNextPage || *me.Me.Organizations.PageInfo.EndCursor != orgs[1].Cursor {
			t.Fatalf("organizations = %+v", me.Me.Organizations)
		}
		first := orgs[0].Node
		if first.ID != tn.OrgID || first.Role != "OWNER" || len(first.Projects.Edges) != 1 {
			t.Fatalf("first organization = %+v", first)
		}
		pr := first.Projects.Edges[0].Node
		if pr.ID != tn.ProjectID || pr.Environment != "SANDBOX" || !pr.Authority.Configured || pr.Authority.TaxAuthorityCode != "NRS" ||
			pr.Organization.ID != tn.OrgID || pr.Organization.Slug != "acme" {
			t.Fatalf("project = %+v", pr)
		}
		ks := pr.APIKeys.Edges
		if len(ks) != 2 || ks[0].Node.Status != "REVOKED" || ks[1].Node.Status != "ACTIVE" || ks[1].Node.KeyName != "live" || len(ks[1].Node.Scopes) != 9 {
			t.Fatalf("keys = %+v", ks)
		}
		if u := pr.Usage; u.ProjectID != tn.ProjectID || u.Total != 1 || len(u.ByOperation) != 1 || u.ByOperation[0].Operation != "irn.generate" || len(u.Daily) != 1 {
			t.Fatalf("usage = %+v", u)
		}
		if got := orgs[1].Node.Projects.Edges; len(got) != 1 || got[0].Node.ID != prod.CreateProject.ID {
			t.Fatalf("second organization's projects = %+v", got)
		}

		// organization(id) and project(id) answer the same objects.
		var one struct {
			Organization struct{ ID, Slug string }
			Project      struct{ ID, Name string }
		}
		s.must(tn.Token, `query($o: ID!, $p: ID!) { organization(id: $o) { id slug } project(id: $p) { id name } }`,
			map[string]any{"o": tn.OrgID, "p": tn.ProjectID}, &one)
		if one.Organization.Slug != "acme" || one.Project.Name != "acme shop" {
			t.Fatalf("organization/project = %+v", one)
		}

		// The audit log pages newest first through its connection.
		type auditPage struct {
			AuditLogs struct {
				Edges []struct {
					Cursor string
					Node   struct {
						Action         string
						OrganizationID *string
						Actor          struct{ Type, ID string }
						Target         struct{ Type, ID string }
						Hash, PrevHash string
					}
				}
				PageInfo struct {
					HasNextPage bool
					EndCursor   *string
				}
			}
		}
		const auditQuery = `query($org: ID, $first: Int, $after: String) {
		  auditLogs(organizationId: $org, first: $first, after: $after) {
		    edges { cursor node { id organizationId actor { type id } action target { type id } ip userAgent requestId createdAt hash prevHash } }
		    pageInfo { hasNextPage endCursor }
		  }
		}`
		var actions []string
		var after any
		for range 10 {
			var page auditPage
			s.must(tn.Token, auditQuery, map[string]any{"org": tn.OrgID, "first": 3, "after": after}, &page)
			for _, e := range page.AuditLogs.Edges {
				actions = append(actions, e.Node.Action)
				if e.Node.OrganizationID == nil || *e.Node.OrganizationID != tn.OrgID || e.Node.Hash == "" {
					t.Fatalf("audit entry = %+v", e.Node)
				}
			}
			if !page.AuditLogs.PageInfo.HasNextPage {
				break
			}
			after = *page.AuditLogs.PageInfo.EndCursor
		}
		want := []string{"login", "key.create", "key.revoke", "key.rotate", "key.create", "project.create", "signup"}
		if strings.Join(actions, " ") != strings.Join(want, " ") {
			t.Fatalf("audit actions = %v, want %v", actions, want)
		}
	})
}
