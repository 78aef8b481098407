package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Room is one line of the allow table.
type Room struct {
	Name string
	// Packages are the module-relative paths of its packages; "x/..." is x
	// and every package beneath it.
	Packages []string
	// May lists what its packages may import: a room's name, a
	// module-relative package pattern, or a third-party module's path
	// (which covers the modules nested beneath it).
	May []string
	// DenyStd lists standard-library packages (and those beneath them)
	// its packages may not import.
	DenyStd []string
}

// Package is what the check reads of one package of `go list -deps -json`.
type Package struct {
	ImportPath string
	Standard   bool
	Module     *struct{ Path string }
	Imports    []string
}

// ReadPackages decodes the stream `go list -deps -json` writes.
func ReadPackages(r io.Reader) ([]Package, error) {
	var out []Package
	dec := json.NewDecoder(r)
	for {
		var p Package
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("reading go list's output: %w", err)
		}
		out = append(out, p)
	}
}

// Check returns one line per violation of the table by the module's
// packages (module is the module's path), sorted; none when the packages
// keep the layout.
func Check(module string, table []Room, pkgs []Package) []string {
	byPath := make(map[string]Package, len(pkgs))
	for _, p := range pkgs {
		byPath[p.ImportPath] = p
	}
	rel := func(path string) (string, bool) {
		if path == module {
			return ".", true
		}
		r, ok := strings.CutPrefix(path, module+"/")
		return r, ok
	}
	names := map[string]bool{}
	for _, r := range table {
		names[r.Name] = true
	}
	roomOf := func(relPath string) (Room, bool) {
		for _, r := range table {
			for _, pat := range r.Packages {
				if matchPackage(pat, relPath) {
					return r, true
				}
			}
		}
		return Room{}, false
	}

	var bad []string
	used := map[string]bool{} // package patterns that matched a package
	for _, p := range pkgs {
		relPath, ours := rel(p.ImportPath)
		if !ours || p.Standard {
			continue
		}
		room, ok := roomOf(relPath)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: in no room of the layout (add it to a room in bench/layout/rooms.go, and to docs/architecture.md)", relPath))
			continue
		}
		for _, pat := range room.Packages {
			if matchPackage(pat, relPath) {
				used[pat] = true
			}
		}
		for _, imp := range p.Imports {
			if why := forbidden(room, imp, byPath, rel, roomOf, names); why != "" {
				bad = append(bad, fmt.Sprintf("%s (room %s) imports %s: %s", relPath, room.Name, imp, why))
			}
		}
	}
	for _, r := range table {
		for _, pat := range r.Packages {
			if !used[pat] {
				bad = append(bad, fmt.Sprintf("room %s names %s, which is no package of the module", r.Name, pat))
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// forbidden says why room may not import imp, or "" when it may.
func forbidden(room Room, imp string, byPath map[string]Package, rel func(string) (string, bool),
	roomOf func(string) (Room, bool), names map[string]bool) string {
	if imp == "C" || imp == "unsafe" {
		return ""
	}
	dep, known := byPath[imp]
	if known && dep.Standard || !known && !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") {
		for _, d := range room.DenyStd {
			if imp == d || strings.HasPrefix(imp, d+"/") {
				return "the room may not use " + d
			}
		}
		return ""
	}
	if relImp, ours := rel(imp); ours {
		target, ok := roomOf(relImp)
		if !ok {
			return "the imported package is in no room"
		}
		if target.Name == room.Name {
			return ""
		}
		for _, may := range room.May {
			if names[may] && may == target.Name || !names[may] && !isModulePath(may) && matchPackage(may, relImp) {
				return ""
			}
		}
		return "room " + target.Name + " is not among what room " + room.Name + " may import"
	}
	mod := imp
	if known && dep.Module != nil {
		mod = dep.Module.Path
	}
	for _, may := range room.May {
		if isModulePath(may) && (mod == may || strings.HasPrefix(mod, may+"/")) {
			return ""
		}
	}
	return "module " + mod + " is not among what room " + room.Name + " may import"
}

// isModulePath reports whether an entry of May names a third-party module
// (its first element holds a dot, as a domain does).
func isModulePath(s string) bool { return strings.Contains(strings.SplitN(s, "/", 2)[0], ".") }

func matchPackage(pattern, relPath string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return relPath == base || strings.HasPrefix(relPath, base+"/")
	}
	return pattern == relPath
}
