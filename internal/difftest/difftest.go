// Package difftest compares toolscript with Go itself: it makes of each
// script the native Go program the Go toolchain builds, over generated
// packages of the same tools, so that a test can run a script both ways
// and compare what they print.
//
// A script becomes a package main through internal/normalize's native
// mode (the same wrapping of bare statements and automatic imports as in
// the interpreter, none of the interpreter's rewrites; result(v) does
// nothing, a final expression is assigned to _). Each tool package the
// script sees (customers, math_ops, tools, ...) becomes a Go module of
// the same name whose declarations are engine.Describe's, each function
// given a body that calls the same tool projection in process, with the
// same map[string]any arguments, returning its result as the interpreter
// does (shims.go). The tools package's Call and Names work as in the
// interpreter.
//
// Build writes every program and shim into one temporary module (a
// replace directive points at the project's module, for the tools) and
// builds them all with one go build, offline: GOFLAGS=-mod=mod,
// GOPROXY=off, the module cache as it is. The scripts package's
// TestDifferential runs it over the corpus.
package difftest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/internal/normalize"
	"github.com/toolscript/toolscript/internal/policy"
	"github.com/toolscript/toolscript/projection"
)

// Tools names the tool set the native programs call: the namespace (for
// the generated declarations) and how a native program makes the same
// namespace, a Go expression of a package of the project.
type Tools struct {
	// Namespace is the tool set, as the interpreter gets it.
	Namespace map[string]projection.ToolProjection
	// Import is the import path of the package that provides it, e.g.
	// "github.com/toolscript/toolscript/demo".
	Import string
	// Expr is a Go expression of that package that returns a fresh
	// namespace equal to Namespace, e.g. "demo.Namespace()".
	Expr string
}

// Script is one program to build: a name (a file name without
// extension) and the script's source, as the interpreter gets it.
type Script struct {
	Name string
	Code string
}

// Native is a set of scripts built as native programs.
type Native struct {
	bins map[string]string // script name -> binary
}

// modulePath is the module path of the project; Build's replace
// directive points it at the project's directory.
const modulePath = "github.com/toolscript/toolscript"

// rtModule is the module of the shims' common code (shims.go).
const rtModule = "tsnative"

// Build makes every script a native program over the tools and builds
// them all with one go build in dir (a new, empty directory); repo is the
// project's module directory. A script that normalize refuses, or a build
// failure, is an error naming the script (the compiler's output follows).
func Build(ctx context.Context, dir, repo string, tools Tools, scripts []Script) (*Native, error) {
	surf, err := shimPackages(tools.Namespace)
	if err != nil {
		return nil, err
	}
	pkgs := surf.src
	pkgNames := make([]string, 0, len(pkgs))
	for name := range pkgs {
		pkgNames = append(pkgNames, name)
	}
	sort.Strings(pkgNames)
	cfg := NormalizeConfig(pkgNames)
	n := &Native{bins: map[string]string{}}
	files := map[string]string{}
	var mc *mapCaller
	if len(surf.typed) > 0 {
		mc = newMapCaller(surf)
	}
	for _, s := range scripts {
		p, err := normalize.Source(s.Code, cfg)
		if err != nil {
			return nil, fmt.Errorf("difftest: %s: %w", s.Name, err)
		}
		src := p.Src
		if mc != nil {
			src = mc.rewrite(src)
		}
		files[filepath.Join("progs", s.Name, "main.go")] = src
		n.bins[s.Name] = filepath.Join(dir, "bin", s.Name)
	}
	// The shims' common code and one module per tool package, all at the
	// project's language version (range over functions needs go1.23).
	goLine, err := goDirective(repo)
	if err != nil {
		return nil, err
	}
	files[filepath.Join("mods", rtModule, "go.mod")] = "module " + rtModule + "\n\n" + goLine + "\n"
	files[filepath.Join("mods", rtModule, "rt.go")] = rtSource(tools)
	var gomod strings.Builder
	fmt.Fprintf(&gomod, "module tsdiff\n\n%s\n\nrequire (\n\t%s v0.0.0\n\t%s v0.0.0\n", goLine, modulePath, rtModule)
	for _, name := range pkgNames {
		fmt.Fprintf(&gomod, "\t%s v0.0.0\n", name)
	}
	fmt.Fprintf(&gomod, ")\n\nreplace %s => %s\n\nreplace %s => ./mods/%s\n", modulePath, repo, rtModule, rtModule)
	for _, name := range pkgNames {
		files[filepath.Join("mods", name, "go.mod")] = "module " + name + "\n\n" + goLine + "\n"
		files[filepath.Join("mods", name, name+".go")] = pkgs[name]
		fmt.Fprintf(&gomod, "\nreplace %s => ./mods/%s\n", name, name)
	}
	files["go.mod"] = gomod.String()
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		return nil, fmt.Errorf("difftest: %w", err)
	}
	files["go.sum"] = string(sum)
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return nil, err
		}
	}
	if len(scripts) == 0 {
		return n, nil
	}
	// Without symbol table and DWARF (-s -w) the links, most of the
	// build's time, take about half as long.
	cmd := exec.CommandContext(ctx, "go", "build", "-ldflags=-s -w", "-o", filepath.Join(dir, "bin")+string(filepath.Separator), "./progs/...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("difftest: go build: %v\n%s", err, out)
	}
	return n, nil
}

// goDirective returns the go line of the project's go.mod in repo
// ("go 1.26.8"), the language version of the native programs.
func goDirective(repo string) (string, error) {
	data, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("difftest: %w", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "go" {
			return "go " + f[1], nil
		}
	}
	return "", fmt.Errorf("difftest: %s has no go line", filepath.Join(repo, "go.mod"))
}

// NormalizeConfig is the normaliser's configuration of a native
// program: the interpreter's allowlist and automatic imports
// (internal/policy) plus the tool packages named pkgs, in native mode.
func NormalizeConfig(pkgs []string) normalize.Config {
	tool := map[string]bool{}
	for _, p := range pkgs {
		tool[p] = true
	}
	return normalize.Config{
		Allowed:    func(path string) bool { return tool[path] || policy.Allowed(path) },
		Importable: engine.Packages,
		AutoImport: func(ident string) (string, bool) {
			if tool[ident] {
				return ident, true
			}
			return policy.PathOf(ident)
		},
		MaxNesting: engine.MaxNesting,
		Native:     true,
	}
}

// Result is what a native program did.
type Result struct {
	Stdout, Stderr string
	ExitCode       int
}

// Run runs the native program of the script called name.
func (n *Native) Run(ctx context.Context, name string) (Result, error) {
	bin, ok := n.bins[name]
	if !ok {
		return Result{}, fmt.Errorf("difftest: no program %q", name)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Dir = filepath.Dir(bin)
	err := cmd.Run()
	res := Result{Stdout: stdout.String(), Stderr: stderr.String()}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		res.ExitCode = exit.ExitCode()
		err = nil
	}
	return res, err
}

// FirstDiff returns the 1-based number of the first line where a and b
// differ and both lines ("" past the end), or 0 when they are equal.
func FirstDiff(a, b string) (line int, la, lb string) {
	if a == b {
		return 0, "", ""
	}
	as, bs := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	for i := 0; ; i++ {
		var x, y string
		if i < len(as) {
			x = as[i]
		}
		if i < len(bs) {
			y = bs[i]
		}
		if x != y {
			return i + 1, x, y
		}
	}
}
