// Command layout checks that every package of the module keeps the layout
// of docs/architecture.md: it reads `go list -deps -json ./...` and fails
// on any package the allow table (rooms.go) does not place in a room, on
// any import its room does not allow, and on any line of the table naming
// no package. make lint runs it; its test runs it over the module too.
//
//	go run ./bench/layout [DIR]
//	go run ./bench/layout -table
//
// With -table it prints the table as the Markdown of docs/architecture.md's
// "The allow table" section (a test keeps the two equal).
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
)

func main() {
	dir := "."
	if len(os.Args) > 1 && os.Args[1] == "-table" {
		fmt.Print(Markdown(rooms))
		return
	}
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	bad, err := CheckModule(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "layout:", err)
		os.Exit(2)
	}
	for _, b := range bad {
		fmt.Println(b)
	}
	if len(bad) > 0 {
		fmt.Fprintf(os.Stderr, "layout: %d violations of the allow table (bench/layout/rooms.go)\n", len(bad))
		os.Exit(1)
	}
}

// CheckModule lists the packages of the module in dir and checks them
// against the table.
func CheckModule(dir string) ([]string, error) {
	mod, err := goCmd(dir, "list", "-m")
	if err != nil {
		return nil, err
	}
	out, err := goCmd(dir, "list", "-deps", "-json=ImportPath,Standard,Module,Imports", "./...")
	if err != nil {
		return nil, err
	}
	pkgs, err := ReadPackages(strings.NewReader(out))
	if err != nil {
		return nil, err
	}
	return Check(strings.TrimSpace(mod), rooms, pkgs), nil
}

// Markdown renders the table: one row per room, its packages, the rooms
// and packages of the module it may import, and the third-party modules.
func Markdown(table []Room) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The noun base: %s.\n\n", strings.Join(nounBase, ", "))
	b.WriteString("| room | packages | may import (module) | third-party modules, denied std |\n|---|---|---|---|\n")
	for _, r := range table {
		var ours, theirs []string
		may := r.May
		if len(may) >= len(nounBase) && slices.Equal(may[:len(nounBase)], nounBase) {
			// The application's packages: the base every noun has, then
			// the sideways arrows of this one.
			ours = append(ours, "the noun base")
			may = may[len(nounBase):]
		}
		for _, m := range may {
			if isModulePath(m) {
				theirs = append(theirs, m)
			} else {
				ours = append(ours, m)
			}
		}
		for _, d := range r.DenyStd {
			theirs = append(theirs, "not "+d)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.Name, cell(r.Packages), cell(ours), cell(theirs))
	}
	return b.String()
}

func cell(s []string) string {
	if len(s) == 0 {
		return "—"
	}
	return strings.Join(s, ", ")
}

func goCmd(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}
