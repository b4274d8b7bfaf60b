package interp

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// TestBinaryExtensions checks patch 70: a program importing a binary
// package whose extension is a source package gets the extension's
// generic function through the binary package's name, instantiated
// explicitly or inferred, next to the binary symbols; the binary table
// wins for a name both have; a package without an extension still fails
// on a missing symbol.
func TestBinaryExtensions(t *testing.T) {
	fsys := fstest.MapFS{
		"src/ext/errs/errs.go": {Data: []byte(`package errs

import native "errs"

func Wrapped[E error](e E) error { return native.Wrap(e) }

func First[T any](xs []T) T { return xs[0] }

func New(string) error { panic("the binary New must win") }
`)},
	}
	bin := Exports{"errs/./errs": {
		"New":  reflect.ValueOf(errors.New),
		"Wrap": reflect.ValueOf(func(err error) error { return fmt.Errorf("w: %w", err) }),
	}}
	fmtExports := Exports{"fmt/./fmt": {"Errorf": reflect.ValueOf(fmt.Errorf), "Sprint": reflect.ValueOf(fmt.Sprint)}}
	const prog = `package main

import (
	"errs"
	"fmt"
)

type NotFound struct{ ID int }

func (e *NotFound) Error() string { return fmt.Sprint("missing ", e.ID) }

func check() string {
	a := errs.Wrapped[*NotFound](&NotFound{ID: 3})
	b := errs.Wrapped(errs.New("other"))
	return fmt.Sprint(a, "; ", b, "; ", errs.First([]string{"x", "y"}))
}
`
	run := func(ext map[string]string, main string) (string, error) {
		var out bytes.Buffer
		it := New(Options{GoPath: ".", SourcecodeFilesystem: fsys, Stdout: &out, BinaryExtensions: ext})
		if err := it.Use(bin); err != nil {
			return "", err
		}
		if err := it.Use(fmtExports); err != nil {
			return "", err
		}
		if _, err := it.Eval(prog + main); err != nil {
			return "", err
		}
		v, err := it.Eval("check()")
		if err != nil {
			return "", err
		}
		return v.String(), nil
	}
	got, err := run(map[string]string{"errs": "ext/errs"}, "\nfunc main() {}\n")
	if err != nil {
		t.Fatal(err)
	}
	if got != "w: missing 3; w: other; x" {
		t.Fatalf("got %q, want %q", got, "w: missing 3; w: other; x")
	}

	// Without the extension, the binary package has no Wrapped.
	_, err = run(nil, "\nfunc main() {}\n")
	if err == nil || !strings.Contains(err.Error(), "has no symbol Wrapped") {
		t.Fatalf("without an extension: got %v, want a missing-symbol error", err)
	}
}
