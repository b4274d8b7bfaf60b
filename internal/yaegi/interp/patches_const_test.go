package interp

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// constDecls are the declarations the constant tests' bodies use.
const constDecls = `type Temp float64
type P struct{ X float64; Y Temp }
const five = 5
const Mixed = 10/4 + 0.5
const (
	A = iota / 2
	B
	C
	E float64 = iota / 2
	F
)
const GE = 3 > 2
const GL = GE && 1 < 2 || false
const cc = 3 + 4i
var GF float64 = 7 / 2
var GT Temp = 9 / 5 * 100
func ret() float64 { return 9 / 4 }
func ret2() (int, float64) { return 7 / 2 * 2, 7 / 2 }
func arg(f float64) float64 { return f }`

// TestUntypedConstExact checks patch 123: an operation of untyped
// constants is computed exactly, as an untyped constant, whatever its use
// (an integer division stays one for a float64 or Temp destination: a
// variable, a typed constant, an assignment, +=, a field, a return); a
// comparison, && and || of constants are constants (a constant declared
// with one was false). Each want is go run's output.
func TestUntypedConstExact(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"float destinations", `var f float64 = five / 2; var a float64; a = 5 / 2; var x float64 = 7 / 2 * 2; var c float32 = 1 / 3; fmt.Println(f, a, x, c)`, "2 2 6 0\n"},
		{"const decl, return, named float, +=", `var t Temp = 9 / 5 * 100; var q float64; q += 7 / 2; fmt.Println(Mixed, ret(), t, q, GF, GT)`, "2.5 2 100 3 3 100\n"},
		{"integer destinations", `var b int = 7 / 2 * 2; var g int32 = 1 + 7/2; var d time.Duration = 3 / 2 * time.Second; const k int = 7 / 2 * 2; var a int; a = 7 / 2 * 2; var s struct{ X int }; s.X = 7 / 2 * 2; n := 6; n += 7 / 2; fmt.Println(b, g, d, k, a, s.X, n)`, "6 4 1s 6 6 6 9\n"},
		{"iota", `fmt.Println(A, B, C, E, F)`, "0 0 1 1 2\n"},
		{"results, arguments, literals", `i, f := ret2(); p := P{X: 7 / 2, Y: 9 / 2 * 1.0}; fmt.Println(i, f, arg(9/4), p, []float64{1 / 2, 3.0 / 2}, map[string]Temp{"a": 5 / 2})`, "6 3 2 {3 4} [0 1.5] map[a:2]\n"},
		{"compound assignments", `var x float64 = 1; x += 5 / 2; x *= 3 / 2; x -= 1 / 2; m := map[int]float64{}; m[1] += 3 / 2; fmt.Println(x, m, x + 5/2, (7/2)*x)`, "3 map[1:1] 5 9\n"},
		{"operators and kinds", `var r rune = 'a' / 2; var rf float64 = 'a' / 2; var u uint = 1 << 10 / 3; fmt.Println(r, rf, u, 7%4/2.0, -7/2, 7 % -3, 1e3/8, math.Pi/2, len("hello")/2)`, "48 48 341 1.5 -3 1 125 1.5707963267948966 2\n"},
		{"conversions", `fmt.Println(float64(5/2), Temp(5/2), -(5 / 2), ^(5 / 2), 5/2.0)`, "2 2 -2 -3 2.5\n"},
		{"comparisons and logic", `const ok, no = 3 > 2, "a" >= "b"; const both = ok && !no; const big = 1<<62/3*3 == 4611686018427387903; fmt.Println(ok, no, both, big, GE, GL, 5/2 == 2, Temp(2) > 1)`, "true false true true true true true true\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package main\nimport (\"fmt\"; \"math\"; \"time\")\nvar _ = math.Pi\nvar _ = time.Second\n" + constDecls + "\nfunc main() {\n" + tt.body + "\n}"
			assert.Equal(t, tt.want, runOutput(t, src))
		})
	}
}

// TestConstDeclNotConstant checks patch 123: a constant declared with a
// value the interpreter does not compute at compile time (a call) is a
// compile error naming the constant; it held its type's zero value.
func TestConstDeclNotConstant(t *testing.T) {
	tests := []struct{ decls, body, want string }{
		{`func f() int { return 3 }`, `const M = f(); fmt.Println(M)`, "constant M is not constant"},
		{`func f() int { return 3 }`, `const M, N = 1, f() + 1; fmt.Println(M, N)`, "constant N is not constant"},
		{`func max[T int | float64](x, y T) T { if x > y { return x }; return y }`, `fmt.Println(K)`, "constant K is not constant"},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			decls := tt.decls
			if tt.body == `fmt.Println(K)` {
				decls += "\nconst K = max(1, 2)"
			}
			it := New(Options{Stdout: &bytes.Buffer{}})
			require.NoError(t, it.Use(stdlib.Symbols))
			_, err := it.Compile("package main\nimport \"fmt\"\n" + decls + "\nfunc main() {\n" + tt.body + "\n}\n")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestComplexConstBuiltins checks patch 124: real, imag and complex of
// constants are computed at compile time, exactly for untyped constants
// (real of an untyped complex constant was an internal compiler error),
// in the result's type for typed ones. Each want is go run's output.
func TestComplexConstBuiltins(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"repro", `c := 1 + 2i; fmt.Println(imag(c), real(c)-1); fmt.Println(real(3+4i) + 2)`, "2 0\n5\n"},
		{"untyped", `const r = real(cc); fmt.Println(r/2, imag(cc)/3, real(5), imag(7.5), complex(1, 2)/2)`, "1.5 1.3333333333333333 5 0 (0.5+1i)\n"},
		{"types", `const c64 complex64 = 1 + 2i; var f32 float32 = real(1 + 2i); fmt.Printf("%T %T %T %T %v\n", real(c64), imag(cc), complex(float32(1), 2), f32, real(c64)+imag(c64))`, "float32 float64 complex64 float32 3\n"},
		{"array length", `var a [int(real(cc))]int; fmt.Println(len(a))`, "3\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package main\nimport (\"fmt\"; \"math\"; \"time\")\nvar _ = math.Pi\nvar _ = time.Second\n" + constDecls + "\nfunc main() {\n" + tt.body + "\n}"
			assert.Equal(t, tt.want, runOutput(t, src))
		})
	}
}
