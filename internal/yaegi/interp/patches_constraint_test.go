package interp

import (
	"bytes"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConstraintErrorAtUse checks patch 96: a type argument that does
// not satisfy its constraint is reported at the call or the
// instantiation that gives it, in the script, with Go's message (each
// want is go vet's), also for a generic of an imported source package;
// patch 74 reported it at the type argument's declaration or at the type
// parameter.
func TestConstraintErrorAtUse(t *testing.T) {
	lib := "package lib\n\ntype Number interface{ ~int | ~float64 }\n\nfunc Total[T Number](xs ...T) (s T) {\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n"
	decls := `package main

import (
	"fmt"
	"lib"
)

type Number interface{ ~int | ~int64 | ~float64 }

type Label string

func Sum[T Number](xs []T) (t T) { return t }

func Pick[T int | string](a, b T) T { return a }

type Set[K comparable] map[K]bool

func main() {
	_ = lib.Total(1, 2)
	`
	tests := []struct{ name, body, want string }{
		{"named union, inferred", `fmt.Println(Sum([]string{"a"}))`, "20:14: string does not satisfy Number (string missing in ~int | ~int64 | ~float64)"},
		{"named union, explicit", `fmt.Println(Sum[Label](nil))`, "20:18: Label does not satisfy Number (Label missing in ~int | ~int64 | ~float64)"},
		{"inline union", `fmt.Println(Pick(1.5, 2))`, "20:14: float64 does not satisfy int | string (float64 missing in int | string)"},
		{"comparable type", `var s Set[[]int]; fmt.Println(s)`, "20:12: []int does not satisfy comparable"},
		{"imported generic", `fmt.Println(lib.Total("a", "b"))`, "20:14: string does not satisfy lib.Number (string missing in ~int | ~float64)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			i := New(Options{Stdout: &out, GoPath: ".", SourcecodeFilesystem: fstest.MapFS{
				"src/lib/lib.go": {Data: []byte(lib)},
			}})
			require.NoError(t, i.Use(stdlib.Symbols))
			_, err := i.Eval(decls + tt.body + "\n}\n")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
