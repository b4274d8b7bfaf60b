package interp

import (
	"bytes"
	"context"
	"io"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// standInFile stands for *os.File, as toolscript's os.Stdout does: it
// has only Write, WriteString and Name of its methods.
type standInFile struct {
	w    io.Writer
	name string
}

func (f *standInFile) Write(p []byte) (int, error)       { return f.w.Write(p) }
func (f *standInFile) WriteString(s string) (int, error) { return io.WriteString(f.w, s) }
func (f *standInFile) Name() string                      { return f.name }

// runStandInProgram runs src with os.Stdout and os.Stderr of type
// *standInFile, declared (Options.StandIns) to stand for *os.File.
func runStandInProgram(t *testing.T, src string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Stderr: io.Discard, StandIns: map[reflect.Type]reflect.Type{
		reflect.TypeFor[*standInFile](): reflect.TypeFor[*os.File](),
	}})
	require.NoError(t, it.Use(stdlib.Symbols))
	stdout, stderr := &standInFile{&out, "/dev/stdout"}, &standInFile{&out, "/dev/stderr"}
	require.NoError(t, it.Use(Exports{"os/os": {
		"File":   reflect.ValueOf((*standInFile)(nil)),
		"Stdout": reflect.ValueOf(&stdout).Elem(),
		"Stderr": reflect.ValueOf(&stderr).Elem(),
	}}))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := it.EvalWithContext(ctx, src)
	require.NotErrorIs(t, err, context.DeadlineExceeded, "the program hung: %s", out.String())
	return out.String(), err
}

// TestStandInAssertions checks patches 178 and 179: a type assertion or
// a type switch case of an interface type on a value of a stand-in type
// (Options.StandIns), or of a script type embedding one, that Go answers
// with the real type's methods, which the stand-in lacks, fails at run
// time naming the line, the types and the methods (it answered false, Go
// true); one the stand-in answers as the real type does keeps Go's
// answer. Each want is what go run prints (up to the failure for the
// failing ones).
func TestStandInAssertions(t *testing.T) {
	for _, tc := range []goCase{
		{"answered as Go", `package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	var w io.Writer = os.Stdout
	_, i := w.(fmt.Stringer)
	_, j := w.(io.StringWriter)
	_, k := w.(interface{ Name() string })
	_, l := w.(interface{ Foo() })
	_, m := w.(interface{ Close() int })
	_, o := w.(interface {
		Close() error
		Foo()
	})
	fmt.Println(i, j, k, l, m, o)
	var x any = os.Stderr
	switch v := x.(type) {
	case fmt.Stringer:
		fmt.Println("stringer")
	case io.StringWriter:
		fmt.Println("sw", v != nil)
	case io.Closer:
		fmt.Println("closer")
	}
	switch x.(type) {
	case io.Closer, io.Writer:
		fmt.Println("closer or writer")
	}
	switch x.(type) {
	case io.Closer, *os.File:
		fmt.Println("closer or file")
	}
	var e any = 3
	_, ok := e.(io.Closer)
	fmt.Println(ok)
	sw := w.(io.StringWriter)
	sw.WriteString("ws\n")
}
`, "false true true false false false\nsw true\ncloser or writer\ncloser or file\nfalse\nws\n"},
		{"embedded, answered as Go", `package main

import (
	"fmt"
	"io"
	"os"
)

type out struct {
	*os.File
}

func (out) Close() {}

type wrap struct {
	out
	k int
}

func main() {
	var x any = out{os.Stdout}
	_, ok := x.(io.Closer)
	_, ok2 := x.(interface{ Foo() })
	fmt.Println(ok, ok2)
	var y any = &wrap{}
	_, ok = y.(io.Writer)
	fmt.Println(ok)
}
`, "false false\ntrue\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runStandInProgram(t, tc.src)
			require.NoError(t, err, out)
			require.Equal(t, tc.want, out)
		})
	}

	const head = "package main\n\nimport (\n\t\"fmt\"\n\t\"io\"\n\t\"os\"\n)\n\n"
	for _, tc := range []struct{ name, src, want, err string }{
		{"panicking form (178)", head + `func main() {
	var w io.Writer = os.Stdout
	fmt.Println("before")
	c := w.(io.Closer)
	fmt.Println(c != nil)
}
`, "before\n", "12:7: toolscript: *interp.standInFile here has only Name, Write and WriteString; asserting io.Closer (Close) cannot be answered as Go would"},
		{"comma-ok form (178)", head + `func main() {
	var w io.Writer = os.Stdout
	rf, ok := w.(io.ReaderFrom)
	fmt.Println(rf != nil, ok)
}
`, "", "11:12: toolscript: *interp.standInFile here has only Name, Write and WriteString; asserting io.ReaderFrom (ReadFrom)"},
		{"unnamed interface (178)", head + `func main() {
	var x io.Writer = os.Stderr
	if f, ok := x.(interface{ Fd() uintptr }); ok {
		fmt.Println("fd", f.Fd() > 100)
	}
}
`, "", "11:14: toolscript: *interp.standInFile here has only Name, Write and WriteString; asserting interface { Fd() uintptr} (Fd)"},
		{"script interface of two methods (178)", head + `type ReadCloser interface {
	Read([]byte) (int, error)
	Close() error
}

func main() {
	var x io.Writer = os.Stdout
	_, ok := x.(ReadCloser)
	fmt.Println(ok)
}
`, "", "16:11: toolscript: *interp.standInFile here has only Name, Write and WriteString; asserting main.ReadCloser (Close, Read)"},
		{"in a generic function (178)", head + `func isCloser[T any](v T) bool {
	_, ok := any(v).(io.Closer)
	return ok
}

func main() {
	fmt.Println(isCloser(3))
	fmt.Println(isCloser(os.Stdout))
}
`, "false\n", "10:11: toolscript: *interp.standInFile here has only Name, Write and WriteString; asserting io.Closer (Close)"},
		{"type switch, a later case (179)", head + `func main() {
	var x any = os.Stdout
	switch x.(type) {
	case fmt.Stringer:
		fmt.Println("stringer")
	case io.Closer:
		fmt.Println("closer")
	default:
		fmt.Println("default")
	}
}
`, "", "14:2: toolscript: *interp.standInFile here has only Name, Write and WriteString; asserting io.Closer (Close)"},
		{"type switch with a variable (179)", head + `func main() {
	var x io.Writer = os.Stdout
	switch v := x.(type) {
	case io.Seeker:
		fmt.Println("seeker", v != nil)
	default:
		fmt.Println("default")
	}
}
`, "", "12:2: toolscript: *interp.standInFile here has only Name, Write and WriteString; asserting io.Seeker (Seek)"},
		{"type switch, a case of two types (179)", head + `func main() {
	var x any = os.Stdout
	switch x.(type) {
	case io.Reader, fmt.Stringer:
		fmt.Println("reader")
	}
}
`, "", "12:2: toolscript: *interp.standInFile here has only Name, Write and WriteString; asserting io.Reader (Read)"},
		{"embedded in a script type (179)", head + `type out struct {
	*os.File
	n int
}

type wrap struct{ out }

func main() {
	var x any = out{os.Stdout, 1}
	_, ok := x.(io.Writer)
	fmt.Println(ok)
	var y any = &wrap{}
	_, ok = y.(io.Seeker)
	fmt.Println(ok)
}
`, "true\n", "21:10: toolscript: *main.wrap's embedded *interp.standInFile here has only Name, Write and WriteString; asserting io.Seeker (Seek)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runStandInProgram(t, tc.src)
			require.Error(t, err, out)
			require.Contains(t, err.Error(), tc.err)
			require.Equal(t, tc.want, out)
		})
	}
}
