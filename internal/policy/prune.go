package policy

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The interpreter compiles an interpreted source package (slices, maps,
// cmp, iter, the extensions) whole, in every execution that imports it:
// parsing, converting and type-walking slices.go's 41 functions cost
// several times the rest of a short script that calls four of them.
// SourceFSFor gives an execution the source files with only the
// functions its program can reach: those whose names appear in the
// program's text, and whatever those use, transitively. Everything else
// of a file (imports, types, variables, constants, methods, init) is
// always kept. A dropped function's lines become empty lines, so the
// positions of what is kept (in errors and panics) do not move.

// srcFunc is one plain function (no receiver) of a source file.
type srcFunc struct {
	name       string
	start, end int      // its byte range, doc comment included
	lines      int      // the line breaks in that range
	refs       []string // the identifiers it names (a superset of the functions it calls)
}

// srcFile is a source file of sourceFS split into its functions, built
// once per process and read-only after.
type srcFile struct {
	text  []byte
	funcs []srcFunc
	index map[string]int // function name -> index in funcs
	roots []string       // functions the always-kept declarations name
}

var (
	srcFilesOnce sync.Once
	srcFiles     map[string]*srcFile // path in sourceFS -> its split
)

// prunable returns the split of every .go file of sourceFS.
func prunable() map[string]*srcFile {
	srcFilesOnce.Do(func() {
		srcFiles = map[string]*srcFile{}
		err := fs.WalkDir(sourceFS, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			text, err := fs.ReadFile(sourceFS, path)
			if err != nil {
				return err
			}
			sf, err := splitSource(path, text)
			if err != nil {
				return err
			}
			srcFiles[path] = sf
			return nil
		})
		if err != nil {
			panic("policy: the embedded sources do not parse: " + err.Error())
		}
	})
	return srcFiles
}

// splitSource splits one source file into its plain functions.
func splitSource(path string, text []byte) (*srcFile, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, text, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	tf := fset.File(f.Pos())
	sf := &srcFile{text: text, index: map[string]int{}}
	for _, d := range f.Decls {
		refs := identsOf(d)
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Name.Name == "init" || fd.Name.Name == "_" {
			sf.roots = append(sf.roots, refs...) // always kept
			continue
		}
		start := fd.Pos()
		if fd.Doc != nil {
			start = fd.Doc.Pos()
		}
		sf.index[fd.Name.Name] = len(sf.funcs)
		from, to := tf.Offset(start), tf.Offset(fd.End())
		sf.funcs = append(sf.funcs, srcFunc{name: fd.Name.Name, start: from, end: to,
			lines: bytes.Count(text[from:to], []byte("\n")), refs: refs})
	}
	return sf, nil
}

// identsOf returns the names of the identifiers under n.
func identsOf(n ast.Node) []string {
	seen := map[string]bool{}
	var out []string
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !seen[id.Name] {
			seen[id.Name] = true
			out = append(out, id.Name)
		}
		return true
	})
	return out
}

// prune returns the file with only the functions reachable from the
// identifiers of prog (and from the always-kept declarations); the text
// itself (shared, not to be modified) when every function is reachable.
func (sf *srcFile) prune(prog string) []byte {
	keep := make([]bool, len(sf.funcs))
	var work []int
	mark := func(name string) {
		if i, ok := sf.index[name]; ok && !keep[i] {
			keep[i] = true
			work = append(work, i)
		}
	}
	for _, name := range sf.roots {
		mark(name)
	}
	forIdents(prog, mark)
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		for _, name := range sf.funcs[i].refs {
			mark(name)
		}
	}
	size := len(sf.text)
	for i, fn := range sf.funcs {
		if !keep[i] {
			size -= fn.end - fn.start - fn.lines
		}
	}
	if size == len(sf.text) {
		return sf.text
	}
	out := make([]byte, 0, size)
	at := 0
	for i, fn := range sf.funcs {
		if keep[i] {
			continue
		}
		out = append(out, sf.text[at:fn.start]...)
		for _, c := range sf.text[fn.start:fn.end] {
			if c == '\n' {
				out = append(out, '\n')
			}
		}
		at = fn.end
	}
	return append(out, sf.text[at:]...)
}

// forIdents calls f with every identifier-shaped word of src (in code,
// strings and comments alike: a superset of the names it uses).
func forIdents(src string, f func(string)) {
	isPart := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	start := -1
	for i := 0; i < len(src); {
		r, size := rune(src[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(src[i:])
		}
		if isPart(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			f(src[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		f(src[start:])
	}
}

// SourceFSFor returns the interpreter's source file system for a
// program of source prog (interp.Options.SourcecodeFilesystem): SourceFS
// whose files hold only the functions prog can reach, pruned when the
// interpreter reads them (a program that imports no source package pays
// nothing). A session, whose later inputs may name any function, passes
// "" and gets SourceFS. The returned file system belongs to one
// interpreter; the pruned files are made for it, never shared.
func SourceFSFor(prog string) fs.FS {
	if prog == "" || !readsSource(prog) {
		return sourceFS
	}
	return &prunedFS{prog: prog}
}

// readsSource reports whether the interpreter may read a source file for
// prog: it names a source package's import path or an extension's
// function (a superset of the programs that import one).
func readsSource(prog string) bool {
	for path := range sourcePackages {
		if strings.Contains(prog, `"`+path+`"`) {
			return true
		}
	}
	for _, names := range extensionNames {
		for _, n := range names {
			if strings.Contains(prog, n) {
				return true
			}
		}
	}
	return false
}

// prunedFS is sourceFS with its .go files pruned for one program.
type prunedFS struct {
	prog string
}

// Open implements fs.FS.
func (p *prunedFS) Open(name string) (fs.File, error) {
	sf, ok := prunable()[name]
	if !ok {
		return sourceFS.Open(name)
	}
	f, err := sourceFS.Open(name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	f.Close()
	if err != nil {
		return nil, err
	}
	text := sf.prune(p.prog)
	return &memFile{Reader: bytes.NewReader(text), info: sizedInfo{FileInfo: fi, size: int64(len(text))}}, nil
}

// ReadFile implements fs.ReadFileFS.
func (p *prunedFS) ReadFile(name string) ([]byte, error) {
	sf, ok := prunable()[name]
	if !ok {
		return fs.ReadFile(sourceFS, name)
	}
	text := sf.prune(p.prog)
	if len(text) == 0 || &text[0] == &sf.text[0] {
		return bytes.Clone(text), nil // the unpruned text is shared
	}
	return text, nil
}

// ReadDir implements fs.ReadDirFS (the sizes of the entries are the
// unpruned files').
func (p *prunedFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(sourceFS, name) }

// Stat implements fs.StatFS.
func (p *prunedFS) Stat(name string) (fs.FileInfo, error) {
	f, err := p.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// memFile is an open pruned file.
type memFile struct {
	*bytes.Reader
	info fs.FileInfo
}

// Stat implements fs.File.
func (m *memFile) Stat() (fs.FileInfo, error) { return m.info, nil }

// Close implements fs.File.
func (m *memFile) Close() error { return nil }

// sizedInfo is a file's information with the pruned file's size.
type sizedInfo struct {
	fs.FileInfo
	size int64
}

// Size implements fs.FileInfo.
func (s sizedInfo) Size() int64 { return s.size }
