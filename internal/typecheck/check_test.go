package typecheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/internal/normalize"
	"github.com/toolscript/toolscript/internal/policy"
)

// demoTools are the demo tool set's packages, from the engine's golden
// Describe output (engine/testdata/describe_demo.golden): each package's
// section, its typed functions those whose argument is not a map.
func demoTools(t testing.TB) Tools {
	data, err := os.ReadFile(filepath.Join("..", "..", "engine", "testdata", "describe_demo.golden"))
	require.NoError(t, err)
	tools := Tools{Decls: map[string]string{}, Typed: map[string][]string{}}
	typed := regexp.MustCompile(`(?m)^func ([A-Z]\w*)\(args [A-Z]\w*\)`)
	for _, sec := range regexp.MustCompile(`(?m)^package `).Split(string(data), -1)[1:] {
		name := sec[:strings.IndexByte(sec, '\n')]
		tools.Decls[name] = "package " + sec
		for _, m := range typed.FindAllStringSubmatch(sec, -1) {
			tools.Typed[name] = append(tools.Typed[name], m[1])
		}
	}
	require.Contains(t, tools.Decls, "customers")
	require.Contains(t, tools.Typed["customers"], "Get")
	return tools
}

// native normalises code in native mode as the engine does for the pass.
func native(t testing.TB, tools Tools, code string) string {
	auto := func(ident string) (string, bool) {
		if _, ok := tools.Decls[ident]; ok {
			return ident, true
		}
		return policy.PathOf(ident)
	}
	np, err := normalize.Source(code, normalize.Config{
		Allowed: func(path string) bool {
			_, ok := tools.Decls[path]
			return ok || policy.Allowed(path)
		},
		AutoImport: auto,
		MaxNesting: 100,
		Native:     true,
	})
	require.NoError(t, err)
	return np.Src
}

func TestCheck_Messages(t *testing.T) {
	tools := demoTools(t)
	c := New(tools)
	for _, tc := range []struct {
		name, code string
		want       []string // substrings of the first error, "" for none
	}{
		{"clean typed and map calls", "c, _ := customers.Get(customers.GetArgs{ID: 5})\nm, _ := customers.Get(map[string]any{\"id\": 5})\nn, _ := customers.Get(nil)\nfmt.Println(c.Name, m.(map[string]any)[\"name\"], n)", nil},
		{"unused variable is tolerated", "x := 1\n", nil},
		{"field case", "o, _ := orders.Get(orders.GetArgs{ID: 1})\nfmt.Println(o.total)", []string{"line 2:15: ", "o.total undefined (type orders.Order has no field or method total, but does have field Total)"}},
		{"field typo", "o, _ := orders.Get(orders.GetArgs{ID: 1})\nfmt.Println(o.Totl)", []string{"line 2:15: ", "did you mean Total?"}},
		{"string as int", "id := \"5\"\nc, _ := customers.Get(customers.GetArgs{ID: id})\nfmt.Println(c)", []string{"line 2:45: ", "cannot use id (variable of type string) as int value in struct literal"}},
		{"wrong argument struct", "c, _ := customers.Get(orders.GetArgs{ID: 5})\nfmt.Println(c)", []string{"line 1:23: ", "cannot use orders.GetArgs{…} (value of struct type orders.GetArgs) as customers.GetArgs value in argument to customers.Get"}},
		{"two values", "c := customers.Get(customers.GetArgs{ID: 5})\nfmt.Println(c)", []string{"line 1:6: ", "assignment mismatch: 1 variable but customers.Get returns 2 values"}},
		{"too many arguments", "c, _ := customers.Get(customers.GetArgs{ID: 5}, 1)\nfmt.Println(c)", []string{"too many arguments in call to customers.Get\n\thave (customers.GetArgs, number)\n\twant (customers.GetArgs)"}},
		{"misspelled stdlib", "fmt.Println(strings.Contain(\"ab\", \"a\"))", []string{"line 1:21: ", "undefined: strings.Contain, did you mean strings.Contains?"}},
		{"misspelled package", "fmt.Println(strngs.ToUpper(\"a\"))", []string{"line 1:13: ", "undefined: strngs, did you mean strings?"}},
		{"unknown tool", "c, _ := customers.Fetch(customers.GetArgs{ID: 5})\nfmt.Println(c)", []string{"undefined: customers.Fetch", "customers has Get, List, Search"}},
		{"unknown argument field", "c, _ := customers.Search(customers.SearchArgs{Qury: \"a\"})\nfmt.Println(c)", []string{"unknown field Qury in struct literal of type customers.SearchArgs, did you mean Query?"}},
		{"method on any", "r, _ := customers.Get(map[string]any{\"id\": 5})\nfmt.Println(r.Name)", []string{"line 2:15: ", "r.Name undefined (type any has no field or method Name)"}},
		{"int and float", "p, _ := products.Get(products.GetArgs{ID: 1})\ntotal := 0\ntotal += p.Price\nfmt.Println(total)", []string{"line 3:1: ", "mismatched types int and float64"}},
		{"constants of the tables", "d, _ := time.Parse(time.DateOnly, \"2024-01-02\")\nconst max = math.MaxInt64\nvar r rune = utf8.RuneError\nfmt.Println(d.Add(2*time.Hour), max, r, time.Second*3)", nil},
		{"package variables", "fmt.Println(base64.StdEncoding.EncodeToString([]byte(\"x\")), unicode.Is(unicode.Upper, 'A'))", nil},
		{"source packages", "xs := []int{3, 1, 2}\nslices.Sort(xs)\nfmt.Println(xs, slices.Index(xs, 2), cmp.Compare(1, 2), slices.Collect(maps.Keys(map[int]bool{1: true})))", nil},
		{"generics and range over func", "func Map[T, U any](xs []T, f func(T) U) []U {\n\tvar out []U\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}\nfor i := range 3 {\n\tfmt.Println(Map([]int{i}, strconv.Itoa))\n}\nfor k, v := range maps.All(map[string]int{\"a\": 1}) {\n\tfmt.Println(k, v)\n}", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := c.Check(native(t, tools, tc.code))
			if tc.want == nil {
				assert.Empty(t, errs)
				return
			}
			require.NotEmpty(t, errs)
			for _, w := range tc.want {
				assert.Contains(t, errs[0].Error(), w)
			}
		})
	}
}

// BenchmarkCheck is the pass over a script of about a hundred lines
// (scripts/testdata/modern_restock_planner.gos), the importer built.
func BenchmarkCheck(b *testing.B) {
	tools := demoTools(b)
	data, err := os.ReadFile(filepath.Join("..", "..", "scripts", "testdata", "modern_restock_planner.gos"))
	require.NoError(b, err)
	src := native(b, tools, string(data))
	c := New(tools)
	require.Empty(b, c.Check(src))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Check(src)
	}
}

// BenchmarkCheck_Trivial is the pass over a one-line script.
func BenchmarkCheck_Trivial(b *testing.B) {
	tools := demoTools(b)
	src := native(b, tools, `fmt.Println("hello")`)
	c := New(tools)
	require.Empty(b, c.Check(src))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Check(src)
	}
}

// TestCheck_Concurrent: one Checker serves concurrent checks (the engine
// shares one per namespace shape), the importer built by the first.
func TestCheck_Concurrent(t *testing.T) {
	tools := demoTools(t)
	c := New(tools)
	srcs := []string{
		native(t, tools, "c, _ := customers.Get(customers.GetArgs{ID: 5})\nfmt.Println(c.Nme, strings.ToUpper(c.Name))"),
		native(t, tools, "var b strings.Builder\nb.WriteString(\"x\")\nr := bufio.NewReader(strings.NewReader(b.String()))\nvar w io.Writer = &b\nfmt.Fprintln(w, r, time.Now().Sub(time.Now()) > time.Second, sort.IntsAreSorted([]int{1}), slices.Max([]int{1}))\nfmt.Println(undefinedName)"),
	}
	done := make(chan []Error, 8)
	for i := 0; i < cap(done); i++ {
		go func() { done <- c.Check(srcs[i%2]) }()
	}
	for i := 0; i < cap(done); i++ {
		errs := <-done
		require.Len(t, errs, 1)
		assert.Regexp(t, `Nme undefined|undefined: undefinedName`, errs[0].Msg)
	}
}

// TestConstMinMax: the calls of min and max whose value is a numeric
// constant, by the model's position of the name, with the first argument
// holding the value; calls of a variable, of strings, and a script's own
// max are not among them.
func TestConstMinMax(t *testing.T) {
	c := New(demoTools(t))
	for _, tc := range []struct {
		code string
		want map[normalize.MinMaxPos]int
	}{
		{"const c = 1\nfmt.Println(max(c, 3) / 2.0)", map[normalize.MinMaxPos]int{{Line: 2, Column: 13}: 1}},
		{"const c = 2.5\nx := 1\nfmt.Println(min(c, 7, c), max(x, c), min(time.Second, 2*time.Second))", map[normalize.MinMaxPos]int{{Line: 3, Column: 13}: 0, {Line: 3, Column: 38}: 0}},
		{"const a, b = 4, 9\nconst m = min(max(a, b), 5)\nfmt.Println(m)", map[normalize.MinMaxPos]int{{Line: 2, Column: 11}: 1, {Line: 2, Column: 15}: 1}},
		{"const s = \"x\"\nfmt.Println(max(s, \"y\"))", map[normalize.MinMaxPos]int{}},
		{"package main\nimport \"fmt\"\nfunc max(a, b int) int { return a }\nfunc main() { fmt.Println(max(1, 2)) }", map[normalize.MinMaxPos]int{}},
	} {
		assert.Equal(t, tc.want, c.ConstMinMax(native(t, demoTools(t), tc.code)), tc.code)
	}
}
