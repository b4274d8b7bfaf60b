package interp // toolscript patch 171

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"sync"
	"sync/atomic"
)

// The files of a source package (the interpreted slices, maps, cmp, iter
// of the host's embedded sources) are parsed once per process and text,
// not once per interpreter: each tree is kept with its token.File, whose
// positions lie above sharedBase in a range of the file's own, and an
// interpreter that imports the same text adds that token.File to its
// file set (token.FileSet.AddExistingFiles), so that the shared tree's
// positions mean there what they meant when it was parsed. A file whose
// range lies below what the interpreter's file set holds already (a
// file parsed there after another shared one) is parsed again in
// place, as before.

// sharedBase is the lowest base of a shared file: far above any program
// an interpreter parses itself.
const sharedBase = 1 << (strconv.IntSize - 3)

// The trees kept: at most maxSourceTrees texts of at most
// maxSourceTreeBytes together; past either the cache starts again. A
// tree costs about 16 times its text's bytes (8 MB at most).
const (
	maxSourceTrees     = 32
	maxSourceTreeBytes = 512 << 10
)

// sourceTree is one source file's parse, shared by the interpreters.
type sourceTree struct {
	file *token.File
	tree *ast.File
}

var (
	sourceTrees struct {
		sync.Mutex
		m     map[string]*sourceTree // by file name and text
		bytes int
	}
	nextSharedBase atomic.Int64 // above sharedBase: the next shared file's base
)

// parseSource parses the source file name of a package the interpreter
// imports (importSrc): the shared tree of its text when there is one,
// else parse's.
func (interp *Interpreter) parseSource(src, name string) (ast.Node, error) {
	if hasBuildComments(src) {
		return interp.parse(src, name, false) // build constraints are read per interpreter
	}
	key := name + "\x00" + src
	sourceTrees.Lock()
	st := sourceTrees.m[key]
	sourceTrees.Unlock()
	if st == nil || st.file.Base() < interp.fset.Base() {
		if st = newSourceTree(src, name); st == nil {
			return interp.parse(src, name, false)
		}
		keepSourceTree(key, st)
	}
	if st.file.Base() < interp.fset.Base() {
		return interp.parse(src, name, false)
	}
	interp.fset.AddExistingFiles(st.file)
	setYaegiTags(&interp.context, st.tree.Comments) // as parse does
	return st.tree, nil
}

// newSourceTree parses src, the text of the file name, in a range of
// positions of its own above sharedBase; nil if it does not parse or the
// interpreter would write to its tree (TreeShareable).
func newSourceTree(src, name string) *sourceTree {
	size := int64(len(src)) + 1
	base := sharedBase + nextSharedBase.Add(size) - size
	if base < sharedBase || base+size < base {
		return nil // out of positions (a 32-bit host after very many files)
	}
	fset := token.NewFileSet()
	fset.AddFile("", -1, int(base)-2)                                     // a placeholder: the next file's base is base
	f, err := parser.ParseFile(fset, name, src, parser.DeclarationErrors) // parse's mode for a source file
	if err != nil || !TreeShareable(f) {
		return nil
	}
	return &sourceTree{file: fset.File(token.Pos(base)), tree: f}
}

// keepSourceTree keeps st as the tree of key's text, in place of any
// kept before.
func keepSourceTree(key string, st *sourceTree) {
	if len(key) > maxSourceTreeBytes/4 {
		return
	}
	sourceTrees.Lock()
	defer sourceTrees.Unlock()
	if _, ok := sourceTrees.m[key]; ok {
		sourceTrees.bytes -= len(key) // replaced
	} else if sourceTrees.m == nil || len(sourceTrees.m) >= maxSourceTrees || sourceTrees.bytes+len(key) > maxSourceTreeBytes {
		sourceTrees.m, sourceTrees.bytes = map[string]*sourceTree{}, 0
	}
	sourceTrees.m[key] = st
	sourceTrees.bytes += len(key)
}

// TreeShareable reports whether the interpreter compiles the tree f
// without writing to it, so that several interpreters may compile it at
// once: it rewrites `for k, v = range x` in place (rangeAssignToDefine,
// toolscript patch 77); nothing else of a tree is written to.
func TreeShareable(f *ast.File) bool {
	ok := true
	ast.Inspect(f, func(n ast.Node) bool {
		if r, is := n.(*ast.RangeStmt); is && r.Tok == token.ASSIGN {
			ok = false
		}
		return ok
	})
	return ok
}
