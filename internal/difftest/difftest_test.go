package difftest

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/demo"
)

// typedDesc is a description with a typed tool, as engine.Describe
// prints one.
const typedDesc = `package customers

// GetArgs are Get's arguments.
type GetArgs struct {
	ID int ` + "`json:\"id\"`" + `
}

// Customer is a customer.
type Customer struct {
	ID   int    ` + "`json:\"id\"`" + `
	Name string ` + "`json:\"name\"`" + `
}

// Get calls tool "customers-get".
func Get(args GetArgs) (Customer, error)

// List calls tool "customers-list".
func List(args map[string]any) (any, error)

package tools

// Call calls any tool.
func Call(name string, args map[string]any) (any, error)

// Names lists the tools.
func Names() []string
`

func TestShims(t *testing.T) {
	surf, err := shimsOf(typedDesc, map[string]string{"customers.Get": "customers-get", "customers.List": "customers-list"})
	require.NoError(t, err)
	require.Len(t, surf.src, 2)
	for name, src := range surf.src {
		_, err := parser.ParseFile(token.NewFileSet(), name+".go", src, 0)
		require.NoError(t, err, src)
	}
	c := surf.src["customers"]
	assert.Contains(t, c, `return tsrt.Typed[Customer]("customers-get", args)`)
	assert.Contains(t, c, "func Get_map(args map[string]any) (any, error) {\n\treturn tsrt.Call(\"customers-get\", args)\n}")
	assert.Contains(t, c, `return tsrt.Call("customers-list", args)`)
	assert.NotContains(t, c, "List_map")
	assert.Equal(t, map[string]map[string]bool{"customers": {"Get": true}}, surf.typed)
	assert.Contains(t, surf.src["tools"], "return tsrt.CallName(name, args)")
	assert.Contains(t, surf.src["tools"], "return tsrt.Names()")

	// A described function the shims cannot mirror is an error.
	_, err = shimsOf("package tools\n\nfunc Other() int\n", nil)
	require.ErrorContains(t, err, "no native shim for tools.Other")
	_, err = shimsOf("package customers\n\nfunc Lost(args map[string]any) (any, error)\n", nil)
	require.ErrorContains(t, err, "customers.Lost calls no tool")
}

func TestMapCalls(t *testing.T) {
	surf, err := shimsOf(typedDesc, map[string]string{"customers.Get": "customers-get", "customers.List": "customers-list"})
	require.NoError(t, err)
	src := `package main

import (
	"customers"
	"fmt"
)

func main() {
	c, _ := customers.Get(customers.GetArgs{ID: 1})
	m := map[string]any{"id": 1}
	u, _ := customers.Get(m)
	v, _ := customers.Get(map[string]any{"id": 2})
	w, _ := customers.Get(nil)
	l, _ := customers.List(m)
	f := customers.Get
	fmt.Println(c, u, v, w, l, f)
}
`
	got := newMapCaller(surf).rewrite(src)
	assert.Contains(t, got, "c, _ := customers.Get(customers.GetArgs{ID: 1})")
	assert.Contains(t, got, "u, _ := customers.Get_map(m)")
	assert.Contains(t, got, `v, _ := customers.Get_map(map[string]any{"id": 2})`)
	assert.Contains(t, got, "w, _ := customers.Get_map(nil)")
	assert.Contains(t, got, "l, _ := customers.List(m)")
	assert.Contains(t, got, "f := customers.Get\n")
	assert.Equal(t, 3, strings.Count(got, "_map("))
}

func TestShims_Demo(t *testing.T) {
	surf, err := shimPackages(demo.Namespace())
	require.NoError(t, err)
	for _, pkg := range []string{"customers", "products", "orders", "text", "math_ops", "tools"} {
		require.Contains(t, surf.src, pkg)
		_, err := parser.ParseFile(token.NewFileSet(), pkg+".go", surf.src[pkg], 0)
		require.NoError(t, err, surf.src[pkg])
	}
	assert.Contains(t, surf.src["math_ops"], `"math_ops-multiply"`)
	assert.Contains(t, surf.src["tools"], `tsrt.Call("echo", args)`)
}

func TestFirstDiff(t *testing.T) {
	for _, tt := range []struct {
		a, b   string
		line   int
		la, lb string
	}{
		{"x\ny\n", "x\ny\n", 0, "", ""},
		{"x\ny\n", "x\nz\n", 2, "y\n", "z\n"},
		{"x\n", "x\ny\n", 2, "", "y\n"},
		{"x", "x\n", 1, "x", "x\n"},
	} {
		line, la, lb := FirstDiff(tt.a, tt.b)
		assert.Equal(t, tt.line, line, "%q %q", tt.a, tt.b)
		assert.Equal(t, tt.la, la)
		assert.Equal(t, tt.lb, lb)
	}
}
