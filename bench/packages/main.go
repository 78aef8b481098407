// Command packages measures the Go packages of a source tree: for each
// package, its hand-written lines (test files and generated files left
// out), its exported functions, its exported methods and the type holding
// the most of them. bench/packages/run.sh runs it over any git revision, so
// that the numbers of a refactoring can be compared before and after.
//
//	go run ./bench/packages [-md] [DIR]
//	go run ./bench/packages -max-methods 25 [DIR]
//
// With -max-methods it prints nothing but the types holding more exported
// methods than that, and fails when there is one (make lint runs it).
//
// A type whose exported methods are exactly those of an interface declared
// in a generated file of its package is bound to a generator's design: the
// resolvers of gqlgen's Mutation, Query and Subscription, whose methods
// are the schema's fields. Such a type is held to the cap per source file
// instead, and with gqlgen's follow-schema layout a file is one schema
// file (graph/inbox.graphqls → graph/inbox.resolvers.go): a noun of the
// schema past the cap fails as a type past it does.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// pkg is what is counted of one package (one directory).
type pkg struct {
	dir       string
	files     int
	lines     int
	funcs     int            // exported functions
	methods   int            // exported methods
	perType   map[string]int // exported methods by receiver type
	generated int            // lines of generated files, not counted above

	// byFile counts the exported methods of each receiver type by file;
	// names lists them.
	byFile map[string]map[string]int
	names  map[string]map[string]bool
	// ifaces are the method sets of the interfaces declared in the
	// package's generated files.
	ifaces []map[string]bool
}

func main() {
	md := flag.Bool("md", false, "print a Markdown table")
	maxMethods := flag.Int("max-methods", 0, "fail when a type has more exported methods than this (0: report only)")
	flag.Parse()
	root := "."
	if flag.NArg() > 0 {
		root = flag.Arg(0)
	}
	pkgs, err := measure(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "packages:", err)
		os.Exit(1)
	}
	if *maxMethods > 0 {
		if over := tooBig(pkgs, *maxMethods); len(over) > 0 {
			for _, o := range over {
				fmt.Fprintln(os.Stderr, o)
			}
			os.Exit(1)
		}
		return
	}
	print(pkgs, *md)
}

// tooBig lists the types holding more than max exported methods and, for
// a type bound to a generated interface (see bound), the files holding
// more than max of its exported methods.
func tooBig(pkgs []*pkg, max int) []string {
	var out []string
	for _, p := range pkgs {
		for t, n := range p.perType {
			if n <= max {
				continue
			}
			if !p.bound(t) {
				out = append(out, fmt.Sprintf("%s: type %s has %d exported methods, more than %d: split it", p.dir, t, n, max))
				continue
			}
			for file, n := range p.byFile[t] {
				if n > max {
					out = append(out, fmt.Sprintf("%s: type %s has %d exported methods in %s, more than %d: split the schema file it follows", p.dir, t, n, file, max))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// bound tells whether type t's exported methods are exactly the methods
// of an interface a generator declared in t's package: its method set is
// the generator's input (gqlgen's resolver interfaces, one method per
// field of the schema), not a design of its own.
func (p *pkg) bound(t string) bool {
	names := p.names[t]
	for _, iface := range p.ifaces {
		if len(iface) != len(names) {
			continue
		}
		same := true
		for n := range names {
			if !iface[n] {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// generatedInterfaces records the method sets of the interfaces f declares.
func (p *pkg) generatedInterfaces(f *ast.File) {
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			it, ok := spec.(*ast.TypeSpec).Type.(*ast.InterfaceType)
			if !ok || it.Methods == nil {
				continue
			}
			set := map[string]bool{}
			for _, m := range it.Methods.List {
				for _, n := range m.Names {
					if n.IsExported() {
						set[n.Name] = true
					}
				}
			}
			if len(set) > 0 {
				p.ifaces = append(p.ifaces, set)
			}
		}
	}
}

// measure walks root and counts every directory holding non-test Go files,
// leaving out node_modules, testdata, dot directories and other modules.
func measure(root string) ([]*pkg, error) {
	byDir := map[string]*pkg{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			// A directory with a go.mod of its own is another module (a
			// patched copy of a dependency), not one of the project's.
			if _, err := os.Stat(filepath.Join(path, "go.mod")); path != root && err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		p := byDir[rel]
		if p == nil {
			p = &pkg{dir: rel, perType: map[string]int{}, byFile: map[string]map[string]int{}, names: map[string]map[string]bool{}}
			byDir[rel] = p
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n := countLines(string(src))
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			p.generated += n
			p.generatedInterfaces(f)
			return nil
		}
		p.files++
		p.lines += n
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || !fn.Name.IsExported() {
				continue
			}
			if fn.Recv == nil {
				p.funcs++
				continue
			}
			p.methods++
			t := receiver(fn.Recv.List[0].Type)
			p.perType[t]++
			if p.byFile[t] == nil {
				p.byFile[t], p.names[t] = map[string]int{}, map[string]bool{}
			}
			p.byFile[t][name]++
			p.names[t][fn.Name.Name] = true
		}
		return nil
	})
	out := make([]*pkg, 0, len(byDir))
	for _, p := range byDir {
		if p.files > 0 {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].dir < out[j].dir })
	return out, err
}

// countLines counts the lines that hold code or comments (blank lines left
// out).
func countLines(src string) int {
	n := 0
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			n++
		}
	}
	return n
}

// receiver names a method's receiver type, without pointer or type
// parameters.
func receiver(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return receiver(t.X)
	case *ast.IndexExpr:
		return receiver(t.X)
	case *ast.IndexListExpr:
		return receiver(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

// most returns the type with the most exported methods.
func (p *pkg) most() (string, int) {
	name, n := "", 0
	for t, c := range p.perType {
		if c > n || c == n && t < name {
			name, n = t, c
		}
	}
	return name, n
}

func print(pkgs []*pkg, md bool) {
	if md {
		fmt.Println("| package | files | lines | exported funcs | exported methods | most on one type |")
		fmt.Println("|---|---:|---:|---:|---:|---|")
	} else {
		fmt.Printf("%-36s %5s %6s %6s %7s  %s\n", "PACKAGE", "FILES", "LINES", "FUNCS", "METHODS", "MOST ON ONE TYPE")
	}
	var files, lines, funcs, methods int
	for _, p := range pkgs {
		t, n := p.most()
		most := "-"
		if n > 0 {
			most = fmt.Sprintf("%s (%d)", t, n)
		}
		if md {
			fmt.Printf("| %s | %d | %d | %d | %d | %s |\n", p.dir, p.files, p.lines, p.funcs, p.methods, most)
		} else {
			fmt.Printf("%-36s %5d %6d %6d %7d  %s\n", p.dir, p.files, p.lines, p.funcs, p.methods, most)
		}
		files, lines, funcs, methods = files+p.files, lines+p.lines, funcs+p.funcs, methods+p.methods
	}
	if md {
		fmt.Printf("| total | %d | %d | %d | %d | |\n", files, lines, funcs, methods)
	} else {
		fmt.Printf("%-36s %5d %6d %6d %7d\n", "total", files, lines, funcs, methods)
	}
}
