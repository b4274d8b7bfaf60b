package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/toolscript/toolscript/internal/normalize"
	"github.com/toolscript/toolscript/internal/typecheck"
)

// The type-checking pass (internal/typecheck) runs beside the
// interpreter's compilation (startCheck) for every script that holds a
// construct with which the interpreter is known to accept what Go
// refuses (normalize.Program.NeedsCheck), and such a script runs only
// when both accept it; for the others it runs when the compilation
// fails:
//   - when the interpreter refuses a script, go/types' errors, at the
//     model's line and column and with a "did you mean" where a name is
//     near one that exists, replace the interpreter's message, which is
//     often poorer ("undefined: x" without the type, or an internal
//     message); when the pass finds no error the interpreter's message
//     stands;
//   - a script the interpreter compiles but Go refuses (a named type
//     given where its underlying type is wanted, m["k"].X = 1, a pointer
//     method of a value that is not addressable, a goto over a
//     declaration) fails with Go's errors instead of running as Go would
//     never run it.
// The pass costs about as much CPU as the compilation (a 100-line
// script's: internal/typecheck's BenchmarkCheck against
// BenchmarkExecute_Corpus100), which is why a script without such a
// construct (a tool-call chain, loops and maps) goes without it.
// A session's input is checked alone, without what earlier inputs
// declared: one that names something undefined is not refused by the
// pass (typeErrors).

// checkers caches one Checker per namespace shape: the tool packages'
// declarations, as Describe renders them.
var checkers struct {
	sync.Mutex
	m map[string]*typecheck.Checker
}

// maxCheckers bounds checkers; past it the cache starts again (as
// typedCache does).
const maxCheckers = 64

// checker returns the type checker of scripts that see the surface s,
// found once per surface (a surface is shared by the executions of its
// namespace).
func (s *surface) checker() *typecheck.Checker {
	s.check.once.Do(func() { s.check.c = s.findChecker() })
	return s.check.c
}

// findChecker finds or makes the type checker of the surface's shape.
func (s *surface) findChecker() *typecheck.Checker {
	tools := typecheck.Tools{Decls: map[string]string{}, Typed: map[string][]string{}}
	pkgs := make([]string, 0, len(s.pkgs))
	for p := range s.pkgs {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var key strings.Builder
	for _, p := range pkgs {
		var b strings.Builder
		funcs := append([]toolFunc(nil), s.pkgs[p]...)
		s.describePackage(&b, p, funcs, p == toolsPackage)
		tools.Decls[p] = b.String()
		key.WriteString(tools.Decls[p])
		key.WriteString("\x00")
		if tp := s.typed(p); tp != nil {
			for name := range tp.funcs {
				tools.Typed[p] = append(tools.Typed[p], name)
			}
		}
	}
	checkers.Lock()
	defer checkers.Unlock()
	if c, ok := checkers.m[key.String()]; ok {
		return c
	}
	if checkers.m == nil || len(checkers.m) >= maxCheckers {
		checkers.m = map[string]*typecheck.Checker{}
	}
	c := typecheck.New(tools) // its tool packages are built on its first Check
	checkers.m[key.String()] = c
	return c
}

// nativeSource is code normalised for the type checker (plain Go, the
// normaliser's native mode); false if the normaliser refuses it.
func (s *surface) nativeSource(code string) (string, bool) {
	im := imports{surf: s}
	np, err := normalize.Source(code, normalize.Config{
		Allowed:    im.allowed,
		Importable: Packages,
		AutoImport: im.autoImport,
		ReadOnly:   im.isPackageVar,
		MaxNesting: MaxNesting,
		Native:     true,
	})
	if err != nil {
		return "", false
	}
	return np.Src, true
}

// constMinMax returns the calls of min and max in code whose value is a
// constant, for the normaliser to fold (normalize.Config.ConstMinMax). It
// runs the type checker, so only for a script whose calls of min or max
// may all be constants (normalize.Program.MinMaxConst).
func (s *surface) constMinMax(code string) map[normalize.MinMaxPos]int {
	src, ok := s.nativeSource(code)
	if !ok {
		return nil
	}
	return s.checker().ConstMinMax(src)
}

// checkRun is the type-checking pass of one program: started beside the
// compilation when the program needs it (program.check), else run by
// the first result call, which only a compile error makes.
type checkRun struct {
	surf    *surface
	prog    *program
	done    chan struct{} // nil when not started
	te      error
	valid   bool
	settled bool
}

// startCheck starts the type-checking pass of prog in a goroutine of its
// own when prog.check says Go must accept prog before it runs. The
// caller must call wait before the execution ends, so that the goroutine
// never outlives it.
func (s *surface) startCheck(prog *program) *checkRun {
	c := &checkRun{surf: s, prog: prog}
	if prog.check {
		c.done = make(chan struct{})
		go func() {
			defer close(c.done)
			c.te, c.valid = s.typeErrors(prog)
		}()
	}
	return c
}

// result returns typeErrors' result for the program, waiting for the
// pass if it was started (until ctx ends: then nil, and the execution
// ends on ctx), else running it.
func (c *checkRun) result(ctx context.Context) (error, bool) {
	if c.done != nil {
		select {
		case <-c.done:
		case <-ctx.Done():
			return nil, false
		}
	} else if !c.settled {
		c.te, c.valid = c.surf.typeErrors(c.prog)
	}
	c.settled = true
	return c.te, c.valid
}

// wait waits for a started pass to end, or for ctx to: a pass that goes
// on after the execution's deadline (go/types over a hostile script)
// holds nothing of the execution's and ends on its own.
func (c *checkRun) wait(ctx context.Context) {
	if c.done != nil {
		select {
		case <-c.done:
		case <-ctx.Done():
		}
	}
}

// checked is the type checker's result for a script: its errors, or ok
// false when the normaliser refuses it in native mode.
type checked struct {
	errs []typecheck.Error
	ok   bool
}

// The results of the type-checking pass a surface keeps (checkResult):
// at most maxCheckResults scripts of at most maxCheckBytes together;
// past either the cache starts again.
const (
	maxCheckResults = 512
	maxCheckBytes   = 4 << 20
)

// checkResult returns the type errors of the script code (its native
// source checked), and false if the normaliser refuses it. A script
// checked before on the surface (a retry, a script run again) gets the
// result it got then: the pass is a function of the script's text and
// of the surface alone (the tools' declarations), and its result, a list
// of messages, holds nothing of an execution. The pass costs as much CPU
// as compiling the script, so a repeated script pays it once.
func (s *surface) checkResult(code string) ([]typecheck.Error, bool) {
	s.check.mu.Lock()
	r, hit := s.check.results[code]
	s.check.mu.Unlock()
	if hit {
		return r.errs, r.ok
	}
	src, ok := s.nativeSource(code)
	if ok {
		r = checked{errs: s.checker().Check(src), ok: true}
	}
	if len(code) > maxCheckBytes/8 {
		return r.errs, r.ok // not worth a slot: a script that large is rare and would crowd out the others
	}
	s.check.mu.Lock()
	defer s.check.mu.Unlock()
	if _, hit := s.check.results[code]; !hit {
		if s.check.results == nil || len(s.check.results) >= maxCheckResults || s.check.bytes+len(code) > maxCheckBytes {
			s.check.results, s.check.bytes = map[string]checked{}, 0
		}
		s.check.results[code] = r
		s.check.bytes += len(code)
	}
	return r.errs, r.ok
}

// typeErrors returns the type errors of a one-shot program's script as a
// *ScriptError (the first at its line, the others after it), nil when
// the pass finds none or cannot check the script; valid reports that it
// checked the script and found it valid Go.
func (s *surface) typeErrors(prog *program) (te error, valid bool) {
	if prog.code == "" || prog.globals {
		return nil, false // names the checker does not know
	}
	errs, ok := s.checkResult(prog.code)
	if !ok {
		return nil, false
	}
	if prog.session {
		// A session's input is checked alone: a name an earlier input
		// declared is undefined here, so an input with an undefined name
		// keeps the interpreter's message.
		for _, e := range errs {
			if strings.HasPrefix(e.Msg, "undefined: ") && !strings.Contains(e.Msg, ".") {
				return nil, false
			}
		}
	}
	if len(errs) == 0 {
		return nil, !prog.session
	}
	first := errs[0]
	se := &ScriptError{Line: first.Line, Column: first.Column, Msg: first.Msg, Source: prog.line(first.Line)}
	if len(errs) > 1 {
		// Go's compiler lists every error; the caret would point at the
		// first one's line below the last message, so there is none.
		var b strings.Builder
		b.WriteString(first.Msg)
		for _, e := range errs[1:] {
			fmt.Fprintf(&b, "\n%s", e.Error())
		}
		se.Msg, se.Source = b.String(), ""
	}
	return se, false
}
