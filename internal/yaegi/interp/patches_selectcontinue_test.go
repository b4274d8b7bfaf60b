package interp

import "testing"

// TestSelectCaseContinue checks patch 150: a continue that is the last
// statement of a select case in a loop goes to the loop's next iteration
// (it went on after the select), in a three-clause loop, a range over an
// int or a slice, in a block, in a default clause and with a label. The
// want is what go run prints.
func TestSelectCaseContinue(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"a continue that ends a select case (150)", `package main

import "fmt"

func main() {
	ch := make(chan int, 2)
	ch <- 1
	ch <- 2
	for i := 0; i < 3; i++ {
		select {
		case v := <-ch:
			fmt.Println("got", v)
			continue
		default:
		}
		fmt.Println("empty at", i)
	}
	ch <- 3
	for i := range 3 {
		select {
		case v := <-ch:
			fmt.Println("got", v)
			{
				continue
			}
		default:
			fmt.Println("default", i)
			continue
		}
		fmt.Println("after", i)
	}
	ch <- 4
outer:
	for _, s := range []string{"a", "b", "c"} {
		for j := 0; j < 2; j++ {
			select {
			case v := <-ch:
				fmt.Println("got", v, s, j)
				continue outer
			default:
			}
			fmt.Println("empty", s, j)
		}
		fmt.Println("end", s)
	}
	ch <- 5
	for i := 0; i < 2; i++ {
		select {
		case ch <- 6:
			fmt.Println("sent", i)
			continue
		default:
			fmt.Println("full", i)
		}
		fmt.Println("x", i)
	}
}
`, `got 1
got 2
empty at 2
got 3
default 1
default 2
got 4 a 0
empty b 0
empty b 1
end b
empty c 0
empty c 1
end c
sent 0
full 1
x 1
`},
	})
}
