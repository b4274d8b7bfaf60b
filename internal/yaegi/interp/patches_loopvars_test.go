package interp

import "testing"

// TestLoopVarsPerIteration checks patch 151: every variable a for loop's
// init statement defines is a new variable per iteration, as Go 1.22
// specifies, in each form of the loop that has an init statement (only the
// first variable of for init; cond; post was, and none of the forms
// without a condition or a post statement); and for init; ; {} goes on
// to its body, not to its init statement again. Each want is what go run
// prints.
func TestLoopVarsPerIteration(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"two variables, both per iteration (151)", `package main

import "fmt"

func main() {
	var fs []func() int
	for i, j := 0, 10; i < 3; i, j = i+1, j-1 {
		fs = append(fs, func() int { return i*100 + j })
	}
	for _, f := range fs {
		fmt.Println(f())
	}
}
`, "10\n109\n208\n"},
		{"no post statement (151)", `package main

import "fmt"

func main() {
	var fs []func() int
	for i := 0; i < 3; {
		fs = append(fs, func() int { return i })
		i++
	}
	for i, s := 0, "a"; i < 3; {
		fs = append(fs, func() int { return i + len(s) })
		i++
		s += "b"
	}
	for _, f := range fs {
		fmt.Println(f())
	}
}
`, "1\n2\n3\n3\n5\n7\n"},
		{"no condition (151)", `package main

import "fmt"

func main() {
	var fs []func() int
	for i := 0; ; i++ {
		fs = append(fs, func() int { return i })
		if i == 2 {
			break
		}
	}
	for i, j := 0, 1; ; i, j = i+1, j*2 {
		if i == 3 {
			break
		}
		fs = append(fs, func() int { return i*100 + j })
	}
	for _, f := range fs {
		fmt.Println(f())
	}
}
`, "0\n1\n2\n1\n102\n204\n"},
		{"init only: the body does not run the init again (151)", `package main

import "fmt"

func main() {
	n := 0
	for i := 0; ; {
		i++
		n++
		if i > 3 || n > 10 {
			break
		}
	}
	fmt.Println(n)
	var fs []func() int
	for i, j := 0, 0; ; {
		fs = append(fs, func() int { return i + j })
		i++
		j += 10
		if i == 3 {
			break
		}
	}
	for _, f := range fs {
		fmt.Println(f())
	}
}
`, "4\n11\n22\n33\n"},
		{"continue, labelled and not, keeps body writes (151)", `package main

import "fmt"

func main() {
	var fs []func() int
outer:
	for i, j := 0, 10; i < 3; i, j = i+1, j-1 {
		for k := 0; k < 2; k++ {
			if k == 1 {
				j += 5
				continue outer
			}
			fs = append(fs, func() int { return i*100 + j + k })
		}
	}
	for i, j := 0, 0; i < 4; i++ {
		j += i
		if i%2 == 0 {
			continue
		}
		fs = append(fs, func() int { return j })
	}
	for _, f := range fs {
		fmt.Println(f())
	}
}
`, "15\n119\n223\n1\n6\n"},
		{"addresses of a struct and an int variable (151)", `package main

import "fmt"

type P struct{ X, Y int }

func main() {
	var ps []*P
	var qs []*int
	for i, p := 0, (P{1, 2}); i < 3; i, p.X = i+1, p.X+1 {
		ps = append(ps, &p)
		qs = append(qs, &i)
	}
	for k := range ps {
		fmt.Println(*ps[k], *qs[k])
	}
}
`, "{1 2} 0\n{2 2} 1\n{3 2} 2\n"},
		{"variables defined by a call, and a blank one (151)", `package main

import "fmt"

func two() (int, string) { return 1, "x" }

func main() {
	var fs []func() string
	for n, s := two(); n < 4; n, s = n+1, s+"y" {
		fs = append(fs, func() string { return fmt.Sprint(n, s) })
	}
	for _, j := 0, 5; j < 7; j++ {
		fs = append(fs, func() string { return fmt.Sprint(j) })
	}
	for _, f := range fs {
		fmt.Println(f())
	}
}
`, "1x\n2xy\n3xyy\n5\n6\n"},
		{"goroutines and deferred closures (151)", `package main

import (
	"fmt"
	"sync"
)

func main() {
	res := make([]int, 3)
	var wg sync.WaitGroup
	for i, base := 0, 100; i < 3; i, base = i+1, base+100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = base + i
		}()
	}
	wg.Wait()
	fmt.Println(res)
	func() {
		for i, tag := 0, "t"; i < 3; i, tag = i+1, tag+"!" {
			defer func() { fmt.Println(i, tag) }()
		}
	}()
}
`, "[100 201 302]\n2 t!!\n1 t!\n0 t\n"},
		{"shadowing, writes without closures, empty bodies (151)", `package main

import "fmt"

func main() {
	for i, j := 0, 0; i < 3; i++ {
		j := j + 1
		fmt.Println(i, j)
	}
	for i, j := 0, 0; i < 5; i++ {
		j += i
		fmt.Println(i, j)
	}
	for i, j := 0, 0; i < 3; i++ {
		for a, b := i, j; a < i+2; a, b = a+1, b+a {
			j = b
		}
		fmt.Println(i, j)
	}
	for i := 0; i < 3; i++ {
	}
	for i, j := 0, 1; i < 3; i, j = i+1, j+1 {
	}
	fmt.Println("end")
}
`, "0 1\n1 1\n2 1\n0 0\n1 1\n2 3\n3 6\n4 10\n0 0\n1 1\n2 3\nend\n"},
	})
}
