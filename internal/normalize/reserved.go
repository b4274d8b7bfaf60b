package normalize

import (
	"go/scanner"
	"go/token"
	"strings"
)

// checkReserved refuses a script that uses the names of the generated
// code, RuntimeAlias or any identifier starting with RuntimeAlias + "_":
// a script that declared __ts, or called __ts.GoEnd itself, could switch
// its guards off or break the generated code. The error names the
// identifier at its first use. It scans tokens, so the names in comments
// and strings are left alone.
//
// Pinned by scripts/testdata/adversarial/reserved_names.gos,
// guardrt_alias_selector.gos and guardrt_generated_name.gos.
func (p *Program) checkReserved(code string) error {
	if !strings.Contains(code, RuntimeAlias) {
		return nil
	}
	fset := token.NewFileSet()
	f := fset.AddFile(File, -1, len(code))
	var s scanner.Scanner
	s.Init(f, []byte(code), nil, 0)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return nil
		}
		if tok == token.IDENT && (lit == RuntimeAlias || strings.HasPrefix(lit, RuntimeAlias+"_")) {
			return p.errorAt(Invalid, f.Position(pos), "%s is reserved by toolscript", lit)
		}
	}
}
