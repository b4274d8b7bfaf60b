package interp

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keepDecls are the script types the patch 118 tests use.
const keepDecls = `type Status string
type Row struct{ N int }
type Code int
type IDs []int
type Pair[T any] struct{ A, B T }
type Label struct{ L string }
func (l Label) String() string { return "label " + l.L }
type Box struct{ V any }
func Gen[T any](v T) any { return v }
func kind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case Status:
		return "Status"
	case Row:
		return "Row"
	case struct{ N int }:
		return "anon"
	case int:
		return "int"
	case Code:
		return "Code"
	}
	return "other"
}`

// TestKeptNamedTypes checks patch 118: a value of a named type the script
// declares, without methods, keeps its type in an interface, as one of a
// type with methods does, whatever way it goes there: a type switch, an
// assertion, ==, a map[any] key, recover() and %T see it as Go does (each
// want is go run's output). They failed with an AmbiguousTypeError once
// the script put such values in interfaces, or answered by the
// representation.
func TestKeptNamedTypes(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"a tool's string next to a held Status", `rows := []map[string]any{}; rows = append(rows, map[string]any{"status": Status("open")}); var res any = map[string]any{"name": "Ann"}; name := res.(map[string]any)["name"].(string); fmt.Println(name, kind(rows[0]["status"]))`, "Ann Status"},
		{"switch and assertions", `var x, y any = Status("a"), "a"; _, ok := x.(string); _, ok2 := y.(Status); s, ok3 := x.(Status); fmt.Println(kind(x), kind(y), ok, ok2, s, ok3)`, "Status string false false a true"},
		{"a struct type shared with an unnamed one", `var x, y any = Row{1}, struct{ N int }{1}; fmt.Println(kind(x), kind(y), x == y)`, "Row anon false"},
		{"basic types", `fmt.Println(kind(Code(1)), kind(1), any(Code(1)) == any(1), any(Code(1)) == any(Code(1)))`, "Code int false true"},
		{"map any keys", `m := map[any]int{Status("k"): 1, "k": 2, Code(1): 3, 1: 4}; m[Status("k")]++; fmt.Println(len(m), m[Status("k")], m["k"])`, "4 2 2"},
		{"==", `var x any = Status("a"); fmt.Println(x == "a", x == Status("a"), x != Status("b"))`, "false true true"},
		{"recover", `defer func() { r := recover(); c, ok := r.(Code); fmt.Println(c, ok, kind(r)) }(); panic(Code(9))`, "9 true Code"},
		{"%T and %#v", `xs := []any{Status("s"), Row{2}, Code(3), IDs{4}, Pair[int]{5, 6}, &Row{7}}; for _, x := range xs { fmt.Printf("%T %#v\n", x, x) }`,
			"main.Status \"s\"\nmain.Row main.Row{N:2}\nmain.Code 3\nmain.IDs main.IDs{4}\nmain.Pair[int] main.Pair[int]{A:5, B:6}\n*main.Row &main.Row{N:7}"},
		{"a generic instance in a function body", `var x any = Pair[string]{"a", "b"}; p, ok := x.(Pair[string]); fmt.Printf("%T %v %v\n", x, p.A, ok)`, "main.Pair[string] a true"},
		{"a type declared in a function body", `type Loc struct{ Y int }; type LS string; var x, y any = Loc{1}, LS("a"); _, ok := x.(struct{ Y int }); l, ok2 := x.(Loc); _, ok3 := y.(string); fmt.Printf("%T %T %v %v %v %v\n", x, y, ok, l.Y, ok2, ok3)`, "main.Loc main.LS false 1 true false"},
		{"a pointer", `st := Status("p"); var x any = &st; _, ok := x.(*string); sp, ok2 := x.(*Status); fmt.Println(ok, *sp, ok2)`, "false p true"},
		{"paths into an interface", `ch := make(chan any, 1); ch <- Code(3); b := Box{}; b.V = Status("f"); f := func() any { return Row{4} }; xs := append([]any{}, Code(5)); fmt.Println(kind(<-ch), kind(b.V), kind(f()), kind(xs[0]), kind(Gen(Status("g"))), kind(Gen(Row{1})))`, "Code Status Row Code Status Row"},
		{"an interface holds a copy", `st := Status("s"); var e any = st; st = "t"; r := Row{1}; var e2 any; e2 = r; r.N = 2; xs := []any{r}; r.N = 3; m := map[string]any{"r": r}; r.N = 4; fmt.Println(e, e2, xs, m, any(r))`, "s {1} [{2}] map[r:{3}] {4}"},
		{"natives see the value", `b, _ := json.Marshal(map[string]any{"s": Status("x"), "r": Row{1}, "l": []any{Code(2)}}); fmt.Println(string(b), strings.ToUpper(fmt.Sprint(any(Status("u")))), fmt.Sprintf("%v|%d|%s|%q", Row{1}, any(Code(4)), any(Status("y")), any(Status("q"))))`, `{"l":[2],"r":{"N":1},"s":"x"} U {1}|4|y|"q"`},
		{"printing with a method next to one without", `fmt.Println([]any{Label{"a"}, Status("b"), Row{3}}, map[string]any{"l": Label{"c"}, "s": Status("d")})`, "[label a b {3}] map[l:label c s:d]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := keepMain(keepDecls, tt.body)
			assert.Equal(t, tt.want+"\n", runOutput(t, src))
		})
	}
}

// keepMain is goMain with encoding/json and strings imported too.
func keepMain(decls, body string) string {
	return "package main\nimport (\"encoding/json\"; \"errors\"; \"fmt\"; \"strings\")\nvar _ = errors.New\nvar _ = json.Marshal\nvar _ = strings.ToUpper\n" +
		decls + "\nfunc main() {\n" + body + "\n}"
}

// TestKeptNamedTypesHeap checks patch 118's native call results: a script
// method that native code calls (container/heap's Pop) returns a record
// in an any, and the native call's result, called again at the same
// place, is that value (the second call gave nil: the any of the first
// result was taken for a script interface's variable).
func TestKeptNamedTypesHeap(t *testing.T) {
	src := `package main
import ("container/heap"; "fmt")
type item struct{ name string }
type queue []item
func (q queue) Len() int           { return len(q) }
func (q queue) Less(i, j int) bool { return q[i].name < q[j].name }
func (q queue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)        { *q = append(*q, x.(item)) }
func (q *queue) Pop() any          { old := *q; it := old[len(old)-1]; *q = old[:len(old)-1]; return it }
func main() {
	var h heap.Interface = &queue{}
	for _, s := range []string{"c", "a", "b"} { heap.Push(h, item{s}) }
	for h.Len() > 0 { fmt.Print(heap.Pop(h).(item).name) }
	fmt.Println()
}`
	assert.Equal(t, "abc\n", runOutput(t, src))
}

// TestPlainResult checks patch 118: Eval gives the host the values that
// records hold, in an any, a map, a slice and a struct field of its
// result (it gave interp.valueInterface for a value of a type with
// methods, and would for every named type), and the result itself when
// it holds none.
func TestPlainResult(t *testing.T) {
	it := New(Options{})
	_, err := it.Eval(`type Status string
type Row struct{ N int }
type Label struct{ L string }
func (l Label) String() string { return l.L }
type Out struct{ V any; W []any }
var shared = map[string]any{"n": 1}`)
	require.NoError(t, err)
	tests := []struct {
		src  string
		want interface{}
	}{
		{`any(Status("s"))`, "s"},
		{`map[string]any{"s": Status("x"), "r": Row{1}, "l": Label{"a"}, "n": nil}`, map[string]any{"s": "x", "r": struct{ N int }{1}, "l": struct{ L string }{"a"}, "n": nil}},
		{`[]any{Status("a"), []any{Row{2}}, 3}`, []any{"a", []any{struct{ N int }{2}}, 3}},
		{`map[any]int{Status("k"): 1}`, map[any]int{"k": 1}},
		{`[2]any{Status("a"), 1}`, [2]any{"a", 1}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			v, err := it.Eval(tt.src)
			require.NoError(t, err)
			assert.Equal(t, tt.want, v.Interface())
		})
	}
	v, err := it.Eval(`Out{V: Status("o"), W: []any{Row{3}}}`)
	require.NoError(t, err)
	out := reflect.ValueOf(v.Interface())
	assert.Equal(t, "o", out.Field(0).Interface())
	assert.Equal(t, []any{struct{ N int }{3}}, out.Field(1).Interface())

	// A result without records is the script's own value.
	v, err = it.Eval(`shared`)
	require.NoError(t, err)
	v.Interface().(map[string]any)["host"] = 2
	v2, err := it.Eval(`shared["host"]`)
	require.NoError(t, err)
	assert.Equal(t, 2, v2.Interface())
}

// TestPlainForHosts checks patch 118's exported helpers on the values a
// native function gets from the script: a map[string]any it builds holds
// records (IsRecord), of types with methods or not (RecordHasMethods),
// and Plain replaces them by their values, through pointers too, copying
// only the containers that held them.
func TestPlainForHosts(t *testing.T) {
	var got []any
	it := New(Options{})
	require.NoError(t, it.Use(Exports{"host/host": {"Keep": reflect.ValueOf(func(v any) { got = append(got, v) })}}))
	_, err := it.Eval(`import "host"
type Status string
type Label struct{ L string }
func (l Label) String() string { return l.L }
type W struct{ V any }
func main() {
	host.Keep(map[string]any{"s": Status("x"), "l": Label{"a"}})
	host.Keep(&W{V: []any{Status("p")}})
	host.Keep(map[string]any{"n": 1})
}`)
	require.NoError(t, err)
	require.Len(t, got, 3)

	m := got[0].(map[string]any)
	require.True(t, IsRecord(reflect.TypeOf(m["s"])))
	require.True(t, IsRecord(reflect.TypeOf(m["l"])))
	assert.False(t, RecordHasMethods(m["s"]))
	assert.True(t, RecordHasMethods(m["l"]))
	assert.False(t, RecordHasMethods("x"))
	assert.Equal(t, map[string]any{"s": "x", "l": struct{ L string }{"a"}}, Plain(m))
	assert.True(t, IsRecord(reflect.TypeOf(m["s"])), "Plain copies: the script's map keeps its records")

	w := reflect.ValueOf(Plain(got[1]))
	require.Equal(t, reflect.Ptr, w.Kind())
	assert.Equal(t, []any{"p"}, w.Elem().Field(0).Interface())

	plainMap := got[2].(map[string]any)
	assert.Equal(t, reflect.ValueOf(plainMap).Pointer(), reflect.ValueOf(Plain(plainMap)).Pointer(), "a value without records is not copied")
	assert.Nil(t, Plain(nil))
}

// TestRecordCycle checks patch 118's guard of fmt's conversion: a
// record's value that holds a slice or map inside itself, through
// interfaces, records and struct fields, is found (fmt's conversion of
// it recursed without end); one met twice side by side, or through a
// pointer (which fmt prints as an address), is not a cycle.
func TestRecordCycle(t *testing.T) {
	type node struct {
		Name     string
		Children []any
	}
	kids := []any{nil}
	root := node{Name: "root", Children: kids}
	kids[0] = root
	shared := []any{1}
	m := map[string]any{}
	m["self"] = []any{m}
	type ptrNode struct{ Next any }
	pn := &ptrNode{}
	pn.Next = pn
	tests := []struct {
		name string
		v    any
		want bool
	}{
		{"through a struct field", root, true},
		{"a map in a slice in itself", m, true},
		{"shared, not cyclic", []any{shared, shared}, false},
		{"through a pointer", ptrNode{Next: pn}, false},
		{"no interface", struct{ N int }{1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, recordCycle(reflect.ValueOf(tt.v)))
		})
	}
}
