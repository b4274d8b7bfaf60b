package interp

import (
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	policystdlib "github.com/toolscript/toolscript/internal/policy/stdlib"
)

// stdlib stands in, in the fork's tests, for upstream yaegi's stdlib
// package (which the fork does not import): stdlib.Symbols are
// toolscript's generated standard-library tables (internal/policy/stdlib)
// under the keys upstream's have ("fmt/fmt", "math/rand/rand"), so that
// Use redirects the interpreter's standard output as it does for them,
// and runtime.Error, which the panic tests assert (scripts get no
// runtime package).
var stdlib = struct{ Symbols Exports }{Symbols: func() Exports {
	x := make(Exports, len(policystdlib.Symbols)+1)
	for path, syms := range policystdlib.Symbols {
		x[path+"/"+path[strings.LastIndex(path, "/")+1:]] = syms
	}
	x["runtime/runtime"] = map[string]reflect.Value{
		"Error":  reflect.ValueOf((*runtime.Error)(nil)),
		"_Error": reflect.ValueOf((*testRuntimeError)(nil)),
	}
	return x
}()}

// testRuntimeError is runtime.Error's interface wrapper in the tests'
// table, in the form of the generated ones.
type testRuntimeError struct {
	IValue        interface{}
	WError        func() string
	WRuntimeError func()
}

func (W testRuntimeError) Error() string { return W.WError() }
func (W testRuntimeError) RuntimeError() { W.WRuntimeError() }

// TestUseCompilesNoUpstreamGenericSources checks patch 105: Use of the
// standard library's tables ("fmt/fmt") redirects standard output but
// compiles no source package (upstream compiled its stdlib/generic
// sources of slices, maps, cmp and sync there).
func TestUseCompilesNoUpstreamGenericSources(t *testing.T) {
	var out strings.Builder
	i := New(Options{Stdout: &out})
	require.NoError(t, i.Use(stdlib.Symbols))
	require.Empty(t, i.srcPkg, "Use compiled source packages")
	_, err := i.Eval(`package main

import "fmt"

func main() { fmt.Println("hi") }`)
	require.NoError(t, err)
	require.Equal(t, "hi\n", out.String())
}
