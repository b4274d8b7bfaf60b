package engine

import (
	"go/token"
	"sync"

	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

// A one-shot script run again on the same surface (a retry, a script a
// model sends twice, a benchmark's loop) is normalised and parsed once:
// the normaliser's result is a function of the script's text, of
// whether WithExtraGlobals gave names and of the surface (its tool
// packages, and the type checker that folds constant min and max), and
// it holds nothing of an execution. The parse it made is shared too:
// its tree, which the interpreter only reads (interp.TreeShareable), and the
// token.Files of its file set, which each execution adds to a file set
// of its own (token.FileSet.AddExistingFiles), so that the positions
// of the shared tree mean the same in every execution and the
// interpreter's further files (the source packages) go after them.

// The normalisations the process keeps, for every surface together (a
// surface is one of at most maxSurfaces): at most maxNormScripts scripts
// of at most maxNormBytes together; past either the cache starts again.
// A kept normalisation costs about 16 times its script's bytes (255
// copies of a 108-line script, 631 KB, retained 9.7 MB), so the cache
// holds at most about 16 MB.
const (
	maxNormScripts = 256
	maxNormBytes   = 1 << 20
)

// normKey is a script's key in the cache.
type normKey struct {
	surf    *surface
	code    string
	globals bool
}

// norms is the cache of normalisations.
var norms struct {
	mu    sync.Mutex
	progs map[normKey]*normalized
	bytes int // the scripts' bytes progs holds
}

// normalized is one script's normalisation kept for its next execution.
type normalized struct {
	prog  program       // fset nil; parsed, lines and imports shared read-only
	files []*token.File // the files of prog.parsed's file set, in order; nil if it has none
}

// cachedNormalization returns a new program of the script's kept
// normalisation, with a file set of its own, or nil.
func (s *surface) cachedNormalization(code string, globals bool) *program {
	norms.mu.Lock()
	n := norms.progs[normKey{s, code, globals}]
	norms.mu.Unlock()
	if n == nil {
		return nil
	}
	prog := n.prog
	if n.files != nil {
		prog.fset = token.NewFileSet()
		prog.fset.AddExistingFiles(n.files...)
	}
	return &prog
}

// keepNormalization keeps prog, code's normalisation, for its next
// execution, unless its tree is not shareable or the script is too
// large to be worth a slot.
func (s *surface) keepNormalization(code string, globals bool, prog *program) {
	if len(code) > maxNormBytes/16 {
		return
	}
	n := &normalized{prog: *prog}
	n.prog.fset = nil
	if prog.parsed != nil {
		if !interp.TreeShareable(prog.parsed.File) {
			return
		}
		prog.fset.Iterate(func(f *token.File) bool {
			n.files = append(n.files, f)
			return true
		})
	}
	key := normKey{s, code, globals}
	norms.mu.Lock()
	defer norms.mu.Unlock()
	if _, hit := norms.progs[key]; hit {
		return
	}
	if norms.progs == nil || len(norms.progs) >= maxNormScripts || norms.bytes+len(code) > maxNormBytes {
		norms.progs, norms.bytes = map[normKey]*normalized{}, 0
	}
	norms.progs[key] = n
	norms.bytes += len(code)
}
