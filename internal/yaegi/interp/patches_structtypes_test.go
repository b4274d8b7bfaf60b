package interp

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRecursiveTypesConcurrently checks patch 170: interpreters that
// compile the same recursive struct types at once (one script run twice
// concurrently) share reflect.StructOf's types and write their
// placeholder fields; under -race the writes and StructOf's reads of
// them were a data race. Each program prints what go run prints.
func TestRecursiveTypesConcurrently(t *testing.T) {
	src := `package main

import "fmt"

type Node struct {
	Val  int
	Next *Node
}

type Tree struct {
	Root *Tree
	Kids []*Tree
	By   map[string]*Tree
}

func main() {
	var n *Node
	fmt.Printf("%#v\n", n)
	fmt.Printf("%#v\n", &Node{Val: 1})
	t := &Tree{Kids: []*Tree{{}}, By: map[string]*Tree{"a": nil}}
	t.Root = t
	fmt.Println(len(t.Root.Kids), t.Kids[0].Root == nil, len(t.By))
}
`
	const want = "(*main.Node)(nil)\n&main.Node{Val:1, Next:(*main.Node)(nil)}\n1 true 1\n"
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 3 {
				out, err := runStmtProgram(t, src)
				assert.NoError(t, err)
				assert.Equal(t, want, out)
			}
		})
	}
	wg.Wait()
}
