package interp

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIfaceEqualRecords checks == of interface values holding values of
// a script type with methods (toolscript patch 110): equal when their
// types and values are, as in Go; they compared unequal.
func TestIfaceEqualRecords(t *testing.T) {
	const src = `package main

import "fmt"

type L struct{ N string }

func (l L) String() string { return l.N }

type M struct{ N string }

func (m M) String() string { return m.N }

type S interface{ String() string }

func main() {
	var x any = L{"a"}
	var y any = L{"a"}
	var z any = L{"b"}
	var m any = M{"a"}
	var s1 S = L{"a"}
	var s2 S = L{"a"}
	var nilA, nilB any
	fmt.Println(x == y, x == z, x == m, s1 == s2, s1 != s2, nilA == nilB, x == nilA)
	defer func() { fmt.Println("recovered:", recover() != nil) }()
	var f1 any = struct{ F []int }{}
	var f2 any = struct{ F []int }{}
	fmt.Println(f1 == f2)
}
`
	var out bytes.Buffer
	it := New(Options{Stdout: &out})
	require.NoError(t, it.Use(stdlib.Symbols))
	_, err := it.Eval(src)
	require.NoError(t, err)
	assert.Equal(t, "true false false true false true false\nrecovered: true\n", out.String())
}
