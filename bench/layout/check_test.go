package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
)

const module = "github.com/einvoice-ng/einvoice"

// The module as built keeps the layout: every package in a room, every
// import allowed, every line of the table naming a package.
func TestModuleKeepsTheLayout(t *testing.T) {
	bad, err := CheckModule("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Error(b)
	}
}

var (
	listOnce sync.Once
	listed   []Package
	listErr  error
)

// modulePackages is the module's real `go list -deps -json ./...`.
func modulePackages(t *testing.T) []Package {
	t.Helper()
	listOnce.Do(func() {
		cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Standard,Module,Imports", "./...")
		cmd.Dir = "../.."
		out, err := cmd.Output()
		if err != nil {
			listErr = err
			return
		}
		listed, listErr = ReadPackages(strings.NewReader(string(out)))
	})
	if listErr != nil {
		t.Fatal(listErr)
	}
	return slices.Clone(listed)
}

func ours(rel string, imports ...string) Package {
	p := Package{ImportPath: module + "/" + rel, Module: &struct{ Path string }{module}}
	for _, i := range imports {
		switch strings.SplitN(i, "/", 2)[0] {
		case "model", "rest", "graph", "worker", "workflows", "cmd", "migrations", "bench":
			i = module + "/" + i
		}
		p.Imports = append(p.Imports, i)
	}
	return p
}

// A package added to the module without a line in the table fails the
// check, though it imports nothing it should not.
func TestUnknownPackageFails(t *testing.T) {
	pkgs := append(modulePackages(t), ours("model/refunds", "model/store"))
	bad := Check(module, rooms, pkgs)
	if len(bad) != 1 || !strings.HasPrefix(bad[0], "model/refunds: in no room") {
		t.Fatalf("violations = %q, want the one unclassified package", bad)
	}
}

// Each kind of forbidden import fails, on the real table.
func TestForbiddenImportsFail(t *testing.T) {
	for _, tc := range []struct {
		name string
		pkg  Package
		want string
	}{
		{"a transport reaching the store", ours("rest", "model/store"),
			"rest (room rest) imports " + module + "/model/store: room model/store is not among"},
		{"a sideways arrow between nouns the table does not name", ours("model/keys", "model/runs"),
			"model/keys (room model/keys) imports " + module + "/model/runs: room model/runs is not among"},
		{"a noun importing the application", ours("model/runs", "model/app"),
			"model/runs (room model/runs) imports " + module + "/model/app: room model/app is not among"},
		{"the stand-in importing the application", ours("rest/nrssandbox", "model/authority"),
			"rest/nrssandbox (room rest/nrssandbox) imports " + module + "/model/authority"},
		{"the worker serving HTTP", ours("worker", "net/http"),
			"worker (room worker) imports net/http: the room may not use net/http"},
		{"the domain importing the database driver", ours("model", "github.com/jackc/pgx/v5"),
			"model (room model) imports github.com/jackc/pgx/v5: module github.com/jackc/pgx/v5 is not among"},
		{"a program importing test support", ours("cmd/einvoice", "model/app/apptest"),
			"cmd/einvoice (room cmd/einvoice) imports " + module + "/model/app/apptest: room test support is not among"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pkgs := modulePackages(t)
			i := slices.IndexFunc(pkgs, func(p Package) bool { return p.ImportPath == tc.pkg.ImportPath })
			if i < 0 {
				t.Fatalf("%s is not a package of the module", tc.pkg.ImportPath)
			}
			pkgs[i].Imports = append(slices.Clone(pkgs[i].Imports), tc.pkg.Imports...)
			bad := Check(module, rooms, pkgs)
			if len(bad) != 1 || !strings.HasPrefix(bad[0], tc.want) {
				t.Fatalf("violations = %q, want one starting %q", bad, tc.want)
			}
		})
	}
}

// The arrows the table names pass: a noun may use the nouns listed for it,
// the shared packages beneath it and the standard library.
func TestAllowedImportsPass(t *testing.T) {
	table := []Room{
		{Name: "model", Packages: []string{"model"}},
		{Name: "model/store", Packages: []string{"model/store"}, May: []string{"model", "github.com/uptrace/bun"}},
		{Name: "model/invoices", Packages: []string{"model/invoices"}, May: []string{"model", "model/store"}},
		{Name: "model/runs", Packages: []string{"model/runs"}, May: []string{"model", "model/store", "model/invoices"}},
	}
	bun := Package{ImportPath: "github.com/uptrace/bun/dialect/pgdialect", Module: &struct{ Path string }{"github.com/uptrace/bun/dialect/pgdialect"}}
	pkgs := []Package{
		ours("model", "context"),
		ours("model/store", "model", "github.com/uptrace/bun/dialect/pgdialect", "database/sql"),
		ours("model/invoices", "model", "model/store"),
		ours("model/runs", "model/invoices", "model/store", "model"),
		bun,
		{ImportPath: "context", Standard: true},
	}
	if bad := Check(module, table, pkgs); len(bad) != 0 {
		t.Fatalf("violations = %q, want none", bad)
	}
	// The reverse arrow fails.
	pkgs[2] = ours("model/invoices", "model", "model/store", "model/runs")
	if bad := Check(module, table, pkgs); len(bad) != 1 {
		t.Fatalf("violations = %q, want model/invoices → model/runs", bad)
	}
}

// A line of the table that names no package fails, so that the table (and
// the drawing made from it) cannot keep a room that is gone.
func TestStaleRoomFails(t *testing.T) {
	table := append(slices.Clone(rooms), Room{Name: "gone", Packages: []string{"model/gone"}})
	bad := Check(module, table, modulePackages(t))
	if len(bad) != 1 || bad[0] != "room gone names model/gone, which is no package of the module" {
		t.Fatalf("violations = %q, want the stale line", bad)
	}
}

// docs/architecture.md lists every sideways arrow between application
// packages the table allows, and no other; and each is one the code draws.
func TestArchitectureListsTheSidewaysArrows(t *testing.T) {
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	isNoun := map[string]bool{}
	for _, n := range nouns {
		isNoun[n] = true
	}
	var want []string
	for _, r := range rooms {
		if !isNoun[r.Name] {
			continue
		}
		for _, m := range r.May {
			if isNoun[m] && m != r.Name {
				want = append(want, strings.TrimPrefix(r.Name, "model/")+" → "+strings.TrimPrefix(m, "model/"))
			}
		}
	}
	_, table, ok := strings.Cut(string(doc), "The sideways arrows between application packages")
	if !ok {
		t.Fatal("docs/architecture.md has no list of sideways arrows")
	}
	var got []string
	for _, line := range strings.Split(table, "\n")[1:] {
		if line == "" && len(got) > 0 {
			break
		}
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.TrimSpace(cells[1]) == "from" || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
			continue
		}
		got = append(got, strings.TrimSpace(cells[1])+" → "+strings.TrimSpace(cells[2]))
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("docs/architecture.md lists %q,\nthe table allows %q", got, want)
	}

	// And the table allows no sideways arrow the code does not draw.
	var used []string
	for _, p := range modulePackages(t) {
		from, ok := strings.CutPrefix(p.ImportPath, module+"/")
		if !ok || !isNoun[from] {
			continue
		}
		for _, imp := range p.Imports {
			if to, ok := strings.CutPrefix(imp, module+"/"); ok && isNoun[to] {
				used = append(used, strings.TrimPrefix(from, "model/")+" → "+strings.TrimPrefix(to, "model/"))
			}
		}
	}
	slices.Sort(used)
	if !slices.Equal(used, want) {
		t.Fatalf("the code draws the sideways arrows %q,\nthe table allows %q", used, want)
	}
}

// docs/architecture.md shows the allow table as it is.
func TestArchitectureShowsTheTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), Markdown(rooms)) {
		t.Fatal("docs/architecture.md does not show the allow table as it is: paste `go run ./bench/layout -table` under \"The allow table\"")
	}
}
