package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNativeHeldValues checks patches 172 to 174: a value of a script
// type held in an interface (an any, a []any element, a map value) given
// to a native function that inspects it by reflection (json.Unmarshal,
// (*json.Decoder).Decode, sort.Slice, fmt.Sscan, template.IsTrue) is the
// value itself, not the interpreter's record of it; json decodes into the
// pointers held in the interfaces below its target and the script sees
// them with their types afterwards; json's decode errors name the script
// types as Go does. Each want is what go run prints.
func TestNativeHeldValues(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"script values held in interfaces given to natives that reflect (172)", `package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"text/template"
)

type S struct{ A int }

func (s *S) Hello() string { return "hi" }

type Plain struct{ B string }

type V struct{ A int }

func (v V) Hello() string { return "hi" }

type L []V

func (l L) Len() int { return len(l) }

type MyInt int

func main() {
	var y any = &S{}
	err := json.Unmarshal([]byte(` + "`" + `{"A":3}` + "`" + `), y)
	fmt.Println(err, y.(*S).A)
	fmt.Printf("%T\n", y)
	var pv any = &Plain{}
	err = json.Unmarshal([]byte(` + "`" + `{"B":"b"}` + "`" + `), pv)
	fmt.Println(err, pv.(*Plain).B)
	xs := []any{&S{}, &V{}}
	err = json.Unmarshal([]byte(` + "`" + `{"A":4}` + "`" + `), xs[1])
	fmt.Println(err, xs[1].(*V).A)
	m := map[string]any{"s": &S{}}
	err = json.Unmarshal([]byte(` + "`" + `{"A":5}` + "`" + `), m["s"])
	fmt.Println(err, m["s"].(*S).A)
	var l any = L{{3}, {1}, {2}}
	sort.Slice(l, func(i, j int) bool { return l.(L)[i].A < l.(L)[j].A })
	fmt.Println(l, sort.SliceIsSorted(l, func(i, j int) bool { return l.(L)[i].A < l.(L)[j].A }))
	var x MyInt
	var py any = &x
	n, err := fmt.Sscan("21", py)
	fmt.Println(n, err, x)
	var a, b MyInt
	args := []any{&a, &b}
	n, err = fmt.Sscan("1 2", args...)
	fmt.Println(n, err, a, b)
	var np *S
	y = np
	fmt.Println(template.IsTrue(y))
}
`, `<nil> 3
*main.S
<nil> b
<nil> 4
<nil> 5
[{1} {2} {3}] true
1 <nil> 21
2 <nil> 1 2
false true
`},
		{"json decodes into pointers held in interfaces (173)", `package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

type S struct{ A int }

func (s *S) Hello() string { return "hi" }

type T struct{ B string }

type Box struct {
	Item any
	List []any
	M    map[string]any
}

func main() {
	v := any(&S{})
	err := json.Unmarshal([]byte(` + "`" + `{"A":7}` + "`" + `), &v)
	fmt.Printf("%v %T %d\n", err, v, v.(*S).A)
	xs := []any{&S{}, &T{}}
	err = json.Unmarshal([]byte(` + "`" + `[{"A":5},{"B":"c"},{"A":6}]` + "`" + `), &xs)
	fmt.Printf("%v %T %T %T %d %s\n", err, xs[0], xs[1], xs[2], xs[0].(*S).A, xs[1].(*T).B)
	b := Box{Item: &S{}, List: []any{&T{}, S{}}, M: map[string]any{"k": &S{}}}
	var w any = &b
	err = json.NewDecoder(strings.NewReader(` + "`" + `{"Item":{"A":1},"List":[{"B":"x"},{"A":2}],"M":{"k":{"A":6}}}` + "`" + `)).Decode(w)
	fmt.Printf("%v %T %T %T %T\n", err, b.Item, b.List[0], b.List[1], b.M["k"])
	err = json.Unmarshal([]byte(` + "`" + `null` + "`" + `), &v)
	fmt.Printf("%v %T\n", err, v)
}
`, `<nil> *main.S 7
<nil> *main.S *main.T map[string]interface {} 5 c
<nil> *main.S *main.T map[string]interface {} map[string]interface {}
<nil> <nil>
`},
		{"json decode errors name script types (174)", `package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

type S struct{ A int }

func (s *S) Hello() string { return "hi" }

type ID int

type R struct{ X ID }

func main() {
	var y any = S{}
	fmt.Println(json.Unmarshal([]byte(` + "`" + `{"A":3}` + "`" + `), y))
	fmt.Println(json.Unmarshal([]byte(` + "`" + `{"A":3}` + "`" + `), S{}))
	var np *S
	y = np
	fmt.Println(json.Unmarshal([]byte(` + "`" + `{"A":3}` + "`" + `), y))
	y = &S{}
	fmt.Println(json.Unmarshal([]byte(` + "`" + `{"A":"x"}` + "`" + `), y))
	fmt.Println(json.NewDecoder(strings.NewReader(` + "`" + `{"A":"x"}` + "`" + `)).Decode(y))
	var r R
	fmt.Println(json.Unmarshal([]byte(` + "`" + `{"X":"a"}` + "`" + `), &r))
	var id ID
	fmt.Println(json.Unmarshal([]byte(` + "`" + `"a"` + "`" + `), &id))
	var ids []ID
	fmt.Println(json.Unmarshal([]byte(` + "`" + `["a"]` + "`" + `), &ids))
}
`, `json: Unmarshal(non-pointer main.S)
json: Unmarshal(non-pointer main.S)
json: Unmarshal(nil *main.S)
json: cannot unmarshal string into Go struct field S.A of type int
json: cannot unmarshal string into Go struct field S.A of type int
json: cannot unmarshal string into Go struct field R.X of type main.ID
json: cannot unmarshal string into Go value of type main.ID
json: cannot unmarshal string into Go value of type main.ID
`},
		{"natives called through function values (172 to 174)", `package main

import (
	"encoding/json"
	"fmt"
	"sort"
)

type S struct{ A int }

func (s *S) Hello() string { return "hi" }

type N []int

type MyInt int

func main() {
	var y any = &S{}
	unmarshal := json.Unmarshal
	err := unmarshal([]byte(` + "`" + `{"A":3}` + "`" + `), y)
	fmt.Println(err, y.(*S).A)
	xs := []any{&S{}}
	err = unmarshal([]byte(` + "`" + `[{"A":4}]` + "`" + `), &xs)
	fmt.Printf("%v %T %d\n", err, xs[0], xs[0].(*S).A)
	fmt.Println(unmarshal([]byte(` + "`" + `{"A":"x"}` + "`" + `), y))
	var n any = N{3, 1, 2}
	sorter := sort.Slice
	sorter(n, func(i, j int) bool { return n.(N)[i] < n.(N)[j] })
	fmt.Println(n)
	var x MyInt
	var px any = &x
	scan := fmt.Sscan
	c, err := scan("5", px)
	fmt.Println(c, err, x)
}
`, `<nil> 3
<nil> *main.S 4
json: cannot unmarshal string into Go struct field S.A of type int
[1 2 3]
1 <nil> 5
`},
	})
}

// TestNativeHeldMethodsLoud checks patches 172 and 173: a held value
// whose type has a JSON method the interpreter does not call there fails
// the call naming the method, rather than decode without it.
func TestNativeHeldMethodsLoud(t *testing.T) {
	for name, body := range map[string]string{
		"nested": `xs := []any{&U{}}
	fmt.Println(json.Unmarshal([]byte(` + "`" + `["x"]` + "`" + `), &xs))`,
		"decode": `var y any = &U{}
	fmt.Println(json.NewDecoder(strings.NewReader(` + "`" + `"x"` + "`" + `)).Decode(y))`,
	} {
		t.Run(name, func(t *testing.T) {
			out, err := runStmtProgram(t, `package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

type U struct{ V string }

func (u *U) UnmarshalJSON(b []byte) error { u.V = string(b); return nil }

var _ = strings.NewReader

func main() {
	`+body+`
}
`)
			require.Error(t, err, out)
			require.Contains(t, err.Error(), "does not call the UnmarshalJSON method of main.U")
			require.Empty(t, out)
		})
	}
}
