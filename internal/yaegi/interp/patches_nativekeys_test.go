package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nativeKeysPrelude declares the types the cases of TestNativeKeys use;
// each case is the rest of main, which has declared m, a sync.Map.
const nativeKeysPrelude = `package main

import (
	"context"
	"fmt"
	"sync"
)

type A struct{ X int }

type B struct{ X int }

type Circle struct{ R int }

func (c Circle) Area() int { return 3 * c.R * c.R }

type Twin struct{ R int }

func (Twin) Area() int { return 0 }

type userKey struct{}

type reqKey struct{}

type ctxKey string

const (
	nameKey ctxKey = "name"
	roleKey ctxKey = "role"
)

var _ = context.Background

func main() {
	var m sync.Map
	_ = &m
`

// TestNativeKeys checks keys given to native code that compares them
// (toolscript patch 120): sync.Map's methods, context.WithValue and a
// context's Value. Keys of one script type, of a native type, a key held
// in an interface (given as its representation: it was the interpreter's
// record, another key), keys of sync.Map and of a context of types of
// one representation (separate spaces) work as in Go (the expected
// outputs are the programs' under go run); a key of another type of a
// representation given before fails at run time naming both types
// (native code had them as one key: ctx.Value(userKey{}) gave reqKey's
// value).
func TestNativeKeys(t *testing.T) {
	for _, tc := range []struct {
		name, body, want, err string
	}{
		{name: "one struct type", body: `m.Store(A{1}, "a1")
m.Store(A{2}, "a2")
v, ok := m.Load(A{1})
_, loaded := m.LoadOrStore(A{2}, "x")
fmt.Println(v, ok, loaded)`, want: "a1 true true\n"},
		{name: "held in an interface", body: `m.Store(Circle{1}, 1)
var k any = Circle{1}
v, ok := m.Load(k)
_, loaded := m.LoadOrStore(k, 2)
fmt.Println(v, ok, loaded)`, want: "1 true true\n"},
		{name: "string keys", body: `m.Store("x", 1)
m.LoadOrStore("y", 2)
m.Delete("x")
n := 0
m.Range(func(_, _ any) bool { n++
return true })
fmt.Println(n)`, want: "1\n"},
		{name: "pointer to a map", body: `p := &sync.Map{}
p.Store(A{3}, 3)
x, _ := p.Load(A{3})
fmt.Println(x)`, want: "3\n"},
		{name: "one context key type", body: `ctx := context.WithValue(context.Background(), nameKey, "ann")
ctx = context.WithValue(ctx, roleKey, "admin")
fmt.Println(ctx.Value(nameKey), ctx.Value(roleKey), ctx.Value(ctxKey("none")))`, want: "ann admin <nil>\n"},
		{name: "one struct context key", body: `ctx := context.WithValue(context.Background(), userKey{}, "ann")
fmt.Println(ctx.Value(userKey{}))`, want: "ann\n"},
		{name: "separate spaces", body: `m.Store("name", 1)
ctx := context.WithValue(context.Background(), nameKey, "ann")
fmt.Println(ctx.Value(nameKey))`, want: "ann\n"},
		{name: "two struct types", body: `m.Store(A{1}, "a")
m.Store(B{1}, "b")`, err: "a key of type main.B given to sync.Map after one of type main.A"},
		{name: "two types with methods", body: `m.Store(Circle{1}, "c")
v, _ := m.Load(Twin{1})
fmt.Println(v)`, err: "a key of type main.Twin given to sync.Map after one of type main.Circle"},
		{name: "a script type and its representation", body: `m.Store("name", 1)
m.Store(nameKey, 2)`, err: "a key of type main.ctxKey given to sync.Map after one of type string"},
		{name: "two context key types", body: `ctx := context.WithValue(context.Background(), userKey{}, "ann")
ctx = context.WithValue(ctx, reqKey{}, "r-1")
fmt.Println(ctx.Value(userKey{}))`, err: "a key of type main.reqKey given to context after one of type main.userKey"},
		{name: "context value of another type", body: `ctx := context.WithValue(context.Background(), nameKey, "ann")
fmt.Println(ctx.Value("name"))`, err: "a key of type string given to context after one of type main.ctxKey"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runL2(t, nativeKeysPrelude+tc.body+"\n}\n")
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, out)
		})
	}
}
