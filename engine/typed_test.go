package engine_test

import (
	"context"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files of the tests")

// runtimes are the two runtimes a typed test runs in.
func runtimes(t *testing.T) map[string]func(code string, ns map[string]projection.ToolProjection) engine.CodeResult {
	iso := newIsolated(t, engine.IsolatedConfig{Workers: 1})
	run := func(ex func(context.Context, string, map[string]projection.ToolProjection, ...engine.Option) (engine.CodeResult, error)) func(string, map[string]projection.ToolProjection) engine.CodeResult {
		return func(code string, ns map[string]projection.ToolProjection) engine.CodeResult {
			res, err := ex(context.Background(), code, ns, engine.WithTimeout(20*time.Second))
			require.NoError(t, err)
			return res
		}
	}
	return map[string]func(string, map[string]projection.ToolProjection) engine.CodeResult{
		"in-process": run(engine.Execute),
		"isolated":   run(iso.Execute),
	}
}

func TestDescribe_DemoGolden(t *testing.T) {
	d := engine.DescribeWith(demo.Namespace(), engine.DescribeOptions{})
	golden := filepath.Join("testdata", "describe_demo.golden")
	if *updateGolden {
		require.NoError(t, os.WriteFile(golden, []byte(d.Text), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), d.Text, "go test ./engine -run TestDescribe_DemoGolden -update rewrites the golden file")
	assert.Equal(t, engine.Describe(demo.Namespace()), d.Text)
	assert.Equal(t, 16, d.Tools)
	assert.Equal(t, len(d.Text), d.Bytes)
	assert.Equal(t, (d.Bytes+3)/4, d.Tokens)
	assert.NotContains(t, d.Text, "Args: ", "no hand-written argument list: the types come from the schemas")

	// README quotes the head of package orders and the size.
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	require.NoError(t, err)
	r := string(readme)
	i := strings.Index(r, "The built-in demo's description begins")
	require.GreaterOrEqual(t, i, 0)
	quote := r[i:]
	quote = quote[strings.Index(quote, "```go\n")+6:]
	quote = quote[:strings.Index(quote, "\n// ...\n```")]
	assert.Contains(t, d.Text, quote+"\n", "README's quote of Describe")
	assert.Contains(t, r[i:i+400], fmt.Sprintf("16 tools in %s bytes, about %s tokens", thousands(d.Bytes), thousands(d.Tokens)))
}

// thousands writes n with comma separators, as README does.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// sections splits a Description's text into its packages' files.
func sections(text string) []string {
	parts := strings.Split("\n"+text, "\npackage ")
	var out []string
	for _, p := range parts[1:] {
		out = append(out, "package "+p)
	}
	return out
}

// qualify renders a type expression of package pkg as a script writes it.
func qualify(pkg string, e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		if ast.IsExported(e.Name) {
			return pkg + "." + e.Name
		}
		return e.Name
	case *ast.StarExpr:
		return "*" + qualify(pkg, e.X)
	case *ast.ArrayType:
		return "[]" + qualify(pkg, e.Elt)
	case *ast.MapType:
		return "map[" + qualify(pkg, e.Key) + "]" + qualify(pkg, e.Value)
	}
	panic(fmt.Sprintf("unexpected type expression %T", e))
}

// zeroOf is a value of a described type, as a script writes it.
func zeroOf(pkg string, e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		switch e.Name {
		case "string":
			return `"echo"`
		case "any":
			return "nil"
		}
		return qualify(pkg, e) + "{}"
	case *ast.MapType:
		return "nil"
	}
	return "new(" + qualify(pkg, e) + ")"
}

// TestDescribe_CompilesAndRuns parses every package of the demo's
// Describe output as Go and calls every described function as described,
// with zero arguments of the declared types, assigning its results to
// variables of the declared result types, in both runtimes.
func TestDescribe_CompilesAndRuns(t *testing.T) {
	d := engine.Describe(demo.Namespace())
	secs := sections(d)
	require.Len(t, secs, 6)
	var calls []string
	for _, src := range secs {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "describe.go", src, parser.ParseComments)
		require.NoError(t, err, src)
		pkg := f.Name.Name
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			require.NotNil(t, fd.Doc, "%s.%s has a doc comment", pkg, fd.Name.Name)
			var args []string
			for _, p := range fd.Type.Params.List {
				for range max(1, len(p.Names)) {
					if _, isPtr := p.Type.(*ast.StarExpr); isPtr {
						args = append(args, "new("+qualify(pkg, p.Type.(*ast.StarExpr).X)+")")
						continue
					}
					args = append(args, zeroOf(pkg, p.Type))
				}
			}
			if pkg == "tools" && fd.Name.Name == "Decode" {
				args = []string{"nil", "new(any)"}
			}
			var vars, decls []string
			if fd.Type.Results != nil {
				for i, r := range fd.Type.Results.List {
					v := fmt.Sprintf("r%d", i)
					vars = append(vars, v)
					decls = append(decls, fmt.Sprintf("var %s %s", v, qualify(pkg, r.Type)))
				}
			}
			call := fmt.Sprintf("%s.%s(%s)", pkg, fd.Name.Name, strings.Join(args, ", "))
			if len(vars) > 0 {
				call = strings.Join(decls, "; ") + "; " + strings.Join(vars, ", ") + " = " + call + "; _ = " + vars[0]
			}
			calls = append(calls, "{ "+call+" }")
		}
	}
	require.Len(t, calls, 19, "16 tools and tools.Call, Names and Decode")
	code := strings.Join(calls, "\n") + "\nfmt.Println(\"done\")"
	for name, run := range runtimes(t) {
		t.Run(name, func(t *testing.T) {
			res := run(code, demo.Namespace())
			require.Empty(t, res.Error, code)
			assert.Equal(t, "done\n", res.Stdout)
			assert.Len(t, res.ToolCalls, 17, "every tool and tools.Call")
		})
	}
}

func TestDescribeWith_Filters(t *testing.T) {
	ns := demo.Namespace()
	funcs := func(o engine.DescribeOptions) []string {
		var out []string
		for _, src := range sections(engine.DescribeWith(ns, o).Text) {
			f, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
			require.NoError(t, err, src)
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					out = append(out, f.Name.Name+"."+fd.Name.Name)
				}
			}
		}
		return out
	}
	for _, tc := range []struct {
		name string
		opts engine.DescribeOptions
		want []string
	}{
		{"namespace", engine.DescribeOptions{Namespaces: []string{"math_ops"}}, []string{"math_ops.Add", "math_ops.Multiply", "math_ops.Stats"}},
		{"tools package", engine.DescribeOptions{Namespaces: []string{"tools"}}, []string{"tools.Echo", "tools.Call", "tools.Names", "tools.Decode"}},
		{"tool names", engine.DescribeOptions{Tools: []string{"orders-get", "text.Slugify"}}, []string{"orders.Get", "text.Slugify", "tools.Call", "tools.Names", "tools.Decode"}},
		{"words", engine.DescribeOptions{Namespaces: []string{"customers", "orders"}, Words: []string{"STATUS"}}, []string{"orders.Get", "orders.List", "orders.UpdateStatus"}},
		{"two words", engine.DescribeOptions{Words: []string{"status", "change"}}, []string{"orders.UpdateStatus", "tools.Call", "tools.Names", "tools.Decode"}},
		{"every word", engine.DescribeOptions{Namespaces: []string{"products"}, Words: []string{"search", "category"}}, []string{"products.Search"}},
		{"nothing", engine.DescribeOptions{Namespaces: []string{"nope"}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, funcs(tc.opts))
		})
	}
	all := engine.DescribeWith(ns, engine.DescribeOptions{})
	one := engine.DescribeWith(ns, engine.DescribeOptions{Namespaces: []string{"text"}})
	assert.Equal(t, 3, one.Tools)
	assert.Less(t, one.Bytes, all.Bytes/3)
	assert.NotContains(t, one.Text, "package customers")
	assert.Contains(t, one.Text, "type TruncateArgs struct")
}

// A shop whose tools are typed Go functions: their schemas are derived
// from the Go types.
type (
	shopAddress struct {
		City string `json:"city"`
		Zip  string `json:"zip,omitempty"`
	}
	shopCustomer struct {
		ID      int          `json:"id"`
		Name    string       `json:"name"`
		Score   float64      `json:"score"`
		Tags    []string     `json:"tags"`
		Address shopAddress  `json:"address"`
		Billing *shopAddress `json:"billing,omitempty"`
		Active  bool         `json:"active"`
	}
	shopFindArgs struct {
		Query string   `json:"query"`
		Limit int      `json:"limit,omitempty"`
		Tags  []string `json:"tags,omitempty"`
	}
)

func shopNS(got *[]map[string]any) map[string]projection.ToolProjection {
	find := projection.MustDirect("shop-find", func(a shopFindArgs) ([]shopCustomer, error) {
		out := []shopCustomer{
			{ID: 1, Name: "Ada " + a.Query, Score: 2.5, Tags: a.Tags, Address: shopAddress{City: "Paris"}, Active: true},
			{ID: 2, Name: "Bob", Score: 3, Address: shopAddress{City: "Rome", Zip: "00100"}, Billing: &shopAddress{City: "Oslo"}},
		}
		if a.Limit > 0 && a.Limit < len(out) {
			out = out[:a.Limit]
		}
		return out, nil
	}, "Find customers.")
	spy := projection.MustDirect("shop-spy", func(a map[string]any) (any, error) {
		*got = append(*got, a)
		return map[string]any{"ok": 1}, nil
	}, "Record the arguments.")
	typedSpy := projection.MustDirect("shop-typed_spy", func(_ context.Context, a map[string]any) (any, error) {
		*got = append(*got, a)
		return map[string]any{"n": 3, "when": "now", "extra": true}, nil
	}, "Record the arguments.", projection.WithSchema([]byte(`{"type":"object","properties":{
		"id":{"type":"integer"},"ratio":{"type":"number"},"kind":{"type":"string","enum":["a","b"],"title":"Kind"},
		"page":{"type":"integer","default":1},"note":{"type":["string","null"]},
		"opts":{"type":"object","properties":{"deep":{"type":"boolean"}}},"ids":{"type":"array","items":{"type":"integer"}}},
		"required":["id"],"additionalProperties":false}`)),
		projection.WithOutputSchema([]byte(`{"type":"object","title":"Receipt","properties":{"n":{"type":"integer"},"when":{"type":"string"}}}`)))
	return map[string]projection.ToolProjection{find.Name(): find, spy.Name(): spy, typedSpy.Name(): typedSpy}
}

// TestTyped_SameValuesInBothRuntimes runs typed and map-form calls of Go
// function tools that return structs: both runtimes print the same.
func TestTyped_SameValuesInBothRuntimes(t *testing.T) {
	code := `
cs, err := shop.Find(shop.FindArgs{Query: "L", Tags: []string{"vip"}})
if err != nil {
	panic(err)
}
for _, c := range cs {
	fmt.Printf("%d %s %.1f %v %s %v %T %T\n", c.ID, c.Name, c.Score, c.Tags, c.Address.City, c.Billing != nil, c.ID, c.Score)
}
fmt.Printf("%+v\n", cs[1])
one, _ := shop.Find(shop.FindArgs{Query: "x", Limit: 1})
fmt.Println(len(one))
m, err := shop.Find(map[string]any{"query": "M"})
list := m.([]any)
first := list[0].(map[string]any)
fmt.Printf("%v %T %v %T\n", first["name"], first["id"], first["address"].(map[string]any)["city"], first["score"])
var back []struct {
	ID      int
	Name    string
	Address struct{ City string }
}
if err := tools.Decode(m, &back); err != nil {
	panic(err)
}
fmt.Printf("%+v\n", back)
var f func(shop.FindArgs) ([]shop.ShopCustomer, error) = shop.Find
_ = f
`
	want := `1 Ada L 2.5 [vip] Paris false int float64
2 Bob 3.0 [] Rome true int float64
{ID:2 Name:Bob Score:3 Tags:[] Address:{City:Rome Zip:00100} Billing:0xPTR Active:false}
1
Ada M float64 Paris float64
[{ID:1 Name:Ada M Address:{City:Paris}} {ID:2 Name:Bob Address:{City:Rome}}]
`
	ptr := regexp.MustCompile(`0x[0-9a-f]+`)
	var outs []string
	for name, run := range runtimes(t) {
		t.Run(name, func(t *testing.T) {
			var got []map[string]any
			res := run(code, shopNS(&got))
			require.Empty(t, res.Error)
			out := ptr.ReplaceAllString(res.Stdout, "0xPTR")
			assert.Equal(t, want, out)
			outs = append(outs, out)
		})
	}
	require.Len(t, outs, 2)
	assert.Equal(t, outs[0], outs[1], "both runtimes print the same")
	d := engine.Describe(shopNS(nil))
	assert.Contains(t, d, "func Find(args FindArgs) ([]ShopCustomer, error)", "named after the Go type")
	assert.Contains(t, d, "type ShopCustomer struct {")
	assert.Contains(t, d, "Billing *ShopAddress")
}

// TestTyped_Arguments checks what a typed call sends: required fields
// always, optional ones unless zero (nil for pointers), nested structs as
// maps; and what it gets: the result decoded by the output schema.
func TestTyped_Arguments(t *testing.T) {
	code := `
r, err := shop.TypedSpy(shop.TypedSpyArgs{ID: 0, Kind: shop.KindB, Ratio: 0.5})
fmt.Printf("%+v %v\n", r, err)
page := 0
note := "hi"
_, _ = shop.TypedSpy(shop.TypedSpyArgs{ID: 7, Page: &page, Note: &note, Opts: &shop.Opts{Deep: true}, IDs: []int{1, 2}})
m, _ := shop.TypedSpy(map[string]any{"id": 8})
fmt.Printf("%T\n", m)
_, _ = shop.TypedSpy(nil)
`
	for name, run := range runtimes(t) {
		t.Run(name, func(t *testing.T) {
			var got []map[string]any
			res := run(code, shopNS(&got))
			require.Empty(t, res.Error)
			assert.Equal(t, "{N:3 When:now} <nil>\nmap[string]interface {}\n", res.Stdout)
			require.Len(t, res.ToolCalls, 4)
			assert.Equal(t, map[string]any{"id": 0, "kind": "b", "ratio": 0.5}, res.ToolCalls[0].Args)
			assert.Equal(t, map[string]any{"id": 7, "page": 0, "note": "hi", "opts": map[string]any{"deep": true}, "ids": []int{1, 2}}, res.ToolCalls[1].Args)
			assert.Equal(t, map[string]any{"id": 8}, res.ToolCalls[2].Args)
			assert.Empty(t, res.ToolCalls[3].Args)
		})
	}
	d := engine.Describe(shopNS(nil))
	for _, want := range []string{
		"func TypedSpy(args TypedSpyArgs) (Receipt, error)",
		"ID    int     `json:\"id\"`",
		"Page  *int    `json:\"page,omitempty\"`",
		"// Default: 1.",
		"Note  *string `json:\"note,omitempty\"`",
		"Kind  Kind    `json:\"kind,omitempty\"`",
		"IDs   []int   `json:\"ids,omitempty\"`",
		"KindA Kind = \"a\"",
		"Fields tagged omitempty are optional",
		"func Spy(args map[string]any) (any, error)",
	} {
		assert.Contains(t, d, want)
	}
}

// TestTyped_ResultMismatch: a result that does not fit the output schema
// fails the call loudly, naming the path.
func TestTyped_ResultMismatch(t *testing.T) {
	bad := projection.MustDirect("bad-get", func(map[string]any) (any, error) {
		return map[string]any{"items": []any{map[string]any{"qty": "three"}}}, nil
	}, "Get.", projection.WithSchema([]byte(`{"type":"object","properties":{},"additionalProperties":false}`)),
		projection.WithOutputSchema([]byte(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"qty":{"type":"integer"}}}}}}`)))
	ns := map[string]projection.ToolProjection{bad.Name(): bad}
	assert.Contains(t, engine.Describe(ns), "func Get() (GetResult, error)", "a closed object without properties takes no arguments")
	for name, run := range runtimes(t) {
		t.Run(name, func(t *testing.T) {
			res := run("r, err := bad.Get()\nfmt.Println(r.Items, err)\nm, err := bad.Get(nil)\nfmt.Println(m, err)", ns)
			require.Empty(t, res.Error)
			assert.Equal(t, `[] tool "bad-get": engine: the result does not fit the tool's output schema: items[0].qty: cannot use "three" (string) as int
map[items:[map[qty:three]]] <nil>
`, res.Stdout)
		})
	}
}

// TestTyped_Fallbacks: each schema the generator cannot express keeps the
// map form, says why in Describe, and the map form works.
func TestTyped_Fallbacks(t *testing.T) {
	for _, tc := range []struct{ name, schema, why string }{
		{"anyOf", `{"type":"object","properties":{"x":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`, "uses anyOf"},
		{"oneOf", `{"type":"object","properties":{"x":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}`, "uses oneOf"},
		{"allOf", `{"allOf":[{"type":"object"}]}`, "uses allOf"},
		{"patternProperties", `{"type":"object","properties":{"x":{"type":"object","patternProperties":{"^a":{"type":"string"}}}}}`, "uses patternProperties"},
		{"recursive ref", `{"type":"object","properties":{"node":{"$ref":"#/$defs/node"}},"$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}}}}}`, "uses $ref"},
		{"type list", `{"type":"object","properties":{"x":{"type":["string","integer"]}}}`, "type list"},
		{"tuple", `{"type":"object","properties":{"x":{"type":"array","items":[{"type":"string"}]}}}`, "tuple items"},
		{"not an object", `{"type":"array"}`, "not an object"},
		{"name collision", `{"type":"object","properties":{"a_b":{"type":"string"},"a-b":{"type":"string"}}}`, "same Go name AB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := projection.MustDirect("fb-do", func(a map[string]any) (any, error) { return len(a), nil }, "Do.", projection.WithSchema([]byte(tc.schema)))
			ns := map[string]projection.ToolProjection{p.Name(): p}
			d := strings.ReplaceAll(engine.Describe(ns), "\n// ", " ")
			assert.Contains(t, d, "func Do(args map[string]any) (any, error)")
			assert.Contains(t, d, tc.why)
			res, err := engine.Execute(context.Background(), `n, err := fb.Do(map[string]any{"x": 1}); fmt.Println(n, err)`, ns)
			require.NoError(t, err)
			require.Empty(t, res.Error)
			assert.Equal(t, "1 <nil>\n", res.Stdout)
		})
	}
}

// TestTyped_OpenObject: an object schema without properties that allows
// any argument is the map form itself, without a reason.
func TestTyped_OpenObject(t *testing.T) {
	p := projection.MustDirect("fb-do", func(a map[string]any) (any, error) { return len(a), nil }, "Do.", projection.WithSchema([]byte(`{"type":"object"}`)))
	d := engine.Describe(map[string]projection.ToolProjection{p.Name(): p})
	assert.Contains(t, d, "// Do calls tool \"fb-do\". Do.\nfunc Do(args map[string]any) (any, error)")
}

// TestTyped_MapVariable: a typed tool takes a map variable too (the map
// form), and a wrong argument type is a compile error naming the types.
func TestTyped_MapVariable(t *testing.T) {
	ns := demo.Namespace()
	res, err := engine.Execute(context.Background(), `args := map[string]any{"id": 3}
c, err := customers.Get(args)
fmt.Println(c.(map[string]any)["name"], err)
typed, err := customers.Get(customers.GetArgs{ID: 3})
fmt.Println(typed.Name, typed.Tier, typed.Tier == customers.TierSilver, err)`, ns)
	require.NoError(t, err)
	require.Empty(t, res.Error)
	assert.Equal(t, "Grace Turing <nil>\nGrace Turing silver true <nil>\n", res.Stdout)

	res, err = engine.Execute(context.Background(), `c, err := customers.Get(3); fmt.Println(c, err)`, ns)
	require.NoError(t, err)
	assert.Contains(t, res.Error, "line 1")
}
