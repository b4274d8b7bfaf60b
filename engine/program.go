package engine

import (
	"errors"
	"strings"

	"github.com/toolscript/toolscript/internal/normalize"
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
	src     string   // the Go source to compile
	body    string   // an input of a session: its statements (normalize.Session)
	lines   []string // the model's original lines, for error excerpts
	imports []string // import paths the program uses, allowlisted or tools
	usesRT  bool     // the generated code calls the runtime package
	code    string   // a one-shot script as the model wrote it, for the type-checking pass (typecheck.go)
	globals bool     // the program dot-imports WithExtraGlobals' names
}

// normalizeScript normalises code for one execution (see
// internal/normalize): im says what the script may import, globals
// whether WithExtraGlobals gave names to dot-import. A script the
// normaliser refuses is a *ScriptError.
func normalizeScript(code string, im imports, globals bool) (*program, error) {
	np, err := normalize.Source(code, normalize.Config{
		Allowed:    im.allowed,
		Importable: Packages,
		AutoImport: im.autoImport,
		ReadOnly:   im.isPackageVar,
		Globals:    globals,
		MaxNesting: MaxNesting,
	})
	if err != nil {
		return nil, normalizeError(err)
	}
	return &program{src: np.Src, lines: np.Lines, imports: np.Imports, usesRT: np.UsesRuntime, code: code, globals: globals}, nil
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
