package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJSONEmbeddedNative checks toolscript patches 190 to 192: a script
// struct embedding time.Time inside a slice or a struct field overflowed
// the host's stack in json.Marshal (190), a (*T).MarshalJSON lost to a
// T.MarshalText on an addressable value (191), and an embedded host
// struct with methods was written as a named field (192). Each want is
// what go run prints.
func TestJSONEmbeddedNative(t *testing.T) {
	for _, tc := range []goCase{
		{"embedded time.Time in a slice, a field, a map, an interface; fmt (190)", `package main

import (
	"encoding/json"
	"fmt"
	"time"
)

type E1 struct {
	time.Time
	Seq int
}

func main() {
	t := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	b, err := json.Marshal([]E1{{t, 3}})
	fmt.Println(string(b), err)
	type W struct{ E E1 }
	b, err = json.Marshal(W{E1{t, 4}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(E1{t, 5})
	fmt.Println(string(b), err)
	b, err = json.Marshal(&E1{t, 6})
	fmt.Println(string(b), err)
	b, err = json.Marshal(map[string]E1{"a": {t, 7}})
	fmt.Println(string(b), err)
	b, err = json.Marshal([]*E1{{t, 8}, nil})
	fmt.Println(string(b), err)
	var a any = E1{t, 9}
	b, err = json.Marshal(a)
	fmt.Println(string(b), err)
	b, err = json.Marshal([]any{E1{t, 10}, W{E1{t, 11}}})
	fmt.Println(string(b), err)
	fmt.Println(E1{t, 1}, []E1{{t, 2}}, W{E1{t, 3}})
	fmt.Printf("%v %+v %s\n", E1{t, 1}, []E1{{t, 2}}, W{E1{t, 3}})
}
`, `["2024-05-06T07:08:09Z"] <nil>
{"E":"2024-05-06T07:08:09Z"} <nil>
"2024-05-06T07:08:09Z" <nil>
"2024-05-06T07:08:09Z" <nil>
{"a":"2024-05-06T07:08:09Z"} <nil>
["2024-05-06T07:08:09Z",null] <nil>
"2024-05-06T07:08:09Z" <nil>
["2024-05-06T07:08:09Z",{"E":"2024-05-06T07:08:09Z"}] <nil>
2024-05-06 07:08:09 +0000 UTC [2024-05-06 07:08:09 +0000 UTC] {2024-05-06 07:08:09 +0000 UTC}
2024-05-06 07:08:09 +0000 UTC [2024-05-06 07:08:09 +0000 UTC] {2024-05-06 07:08:09 +0000 UTC}
`},
		{"embedded *time.Time (190)", `package main

import (
	"encoding/json"
	"fmt"
	"time"
)

type E2 struct {
	*time.Time
	Seq int
}

func main() {
	t := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	b, err := json.Marshal([]E2{{&t, 1}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(map[string]E2{"x": {&t, 2}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(E2{&t, 3})
	fmt.Println(string(b), err)
	b, err = json.Marshal(struct{ P *E2 }{&E2{&t, 4}})
	fmt.Println(string(b), err)
	fmt.Println(E2{&t, 5}, []E2{{&t, 6}})
}
`, `["2024-05-06T07:08:09Z"] <nil>
{"x":"2024-05-06T07:08:09Z"} <nil>
"2024-05-06T07:08:09Z" <nil>
{"P":"2024-05-06T07:08:09Z"} <nil>
2024-05-06 07:08:09 +0000 UTC [2024-05-06 07:08:09 +0000 UTC]
`},
		{"the script's own MarshalJSON wins; a pointer one only where addressable (190, 191)", `package main

import (
	"encoding/json"
	"fmt"
	"time"
)

type E3 struct {
	time.Time
	Seq int
}

func (e E3) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(` + "`" + `{"seq":%d}` + "`" + `, e.Seq)), nil }

type E4 struct {
	time.Time
	N int
}

func (e *E4) MarshalJSON() ([]byte, error) { return []byte(` + "`" + `"ptr"` + "`" + `), nil }

func main() {
	t := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	b, err := json.Marshal([]E3{{t, 9}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(struct{ X E3 }{E3{t, 10}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(E3{t, 11})
	fmt.Println(string(b), err)
	b, err = json.Marshal([]E4{{t, 1}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(map[string]E4{"k": {t, 2}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(E4{t, 3})
	fmt.Println(string(b), err)
	b, err = json.Marshal(&E4{t, 4})
	fmt.Println(string(b), err)
	b, err = json.Marshal([]any{E4{t, 5}, &E4{t, 6}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(map[string]*E4{"p": {t, 7}})
	fmt.Println(string(b), err)
}
`, `[{"seq":9}] <nil>
{"X":{"seq":10}} <nil>
{"seq":11} <nil>
["ptr"] <nil>
{"k":"2024-05-06T07:08:09Z"} <nil>
"2024-05-06T07:08:09Z" <nil>
"ptr" <nil>
["2024-05-06T07:08:09Z","ptr"] <nil>
{"p":"ptr"} <nil>
`},
		{"(*T).MarshalJSON before T.MarshalText where addressable (191)", `package main

import (
	"encoding/json"
	"fmt"
)

type T struct{ N int }

func (t *T) MarshalJSON() ([]byte, error) { return []byte(` + "`" + `"ptrjson"` + "`" + `), nil }
func (t T) MarshalText() ([]byte, error)  { return []byte("valtext"), nil }

func main() {
	b, err := json.Marshal([]T{{1}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(map[string]T{"a": {1}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(T{2})
	fmt.Println(string(b), err)
	b, err = json.Marshal(&T{2})
	fmt.Println(string(b), err)
	b, err = json.Marshal(struct{ X T }{T{3}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(&struct{ X T }{T{3}})
	fmt.Println(string(b), err)
	b, err = json.Marshal([2]T{})
	fmt.Println(string(b), err)
	b, err = json.Marshal(&[2]T{})
	fmt.Println(string(b), err)
}
`, `["ptrjson"] <nil>
{"a":"valtext"} <nil>
"valtext" <nil>
"ptrjson" <nil>
{"X":"valtext"} <nil>
{"X":"ptrjson"} <nil>
["valtext","valtext"] <nil>
["ptrjson","ptrjson"] <nil>
`},
		{"embedded natives with MarshalText or pointer methods only (190)", `package main

import (
	"encoding/json"
	"fmt"
	"math/big"
)

type A struct {
	*big.Rat
	Port int
}

type F struct {
	big.Float
	Port int
}

type B struct {
	*big.Int
	Tag string
}

func main() {
	r := big.NewRat(3, 4)
	b, err := json.Marshal([]A{{r, 80}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(map[string]A{"h": {r, 81}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(A{r, 82})
	fmt.Println(string(b), err)
	b, err = json.Marshal(struct{ H A }{A{r, 83}})
	fmt.Println(string(b), err)
	fl := F{Port: 9}
	fl.SetFloat64(1.5)
	b, err = json.Marshal([]F{fl})
	fmt.Println(string(b), err)
	b, err = json.Marshal(&fl)
	fmt.Println(string(b), err)
	b, err = json.Marshal(struct{ P *F }{&fl})
	fmt.Println(string(b), err)
	n := big.NewInt(12345678901234)
	b, err = json.Marshal([]B{{n, "x"}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(map[string]B{"b": {n, "y"}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(B{n, "z"})
	fmt.Println(string(b), err)
	fmt.Println([]A{{r, 1}}, map[string]B{"b": {n, "y"}})
	fmt.Printf("%v %+v\n", A{r, 2}, B{n, "q"})
}
`, `["3/4"] <nil>
{"h":"3/4"} <nil>
"3/4" <nil>
{"H":"3/4"} <nil>
["1.5"] <nil>
"1.5" <nil>
{"P":"1.5"} <nil>
[12345678901234] <nil>
{"b":12345678901234} <nil>
12345678901234 <nil>
[3/4] map[b:12345678901234]
3/4 +12345678901234
`},
		{"json.MarshalIndent and Encoder.Encode (190)", `package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"time"
)

type E1 struct {
	time.Time
	Seq int
}

type A struct {
	*big.Rat
	Port int
}

func main() {
	t := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	b, err := json.MarshalIndent([]E1{{t, 12}}, "", " ")
	fmt.Println(string(b), err)
	b, err = json.MarshalIndent(map[string]E1{"k": {t, 13}}, "", " ")
	fmt.Println(string(b), err)
	b, err = json.MarshalIndent(E1{t, 14}, "", " ")
	fmt.Println(string(b), err)
	b, err = json.MarshalIndent(map[string]A{"h": {big.NewRat(1, 3), 84}}, "", "  ")
	fmt.Println(string(b), err)
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	fmt.Println(enc.Encode([]E1{{t, 15}}))
	fmt.Println(enc.Encode(E1{t, 16}))
	fmt.Println(enc.Encode(struct{ E E1 }{E1{t, 17}}))
	fmt.Println(enc.Encode(map[string]A{"h": {big.NewRat(5, 2), 85}}))
	fmt.Print(sb.String())
}
`, `[
 "2024-05-06T07:08:09Z"
] <nil>
{
 "k": "2024-05-06T07:08:09Z"
} <nil>
"2024-05-06T07:08:09Z" <nil>
{
  "h": "1/3"
} <nil>
<nil>
<nil>
<nil>
<nil>
["2024-05-06T07:08:09Z"]
"2024-05-06T07:08:09Z"
{"E":"2024-05-06T07:08:09Z"}
{"h":"5/2"}
`},
		{"json.Unmarshal and Decode by a promoted UnmarshalJSON (190)", `package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

type E1 struct {
	time.Time
	Seq int
}

type E2 struct {
	*time.Time
	Seq int
}

func main() {
	var e E1
	err := json.Unmarshal([]byte(` + "`" + `"2024-05-06T07:08:09Z"` + "`" + `), &e)
	fmt.Println(e, e.Seq, err)
	err = json.Unmarshal([]byte(` + "`" + `{"Seq":4}` + "`" + `), &e)
	fmt.Println(e.Seq, err != nil)
	err = json.Unmarshal([]byte(` + "`" + `null` + "`" + `), &e)
	fmt.Println(e, err)
	var t time.Time
	e2 := E2{&t, 1}
	err = json.Unmarshal([]byte(` + "`" + `"2025-01-02T03:04:05Z"` + "`" + `), &e2)
	fmt.Println(t, e2, err)
	dec := json.NewDecoder(strings.NewReader(` + "`" + `"2023-03-04T05:06:07Z" "bad"` + "`" + `))
	var d E1
	fmt.Println(dec.Decode(&d), d)
	fmt.Println(dec.Decode(&d) != nil, d)
}
`, `2024-05-06 07:08:09 +0000 UTC 0 <nil>
0 true
2024-05-06 07:08:09 +0000 UTC <nil>
2025-01-02 03:04:05 +0000 UTC 2025-01-02 03:04:05 +0000 UTC <nil>
<nil> 2023-03-04 05:06:07 +0000 UTC
true 0001-01-01 00:00:00 +0000 UTC
`},
		{"embedded host structs: sync.Mutex, url.URL, *bytes.Buffer (192)", `package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
)

type C struct {
	sync.Mutex
	N int
}

type U struct {
	url.URL
	Note string
}

type Tagged struct {
	url.URL ` + "`" + `json:"u"` + "`" + `
	Note    string
}

type Buf struct {
	*bytes.Buffer
	Name string
}

type PU struct {
	*url.URL
	ID int ` + "`" + `json:"id"` + "`" + `
}

type Node struct {
	sync.RWMutex
	Name string
	Kids []*Node ` + "`" + `json:",omitempty"` + "`" + `
}

type Inner struct {
	strings.Builder
	Val int
}

type Outer struct {
	Inner
	Top int
}

func main() {
	b, err := json.Marshal(&C{N: 1})
	fmt.Println(string(b), err)
	b, err = json.Marshal(map[string]*C{"a": {N: 2}})
	fmt.Println(string(b), err)
	b, err = json.Marshal([]any{&C{N: 3}})
	fmt.Println(string(b), err)
	u, _ := url.Parse("http://x.org/p?q=1")
	b, err = json.Marshal(U{*u, "n"})
	fmt.Println(string(b), err)
	b, err = json.Marshal([]U{{*u, "m"}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(Tagged{*u, "t"})
	fmt.Println(len(b) > 0, strings.HasPrefix(string(b), ` + "`" + `{"u":{"Scheme":"http"` + "`" + `), err)
	b, err = json.Marshal(Buf{bytes.NewBufferString("zz"), "b"})
	fmt.Println(string(b), err)
	b, err = json.Marshal(PU{u, 7})
	fmt.Println(string(b), err)
	b, err = json.Marshal(PU{nil, 8})
	fmt.Println(string(b), err)
	b, err = json.Marshal(Node{Name: "root", Kids: []*Node{{Name: "kid"}}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(Outer{Inner{Val: 1}, 2})
	fmt.Println(string(b), err)
	b, err = json.MarshalIndent(map[string]C{"c": {N: 4}}, "", " ")
	fmt.Println(string(b), err)
	var sb strings.Builder
	fmt.Println(json.NewEncoder(&sb).Encode([]C{{N: 5}}), sb.String())
	var c C
	err = json.Unmarshal([]byte(` + "`" + `{"N":9}` + "`" + `), &c)
	fmt.Println(c.N, err)
	fmt.Printf("%v %+v\n", &C{N: 6}, Outer{Inner{Val: 1}, 2})
}
`, `{"N":1} <nil>
{"a":{"N":2}} <nil>
[{"N":3}] <nil>
{"Scheme":"http","Opaque":"","User":null,"Host":"x.org","Path":"/p","Fragment":"","RawQuery":"q=1","RawPath":"","RawFragment":"","ForceQuery":false,"OmitHost":false,"Note":"n"} <nil>
[{"Scheme":"http","Opaque":"","User":null,"Host":"x.org","Path":"/p","Fragment":"","RawQuery":"q=1","RawPath":"","RawFragment":"","ForceQuery":false,"OmitHost":false,"Note":"m"}] <nil>
true true <nil>
{"Name":"b"} <nil>
{"Scheme":"http","Opaque":"","User":null,"Host":"x.org","Path":"/p","Fragment":"","RawQuery":"q=1","RawPath":"","RawFragment":"","ForceQuery":false,"OmitHost":false,"id":7} <nil>
{"id":8} <nil>
{"Name":"root","Kids":[{"Name":"kid"}]} <nil>
{"Val":1,"Top":2} <nil>
{
 "c": {
  "N": 4
 }
} <nil>
<nil> [{"N":5}]

9 <nil>
&{{{} {0 0}} 6} {Inner:{Builder:{addr:<nil> buf:[]} Val:1} Top:2}
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runJSONWrapped(t, tc.src) // as the engine runs it
			require.NoError(t, err, out)
			require.Equal(t, tc.want, out)
		})
	}
}

// TestJSONEmbeddedNativeLoud checks what patches 190 and 192 leave a
// compile error: decoding by a promoted UnmarshalJSON below the value,
// decoding into, or marshalling a recursive type with, an embedded host
// struct whose fields Go promotes.
func TestJSONEmbeddedNativeLoud(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"promoted UnmarshalJSON in a slice", `package main

import (
	"encoding/json"
	"fmt"
	"time"
)

type E1 struct {
	time.Time
	Seq int
}

func main() {
	var es []E1
	fmt.Println(json.Unmarshal([]byte("[]"), &es))
}
`, "the interpreter does not call the UnmarshalJSON method of main.E1"},
		{"decoding into an embedded url.URL", `package main

import (
	"encoding/json"
	"fmt"
	"net/url"
)

type U struct {
	url.URL
	Note string
}

func main() {
	var u U
	fmt.Println(json.Unmarshal([]byte("{}"), &u))
}
`, "json.Unmarshal: the interpreter cannot give encoding/json the promoted fields of the embedded url.URL (embedded in main.U)"},
		{"a recursive type with an embedded url.URL", `package main

import (
	"encoding/json"
	"fmt"
	"net/url"
)

type Link struct {
	url.URL
	Next *Link
}

func main() {
	b, err := json.Marshal(Link{})
	fmt.Println(string(b), err)
}
`, "json.Marshal: the interpreter cannot give encoding/json the promoted fields of the embedded url.URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runJSONWrapped(t, tc.src)
			require.Error(t, err, out)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}
