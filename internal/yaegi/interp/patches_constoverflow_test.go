package interp

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConstOverflow checks that a constant its type cannot hold is a
// compile error, as in Go, and that constants at the bounds of their
// types are kept exactly (toolscript patch 109): a signed type's range
// was checked by bit length (var q int8 = 200 was -56, -129 was 127),
// and a typed constant operation wrapped (int8(100) + 100 was -56,
// uint16(1) << 17 was 0; var d uint8 = 1 << 8 was 0).
func TestConstOverflow(t *testing.T) {
	rejected := []struct{ body, want string }{
		{`var q int8 = 200; fmt.Println(q)`, "overflows"},
		{`var q int8 = -129; fmt.Println(q)`, "overflows"},
		{`var q int16 = 32768; fmt.Println(q)`, "overflows"},
		{`x := int8(100) + 100; fmt.Println(x)`, "constant 200 overflows int8"},
		{`var c = uint16(1) << 17; fmt.Println(c)`, "constant 131072 overflows uint16"},
		{`var d uint8 = 1 << 8; fmt.Println(d)`, "overflows"},
		{`const e uint8 = 255 + 1; fmt.Println(e)`, "overflows"},
		{`const k uint8 = 200; fmt.Println((k + 100) - 100)`, "constant 300 overflows uint8"},
		{`var y int8 = -(-128); fmt.Println(y)`, "overflows"},
		{`fmt.Println(int32(1 << 20) * 4096)`, "constant 4294967296 overflows int32"},
		{`fmt.Println(-uint(1))`, "overflows"},
	}
	for _, tt := range rejected {
		t.Run(tt.body, func(t *testing.T) {
			it := New(Options{Stdout: &bytes.Buffer{}})
			require.NoError(t, it.Use(stdlib.Symbols))
			_, err := it.Compile("package main\n\nimport \"fmt\"\n\nfunc main() {\n\t" + tt.body + "\n}\n")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	const kept = `
	var a, b int8 = 127, -128
	var u uint8 = 1<<8 - 1
	const k uint8 = 200
	fmt.Println(a, b, u, k+55, int16(-32768), -int8(-127), ^uint8(0))
	fmt.Println(uint32(1)<<31, -int64(9223372036854775807)-1, int64(-9223372036854775808), uint64(1<<64-1))
	var z uint8 = 255
	z++ // a run-time wrap, as in Go
	fmt.Println(z, 1<<62*2/4)`
	var out bytes.Buffer
	it := New(Options{Stdout: &out})
	require.NoError(t, it.Use(stdlib.Symbols))
	_, err := it.Eval("package main\n\nimport \"fmt\"\n\nfunc main() {" + kept + "\n}\n")
	require.NoError(t, err)
	assert.Equal(t, "127 -128 255 255 -32768 127 255\n2147483648 -9223372036854775808 -9223372036854775808 18446744073709551615\n0 2305843009213693952\n", out.String())
}
