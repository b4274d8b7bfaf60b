package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNativeGivenBackFields checks patch 146: a value of a script struct
// type given back by native code (sync.Map, container/list) as its
// representation prints a field, an element or a map value of a type
// with a String method by that method, as Go does (it printed the
// field's representation: {{1}} for {Sub!}). The want is what go run
// prints.
func TestNativeGivenBackFields(t *testing.T) {
	src := `package main

import (
	"container/list"
	"fmt"
	"sync"
)

type Sub struct{ N int }

func (Sub) String() string { return "Sub!" }

type Wrap struct{ S Sub }

type Many struct {
	Subs []Sub
	M    map[string]Sub
	K    int
}

type Plain struct{ N int }

func main() {
	var m sync.Map
	m.Store("w", Wrap{Sub{1}})
	m.Store("m", Many{[]Sub{{1}}, map[string]Sub{"a": {2}}, 3})
	m.Store("p", Plain{4})
	v, _ := m.Load("w")
	fmt.Println(v)
	fmt.Printf("%v %+v\n", v, v)
	v, _ = m.Load("m")
	fmt.Println(v)
	v, _ = m.Load("p")
	fmt.Println(v)
	l := list.New()
	l.PushBack(Wrap{Sub{2}})
	fmt.Println(l.Front().Value)
	w, ok := l.Front().Value.(Wrap)
	fmt.Println(w, ok)
}
`
	want := `{Sub!}
{Sub!} {S:Sub!}
{[Sub!] map[a:Sub!] 3}
{4}
{Sub!}
{Sub!} true
`
	out, err := runStmtProgram(t, src)
	require.NoError(t, err, out)
	require.Equal(t, want, out)
}
