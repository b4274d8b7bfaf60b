package interp

// Direct tests of toolscript patches 24 to 28: allocation hooks, native
// method replacement, compilation under a context, constant bounds.

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestPatch24MakeCheck checks that make and keyed slice literals call
// Options.MakeCheck with the type and the largest size before allocating.
func TestPatch24MakeCheck(t *testing.T) {
	var got []string
	it := New(Options{MakeCheck: func(typ reflect.Type, n int) {
		got = append(got, fmt.Sprintf("%s %d", typ, n))
		if n > 1000 {
			panic("too big")
		}
	}})
	v, err := evalFunc(it, `func f() int {
		a := make([]int64, 5, 9)
		m := make(map[string]int, 7)
		c := make(chan bool, 3)
		s := []int{7: 1}
		return len(a) + len(m) + cap(c) + len(s)
	}`)
	if err != nil {
		t.Fatal(err)
	}
	if v.Int() != 5+0+3+8 {
		t.Errorf("result %v", v)
	}
	want := []string{"[]int64 9", "map[string]int 7", "chan bool 3", "[]int 8"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("checks %v, want %v", got, want)
	}
	if _, err := it.Eval(`n := 5000; _ = make([]byte, n)`); err == nil || !strings.Contains(err.Error(), "too big") {
		t.Errorf("a refused make gave %v", err)
	}
}

// evalFunc declares the function f of src and returns f().
func evalFunc(it *Interpreter, src string) (reflect.Value, error) {
	if _, err := it.Eval(src); err != nil {
		return reflect.Value{}, err
	}
	return it.Eval("f()")
}

// TestPatch25TypeCheck checks that an array or struct type over the
// bound of Options.TypeCheck is a compile error that wraps its error.
func TestPatch25TypeCheck(t *testing.T) {
	errBig := errors.New("type too big")
	var sizes []uint64
	it := New(Options{TypeCheck: func(size uint64, typ string) error {
		sizes = append(sizes, size)
		if size > 1<<20 {
			return errBig
		}
		return nil
	}})
	if _, err := it.Eval(`var small [16]int32`); err != nil {
		t.Fatal(err)
	}
	if len(sizes) == 0 || sizes[0] != 64 {
		t.Errorf("sizes %v, want 64", sizes)
	}
	for _, src := range []string{
		`var a [1 << 21]byte`,
		`p := new([1 << 12][1 << 12]int)`,
		`var z [1 << 62]int64`,
	} {
		_, err := it.Eval(src)
		if !errors.Is(err, errBig) {
			t.Errorf("%s: %v, want the TypeCheck error", src, err)
		}
	}
}

// TestPatch26BinMethod checks that Options.BinMethod replaces a native
// method on every path a script selects it by: a call, a method value,
// a promoted method of an embedded field and a call through an
// interface.
func TestPatch26BinMethod(t *testing.T) {
	var grown []int
	it := New(Options{BinMethod: func(recv reflect.Type, name string) func(reflect.Value) reflect.Value {
		if recv != reflect.TypeOf((*strings.Builder)(nil)) || name != "Grow" {
			return nil
		}
		return func(r reflect.Value) reflect.Value {
			b := r.Interface().(*strings.Builder)
			return reflect.ValueOf(func(n int) { grown = append(grown, n); b.Grow(n) })
		}
	}})
	if err := it.Use(Exports{"strings/strings": {"Builder": reflect.ValueOf((*strings.Builder)(nil))}}); err != nil {
		t.Fatal(err)
	}
	_, err := it.Eval(`import "strings"`)
	if err != nil {
		t.Fatal(err)
	}
	v, err := evalFunc(it, `func f() int {
		var b strings.Builder
		b.Grow(1)
		g := b.Grow
		g(2)
		type W struct{ strings.Builder }
		var w W
		w.Grow(3)
		p := &W{}
		p.Grow(4)
		var i interface{ Grow(int) } = &b
		i.Grow(5)
		b.WriteString("ok")
		return b.Len()
	}`)
	if err != nil {
		t.Fatal(err)
	}
	if v.Int() != 2 || fmt.Sprint(grown) != "[1 2 3 4 5]" {
		t.Errorf("result %v, replaced calls %v, want 2 and [1 2 3 4 5]", v, grown)
	}
}

// TestPatch27CompileWithContext checks that a compilation stops once its
// context is done, with the context's cause, and runs normally otherwise.
func TestPatch27CompileWithContext(t *testing.T) {
	src := "package main\nfunc main() { x := 1" + strings.Repeat(" + 1", 2000) + "; println(x) }"
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New(Options{}).CompileWithContext(ctx, src)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled compilation: %v", err)
	}
	if _, err := New(Options{}).CompileWithContext(context.Background(), src); err != nil {
		t.Errorf("compilation: %v", err)
	}
}

// TestPatch28ConstantBounds checks that constant shifts and integer
// constants are bounded as Go bounds them, before they are computed.
func TestPatch28ConstantBounds(t *testing.T) {
	tests := []struct{ src, err string }{
		{"const x = 1 << 1000000000", "invalid shift count"},
		{"const x = 1 << 500; const y = x * x", "constant overflow"},
		{"n := 1 << 2000", "invalid shift count"},
		{"const x = 1 << 62; var y = x >> 60", ""},
	}
	for _, tt := range tests {
		_, err := New(Options{}).Eval(tt.src)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: %v, want %q", tt.src, err, tt.err)
		}
	}
}

// TestPatch29InstantiationBound checks that an instantiation cycle through
// ever larger type arguments, and an exploding set of instantiations, are
// compile errors within a bounded time, and that ordinary generics still
// work.
func TestPatch29InstantiationBound(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"cycle", `func f[T any](n int) int { if n == 0 { return 0 }; return f[[]T](n - 1) }
func g() int { return f[int](3) }`, "instantiation cycle"},
		{"branching", `func f[T any](n int) int { if n == 0 { return 0 }; return f[[]T](n-1) + f[*T](n-1) + f[map[int]T](n-1) }
func g() int { return f[int](3) }`, "instantiation"},
		{"ordinary", `func f[T any](x T) T { return x }
func g() int { return f[int](3) + f(4) + len(f[[]string]([]string{"a"})) }`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			it := New(Options{})
			_, err := it.CompileWithContext(ctx, tt.src)
			if ctx.Err() != nil {
				t.Fatal("compilation ran a minute")
			}
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				it = New(Options{})
				if _, err := it.Eval(tt.src); err != nil {
					t.Fatal(err)
				}
				v, err := it.Eval("g()")
				if err != nil || v.Int() != 8 {
					t.Fatalf("g() = %v, %v", v, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
