package interp

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// evalSrc runs src and returns its output and error.
func evalSrc(t *testing.T, src string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Stderr: io.Discard})
	if err := it.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	_, err := it.Eval(src)
	return out.String(), err
}

// jsonNestedProgram marshals script types with MarshalJSON and
// MarshalText methods in fields, elements, pointers and map values, by
// value and by pointer (a pointer method is called where the value is
// addressable), with omitempty; jsonNestedWant is what Go prints.
const jsonNestedProgram = `package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

type Money int

func (m Money) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(` + "`" + `"$%d.%02d"` + "`" + `, m/100, m%100)), nil }

type Level int

func (l *Level) MarshalText() ([]byte, error) { return []byte(strings.Repeat("*", int(*l))), nil }

type Tag string

func (t Tag) MarshalText() ([]byte, error) { return []byte("#" + string(t)), nil }

type Item struct {
	Name  string
	Price Money  ` + "`" + `json:"price"` + "`" + `
	Sale  Money  ` + "`" + `json:"sale,omitempty"` + "`" + `
	Lvl   Level  ` + "`" + `json:"lvl"` + "`" + `
	Tags  []Tag  ` + "`" + `json:"tags"` + "`" + `
	Ptr   *Money ` + "`" + `json:"ptr"` + "`" + `
	hid   Money
	ByTag map[string]Tag ` + "`" + `json:"by_tag,omitempty"` + "`" + `
}

type Order struct {
	ID    int
	Items []Item
	Best  *Item ` + "`" + `json:",omitempty"` + "`" + `
	Arr   [2]Money
}

func main() {
	m := Money(250)
	it := Item{Name: "pen", Price: 199, Lvl: 2, Tags: []Tag{"a", "b"}, Ptr: &m, hid: 5, ByTag: map[string]Tag{"k": "v"}}
	o := Order{ID: 1, Items: []Item{it, {Name: "cap", Price: 5}}, Arr: [2]Money{1, 2}}
	b, err := json.Marshal(o)
	fmt.Println(string(b), err)
	b, _ = json.Marshal(it)
	fmt.Println(string(b))
	b, _ = json.Marshal(&it)
	fmt.Println(string(b))
	b, _ = json.MarshalIndent([]Money{1, 20000}, "", " ")
	fmt.Println(string(b))
	b, _ = json.Marshal(map[string]Money{"a": 7})
	fmt.Println(string(b))
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.Encode(struct{ P Money; Q *Item }{3, nil})
	enc.Encode(m)
	fmt.Print(sb.String())
}
`

const jsonNestedWant = `{"ID":1,"Items":[{"Name":"pen","price":"$1.99","lvl":"**","tags":["#a","#b"],"ptr":"$2.50","by_tag":{"k":"#v"}},{"Name":"cap","price":"$0.05","lvl":"","tags":null,"ptr":null}],"Arr":["$0.01","$0.02"]} <nil>
{"Name":"pen","price":"$1.99","lvl":2,"tags":["#a","#b"],"ptr":"$2.50","by_tag":{"k":"#v"}}
{"Name":"pen","price":"$1.99","lvl":"**","tags":["#a","#b"],"ptr":"$2.50","by_tag":{"k":"#v"}}
[
 "$0.01",
 "$200.00"
]
{"a":"$0.07"}
{"P":"$0.03","Q":null}
"$2.50"
`

// TestJSONNestedMethods checks patch 122: encoding/json's marshalling
// functions call a script type's MarshalJSON and MarshalText wherever Go
// does; what the mirror cannot express stays a compile error, and a
// value held in an interface that may be of such a type fails at run
// time instead of marshalling its representation.
func TestJSONNestedMethods(t *testing.T) {
	// A pointer method is called where Go calls it: on an addressable
	// value, never on the value given to json.Marshal itself.
	const ptrProgram = `package main

import (
	"encoding/json"
	"fmt"
)

type P struct{ A int }

func (p *P) MarshalJSON() ([]byte, error) { return []byte("\"ptr\""), nil }

type W struct{ In P }

func main() {
	x := P{1}
	a, _ := json.Marshal(x)
	b, _ := json.Marshal(&x)
	w := W{P{2}}
	c, _ := json.Marshal(w)
	d, _ := json.Marshal(&w)
	e, _ := json.Marshal([]P{{3}})
	f, _ := json.Marshal(map[string]P{"k": {4}})
	fmt.Println(string(a), string(b), string(c), string(d), string(e), string(f))
}
`
	if got, want := runOutput(t, ptrProgram), `{"A":1} "ptr" {"In":{"A":2}} {"In":"ptr"} ["ptr"] {"k":{"A":4}}`+"\n"; got != want {
		t.Errorf("pointer methods: got %q, want %q", got, want)
	}
	if got := runOutput(t, jsonNestedProgram); got != jsonNestedWant {
		t.Errorf("got\n%s\nwant\n%s", got, jsonNestedWant)
	}
	decls := `type Money int
func (m Money) MarshalJSON() ([]byte, error) { return []byte("\"$\""), nil }
func (m *Money) UnmarshalJSON(b []byte) error { *m = 1; return nil }
func (m Money) MarshalText() ([]byte, error) { return []byte("m"), nil }
type Line struct{ Name string; Price Money }
type Node struct{ P Money; Next *Node }
type Z struct{ P Money ` + "`json:\",omitzero\"`" + ` }
type Shown struct{ P Money }
func (Shown) String() string { return "s" }`
	for _, tc := range []struct{ name, body, want string }{
		{"map key", `b, _ := json.Marshal(map[Money]int{1: 2}); fmt.Println(string(b))`, "MarshalText"},
		{"recursive", `b, _ := json.Marshal(Node{P: 1}); fmt.Println(string(b))`, "MarshalJSON"},
		{"omitzero", `b, _ := json.Marshal(Z{}); fmt.Println(string(b))`, "MarshalJSON"},
		{"unmarshal", `var l Line; _ = json.Unmarshal([]byte("{}"), &l); fmt.Println(l)`, "UnmarshalJSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(goMain(decls, tc.body), "import (", "import (\"encoding/json\"; ", 1)
			_, err := evalSrc(t, src)
			if err == nil || !strings.Contains(err.Error(), "does not call the ") || !strings.Contains(err.Error(), tc.want[:5]) {
				t.Errorf("got %v, want a compile error naming %s", err, tc.want)
			}
		})
	}
	for _, tc := range []struct{ name, body string }{
		{"slice in a map", `b, err := json.Marshal(map[string]any{"l": []Line{{"a", 1}}}); fmt.Println(string(b), err)`},
		{"slice of a kept type", `b, err := json.Marshal([]any{[]Shown{{1}}}); fmt.Println(string(b), err)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(goMain(decls, tc.body), "import (", "import (\"encoding/json\"; ", 1)
			_, err := evalSrc(t, src)
			var p Panic
			if !errors.As(err, &p) || !strings.Contains(p.Error(), "a value held in an interface may be of type ") {
				t.Errorf("got %v, want a run-time error naming the type", err)
			}
		})
	}
	for _, tc := range []struct{ name, body, want string }{
		{"a kept type itself", `b, err := json.Marshal([]any{Shown{1}}); fmt.Println(string(b), err)`, `[{"P":"$"}] <nil>`},
		// toolscript patch 118: a named type without methods keeps its type
		// too (it was the run-time error naming the type).
		{"struct in an any", `var x any = Line{"a", 1}; b, err := json.Marshal(x); fmt.Println(string(b), err)`, `{"Name":"a","Price":"$"} <nil>`},
		{"a struct of another layout", `b, err := json.Marshal([]any{struct{ Name string; Qty int }{"a", 1}}); fmt.Println(string(b), err)`,
			`[{"Name":"a","Qty":1}] <nil>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(goMain(decls, tc.body), "import (", "import (\"encoding/json\"; ", 1)
			if got := runOutput(t, src); got != tc.want+"\n" {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
