package interp // toolscript patch 217

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAssertionOnAnyKeepsChecks checks patch 217: a type assertion of a
// concrete type on an any, run many times, answers as it did on its first
// run, and still fails loudly on a value whose script type the
// interpreter cannot tell, including one recorded after the records were
// found quiet (a later Eval of the same interpreter).
func TestAssertionOnAnyKeepsChecks(t *testing.T) {
	t.Run("a loop of assertions", func(t *testing.T) {
		got := runOutput(t, goMain("type Name string", `sum, n, names := 0.0, 0, 0
for i := 0; i < 100; i++ {
	var x any = float64(i)
	if i%2 == 0 {
		x = Name("n")
	}
	if f, ok := x.(float64); ok {
		sum += f
		n++
	}
	if _, ok := x.(Name); ok {
		names++
	}
}
fmt.Println(sum, n, names)`))
		assert.Equal(t, "2500 50 50\n", got)
	})

	t.Run("a representation a native function gave back", func(t *testing.T) {
		p := runPanic(t, nativeMain(`type Celsius float64
func (c Celsius) String() string { return "C" }`, `var a atomic.Value
a.Store(Celsius(3))
for i := 0; i < 3; i++ {
	var x any = 1.5
	_, _ = x.(float64)
}
_, _ = a.Load().(float64)`))
		var amb *AmbiguousTypeError
		require.ErrorAs(t, asError(p.Value), &amb)
		assert.True(t, amb.Native)
	})

	t.Run("a type recorded by a later Eval", func(t *testing.T) {
		var out bytes.Buffer
		it := New(Options{Stdout: &out, Stderr: io.Discard})
		require.NoError(t, it.Use(stdlib.Symbols))
		for _, in := range []string{
			`import ("fmt"; "sync/atomic")`,
			`var x any = 1.5`,
			`fmt.Println(x.(float64))`,
			`type Celsius float64`,
			`func (c Celsius) String() string { return "C" }`,
			`var a atomic.Value`,
			`a.Store(Celsius(3))`,
		} {
			_, err := it.Eval(in)
			require.NoError(t, err, in)
		}
		assert.Equal(t, "1.5\n", out.String())
		_, err := it.Eval(`_, _ = a.Load().(float64)`)
		var p Panic
		require.ErrorAs(t, err, &p)
		var amb *AmbiguousTypeError
		require.ErrorAs(t, asError(p.Value), &amb)
		assert.True(t, amb.Native)
	})
}

// asError is v as an error, or nil.
func asError(v any) error {
	err, _ := v.(error)
	if err == nil {
		return errors.New("not an error")
	}
	return err
}
