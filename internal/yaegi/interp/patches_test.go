package interp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestUseSharedCopiesOnWrite checks that a shared symbol table is read by
// many interpreters and never written by any of them.
func TestUseSharedCopiesOnWrite(t *testing.T) {
	shared := map[string]reflect.Value{
		"Upper": reflect.ValueOf(strings.ToUpper),
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out bytes.Buffer
			it := New(Options{Stdout: &out})
			if err := it.UseShared(Exports{"str/./str": shared}); err != nil {
				t.Error(err)
				return
			}
			// A later Use of the same path must not reach the shared map.
			if err := it.Use(Exports{"str/./str": {"Lower": reflect.ValueOf(strings.ToLower)}}); err != nil {
				t.Error(err)
				return
			}
			if _, err := it.Eval(`import "str"`); err != nil {
				t.Error(err)
				return
			}
			v, err := it.Eval(`str.Upper("a") + str.Lower("B")`)
			if err != nil {
				t.Error(err)
				return
			}
			if got := v.String(); got != "Ab" {
				t.Errorf("got %q, want %q", got, "Ab")
			}
		}()
	}
	wg.Wait()
	if len(shared) != 1 {
		t.Fatalf("the shared table was written: %v", shared)
	}
}

// TestUseSharedRefusesSelf checks the paths that cannot be shared.
func TestUseSharedRefusesSelf(t *testing.T) {
	it := New(Options{})
	if err := it.UseShared(Exports{selfPath: {}}); err == nil {
		t.Fatal("sharing the interpreter's own package was accepted")
	}
	if err := it.UseShared(Exports{".": {}}); err == nil {
		t.Fatal("a MapTypes export without its table was accepted")
	}
}

// TestPredeclaredOnFirstUse checks that the lazily made universe behaves as
// the eager one: every predeclared name resolves, each interpreter has its
// own symbols, and a script can shadow a predeclared name.
func TestPredeclaredOnFirstUse(t *testing.T) {
	a, b := New(Options{}), New(Options{})
	for name := range universeSymbols {
		sa, _, okA := a.universe.lookup(name)
		sb, _, okB := b.universe.lookup(name)
		if !okA || !okB {
			t.Fatalf("%s does not resolve", name)
		}
		if sa == sb {
			t.Fatalf("%s: two interpreters share one symbol", name)
		}
		if again, _, _ := a.universe.lookup(name); again != sa {
			t.Fatalf("%s: a second lookup made a second symbol", name)
		}
	}
	if _, _, ok := a.universe.lookup("no_such_name"); ok {
		t.Fatal("an unknown name resolved")
	}
	it := New(Options{})
	if _, err := it.Eval(`func f() int { len := 3; return len }`); err != nil {
		t.Fatal(err)
	}
	v, err := it.Eval(`f() + cap(make([]int, 0, 2))`)
	if err != nil {
		t.Fatal(err)
	}
	if v.Int() != 5 {
		t.Fatalf("got %d, want 5", v.Int())
	}
}

// TestExecuteWatchGeneratesInCaller checks that a compiled program runs
// through ExecuteWatch and can run again.
func TestExecuteWatchGeneratesInCaller(t *testing.T) {
	var out bytes.Buffer
	it := New(Options{Stdout: &out})
	p, err := it.Compile(`package main; func main() { println("x") }`)
	if err != nil {
		t.Fatal(err)
	}
	_, done, err := it.ExecuteWatch(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	<-done
	if !p.generated {
		t.Fatal("the program's closures were not generated")
	}
}

// TestMapLiteralOfAny checks that the native map[string]any literal holds
// what reflect's SetMapIndex held: plain values, nil, interpreted types.
func TestMapLiteralOfAny(t *testing.T) {
	it := New(Options{})
	if _, err := it.Eval(`type point struct{ X int }
func build(i int) map[string]any {
	var e error
	return map[string]any{"i": i, "s": "x", "nil": nil, "err": e, "p": point{X: i}, "nested": map[string]any{"k": []int{i}}}
}`); err != nil {
		t.Fatal(err)
	}
	v, err := it.Eval(`build(7)`)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := v.Interface().(map[string]any)
	if !ok {
		t.Fatalf("got %T, want map[string]any", v.Interface())
	}
	if m["i"] != 7 || m["s"] != "x" || m["nil"] != nil || m["err"] != nil || len(m) != 6 {
		t.Fatalf("got %#v", m)
	}
	if x := reflect.ValueOf(m["p"]).FieldByName("X"); !x.IsValid() || x.Int() != 7 {
		t.Fatalf("struct element: got %#v", m["p"])
	}
	if got := m["nested"].(map[string]any)["k"].([]int); len(got) != 1 || got[0] != 7 {
		t.Fatalf("nested element: got %#v", m["nested"])
	}
}

// TestToolCallDefine checks the direct path of r, err := tool(args): each
// call gets fresh result variables (closures keep the old ones), errors
// come through, and a nil function value falls back to reflect.
func TestToolCallDefine(t *testing.T) {
	calls := 0
	tool := func(args map[string]any) (any, error) {
		calls++
		if args["fail"] == true {
			return nil, errors.New("refused")
		}
		return args["n"].(int) * 2, nil
	}
	it := New(Options{})
	if err := it.Use(Exports{"tools/./tools": {"Double": reflect.ValueOf(tool)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := it.Eval(`import "tools"`); err != nil {
		t.Fatal(err)
	}
	if _, err := it.Eval(`func run() (int, string) {
	var keep []func() any
	for i := 0; i < 3; i++ {
		r, err := tools.Double(map[string]any{"n": i})
		if err != nil {
			return 0, err.Error()
		}
		keep = append(keep, func() any { return r })
	}
	_, err := tools.Double(map[string]any{"fail": true})
	total := 0
	for _, k := range keep {
		total += k().(int)
	}
	return total, err.Error()
}`); err != nil {
		t.Fatal(err)
	}
	if _, err := it.Eval(`func total() int { t, _ := run(); return t }
func message() string { _, m := run(); return m }`); err != nil {
		t.Fatal(err)
	}
	total, err := it.Eval(`total()`)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := it.Eval(`message()`)
	if err != nil {
		t.Fatal(err)
	}
	if total.Int() != 6 || msg.String() != "refused" {
		t.Fatalf("got total %d, message %q; want 6, refused", total.Int(), msg.String())
	}
	if calls != 8 {
		t.Fatalf("the tool ran %d times, want 8", calls)
	}
}

// TestLoopVariables checks Go 1.22 loop variables where the body can keep
// a reference (closures, addresses, slices of arrays) and the shared
// storage where it cannot.
func TestLoopVariables(t *testing.T) {
	cases := []struct {
		name, fn string
		want     int64
	}{
		{"closures", `func f() int { var fs []func() int; for i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }; t := 0; for _, g := range fs { t = t*10 + g() }; return t }`, 12},
		{"addresses", `func f() int { var ps []*int; for i := 0; i < 3; i++ { ps = append(ps, &i) }; return *ps[0]*100 + *ps[1]*10 + *ps[2] }`, 12},
		{"range addresses", `func f() int { var ps []*int; for _, v := range []int{1, 2, 3} { ps = append(ps, &v) }; return *ps[0]*100 + *ps[1]*10 + *ps[2] }`, 123},
		{"array slices", `func f() int { var ss [][]int; for _, a := range [][1]int{{1}, {2}} { ss = append(ss, a[:]) }; return ss[0][0]*10 + ss[1][0] }`, 12},
		{"plain sum", `func f() int { t := 0; for i := 0; i < 5; i++ { t += i }; for k, v := range map[string]int{"a": 1} { t += len(k) + v }; return t }`, 12},
		{"body writes", `func f() int { t := 0; for i := 0; i < 10; i++ { i++; t++ }; return t }`, 5},
		{"body writes with closures", `func f() int { var fs []func() int; for i := 0; i < 10; i++ { i++; fs = append(fs, func() int { return i }) }; t := 0; for _, g := range fs { t = t*10 + g() }; return t }`, 13579},
		{"continue after a write", `func f() int { var fs []func() int; for i := 0; i < 6; i++ { if i%2 == 0 { i++; fs = append(fs, func() int { return i }); continue }; fs = append(fs, func() int { return -i }) }; t := 0; for _, g := range fs { t = t*10 + g() }; return t }`, 135},
		{"closures see their own iteration", `func f() int { var fs []func() int; for i := 0; i < 3; i++ { fs = append(fs, func() int { return i }); i += 0 }; return fs[0]()*100 + fs[1]()*10 + fs[2]() }`, 12},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			it := New(Options{})
			if _, err := it.Eval(c.fn); err != nil {
				t.Fatal(err)
			}
			v, err := it.Eval(`f()`)
			if err != nil {
				t.Fatal(err)
			}
			if v.Int() != c.want {
				t.Fatalf("got %d, want %d", v.Int(), c.want)
			}
		})
	}
}

// TestGoOfNilFunc checks that go of a nil function panics where the go
// statement runs, as in Go, so the panic can be recovered (a panic in the
// new goroutine would end the process).
func TestGoOfNilFunc(t *testing.T) {
	it := New(Options{})
	if _, err := it.Eval(`func f() (msg string) {
	defer func() {
		if e, ok := recover().(error); ok {
			msg = e.Error()
		}
	}()
	var g func()
	go g()
	return "no panic"
}`); err != nil {
		t.Fatal(err)
	}
	v, err := it.Eval(`f()`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "go of nil func value" {
		t.Fatalf("got %q, want the panic of go of a nil function", got)
	}
}

// TestClosureReturnKeepsNewerSlot checks that a closure returning between
// the next evaluation of its literal and the read of that value does not
// hand the reader an earlier closure of the literal (patch 20). Here the
// earlier closure runs as an argument evaluated after the literal; in a
// loop of go statements it returned in another goroutine.
func TestClosureReturnKeepsNewerSlot(t *testing.T) {
	it := New(Options{})
	if _, err := it.Eval(`var saved []func() int
func keep(g func() int, _ int) { saved = append(saved, g) }
func last() int {
	if len(saved) == 0 {
		return 0
	}
	return saved[len(saved)-1]()
}
func f() int {
	for i := 0; i < 3; i++ {
		keep(func() int { return i }, last())
	}
	t := 0
	for _, g := range saved {
		t = t*10 + g()
	}
	return t
}`); err != nil {
		t.Fatal(err)
	}
	v, err := it.Eval(`f()`)
	if err != nil {
		t.Fatal(err)
	}
	if v.Int() != 12 {
		t.Fatalf("got %d, want 12 (closures of iterations 0, 1, 2)", v.Int())
	}
}

// TestGoClosuresFromLoops runs, in parallel interpreters, loops that start
// goroutines of closures and of functions with arguments, and checks that
// every goroutine ran with its own iteration's values (patch 20: a
// closure returning in its goroutine could give the go statement of a later
// iteration an earlier closure, or a nil function). The race needs a
// goroutine that ends while the loop is between a literal and its go
// statement: arguments makes that happen in nearly every iteration (the
// argument waits for the previous goroutine's last statement), closures and
// named are the model-style loops where it happened under load (see
// BenchmarkGoClosuresFromLoops for a heavier stress).
func TestGoClosuresFromLoops(t *testing.T) {
	runGoClosuresFromLoops(t, 4, 25)
}

// BenchmarkGoClosuresFromLoops is the heavy form of TestGoClosuresFromLoops:
// go test -run '^$' -bench GoClosuresFromLoops ./internal/yaegi/interp.
func BenchmarkGoClosuresFromLoops(b *testing.B) {
	for b.Loop() {
		runGoClosuresFromLoops(b, 8, 50)
	}
}

const goClosuresFromLoops = `func work(i int) int { s := 0; for k := 0; k < 20; k++ { s += k }; return i + s - 190 }
func closures() int {
	ch := make(chan int, 50)
	for i := 0; i < 50; i++ {
		go func() { ch <- work(i) }()
	}
	s := 0
	for k := 0; k < 50; k++ {
		s += <-ch
	}
	return s
}
func after(done chan bool, i int) int {
	if i > 0 {
		<-done
	}
	return work(i)
}
func arguments() int {
	ch := make(chan int, 50)
	done := make(chan bool, 1)
	for i := 0; i < 50; i++ {
		go func(v int) { ch <- v; done <- true }(after(done, i))
	}
	s := 0
	for k := 0; k < 50; k++ {
		s += <-ch
	}
	return s
}
func named() int {
	ch := make(chan int, 50)
	send := func(v int) { ch <- v }
	for i := 0; i < 50; i++ {
		go send(work(i))
	}
	s := 0
	for k := 0; k < 50; k++ {
		s += <-ch
	}
	return s
}
func f() int { return closures()*1000000 + arguments()*1000 + named() }`

// runGoClosuresFromLoops runs goClosuresFromLoops rounds times in each of
// workers goroutines, each time in a fresh interpreter.
func runGoClosuresFromLoops(tb testing.TB, workers, rounds int) {
	const want = 1225*1000000 + 1225*1000 + 1225
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				var stderr bytes.Buffer
				it := New(Options{Stderr: &stderr})
				if _, err := it.Eval(goClosuresFromLoops); err != nil {
					errs <- err
					return
				}
				v, err := it.Eval(`f()`)
				switch {
				case err != nil:
					errs <- err
				case v.Int() != want:
					errs <- fmt.Errorf("got %d, want %d", v.Int(), want)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		if n++; n <= 3 {
			tb.Error(err)
		}
	}
	if n > 0 {
		tb.Fatalf("%d of %d runs went wrong", n, workers*rounds)
	}
}

// readOnlyT stands for a host type of which every execution shares values
// (time.Location), in TestReadOnlyTypes.
type readOnlyT struct{ n int }

// TestReadOnlyTypes checks patch 40: no assignment through a pointer
// writes a value of a read-only type, in any form of assignment, while
// reading and passing such pointers still works.
func TestReadOnlyTypes(t *testing.T) {
	tests := []struct {
		name, body string
		refused    bool
	}{
		{"assignment", `*p.P = *p.Q`, true},
		{"parenthesized", `(*p.P) = *p.Q`, true},
		{"multiple", `x := 0; *p.P, x = *p.Q, 1; _ = x`, true},
		{"via a local pointer", `q := p.P; *q = *p.Q`, true},
		{"swap", `*p.P, *p.Q = *p.Q, *p.P`, true},
		{"named type of the same struct", `type L p.T; l := (*L)(p.P); *l = L(*p.Q)`, true},
		{"generic", `set[p.T](p.P, *p.Q)`, true},
		{"from a channel", `c := make(chan p.T, 1); c <- *p.Q; *p.P = <-c`, true},
		{"read", `v := *p.P; _ = v`, false},
		{"pointer copy", `var q *p.T; q = p.P; _ = q`, false},
		{"script value", `var v p.T; v = *p.Q; _ = v`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host, other := &readOnlyT{n: 1}, &readOnlyT{n: 2}
			it := New(Options{ReadOnlyTypes: []reflect.Type{reflect.TypeOf(readOnlyT{})}})
			if err := it.Use(Exports{"p/p": {
				"P": reflect.ValueOf(host), "Q": reflect.ValueOf(other),
				"T": reflect.ValueOf((*readOnlyT)(nil)),
			}}); err != nil {
				t.Fatal(err)
			}
			src := "package main\nimport \"p\"\nfunc set[T any](d *T, v T) { *d = v }\nfunc main() { " + tt.body + " }\n"
			_, err := it.Eval(src)
			if tt.refused {
				if err == nil || !strings.Contains(err.Error(), "read-only in scripts") {
					t.Fatalf("want a read-only error, got %v", err)
				}
			} else if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if host.n != 1 || other.n != 2 {
				t.Fatalf("host values changed: %d %d", host.n, other.n)
			}
		})
	}
}

// hiddenT is a native struct with a field of a hidden type, for
// TestHiddenFieldType.
type hiddenT struct {
	Name string
	Type reflect.Type
}

// TestHiddenFieldType checks patch 41: a field whose type the host hides
// cannot be selected, directly, through a pointer or an embedding; other
// fields can.
func TestHiddenFieldType(t *testing.T) {
	tests := []struct {
		name, body string
		refused    bool
	}{
		{"value", `v := p.V; _ = v.Type`, true},
		{"pointer", `_ = p.Ptr.Type`, true},
		{"embedded", `type E struct{ *p.H }; e := E{p.Ptr}; _ = e.Type`, true},
		{"method on the field", `_ = p.Ptr.Type.String()`, true},
		{"other field", `_ = p.Ptr.Name`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it := New(Options{HiddenFieldType: func(t reflect.Type) bool { return t.PkgPath() == "reflect" }})
			h := &hiddenT{Name: "x", Type: reflect.TypeOf(0)}
			if err := it.Use(Exports{"p/p": {
				"V": reflect.ValueOf(*h), "Ptr": reflect.ValueOf(h),
				"H": reflect.ValueOf((*hiddenT)(nil)),
			}}); err != nil {
				t.Fatal(err)
			}
			_, err := it.Eval("package main\nimport \"p\"\nfunc main() { " + tt.body + " }\n")
			if tt.refused {
				if err == nil || !strings.Contains(err.Error(), "not available to scripts") {
					t.Fatalf("want a hidden-field error, got %v", err)
				}
			} else if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
		})
	}
}

// TestPanicFrames checks patch 16: the frames a panic passes through are
// reported innermost first, each at its own call, as Go's trace lists
// them (baz, bar, foo, main); the interpreter named a caller's call in
// place of the callee's, out of order.
func TestPanicFrames(t *testing.T) {
	var stderr bytes.Buffer
	it := New(Options{Stderr: &stderr})
	_, err := it.Eval(`package main

func main() {
	foo()
}

func foo() {
	bar()
}

func bar() {
	baz()
}

func baz() {
	panic("stop!")
}
`)
	if err == nil || !strings.Contains(err.Error(), "stop!") {
		t.Fatalf("got error %v, want the panic", err)
	}
	want := []string{"16:2: panic: main.baz(...)", "12:2: panic: main.bar(...)", "8:2: panic: main.foo(...)", "4:2: panic: main.main(...)"}
	got := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if !strings.HasSuffix(got[i], want[i]) {
			t.Fatalf("frame %d: got %q, want %q (all: %q)", i, got[i], want[i], got)
		}
	}
}

// TestRecvInBoolExpr checks patch 17: a receive that waits for its value
// inside a boolean expression gives that value (it gave false when the
// sender was not ready yet). Each round starts the sender just before the
// receive, so most rounds wait.
func TestRecvInBoolExpr(t *testing.T) {
	it := New(Options{})
	if _, err := it.Eval(`func f() (bad int) {
	ch := make(chan bool)
	for k := 0; k < 200; k++ {
		go func() { ch <- true }()
		if !(<-ch && true) {
			bad++
		}
		go func() { ch <- true }()
		ok := <-ch && true
		if !ok {
			bad++
		}
		go func() { ch <- false }()
		if !(<-ch || true) {
			bad++
		}
	}
	return bad
}`); err != nil {
		t.Fatal(err)
	}
	v, err := it.Eval(`f()`)
	if err != nil {
		t.Fatal(err)
	}
	if v.Int() != 0 {
		t.Fatalf("%d of 600 receives in a boolean expression gave a wrong value", v.Int())
	}
}

// TestDeferArgsNow checks patch 18: the arguments of a deferred call and
// of a go statement are evaluated at the statement, as in Go, for host
// functions, script functions and builtins, in loops (whose variable can
// share one storage) and out of them.
func TestDeferArgsNow(t *testing.T) {
	var got []int
	rec := func(v int) { got = append(got, v) }
	cases := []struct {
		name, fn string
		want     []int
		stdout   string
	}{
		{"host function in a loop", `func f() { for i := 0; i < 3; i++ { defer rec.Add(i) } }`, []int{2, 1, 0}, ""},
		{"host function over a range", `func f() { for _, v := range []int{4, 5, 6} { defer rec.Add(v) } }`, []int{6, 5, 4}, ""},
		{"script function in a loop", `func add(v int) { rec.Add(v) }
func f() { for i := 0; i < 3; i++ { defer add(i) } }`, []int{2, 1, 0}, ""},
		{"variable written after the defer", `type T struct{ A int }
func addT(t T) { rec.Add(t.A) }
func f() { x := 1; t := T{1}; defer rec.Add(x); defer addT(t); x = 2; t.A = 2 }`, []int{1, 1}, ""},
		{"builtin in a loop", `func f() { for i := 0; i < 3; i++ { defer print(i) } }`, nil, "210"},
		{"go statement of a host function", `func f() { done := make(chan bool); x := 1; go rec.AddThen(x, done); x = 2; <-done }`, []int{1}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got = nil
			var stdout bytes.Buffer
			it := New(Options{Stdout: &stdout})
			if err := it.Use(Exports{"rec/rec": {
				"Add":     reflect.ValueOf(rec),
				"AddThen": reflect.ValueOf(func(v int, done chan bool) { rec(v); close(done) }),
			}}); err != nil {
				t.Fatal(err)
			}
			if _, err := it.Eval(`import "rec"`); err != nil {
				t.Fatal(err)
			}
			if _, err := it.Eval(c.fn); err != nil {
				t.Fatal(err)
			}
			if _, err := it.Eval(`f()`); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) || stdout.String() != c.stdout {
				t.Fatalf("got %v and output %q, want %v and %q", got, stdout.String(), c.want, c.stdout)
			}
		})
	}
}

// TestStopFailsNativeCallers checks that stopping a program makes a native
// loop that calls the script (an io.Reader drained by a host function, a
// condition) end, on the program's goroutine and on a goroutine of the
// script, for a method, a method value and a closure: a function that
// returns an error returns ErrStopped, another panics with it, and that
// panic does not reach the process (patch 30).
func TestStopFailsNativeCallers(t *testing.T) {
	for _, tc := range []struct{ name, main string }{
		{"method on main", `host.Drain(R{})`},
		{"method in a goroutine", `go host.Drain(R{}); select {}`},
		{"method value", `host.DrainFunc(R{}.Read)`},
		{"closure in a goroutine", `go host.DrainFunc(func(p []byte) (int, error) { host.Ready(); return 0, nil }); select {}`},
		{"condition on main", `host.Spin(func() bool { host.Ready(); return true })`},
		{"condition in a goroutine", `go host.Spin(func() bool { host.Ready(); return true }); select {}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			drained := make(chan any, 1)
			var res any
			drain := func(read func([]byte) (int, error)) {
				defer func() { drained <- res }()
				buf := make([]byte, 8)
				for { // as io.Copy does: until an error
					if _, err := read(buf); err != nil {
						res = err
						return
					}
				}
			}
			spin := func(cond func() bool) {
				defer func() { drained <- recover() }()
				for cond() {
				}
			}
			it := New(Options{})
			if err := it.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			if err := it.Use(Exports{"host/host": {
				"Ready":     reflect.ValueOf(cancel),
				"Drain":     reflect.ValueOf(func(r io.Reader) { drain(r.Read) }),
				"DrainFunc": reflect.ValueOf(drain),
				"Spin":      reflect.ValueOf(spin),
			}}); err != nil {
				t.Fatal(err)
			}
			prog, err := it.Compile(`package main
import "host"
type R struct{}
func (R) Read(p []byte) (int, error) { host.Ready(); return 0, nil }
func main() { ` + tc.main + ` }`)
			if err != nil {
				t.Fatal(err)
			}
			_, running, _ := it.ExecuteWatch(ctx, prog)
			it.Stop()
			select {
			case r := <-drained:
				if r != ErrStopped {
					t.Fatalf("the native loop ended with %v, want ErrStopped", r)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the native loop still runs after the stop")
			}
			select {
			case <-running:
			case <-time.After(10 * time.Second):
				t.Fatal("the program did not unwind")
			}
		})
	}
}

// TestStoppedDeferredNativeCallsRun checks that a stopped goroutine still
// makes its deferred native calls (a wg.Done that the program's main
// waits for), while its deferred script functions do nothing (patch 30).
func TestStoppedDeferredNativeCallsRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var ran []string
	it := New(Options{})
	if err := it.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if err := it.Use(Exports{"host/host": {
		"Ready": reflect.ValueOf(cancel),
		"Note":  reflect.ValueOf(func(s string) { mu.Lock(); ran = append(ran, s); mu.Unlock() }),
	}}); err != nil {
		t.Fatal(err)
	}
	prog, err := it.Compile(`package main
import ("host"; "sync")
func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { host.Note("deferred script function") }()
		host.Ready()
		for {}
	}()
	wg.Wait()
	host.Note("after Wait")
}`)
	if err != nil {
		t.Fatal(err)
	}
	_, running, _ := it.ExecuteWatch(ctx, prog)
	it.Stop()
	select {
	case <-running:
	case <-time.After(10 * time.Second):
		t.Fatal("main stays blocked in wg.Wait: the stopped goroutine's deferred wg.Done did not run")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(ran) != 0 {
		t.Fatalf("script code ran after the stop: %v", ran)
	}
}

// TestMaxCallDepth checks that the call depth is counted whatever the
// path of the call: direct, a closure in a map, a method value, a
// function parameter, and a String method that native fmt calls back
// (patch 31).
func TestMaxCallDepth(t *testing.T) {
	for _, tc := range []struct{ name, src, fn string }{
		{"direct", `func f(n int) int { return f(n+1) + 1 }
func main() { f(0) }`, "f"},
		{"closure in a map", `func main() {
	m := map[string]func(int) int{}
	m["f"] = func(n int) int { return m["f"](n+1) }
	m["f"](0)
}`, "func literal at line 4"},
		{"method value", `type T struct{ next func() }
func (t T) M() { t.next() }
func main() {
	var f func()
	f = T{next: func() { f() }}.M
	f()
}`, ""}, // M, or the literal at line 6
		{"function parameter", `func apply(g func(int) int, n int) int { return g(n) }
func main() {
	var h func(int) int
	h = func(n int) int { return apply(h, n+1) }
	h(0)
}`, ""},
		{"String through fmt", `import "fmt"
type T struct{ n int }
func (t T) String() string { return fmt.Sprint(t) }
func main() { fmt.Sprint(T{1}) }`, "String"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var it *Interpreter
			var mu sync.Mutex
			var names []string
			it = New(Options{MaxCallDepth: 200, OnCallDepth: func(fn string) {
				mu.Lock()
				names = append(names, fn)
				mu.Unlock()
				it.Stop()
			}})
			if err := it.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			prog, err := it.Compile("package main\n" + tc.src)
			if err != nil {
				t.Fatal(err)
			}
			_, running, _ := it.ExecuteWatch(context.Background(), prog)
			select {
			case <-running:
			case <-time.After(10 * time.Second):
				t.Fatal("the program did not end")
			}
			mu.Lock()
			defer mu.Unlock()
			if len(names) == 0 || !strings.Contains(names[0], tc.fn) {
				t.Fatalf("OnCallDepth got %v, want a call of %s", names, tc.fn)
			}
		})
	}
	t.Run("no hook", func(t *testing.T) {
		it := New(Options{MaxCallDepth: 50})
		_, err := it.Eval("package main\nfunc f(n int) int { return f(n+1) + 1 }\nfunc main() { f(0) }")
		if err == nil || !strings.Contains(err.Error(), "call depth exceeds 50 in function f") {
			t.Fatalf("got %v, want the call depth error", err)
		}
	})
}

// TestConstLoop checks patch 19: a loop of package constants is reported
// as one (upstream's message), while a constant that fails on its own
// keeps its own error (patch 28), as Go reports "undefined: zz".
func TestConstLoop(t *testing.T) {
	cases := []struct{ src, want string }{
		{"package main\n\nconst (\n\ta = 2\n\tb = c + d\n\tc = a + d\n\td = e + f\n\te = b + 2\n\tf = 4\n)\n\nfunc main() { println(b) }\n", "5:2: constant definition loop"},
		{"package main\n\nconst a = zz + 1\n\nfunc main() { println(a) }\n", "3:11: undefined: zz"},
		{"package main\n\nconst (\n\tb = c\n\tc = zz\n)\n\nfunc main() { println(b) }\n", "undefined: zz"},
	}
	for _, c := range cases {
		_, err := New(Options{}).Eval(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an error with %q", err, c.want)
		}
	}
}

// TestPrintCheck checks that the builtins print and println hand their
// arguments to Options.PrintCheck before formatting them (patch 32).
func TestPrintCheck(t *testing.T) {
	var out bytes.Buffer
	var seen []any
	it := New(Options{Stdout: &out, PrintCheck: func(args []reflect.Value) {
		for _, a := range args {
			seen = append(seen, a.Interface())
		}
		if len(args) > 1 {
			panic("refused")
		}
	}})
	if _, err := it.Eval(`println("a")`); err != nil {
		t.Fatal(err)
	}
	if _, err := it.Eval(`print("b", 2)`); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("got %v, want the check's panic", err)
	}
	if out.String() != "a\n" || len(seen) != 3 || seen[2] != 2 {
		t.Fatalf("printed %q, checked %v", out.String(), seen)
	}
}

// TestSelectConcurrent runs one select statement in many goroutines at
// once, each on its own channels: every goroutine gets its own value (and
// under -race, no data race on the statement's cases; patch 33).
func TestSelectConcurrent(t *testing.T) {
	it := New(Options{})
	v, err := it.Eval(`package main
func pick(in chan int, quit chan bool) int {
	select {
	case v := <-in:
		return v
	case <-quit:
		return -1
	}
}
func run() int {
	done := make(chan int)
	for i := 0; i < 50; i++ {
		in := make(chan int, 1)
		in <- i
		go func() { done <- pick(in, make(chan bool)) }()
	}
	sum := 0
	for i := 0; i < 50; i++ {
		sum += <-done
	}
	return sum
}
func main() {}`)
	if err != nil {
		t.Fatal(err, v)
	}
	res, err := it.Eval(`run()`)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Int(); got != 49*50/2 {
		t.Fatalf("got %d, want %d", got, 49*50/2)
	}
}

// TestOwnedCall checks patch 34: Options.OwnedCall is asked, at compile
// time, for the calls of a tool-signature function whose only argument is
// a composite literal written in the call, in every call form, and its
// function replaces the symbol's there; a call with a variable keeps the
// symbol's function.
func TestOwnedCall(t *testing.T) {
	var plain, owned []string
	var asked []string
	tool := func(args map[string]any) (any, error) {
		plain = append(plain, fmt.Sprint(args["n"]))
		return fmt.Sprint(args["n"]), nil
	}
	it := New(Options{OwnedCall: func(pkgPath, name string) func(map[string]any) (any, error) {
		asked = append(asked, pkgPath+"."+name)
		if name != "Tool" {
			return nil
		}
		return func(args map[string]any) (any, error) {
			owned = append(owned, fmt.Sprint(args["n"]))
			args["n"] = "changed by the callee"
			return args["n"], nil
		}
	}})
	if err := it.Use(Exports{"tools/./tools": {"Tool": reflect.ValueOf(tool), "Other": reflect.ValueOf(tool)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := it.Eval(`import "tools"`); err != nil {
		t.Fatal(err)
	}
	_, err := it.Eval(`func f() string {
	m := map[string]any{"n": "1"}
	tools.Tool(m)
	r, _ := tools.Tool(map[string]any{"n": 2})
	tools.Tool(map[string]any{"n": 3})
	o, _ := tools.Other(map[string]any{"n": 4})
	return m["n"].(string) + " " + r.(string) + " " + o.(string)
}`)
	if err != nil {
		t.Fatal(err)
	}
	v, err := it.Eval(`f()`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "1 changed by the callee 4" {
		t.Errorf("f() = %q", got)
	}
	if fmt.Sprint(plain) != "[1 4]" || fmt.Sprint(owned) != "[2 3]" {
		t.Errorf("symbol's function ran for %v, owned one for %v", plain, owned)
	}
	sort.Strings(asked)
	if fmt.Sprint(asked) != "[tools.Other tools.Tool tools.Tool]" {
		t.Errorf("OwnedCall asked for %v", asked)
	}
}

// TestCompileErrorFields checks patch 21: CompileWithContext's errors are
// *Error values with the position, the kind and the symbol as fields, a
// syntax error included; the text is unchanged.
func TestCompileErrorFields(t *testing.T) {
	tests := []struct {
		src                string
		line, col          int
		kind               ErrorKind
		msg, pkg, sym, txt string
	}{
		{src: "package main\nimport \"strings\"\nfunc main() { strings.Nope() }", line: 3, col: 15, kind: KindNoSymbol,
			msg: `package strings "strings" has no symbol Nope`, pkg: "strings", sym: "Nope"},
		{src: "package main\nfunc main() {\n\tx := y\n\t_ = x\n}", line: 3, col: 7, kind: KindUndefined, msg: "undefined: y", sym: "y"},
		{src: "package main\nfunc main() {\n\tx := 1 +\n}", line: 4, col: 1, kind: KindSyntax, msg: "expected operand, found '}'"},
		{src: "package main\nfunc main() { var s string = 1; _ = s }", line: 2, col: 30, kind: KindOther, msg: "cannot convert 1 to string"},
	}
	for _, tt := range tests {
		it := New(Options{})
		if err := it.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		_, err := it.CompileWithContext(context.Background(), tt.src)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: %T %v is not an *Error", tt.src, err, err)
			continue
		}
		if e.Pos.Line != tt.line || e.Pos.Column != tt.col || e.Kind != tt.kind || e.Msg != tt.msg || e.Package != tt.pkg || e.Name != tt.sym {
			t.Errorf("%q: got %d:%d kind %d %q %q.%q", tt.src, e.Pos.Line, e.Pos.Column, e.Kind, e.Msg, e.Package, e.Name)
		}
		if want := fmt.Sprintf("%d:%d: %s", tt.line, tt.col, tt.msg); err.Error() != want {
			t.Errorf("%q: Error() = %q, want %q", tt.src, err.Error(), want)
		}
	}
}

// runPanic runs src and returns the Panic it ends with.
func runPanic(t *testing.T, src string) Panic {
	t.Helper()
	it := New(Options{Stderr: io.Discard})
	if err := it.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	_, err := it.Eval(src)
	var p Panic
	if !errors.As(err, &p) {
		t.Fatalf("%q: got %v, want a panic", src, err)
	}
	return p
}

// TestPanicFrameRecords checks patch 22: a Panic carries the script frames the
// panic went through, innermost first, each at its position, so a host
// reads no diagnostic text.
func TestPanicFrameRecords(t *testing.T) {
	p := runPanic(t, `package main

func g() { panic("boom") }

func f() {
	func() { g() }()
}

func main() { f() }`)
	var got []string
	for _, f := range p.Frames {
		got = append(got, fmt.Sprintf("%s@%d:%d", f.Func, f.Pos.Line, f.Pos.Column))
	}
	if want := "[main.g@3:12 main.f.func@6:11 main.f@6:2 main.main@9:15]"; fmt.Sprint(got) != want {
		t.Errorf("frames %v, want %s", got, want)
	}
	// A panic recovered earlier leaves no frame in a later one.
	p = runPanic(t, `package main

func g() { panic("first") }

func main() {
	func() { defer func() { recover() }(); g() }()
	panic("second")
}`)
	if len(p.Frames) != 1 || p.Frames[0].Func != "main.main" || p.Frames[0].Pos.Line != 7 {
		t.Errorf("frames %+v, want main.main at line 7 only", p.Frames)
	}
}

// TestRunning checks patch 23: Running counts a program's main, the
// goroutines of go statements (of script and native functions) and script
// functions called by native code while they run, and nothing after.
func TestRunning(t *testing.T) {
	block, release := make(chan struct{}), make(chan struct{})
	wait := func() { block <- struct{}{}; <-release }
	// Programs of earlier tests may still be unwinding (a stopped
	// program's goroutines end on their own) and some stay blocked: the
	// count is global, so take the base once it has not moved for 50
	// polls in a row (at most 10 s).
	base := Running()
	for still, deadline := 0, time.Now().Add(10*time.Second); still < 50 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
		if n := Running(); n == base {
			still++
		} else {
			base, still = n, 0
		}
	}
	it := New(Options{})
	if err := it.Use(Exports{"host/./host": {
		"Wait": reflect.ValueOf(wait),
		"Call": reflect.ValueOf(func(f func()) { go f() }),
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := it.Eval(`import "host"`); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		`host.Wait()`,                       // main
		`go func() { host.Wait() }()`,       // a go statement of the script's
		`go host.Wait()`,                    // of a native function
		`host.Call(func() { host.Wait() })`, // native code calling back
	} {
		done := make(chan error, 1)
		go func() { _, err := it.Eval(src); done <- err }()
		<-block
		if n := Running() - base; n < 1 {
			t.Errorf("%s: Running() = %d more while blocked, want at least 1", src, n)
		}
		release <- struct{}{}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for Running() != base && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if n := Running() - base; n != 0 {
			t.Errorf("%s: Running() = %d more after the end", src, n)
		}
	}
}

// TestRuntimeErrors checks patches 35 to 37: the interpreter panics with
// Go's run-time errors and Go's messages (those of go run for the same
// program): a failed type assertion, an index out of range, a nil
// pointer.
func TestRuntimeErrors(t *testing.T) {
	tests := []struct {
		body string
		want string
		kind ErrorKind
	}{
		{`var x any = "s"; _ = x.([]any)`, "interface conversion: interface {} is string, not []interface {}", KindTypeAssertion},
		{`var x any; _ = x.(int)`, "interface conversion: interface {} is nil, not int", KindTypeAssertion},
		{`var x any; _ = x.(fmt.Stringer)`, "interface conversion: interface is nil, not fmt.Stringer", KindTypeAssertion},
		{`var x any = 3; _ = x.(fmt.Stringer)`, "interface conversion: int is not fmt.Stringer: missing method String", KindTypeAssertion},
		{`var err error = errors.New("x"); _ = err.(*E)`, "interface conversion: error is *errors.errorString, not *main.E", KindTypeAssertion},
		{`var err error; _ = err.(*E)`, "interface conversion: error is nil, not *main.E", KindTypeAssertion},
		{`var x any; _ = x.(I)`, "interface conversion: interface is nil, not main.I", KindTypeAssertion},
		{`a := []int{1, 2, 3}; i := 5; _ = a[i]`, "runtime error: index out of range [5] with length 3", KindIndex},
		{`a := []int{1, 2, 3}; i := -1; _ = a[i]`, "runtime error: index out of range [-1]", KindIndex},
		{`a := "abc"; i := 5; _ = a[i]`, "runtime error: index out of range [5] with length 3", KindIndex},
		{`a := [3]int{}; i := 3; _ = a[i]`, "runtime error: index out of range [3] with length 3", KindIndex},
		{`a := []int{1}; i := uint64(1); i <<= 63; _ = a[i]`, "runtime error: index out of range [9223372036854775808] with length 1", KindIndex},
		{`a := []int{1}; i := 3; a[i] = 2`, "runtime error: index out of range [3] with length 1", KindIndex},
		{`var p *struct{ X int }; _ = p.X`, "runtime error: invalid memory address or nil pointer dereference", KindNilDereference},
		{`var p *[3]int; i := 1; _ = p[i]`, "runtime error: invalid memory address or nil pointer dereference", KindNilDereference},
	}
	for _, tt := range tests {
		src := "package main\nimport (\"errors\"; \"fmt\")\nvar _ = errors.New\nvar _ fmt.Stringer\ntype E struct{}\nfunc (*E) Error() string { return \"e\" }\ntype I interface{ M() }\n" +
			"func main() {\n\t" + tt.body + "\n}"
		p := runPanic(t, src)
		err, ok := p.Value.(error)
		if !ok {
			t.Errorf("%s: panic value %T %v is not an error", tt.body, p.Value, p.Value)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("%s: %q, want %q", tt.body, err.Error(), tt.want)
		}
		kind := KindTypeAssertion
		if re, ok := err.(*RuntimeError); ok {
			kind = re.Kind
		} else if _, ok := err.(*TypeAssertionError); !ok {
			t.Errorf("%s: %T, want a *RuntimeError or *TypeAssertionError", tt.body, err)
		}
		if kind != tt.kind {
			t.Errorf("%s: kind %d, want %d", tt.body, kind, tt.kind)
		}
		if _, ok := err.(interface{ RuntimeError() }); !ok {
			t.Errorf("%s: %T is no runtime.Error", tt.body, err)
		}
		if len(p.Frames) == 0 || p.Frames[0].Pos.Line != 9 {
			t.Errorf("%s: frames %+v, want the panic at line 9", tt.body, p.Frames)
		}
	}
}

// sessionRun compiles and runs src in it, then stops it, as a session
// does after each input.
func sessionRun(t *testing.T, it *Interpreter, src string) error {
	t.Helper()
	p, err := it.CompileWithContext(context.Background(), src)
	if err != nil {
		return err
	}
	_, _, err = it.ExecuteWatch(context.Background(), p)
	it.Stop()
	return err
}

// TestSaveRestoreState checks patch 46: a checkpoint of package main
// undoes what later programs declared, redeclared, assigned and added as
// methods.
func TestSaveRestoreState(t *testing.T) {
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Session: true})
	it.SetSourceName("s.go")
	copyValue := func(v reflect.Value) reflect.Value {
		n := reflect.New(v.Type()).Elem()
		n.Set(v)
		return n
	}
	for _, src := range []string{
		"package main; type T struct{ A int }; func f() int { return 1 }",
		"; x := 10; var s = \"a\"",
	} {
		if err := sessionRun(t, it, src); err != nil {
			t.Fatal(err)
		}
	}
	st := it.SaveState("main", copyValue)
	names, values := st.Vars()
	if fmt.Sprint(names) != "[x s]" || values[0].Int() != 10 {
		t.Fatalf("vars %v %v", names, values)
	}
	for _, src := range []string{
		"package main; func f() int { return 2 }; func g() int { return 3 }; func (T) M() int { return 4 }; type U int",
		"; x = 20; s = \"b\"; y := 30; println(x, s, y, f(), g(), T{}.M())",
	} {
		if err := sessionRun(t, it, src); err != nil {
			t.Fatal(err)
		}
	}
	it.RestoreState(st, copyValue)
	if err := sessionRun(t, it, "; println(x, s, f(), T{A: 1}.A)"); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "20 b 30 2 3 4\n10 a 1 1\n" {
		t.Errorf("output %q", got)
	}
	for _, src := range []string{"; println(y)", "; println(g())", "; var u U; println(u)", "; println(T{}.M())"} {
		if err := sessionRun(t, it, src); err == nil {
			t.Errorf("%q compiled after the restore", src)
		}
	}
}

// TestSessionFuncValues checks patch 47: in a session, a function value
// a stopped program stored is callable by the next program, a package is
// imported again, and statements see the imports of declarations; without
// Session, as upstream, the function value fails once its run stopped.
func TestSessionFuncValues(t *testing.T) {
	src := []string{
		"; counter := func() func() int { n := 0; return func() int { n++; return n } }(); add := func(a int) int { return a + 1 }",
		"; println(counter(), add(1))",
		"; println(counter())",
	}
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Session: true})
	for _, s := range src {
		if err := sessionRun(t, it, s); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
	}
	if got := out.String(); got != "1 2\n2\n" {
		t.Errorf("output %q", got)
	}
	plain := New(Options{Stdout: io.Discard})
	if err := sessionRun(t, plain, src[0]); err != nil {
		t.Fatal(err)
	}
	if err := sessionRun(t, plain, src[1]); err == nil || !strings.Contains(err.Error(), ErrStopped.Error()) {
		t.Errorf("without Session: %v, want %v", err, ErrStopped)
	}

	out.Reset()
	it = New(Options{Stdout: &out, Session: true})
	it.Use(Exports{"strs/strs": {"Upper": reflect.ValueOf(strings.ToUpper)}})
	it.SetSourceName("s.go")
	for _, s := range []string{
		`package main; import "strs"`,
		`package main; import "strs"; func up(s string) string { return strs.Upper(s) }`,
		`; println(strs.Upper("a"), up("b"))`,
	} {
		if err := sessionRun(t, it, s); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
	}
	if got := out.String(); got != "A B\n" {
		t.Errorf("output %q", got)
	}
	plain = New(Options{})
	plain.Use(Exports{"strs/strs": {"Upper": reflect.ValueOf(strings.ToUpper)}})
	if _, err := plain.Compile(`package main; import "strs"; import "strs"`); err == nil {
		t.Error("without Session, a package imported twice compiled")
	}

	depth := 0
	it = New(Options{Session: true, MaxCallDepth: 1000, OnCallDepth: func(string) { depth++; panic("deep") }})
	if err := sessionRun(t, it, "package main; func r(n int) int { if n == 0 { return 0 }; return r(n-1) }"); err != nil {
		t.Fatal(err)
	}
	it.SetMaxCallDepth(10)
	if err := sessionRun(t, it, "; r(50)"); err == nil || depth != 1 {
		t.Errorf("SetMaxCallDepth(10): %v, depth hook called %d times", err, depth)
	}
}

// runOutput runs the program src and returns what it printed; a compile
// error or a panic fails the test.
func runOutput(t *testing.T, src string) string {
	t.Helper()
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Stderr: io.Discard})
	if err := it.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := it.Eval(src); err != nil {
		t.Fatalf("%s\n: %v", src, err)
	}
	return out.String()
}

// goMain is a program whose main is body, with the imports a test body
// uses and the types it names: for each, want is what go run prints.
func goMain(decls, body string) string {
	return "package main\nimport (\"errors\"; \"fmt\")\nvar _ = errors.New\n" +
		decls + "\nfunc main() {\n" + body + "\n}"
}

// TestNilDereference checks patch 55: *p of a nil pointer to a basic
// type panics with Go's nil dereference run-time error, however the value
// is used (upstream left an invalid value that a later use panicked on in
// reflect, or read as zero).
func TestNilDereference(t *testing.T) {
	for _, body := range []string{
		`var p *int; fmt.Println(*p)`,
		`var p *int; x := *p; fmt.Println(x)`,
		`var p *int; fmt.Println(*p + 1)`,
		`var p *string; s := *p; fmt.Println(len(s))`,
		`var p *bool; if *p { fmt.Println("t") }`,
		`var p *float64; fmt.Println(*p * 2)`,
		`var p **int; fmt.Println(**p)`,
		`var p *[]int; fmt.Println(len(*p))`,
		`var p *struct{ A int }; v := *p; fmt.Println(v)`,
	} {
		p := runPanic(t, goMain("", body))
		re, ok := p.Value.(*RuntimeError)
		if !ok || re.Kind != KindNilDereference {
			t.Errorf("%s: panic %T %v, want the nil dereference run-time error", body, p.Value, p.Value)
		}
	}
}

// TestMethodValueBindsReceiver checks patch 56: a method value evaluates
// its receiver, and copies a value receiver, when it is evaluated.
func TestMethodValueBindsReceiver(t *testing.T) {
	decls := `type A struct{ n string }
func (a *A) get() string { return "get " + a.n }
func (a A) label() string { return "label " + a.n }`
	tests := []struct{ body, want string }{
		{`a := &A{"first"}; f := a.get; a = &A{"second"}; fmt.Println(f())`, "get first"},
		{`a := A{"value"}; f := a.label; a.n = "changed"; fmt.Println(f())`, "label value"},
		{`a := &A{"ptr"}; f := a.label; a.n = "changed"; fmt.Println(f())`, "label ptr"},
		{`a := A{"addr"}; f := a.get; a.n = "seen"; fmt.Println(f())`, "get seen"},
		{`var fs []func() string; for _, n := range []string{"a", "b"} { a := A{n}; fs = append(fs, a.label) }; fmt.Println(fs[0](), fs[1]())`, "label a label b"},
		{`a := A{"d"}; defer fmt.Println("deferred"); defer a.label(); a.n = "x"; fmt.Println(a.n)`, "x\ndeferred"},
	}
	for _, tt := range tests {
		if got := runOutput(t, goMain(decls, tt.body)); got != tt.want+"\n" {
			t.Errorf("%s: got %q, want %q", tt.body, got, tt.want)
		}
	}
	p := runPanic(t, goMain(decls, `var a *A; f := a.label; fmt.Println("not reached"); _ = f`))
	if re, ok := p.Value.(*RuntimeError); !ok || re.Kind != KindNilDereference {
		t.Errorf("a value method of a nil pointer: panic %T %v, want a nil dereference", p.Value, p.Value)
	}
}

// TestFailedAssertionZero checks patch 57: v, ok := x.(T) (and v, ok =
// x.(T)) gives v T's zero value when the assertion fails, in a loop, an
// if or a switch init, whatever the operand's type.
func TestFailedAssertionZero(t *testing.T) {
	decls := `type E struct{}
func (E) Error() string { return "e" }
var vals = []any{1, "a", E{}, 2.5}`
	tests := []struct{ body, want string }{
		{`for _, x := range vals { if v, ok := x.(int); !ok { fmt.Print(v, " ") } }`, "0 0 0 "},
		{`for _, x := range vals { switch s, ok := x.(string); { case !ok: fmt.Printf("%q ", s) } }`, `"" "" "" `},
		{`var v int; var ok bool; for _, x := range vals { v, ok = x.(int); fmt.Print(v, ok, " ") }`, "1 true 0 false 0 false 0 false "},
		{`for _, x := range vals { v, _ := x.(float64); fmt.Print(v, " ") }`, "0 0 0 2.5 "},
		{`for _, x := range vals { e, ok := x.(error); fmt.Print(e == nil, ok, " ") }`, "true false true false false true true false "},
		{`var errs = []error{E{}, errors.New("x")}; for _, err := range errs { e, ok := err.(E); fmt.Print(e == E{}, ok, " ") }`, "true true true false "},
		{`var st fmt.Stringer; var ok bool; for _, x := range vals { st, ok = x.(fmt.Stringer); fmt.Print(st == nil, ok, " ") }`, "true false true false true false true false "},
	}
	for _, tt := range tests {
		if got := runOutput(t, goMain(decls, tt.body)); got != tt.want+"\n" && got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.body, got, tt.want)
		}
	}
}

// TestRecoverValue checks patches 58 and 59: recover returns the value
// the script panicked with (type assertions on it match), and panic(nil)
// panics with a *runtime.PanicNilError, as Go 1.21 and later.
func TestRecoverValue(t *testing.T) {
	decls := `type E struct{ code int }
func (e E) Error() string { return fmt.Sprint("E", e.code) }
func try(f func()) {
	defer func() {
		r := recover()
		_, isE := r.(E)
		_, isPE := r.(*E)
		if !isE && !isPE { // the interpreter's names of script types are not Go's
			fmt.Printf("%T %v", r, r)
		}
		if s, ok := r.(string); ok { fmt.Print(" string ", s) }
		if e, ok := r.(E); ok { fmt.Print(" E ", e.code) }
		if _, ok := r.(runtime.Error); ok { fmt.Print(" runtime.Error") }
		fmt.Println()
	}()
	f()
}`
	tests := []struct{ body, want string }{
		{`try(func() { panic("boom") })`, "string boom string boom"},
		{`try(func() { panic(fmt.Sprint(4, 2)) })`, "string 4 2 string 4 2"},
		{`try(func() { panic(42) })`, "int 42"},
		{`try(func() { panic(E{3}) })`, "main.E E3 E 3"[len("main.E E3"):]},
		{`try(func() { panic(errors.New("bad")) })`, "*errors.errorString bad"},
		{`try(func() { panic(nil) })`, "*runtime.PanicNilError panic called with nil argument runtime.Error"},
		{`try(func() { var err error; panic(err) })`, "*runtime.PanicNilError panic called with nil argument runtime.Error"},
		{`try(func() { var x any; panic(x) })`, "*runtime.PanicNilError panic called with nil argument runtime.Error"},
		{`try(func() { var p *E; panic(p) })`, ""},
	}
	for _, tt := range tests {
		src := strings.Replace(goMain(decls, tt.body), `"fmt")`, `"fmt"; "runtime")`, 1)
		if got := runOutput(t, src); got != tt.want+"\n" {
			t.Errorf("%s: got %q, want %q", tt.body, got, tt.want)
		}
	}
	p := runPanic(t, goMain("", `panic(nil)`))
	if err, ok := p.Value.(reflect.Value).Interface().(*runtime.PanicNilError); !ok {
		t.Errorf("panic(nil) not recovered: %T %v, want a *runtime.PanicNilError", p.Value, p.Value)
	} else if err.Error() != "panic called with nil argument" {
		t.Errorf("panic(nil): %q", err.Error())
	}
}

// TestSessionPackageLevel checks the rest of patch 47: in a session, a
// later type declaration declares a new type, the comma-ok forms work at
// package level, Live counts the goroutines still running, and the value
// of a program is not read.
func TestSessionPackageLevel(t *testing.T) {
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Session: true})
	for _, src := range []string{
		"package main; type T struct{ A int }",
		"; t := T{A: 1}",
		"package main; type T struct{ B string }",
		"; u := T{B: \"b\"}; println(t.A, u.B)",
		"; m := map[string]int{\"a\": 1}; v, ok := m[\"a\"]; _, no := m[\"b\"]; var i any = 2; n, isInt := i.(int); ch := make(chan int, 1); ch <- 3; r, open := <-ch; println(v, ok, no, n, isInt, r, open)",
	} {
		if err := sessionRun(t, it, src); err != nil {
			t.Fatalf("%q: %v", src, err)
		}
	}
	if got := out.String(); got != "1 b\n1 true false 2 true 3 true\n" {
		t.Errorf("output %q", got)
	}
	if err := sessionRun(t, it, "; stop := make(chan int); go func() { <-stop }()"); err != nil {
		t.Fatal(err)
	}
	// Stopped with the program, the goroutine ends.
	for deadline := time.Now().Add(10 * time.Second); it.Live() > 0 && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
	}
	if n := it.Live(); n != 0 {
		t.Errorf("Live() = %d after the stop", n)
	}
}

// TestInterfaceKeepsMethods checks patches 60 and 62: a script value
// assigned to an empty interface or to an error keeps its methods, and
// one returned as an error is still itself (an assertion to its type
// matches; an error holding a struct compares with nil).
func TestInterfaceKeepsMethods(t *testing.T) {
	decls := `type E struct{ code int }
func (e E) Error() string { return fmt.Sprint("E", e.code) }
func get() error { return E{5} }`
	tests := []struct{ body, want string }{
		{`var x any = E{3}; _, ok := x.(error); fmt.Println(ok)`, "true"},
		{`var x any; x = E{3}; e, ok := x.(error); fmt.Println(ok, e.Error())`, "true E3"},
		{`var err error = E{4}; fmt.Println(err == nil, err)`, "false E4"},
		{`var err error; err = E{6}; fmt.Println(err != nil, err.Error())`, "true E6"},
		{`err := get(); e, ok := err.(E); fmt.Println(e.code, ok)`, "5 true"},
		{`err := get(); fmt.Println(err == nil, err)`, "false E5"},
	}
	for _, tt := range tests {
		if got := runOutput(t, goMain(decls, tt.body)); got != tt.want+"\n" {
			t.Errorf("%s: got %q, want %q", tt.body, got, tt.want)
		}
	}
}

// TestFmtSeesScriptTypes checks patch 61: fmt's print functions call the
// String and Error methods of script types wherever Go does (call
// results, slice and map elements, exported struct fields, values in
// interfaces), %d formats the value, %+v names unexported fields as the
// script does and %T names script types (each want is go run's output).
func TestFmtSeesScriptTypes(t *testing.T) {
	decls := `type Money int
func (m Money) String() string { return fmt.Sprintf("$%d.%02d", m/100, m%100) }
type Line struct {
	Name string
	Qty  int
}
func (l Line) String() string { return fmt.Sprintf("%s x%d", l.Name, l.Qty) }
type Order struct {
	ID    int
	Lines []Line
	Total Money
}
type item struct {
	name  string
	Price Money
}
type P struct{ n int }
func (p *P) String() string { return "P" }
type E struct{ code int }
func (e E) Error() string { return fmt.Sprint("E", e.code) }
func mk(n string) Line { return Line{n, 2} }
func total() Money { return 1234 }`
	tests := []struct{ body, want string }{
		{`fmt.Println(mk("cup"), total())`, "cup x2 $12.34"},
		{`fmt.Printf("%v %s %d\n", total(), total(), total())`, "$12.34 $12.34 1234"},
		{`var m Money = 250; fmt.Printf("%v %d %5d|%x\n", m, m, m, m)`, "$2.50 250   250|24322e3530"},
		{`fmt.Println([]Line{{"a", 1}, {"b", 2}}, [2]Money{1, 2})`, "[a x1 b x2] [$0.01 $0.02]"},
		{`o := Order{1, []Line{{"a", 1}}, 999}; fmt.Printf("%v %+v\n", o, o)`, "{1 [a x1] $9.99} {ID:1 Lines:[a x1] Total:$9.99}"},
		{`fmt.Println(map[string]Money{"x": 5})`, "map[x:$0.05]"},
		{`fmt.Printf("%+v %v\n", item{"pen", 250}, &item{"ink", 5})`, "{name:pen Price:$2.50} &{ink $0.05}"},
		{`xs := []any{Line{"a", 1}, Money(3), 3, nil}; fmt.Println(xs...); fmt.Println(xs)`, "a x1 $0.03 3 <nil>\n[a x1 $0.03 3 <nil>]"},
		{`fmt.Println(P{1}, &P{1})`, "{1} P"},
		{`s := fmt.Sprint(mk("z")); fmt.Println(len(s), s)`, "4 z x2"},
		{`fmt.Printf("%T|%-8T|%T %T %T\n", E{1}, Money(2), []item{}, &item{}, 3)`, "main.E|main.Money|[]main.item *main.item int"},
		{`var x any = E{3}; fmt.Printf("%T %v %*d %%\n", x, x, 3, 7)`, "main.E E3   7 %"},
		{`var e error = E{3}; err := fmt.Errorf("w: %w", e); fmt.Println(err, errors.Unwrap(err) != nil)`, "w: E3 true"},
	}
	for _, tt := range tests {
		if got := runOutput(t, goMain(decls, tt.body)); got != tt.want+"\n" {
			t.Errorf("%s: got %q, want %q", tt.body, got, tt.want)
		}
	}
}

// TestRangeOverIntegerTypes checks patch 63: range over a value of any
// integer type, named or not, gives indexes of that type (int for a
// constant), from 0 up, none for a value <= 0.
func TestRangeOverIntegerTypes(t *testing.T) {
	decls := `type ID int64
type Small uint8`
	tests := []struct{ body, want string }{
		{`var n int64 = 3; for i := range n { fmt.Printf("%T %d ", i, i) }`, "int64 0 int64 1 int64 2 "},
		{`for i := range ID(2) { fmt.Printf("%T %d ", i, i) }`, "main.ID 0 main.ID 1 "},
		{`for i := range uint8(2) { fmt.Printf("%T %d ", i, i) }`, "uint8 0 uint8 1 "},
		{`var z uint; for i := range z { fmt.Print(i) }; var m int32 = -2; for range m { fmt.Print("x") }; fmt.Print("none")`, "none"},
		{`t := 0; for i := range Small(4) { if i == 1 { continue }; t += int(i) }; fmt.Print(t)`, "5"},
		{`var s uint64; for i := range uint64(5) { if i == 4 { break }; s += i }; fmt.Print(s)`, "6"},
		{`for i := range 3 { fmt.Printf("%T %d ", i, i) }`, "int 0 int 1 int 2 "},
	}
	for _, tt := range tests {
		if got := runOutput(t, goMain(decls, tt.body)); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.body, got, tt.want)
		}
	}
}

// TestTypeSwitchScriptError checks patch 64: a type switch on an error a
// function returned matches the case of its script type, with and
// without an assigned variable, alone or in a list.
func TestTypeSwitchScriptError(t *testing.T) {
	decls := `type NotFound struct{ ID int }
func (e NotFound) Error() string { return fmt.Sprint("not found ", e.ID) }
type Temp struct{ msg string }
func (e *Temp) Error() string { return "temp " + e.msg }
func find(id int) error {
	switch id {
	case 1:
		return NotFound{ID: 1}
	case 2:
		return &Temp{"busy"}
	case 3:
		return errors.New("plain")
	}
	return nil
}`
	body := `for id := 0; id < 4; id++ {
	err := find(id)
	switch e := err.(type) {
	case nil:
		fmt.Print(id, " ok; ")
	case NotFound:
		fmt.Print(id, " id ", e.ID, "; ")
	case *Temp:
		fmt.Print(id, " msg ", e.msg, "; ")
	default:
		fmt.Print(id, " other ", e, "; ")
	}
	switch err.(type) {
	case NotFound, *Temp:
		fmt.Print("mine; ")
	}
	switch e := err.(type) {
	case NotFound, *Temp:
		fmt.Print(e.Error(), "; ")
	}
}`
	want := "0 ok; 1 id 1; mine; not found 1; 2 msg busy; mine; temp busy; 3 other plain; "
	if got := runOutput(t, goMain(decls, body)); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
