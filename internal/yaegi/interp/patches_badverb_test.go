package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBadVerbNamed checks patch 145: a printf verb that does not apply to
// a value of a named script type of a basic kind prints the type's name,
// as Go does (fmt saw the representation: %!s(int=4) for
// %!s(main.Level=4)), with the verb's flags and width, for a value given
// directly and one held in an interface. The want is what go run prints.
func TestBadVerbNamed(t *testing.T) {
	src := `package main

import "fmt"

type Level int

type Name string

type Flag bool

type Ratio float64

type Code uint8

func main() {
	type Local int
	fmt.Printf("%s|%d\n", Level(4), Level(4))
	fmt.Printf("%5s|%-4s|%x|%q|%c|%08.3f\n", Level(4), Level(4), Level(255), Level(65), Level(66), Level(1))
	fmt.Printf("%d|%t|%x\n", Name("ab"), Name("ab"), Name("ab"))
	fmt.Printf("%d|%s|%t\n", Flag(true), Flag(true), Flag(false))
	fmt.Printf("%d|%s|%.1f\n", Ratio(1.5), Ratio(1.5), Ratio(1.25))
	fmt.Printf("%s|%v|%d\n", Code(7), Code(7), Local(3))
	fmt.Printf("%s\n", Local(3))
	fmt.Printf("%*d|\n", Level(3), 7)
	fmt.Printf("%T %s\n", Level(1), Level(1))
	fmt.Println(fmt.Sprintf("%s", Level(9)), fmt.Errorf("e %s", Level(8)))
	fmt.Print(fmt.Sprintf("%s\n", Level(4)))
	l := Level(6)
	fmt.Printf("%s %v\n", l, l)
	var x any = Level(4)
	fmt.Printf("%s|%d\n", x, x)
}
`
	want := `%!s(main.Level=4)|4
%!s(main.Level=    4)|%!s(main.Level=4   )|ff|'A'|B|%!f(main.Level=     001)
%!d(main.Name=ab)|%!t(main.Name=ab)|6162
%!d(main.Flag=true)|%!s(main.Flag=true)|false
%!d(main.Ratio=1.5)|%!s(main.Ratio=1.5)|1.2
%!s(main.Code=7)|7|3
%!s(main.Local=3)
  7|
main.Level %!s(main.Level=1)
%!s(main.Level=9) e %!s(main.Level=8)
%!s(main.Level=4)
%!s(main.Level=6) 6
%!s(main.Level=4)|4
`
	out, err := runStmtProgram(t, src)
	require.NoError(t, err, out)
	require.Equal(t, want, out)
}
