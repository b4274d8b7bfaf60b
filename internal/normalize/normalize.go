package normalize

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"
)

// Names of the generated code. A script cannot import the two packages
// (the import is refused) nor declare RuntimeAlias or a name starting
// with RuntimeAlias + "_" (a compile error names it).
const (
	// File is the file name every position of Program.Src refers to,
	// through line directives: positions in it are the model's.
	File = "script.go"
	// RuntimePath is the import path of the package the generated code
	// calls, imported as RuntimeAlias when Program.UsesRuntime. Its
	// package must export ResultAt, SetResult, GoStart, GoEnd, Clear and
	// NegZero
	// (see the rewrite that generates each call).
	RuntimePath = "toolscript/rt"
	// RuntimeAlias is the name the generated code imports RuntimePath as.
	RuntimeAlias = "__ts"
	// GlobalsPath is the import path a program dot-imports when
	// Config.Globals is set: the host's extra global names.
	GlobalsPath = "toolscript/globals"
)

// Config is what the normaliser needs to know from its caller. A nil
// func means "none": no import is allowed, none is automatic, no package
// variable is read-only.
type Config struct {
	// Allowed reports whether a script may import path (the allowlist
	// and the tool packages).
	Allowed func(path string) bool
	// Importable lists the import paths an error refusing an import
	// names as available; it is called only for that error.
	Importable func() []string
	// AutoImport returns the import path an identifier selects from
	// when a script uses it without importing it (fmt in fmt.Println,
	// math_ops in math_ops.Multiply).
	AutoImport func(ident string) (path string, ok bool)
	// ReadOnly reports whether pkg.name is a package variable scripts
	// see as a read-only copy: assigning to it (or taking its address)
	// is refused at compile time.
	ReadOnly func(pkg, name string) bool
	// Globals dot-imports GlobalsPath into the program.
	Globals bool
	// MaxNesting bounds the nesting of the script's syntax tree (see
	// checkNesting); it must be positive.
	MaxNesting int
	// Parse, if set, parses a program as the interpreter will (into its
	// file set, with its file name and mode). Source then builds Src
	// before parsing and parses it once, with Parse, and gives the tree
	// in Program.File for the interpreter to compile without parsing Src
	// again (parseonce.go); an error from Parse makes Source go its way
	// without it. Ignored with Native.
	Parse func(src string) (*token.FileSet, *ast.File, error)
	// ConstMinMax folds, besides the calls of min and max whose arguments
	// are all numeric literals, the calls at these positions (the
	// model's line and column of the call's min or max, as
	// Program.MinMaxConst reports them) whose value is a constant, with
	// the index of the argument that has the call's value: a type
	// checker knows which calls these are (internal/typecheck's
	// ConstMinMax). See foldMinMax.
	ConstMinMax map[MinMaxPos]int
	// Consts names constants declared outside the script (by an earlier
	// input of a session), which min and max may take as arguments that
	// may be constants (Program.MinMaxConst), as the script's own.
	Consts map[string]bool
	// Native makes plain Go for the Go toolchain instead of the
	// interpreter's program (native.go): no rewrite for the interpreter
	// and no call of RuntimePath; result(v) does nothing and a bare
	// script's final expression is assigned to the blank identifier.
	Native bool
}

// Program is a script after normalisation, ready for the interpreter.
type Program struct {
	// Src is the package main source to compile. Line directives map
	// its positions back to the model's lines and columns in File.
	Src string
	// Lines are the model's source lines, for error excerpts.
	Lines []string
	// Imports are the import paths the program uses: the script's own
	// (allowed) imports in order, then the automatic ones, sorted.
	// RuntimePath and GlobalsPath are never among them.
	Imports []string
	// UsesRuntime says the generated code calls RuntimePath.
	UsesRuntime bool
	// File is, when Config.Parse was set and Src needed no rewrite
	// after it was parsed, Config.Parse's tree of Src (the trailer's
	// generated functions parsed on their own and appended, at the same
	// positions): the interpreter compiles it instead of parsing Src.
	// Nil otherwise.
	File *ast.File
	// MinMaxConst says that the script calls min or max with arguments
	// that may all be constants but are not all numeric literals
	// (max(c, 3) with a named constant c), and that Config.ConstMinMax
	// did not fold them all: such a call of the interpreter's min or max
	// is not a constant, so only a type checker can tell whether it
	// should be folded.
	MinMaxConst bool
	// NeedsCheck says that the script holds a construct with which the
	// interpreter is known to accept what Go refuses (a declared type, a
	// method, goto, m[k].X = 1; see needsCheck), so that a type checker
	// must accept the program before it runs.
	NeedsCheck bool
	// Body is, for an input of Session only, its statements: the
	// interpreter runs them at package level after compiling Src.
	Body string

	cfg Config
}

// minParseOnceNesting is the least Config.MaxNesting with which the
// generated import declaration (four levels: the file, the declaration,
// a spec, its path) cannot be what crosses the bound: parseOnce checks
// the nesting of a tree that holds it, Source without Parse of one that
// does not.
const minParseOnceNesting = 4

// Line returns the model's source line n (1-based) without its line
// ending, or "" when there is none.
func (p *Program) Line(n int) string {
	if n < 1 || n > len(p.Lines) {
		return ""
	}
	return strings.TrimRight(p.Lines[n-1], "\r")
}

// Kind classifies an Error.
type Kind int

const (
	// Invalid is a script that is not valid Go or that the normaliser
	// refuses: a syntax error, a program without func main, a reserved
	// name, an assignment to a read-only package variable.
	Invalid Kind = iota
	// ImportRefused is an import of a path Config.Allowed refuses, or
	// of RuntimePath or GlobalsPath.
	ImportRefused
	// TooDeep is a script nested deeper than Config.MaxNesting.
	TooDeep
)

// Error is a script the normaliser refuses, at the model's position.
type Error struct {
	Line, Column int    // 1-based position in the model's source; 0 if unknown
	Msg          string // what is wrong
	Source       string // the model's line at Line, "" if unknown
	Kind         Kind
}

// Error renders "line L:C: msg", or msg alone without a position.
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d:%d: %s", e.Line, e.Column, e.Msg)
	}
	return e.Msg
}

// errorAt returns an Error of kind at pos.
func (p *Program) errorAt(kind Kind, pos token.Position, format string, args ...any) *Error {
	return &Error{Line: pos.Line, Column: pos.Column, Source: p.Line(pos.Line), Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// Source turns a script (a full program or bare statements, imports
// optional) into a package main program whose positions, through line
// directives, are those of the model's source. A script it refuses gives
// an *Error. Source is safe for concurrent use.
func Source(code string, cfg Config) (*Program, error) {
	if cfg.MaxNesting <= 0 {
		panic("normalize: Config.MaxNesting must be positive")
	}
	p := &Program{Lines: strings.Split(code, "\n"), cfg: cfg}
	if cfg.Parse != nil && !cfg.Native && cfg.MaxNesting >= minParseOnceNesting {
		if np, ok, err := p.parseOnce(code); ok {
			return np, err
		}
		p = &Program{Lines: p.Lines, cfg: cfg}
	}
	if !startsWithPackage(code) {
		return p.bare(code)
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, File, code, parser.SkipObjectResolution)
	if err != nil {
		return nil, p.syntaxError(err)
	}
	if err := p.checkNesting(fset, file); err != nil {
		return nil, err
	}
	return p.file(code, fset, file)
}

// file normalises a full program: its package clause becomes package
// main with the generated imports (rewritePackageClause).
func (p *Program) file(code string, fset *token.FileSet, file *ast.File) (*Program, error) {
	if !hasMain(file) {
		return nil, p.noMain()
	}
	auto, err := p.check(code, fset, file)
	if err != nil {
		return nil, err
	}
	edits := p.rewritePackageClause(fset, file, auto)
	if !p.cfg.Native {
		edits = append(edits, p.rewrites(code, fset, file)...)
	}
	src := applyEdits(code, edits)
	p.Src = p.finishImports(src + p.trailer(file, code))
	return p, nil
}

// noMain is the error of a full program without func main.
func (p *Program) noMain() *Error {
	return &Error{Line: 1, Column: 1, Msg: "a script with a package clause needs func main; or drop the package clause and write statements", Source: p.Line(1)}
}

// parseSkeleton parses a generated file around the model's code and
// checks its nesting.
func (p *Program) parseSkeleton(skeleton string) (*token.FileSet, *ast.File, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, File, skeleton, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, p.syntaxError(err)
	}
	if err := p.checkNesting(fset, file); err != nil {
		return nil, nil, err
	}
	return fset, file, nil
}

// bare normalises bare statements: they become the body of func main
// (wrapBare), and the value of a final expression is the result
// (rewriteLastExpr).
func (p *Program) bare(code string) (*Program, error) {
	skeleton, err := wrapBare(code)
	if err != nil {
		return nil, p.syntaxError(err)
	}
	// Parse the assembled file once to check imports, find auto-imports and
	// the final expression.
	fset, file, err := p.parseSkeleton(skeleton)
	if err != nil {
		return nil, err
	}
	auto, err := p.check(code, fset, file)
	if err != nil {
		return nil, err
	}
	var edits []edit
	if p.cfg.Native {
		edits = nativeLastExpr(fset, file)
	} else {
		edits = rewriteLastExpr(fset, file)
		edits = append(edits, p.rewrites(skeleton, fset, file)...)
	}
	src := applyEdits(skeleton, edits)
	// Put the generated imports after the package clause.
	// The generated header carries the script's file name too: yaegi
	// scopes imports by the file name of the position that uses them.
	src = lineDirective(1, 1) + "package main;" + p.importDecl(auto) + strings.TrimPrefix(src, "package main;")
	p.Src = p.finishImports(src + p.trailer(file, skeleton))
	return p, nil
}

// check runs the checks of a parsed script (code is the model's source)
// and returns the import paths to add automatically.
func (p *Program) check(code string, fset *token.FileSet, file *ast.File) ([]string, error) {
	if err := p.checkReserved(code); err != nil {
		return nil, err
	}
	imported, err := p.checkImports(fset, file.Imports)
	if err != nil {
		return nil, err
	}
	auto := p.autoImports(file, imported)
	p.Imports = append(p.Imports, auto...)
	if err := p.checkReadOnly(fset, file); err != nil {
		return nil, err
	}
	return auto, nil
}

// rewrites returns the edits of every rewrite of the parsed source src
// (the model's, or the bare script's skeleton). A rewrite whose construct
// src cannot contain (no switch, no go statement) does not walk the tree.
func (p *Program) rewrites(src string, fset *token.FileSet, file *ast.File) []edit {
	var edits []edit
	p.NeedsCheck = p.NeedsCheck || needsCheck(file)
	if mentions(src, "switch") {
		edits = append(edits, rewriteSwitches(fset, file)...)
	}
	if mentions(src, "result") {
		edits = append(edits, rewriteResults(fset, file)...)
	}
	if mentions(src, "go") {
		edits = append(edits, p.rewriteGo(src, fset, file)...)
	}
	if mentions(src, "min") || mentions(src, "max") {
		edits = append(edits, p.foldMinMax(src, fset, file)...)
	}
	return edits
}

// trailer is the generated code after the model's: the declarations of
// the result helper and of the builtins the interpreter lacks, each only
// when the script calls it and declares no name of its own.
func (p *Program) trailer(file *ast.File, src string) string {
	var b strings.Builder
	b.WriteString("\n")
	b.WriteString(lineDirective(len(p.Lines)+1, 1))
	if p.cfg.Native {
		b.WriteString(nativeTrailer(file, src))
		return b.String()
	}
	if !mentions(src, "result") && !mentions(src, "min") && !mentions(src, "max") && !mentions(src, "clear") {
		return b.String()
	}
	calls := calledIdents(file)
	b.WriteString(resultFunc(file, calls))
	b.WriteString(builtinFuncs(file, calls))
	return b.String()
}

// syntaxError turns a parse error into an *Error at the model's position.
func (p *Program) syntaxError(err error) error {
	if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
		e := list[0]
		return &Error{Line: e.Pos.Line, Column: e.Pos.Column, Msg: "syntax error: " + e.Msg, Source: p.Line(e.Pos.Line)}
	}
	return &Error{Msg: err.Error()}
}
