package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestUntypedShiftTyped checks patch 95: a shift of an untyped constant
// by a variable takes the type of its use (a native or script uint32
// parameter, a typed variable, an array index, a composite literal, a
// channel send, a package-level variable's initializer), with the
// operations around it (1<<id + 1); upstream
// computed an int and reflect panicked setting it where a uint32 goes
// (each want is go run's output).
func TestUntypedShiftTyped(t *testing.T) {
	decls := `type Flags uint8
type S struct{ Mask uint64 }
func set(f uint32) uint32 { return f }
func ret(id int) uint16    { return 1 << id }
var n = 4
var top = set(1<<n + 1)`
	tests := []struct{ body, want string }{
		{`var seen uint32; id := 3; atomic.OrUint32(&seen, 1<<id); fmt.Print(seen, atomic.AddUint32(new(uint32), 1<<id+1))`, "8 9"},
		{`id := 3; fmt.Print(set(1<<id), set(1<<id|1), ret(id), ret(id+10))`, "8 9 8 8192"},
		{`id := 2; var fl Flags = 1 << id; fl |= 1 << (id + 1); s := S{Mask: 1 << id}; xs := []uint16{1 << id}; fmt.Print(fl, s, xs)`, "12 {4} [4]"},
		{`id := 2; var a [8]int; a[1<<id] = 1; ch := make(chan uint8, 1); ch <- 1 << id; fmt.Print(a, <-ch, int8(1<<id)<<5)`, "[0 0 0 0 1 0 0 0] 4 -128"},
		{`id := 2; fmt.Printf("%T %v", 1<<id, uint8(1<<id))`, "int 4"},
		{`fmt.Print(top, atomic.AddUint32(new(uint32), 1<<n))`, "17 16"},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			src := "package main\nimport (\"fmt\"; \"sync/atomic\")\nvar _ = atomic.AddInt32\n" + decls + "\nfunc main() {\n" + tt.body + "\n}"
			assert.Equal(t, tt.want, runOutput(t, src))
		})
	}
}
