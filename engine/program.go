package engine

import (
	"errors"
	"fmt"
	"go/token"
	"strconv"
	"strings"

	"github.com/toolscript/toolscript/internal/normalize"
	"github.com/toolscript/toolscript/internal/suggest"
	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

// The names of the generated code (internal/normalize).
const (
	scriptFile   = normalize.File
	rtImportPath = normalize.RuntimePath
	rtAlias      = normalize.RuntimeAlias
	globalsPath  = normalize.GlobalsPath
)

// program is a script after normalisation, as the engine runs it.
type program struct {
	src     string          // the Go source to compile
	body    string          // an input of a session: its statements (normalize.Session)
	lines   []string        // the model's original lines, for error excerpts
	imports []string        // import paths the program uses, allowlisted or tools
	usesRT  bool            // the generated code calls the runtime package
	code    string          // a one-shot script as the model wrote it, for the type-checking pass (typecheck.go)
	globals bool            // the program dot-imports WithExtraGlobals' names
	session bool            // an input of a session: code is checked alone (typecheck.go)
	earlier bool            // a session input that mentions a name an earlier input declared
	check   bool            // Go must accept it before it runs (normalize.Program.NeedsCheck)
	names   normalize.Names // a session input's names (normalize.Program.Names)

	// parsed is the normaliser's program when it parsed src once into
	// fset, the interpreter's file set (normalize.Config.Parse): the
	// interpreter compiles parsed.File instead of parsing src again.
	parsed *normalize.Program
	fset   *token.FileSet
}

// normalizeScript normalises code for one execution (see
// internal/normalize): im says what the script may import, globals
// whether WithExtraGlobals gave names to dot-import. A script the
// normaliser refuses is a *ScriptError. A script normalised before on
// the surface gets that normalisation again (normcache.go).
func normalizeScript(code string, im imports, globals bool) (*program, error) {
	if prog := im.surf.cachedNormalization(code, globals); prog != nil {
		return prog, nil
	}
	prog, err := normalizeNew(code, im, globals)
	if err == nil {
		im.surf.keepNormalization(code, globals, prog)
	}
	return prog, err
}

// normalizeNew is normalizeScript without the surface's cache
// (normcache.go).
func normalizeNew(code string, im imports, globals bool) (*program, error) {
	fset := token.NewFileSet()
	cfg := im.normalizeConfig(globals)
	cfg.Parse = interp.FileParser(fset) // parsed once, compiled from the tree (compileProgram)
	np, err := normalize.Source(code, cfg)
	if err != nil {
		return nil, im.importHint(normalizeError(err))
	}
	if np.MinMaxConst && !globals {
		// min or max of named constants: only the type checker knows
		// which of these calls are constants (normalize.Config.ConstMinMax).
		if folds := im.surf.constMinMax(code); len(folds) > 0 {
			fset = token.NewFileSet()
			cfg.Parse, cfg.ConstMinMax = interp.FileParser(fset), folds
			if np, err = normalize.Source(code, cfg); err != nil {
				return nil, im.importHint(normalizeError(err))
			}
		}
	}
	prog := &program{src: np.Src, lines: np.Lines, imports: np.Imports, usesRT: np.UsesRuntime, code: code, globals: globals, check: np.NeedsCheck}
	if np.File != nil {
		prog.parsed, prog.fset = np, fset
	}
	return prog, nil
}

// normalizeConfig is the normaliser's configuration for a one-shot
// script, without Parse.
func (im imports) normalizeConfig(globals bool) normalize.Config {
	return normalize.Config{
		Allowed:    im.allowed,
		Importable: Packages,
		AutoImport: im.autoImport,
		ReadOnly:   im.isPackageVar,
		Globals:    globals,
		MaxNesting: MaxNesting,
	}
}

// normalizeError turns the normaliser's error into the engine's.
func normalizeError(err error) error {
	var ne *normalize.Error
	if !errors.As(err, &ne) {
		return err
	}
	se := &ScriptError{Line: ne.Line, Column: ne.Column, Msg: ne.Msg, Source: ne.Source}
	switch ne.Kind {
	case normalize.ImportRefused:
		se.Err = ErrImportNotAllowed
		se.Msg = ErrImportNotAllowed.Error() + ": " + ne.Msg
	case normalize.TooDeep:
		se.Msg += " (engine.MaxNesting)"
	}
	return se
}

// line returns the model's source line n (1-based), "" if there is none.
func (p *program) line(n int) string {
	if n < 1 || n > len(p.lines) {
		return ""
	}
	return strings.TrimRight(p.lines[n-1], "\r")
}

// importHint adds to the refusal of an import that looks like a typo of
// an importable path ("strngs", "encoding/jsn", or "json" for
// encoding/json) the path it may have meant; a refusal of a package that
// exists but scripts cannot import (os/exec) stays as it is.
func (im imports) importHint(err error) error {
	se, ok := err.(*ScriptError)
	if !ok || !errors.Is(se.Err, ErrImportNotAllowed) {
		return err
	}
	const refusal = " is not available to scripts"
	i := strings.Index(se.Msg, refusal)
	if i < 0 {
		return err
	}
	j := strings.LastIndex(se.Msg[:i], ": ")
	path, perr := strconv.Unquote(se.Msg[j+2 : i])
	if j < 0 || perr != nil {
		return err
	}
	paths := Packages()
	for p := range im.surf.pkgs {
		paths = append(paths, p)
	}
	best := ""
	for _, p := range paths {
		if p[strings.LastIndex(p, "/")+1:] == path {
			best = p // "json" for encoding/json
		}
	}
	if best == "" {
		// At most two edits: a package scripts cannot import (crypto/rand)
		// is no typo of one they can (math/rand).
		if n := suggest.Nearest(path, paths); n != "" && suggest.Distance(strings.ToLower(path), strings.ToLower(n)) <= 2 {
			best = n
		}
	}
	if best == "" {
		return err
	}
	se.Msg = se.Msg[:i+len(refusal)] + fmt.Sprintf(" (did you mean %q?)", best) + se.Msg[i+len(refusal):]
	return se
}
