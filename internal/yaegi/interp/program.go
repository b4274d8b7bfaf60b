package interp

import (
	"context"
	"errors" // toolscript patch 106
	"go/ast"
	"go/parser" // toolscript patch 106
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings" // toolscript patch 106
)

// A Program is Go code that has been parsed and compiled.
type Program struct {
	pkgName string
	root    *node
	init    []*node

	generated bool // node closures generated (toolscript patch 8)
}

// PackageName returns name used in a package clause.
func (p *Program) PackageName() string {
	return p.pkgName
}

// FileSet is the fileset that must be used for parsing Go that will be passed
// to interp.CompileAST().
func (interp *Interpreter) FileSet() *token.FileSet {
	return interp.fset
}

// Compile parses and compiles a Go code represented as a string.
func (interp *Interpreter) Compile(src string) (*Program, error) {
	return interp.compileSrc(src, "", true)
}

// CompilePath parses and compiles a Go code located at the given path.
func (interp *Interpreter) CompilePath(path string) (*Program, error) {
	path = filepath.ToSlash(path) // Ensure path is in Unix format. Since we work with fs.FS, we need to use Unix path.
	if !isFile(interp.filesystem, path) {
		_, err := interp.importSrc(mainID, path, NoTest)
		return nil, err
	}

	b, err := fs.ReadFile(interp.filesystem, path)
	if err != nil {
		return nil, err
	}
	return interp.compileSrc(string(b), path, false)
}

func (interp *Interpreter) compileSrc(src, name string, inc bool) (*Program, error) {
	if name != "" {
		interp.name = name
	}
	if interp.name == "" {
		interp.name = DefaultSourceName
	}

	// Parse source to AST.
	n, err := interp.parse(src, interp.name, inc)
	if err != nil {
		return nil, err
	}

	return interp.CompileAST(n)
}

// errParseText refuses a source ParseFile cannot parse as Compile would
// (toolscript patch 106).
var errParseText = errors.New("interp: ParseFile: the source holds build constraints or yaegi tags; compile its text")

// ParseFile parses src, a program with a package clause, into fset as
// Compile parses it (the same file name and mode), for
// CompileFileWithContext on an interpreter made with Options.FileSet set
// to fset: a caller that parses a program anyway has it compiled without
// a second parse (toolscript patch 106). A source Compile reads more of
// (build constraints, yaegi tags) is refused: compile its text.
func ParseFile(fset *token.FileSet, src string) (*ast.File, error) {
	if hasBuildComments(src) {
		return nil, errParseText
	}
	return parser.ParseFile(fset, DefaultSourceName, src, parser.DeclarationErrors) // Compile's mode for a source without yaegi tags
}

// FileParser returns ParseFile into fset as a function that also
// returns fset (toolscript patch 106).
func FileParser(fset *token.FileSet) func(src string) (*token.FileSet, *ast.File, error) {
	return func(src string) (*token.FileSet, *ast.File, error) {
		f, err := ParseFile(fset, src)
		return fset, f, err
	}
}

// hasBuildComments reports whether src may hold build constraints or
// yaegi tags, which parse reads with a second parse (toolscript patches
// 10 and 106).
func hasBuildComments(src string) bool {
	return strings.Contains(src, "+build") || strings.Contains(src, "go:build") || strings.Contains(src, "yaegi:tags")
}

// compileFile is compileSrc of a file ParseFile parsed (toolscript
// patch 106).
func (interp *Interpreter) compileFile(f *ast.File) (*Program, error) {
	if interp.name == "" {
		interp.name = DefaultSourceName
	}
	setYaegiTags(&interp.context, f.Comments)
	return interp.CompileAST(f)
}

// CompileAST builds a Program for the given Go code AST. Files and block
// statements can be compiled, as can most expressions. Var declaration nodes
// cannot be compiled.
//
// WARNING: The node must have been parsed using interp.FileSet(). Results are
// unpredictable otherwise.
func (interp *Interpreter) CompileAST(n ast.Node) (*Program, error) {
	// Convert AST.
	pkgName, root, err := interp.ast(n)
	if err != nil || root == nil {
		return nil, err
	}
	interp.markTypes(pkgName) // toolscript patch 47

	if interp.astDot {
		dotCmd := interp.dotCmd
		if dotCmd == "" {
			dotCmd = defaultDotCmd(interp.name, "yaegi-ast-")
		}
		root.astDot(dotWriter(dotCmd), interp.name)
		if interp.noRun {
			return nil, err
		}
	}

	// Perform global types analysis.
	if err = interp.gtaRetry([]*node{root}, pkgName, pkgName); err != nil {
		return nil, err
	}

	// Annotate AST with CFG informations.
	initNodes, err := interp.cfg(root, nil, pkgName, pkgName)
	if err != nil {
		if interp.cfgDot {
			dotCmd := interp.dotCmd
			if dotCmd == "" {
				dotCmd = defaultDotCmd(interp.name, "yaegi-cfg-")
			}
			root.cfgDot(dotWriter(dotCmd))
		}
		return nil, err
	}

	if root.kind != fileStmt {
		// REPL may skip package statement.
		setExec(root.start)
	}
	interp.scanDeadlock(root) // toolscript patch 78
	interp.indexNamed()       // toolscript patch 89
	interp.mutex.Lock()
	gs := interp.scopes[pkgName]
	if interp.universe.symOf(pkgName) == nil { // toolscript patch 9
		// Make the package visible under a path identical to its name.
		interp.srcPkg[pkgName] = gs.sym
		interp.universe.sym[pkgName] = &symbol{kind: pkgSym, typ: &itype{cat: srcPkgT, path: pkgName}}
		interp.pkgNames[pkgName] = pkgName
	}
	interp.mutex.Unlock()

	// Add main to list of functions to run, after all inits.
	if m := gs.sym[mainID]; pkgName == mainID && m != nil {
		initNodes = append(initNodes, m.node)
	}

	if interp.cfgDot {
		dotCmd := interp.dotCmd
		if dotCmd == "" {
			dotCmd = defaultDotCmd(interp.name, "yaegi-cfg-")
		}
		root.cfgDot(dotWriter(dotCmd))
	}

	return &Program{pkgName: pkgName, root: root, init: initNodes}, nil // toolscript patch 8
}

// Execute executes compiled Go code.
func (interp *Interpreter) Execute(p *Program) (res reflect.Value, err error) {
	running.Add(1)        // toolscript patch 23
	defer running.Add(-1) // toolscript patch 23
	defer func() {
		r := recover()
		if r != nil {
			var pc [64]uintptr // 64 frames should be enough.
			n := runtime.Callers(1, pc[:])
			err = Panic{Value: hostPanicValue(r), Callers: pc[:n], Stack: debug.Stack(), Frames: interp.framesOf(r)} // toolscript patch 22, 112
		}
	}()

	// Generate node exec closures.
	if !p.generated { // toolscript patch 8
		if err = genRun(p.root); err != nil {
			return res, err
		}
	}

	// Init interpreter execution memory frame.
	interp.frame.setrunid(interp.runid())
	interp.frame.mutex.Lock()
	interp.resizeFrame()
	interp.frame.mutex.Unlock()

	// Execute node closures.
	interp.run(p.root, nil)

	// Wire and execute global vars.
	n, err := genGlobalVars([]*node{p.root}, interp.scopes[p.pkgName])
	if err != nil {
		return res, err
	}
	interp.run(n, nil)

	for _, n := range p.init {
		interp.run(n, interp.frame)
	}
	if interp.opt.session {
		// toolscript patch 47: the value of a session's program is not
		// read (its goroutines may be writing the variable it names).
		return res, err
	}
	v := genValue(p.root)
	res = v(interp.frame)

	// If result is an interpreter node, wrap it in a runtime callable function.
	if res.IsValid() {
		if n, ok := res.Interface().(*node); ok {
			res = genFunctionWrapper(n)(interp.frame)
		}
	}

	return plainResult(res), err // toolscript patch 118: the host sees no records
}

// ExecuteWithContext executes compiled Go code.
func (interp *Interpreter) ExecuteWithContext(ctx context.Context, p *Program) (res reflect.Value, err error) {
	interp.mutex.Lock()
	interp.done = make(chan struct{})
	interp.cancelChan = !interp.opt.fastChan
	interp.mutex.Unlock()

	done := make(chan struct{})
	go func() {
		defer close(done)
		res, err = interp.Execute(p)
	}()

	select {
	case <-ctx.Done():
		interp.stop()
		return reflect.Value{}, ctx.Err()
	case <-done:
	}
	return res, err
}
