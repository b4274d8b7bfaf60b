package interp

import (
	"bytes"
	"context"
	"encoding"
	"encoding/json"
	"io"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// runJSONWrapped runs a main package as the engine does for one that
// imports encoding/json: with json.Marshal's interface wrappers
// (MapTypes: json.Marshaler, then encoding.TextMarshaler, which has no
// wrapper in the tables), and returns its output.
func runJSONWrapped(t *testing.T, src string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Stderr: io.Discard})
	require.NoError(t, it.Use(stdlib.Symbols))
	require.NoError(t, it.Use(Exports{".": {"MapTypes": reflect.ValueOf(map[reflect.Value][]reflect.Type{
		reflect.ValueOf(json.Marshal): {reflect.TypeFor[json.Marshaler](), reflect.TypeFor[encoding.TextMarshaler]()},
	})}}))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := it.EvalWithContext(ctx, src)
	return out.String(), err
}

// TestJSONPointerMethods checks patch 166: a value of a type whose
// MarshalJSON has a pointer receiver, held in an interface (any(t), a
// []any or a struct's any field), is marshalled as its fields, as Go does
// for a value that is not addressable (it failed with "the interpreter
// does not call the MarshalJSON method"); a nil pointer of such a type in
// an interface is null (its method was called, and panicked); a value
// given to json.Marshal whose type has a MarshalText, by value or by
// pointer, is marshalled with it (the interpreter crashed: the
// interface wrapper of encoding.TextMarshaler does not exist). The
// neighbours (the pointer itself, an addressable field, a slice element,
// a map value, MarshalIndent and Encode, a type with both methods) stay
// as Go prints them. Each want is what go run prints.
func TestJSONPointerMethods(t *testing.T) {
	for _, tc := range []goCase{
		{"pointer MarshalJSON and nil pointers", `package main

import (
	"encoding/json"
	"fmt"
)

type T struct{ N int }

func (t *T) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(` + "`" + `"T%d"` + "`" + `, t.N)), nil }

type Outer struct {
	P *T
	F T
}

type W struct{ A any }

func show(b []byte, err error) { fmt.Println(string(b), err) }

func main() {
	t := T{1}
	o := Outer{P: &T{2}, F: T{3}}
	var np *T
	show(json.Marshal(any(t)))
	show(json.Marshal(any(&t)))
	show(json.Marshal(t))
	show(json.Marshal(&t))
	show(json.Marshal(o))
	show(json.Marshal(&o))
	show(json.Marshal(any(o)))
	show(json.Marshal([]Outer{o}))
	show(json.Marshal(map[string]Outer{"k": o}))
	show(json.Marshal([]any{t, &t, o}))
	show(json.Marshal(W{t}))
	show(json.Marshal(np))
	show(json.Marshal(any(np)))
	show(json.Marshal(W{np}))
	show(json.Marshal(map[string]any{"np": np}))
}
`, `{"N":1} <nil>
"T1" <nil>
{"N":1} <nil>
"T1" <nil>
{"P":"T2","F":{"N":3}} <nil>
{"P":"T2","F":"T3"} <nil>
{"P":"T2","F":{"N":3}} <nil>
[{"P":"T2","F":"T3"}] <nil>
{"k":{"P":"T2","F":{"N":3}}} <nil>
[{"N":1},"T1",{"P":"T2","F":{"N":3}}] <nil>
{"A":{"N":1}} <nil>
null <nil>
null <nil>
{"A":null} <nil>
{"np":null} <nil>
`},
		{"MarshalText by value and by pointer", `package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

type K string

func (k K) MarshalText() ([]byte, error) { return []byte(strings.ToUpper(string(k))), nil }

type PK struct{ S string }

func (p *PK) MarshalText() ([]byte, error) { return []byte("pk:" + p.S), nil }

type Both struct{}

func (Both) MarshalJSON() ([]byte, error) { return []byte(` + "`" + `"json"` + "`" + `), nil }
func (Both) MarshalText() ([]byte, error) { return []byte("text"), nil }

func show(b []byte, err error) { fmt.Println(string(b), err) }

func main() {
	k := K("y")
	show(json.Marshal(K("x")))
	show(json.Marshal(&k))
	show(json.Marshal(any(k)))
	show(json.Marshal(&PK{"p"}))
	show(json.Marshal(PK{"v"}))
	show(json.Marshal(any(&PK{"q"})))
	show(json.Marshal(map[string]any{"k": k, "pk": &PK{"z"}, "pkv": PK{"w"}}))
	show(json.MarshalIndent(K("ind"), "", " "))
	var buf strings.Builder
	json.NewEncoder(&buf).Encode(K("enc"))
	fmt.Print(buf.String())
	show(json.Marshal(Both{}))
	show(json.Marshal(any(&Both{})))
	show(json.Marshal([]K{"a", "b"}))
	fmt.Println(k, &PK{"f"})
}
`, `"X" <nil>
"Y" <nil>
"Y" <nil>
"pk:p" <nil>
{"S":"v"} <nil>
"pk:q" <nil>
{"k":"Y","pk":"pk:z","pkv":{"S":"w"}} <nil>
"IND" <nil>
"ENC"
"json" <nil>
"json" <nil>
["A","B"] <nil>
y &{f}
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runJSONWrapped(t, tc.src)
			require.NoError(t, err, out)
			require.Equal(t, tc.want, out)
		})
	}
}
