package engine

import (
	"go/token"

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

// The normalisations a surface keeps: at most maxNormScripts scripts of
// at most maxNormBytes together; past either the cache starts again. A
// tree costs about 30 times its source's bytes.
const (
	maxNormScripts = 256
	maxNormBytes   = 1 << 20
)

// normKey is a script's key in the cache.
type normKey struct {
	code    string
	globals bool
}

// normalized is one script's normalisation kept for its next execution.
type normalized struct {
	prog  program       // fset nil; parsed, lines and imports shared read-only
	files []*token.File // the files of prog.parsed's file set, in order; nil if it has none
}

// cachedNormalization returns a new program of the script's kept
// normalisation, with a file set of its own, or nil.
func (s *surface) cachedNormalization(code string, globals bool) *program {
	s.norm.mu.Lock()
	n := s.norm.progs[normKey{code, globals}]
	s.norm.mu.Unlock()
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
	key := normKey{code, globals}
	s.norm.mu.Lock()
	defer s.norm.mu.Unlock()
	if _, hit := s.norm.progs[key]; hit {
		return
	}
	if s.norm.progs == nil || len(s.norm.progs) >= maxNormScripts || s.norm.bytes+len(code) > maxNormBytes {
		s.norm.progs, s.norm.bytes = map[normKey]*normalized{}, 0
	}
	s.norm.progs[key] = n
	s.norm.bytes += len(code)
}
