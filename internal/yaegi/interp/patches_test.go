package interp

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
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
