package interp

import "testing"

// TestInterfaceValueMethodThroughPointer checks patch 116: a pointer held
// in a native interface (heap.Interface, sort.Interface) whose type's
// value methods the interface calls reads the pointed value at each
// call, as Go does: after Push appended through the pointer, Len and
// Swap saw the value the pointer held when it was converted (container/
// heap kept [2 1] where Go keeps [1 2], and Swap panicked with an index
// out of range). Each want is what go run prints.
func TestInterfaceValueMethodThroughPointer(t *testing.T) {
	decls := `type pq []int
func (q pq) Len() int           { return len(q) }
func (q pq) Less(i, j int) bool { return q[i] < q[j] }
func (q pq) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *pq) Push(x any)        { *q = append(*q, x.(int)) }
func (q *pq) Pop() any          { old := *q; n := len(old); x := old[n-1]; *q = old[:n-1]; return x }`
	tests := []struct{ body, want string }{
		{`q := &pq{}; heap.Push(q, 2); heap.Push(q, 1); heap.Push(q, 3); fmt.Println(*q); a := heap.Pop(q); b := heap.Pop(q); c := heap.Pop(q); fmt.Println(a, b, c, q.Len())`, "[1 2 3]\n1 2 3 0"},
		{`q := &pq{}; var h heap.Interface = q; h.Push(5); h.Push(3); fmt.Println(h.Len()); h.Swap(0, 1); fmt.Println(*q)`, "2\n[3 5]"},
		{`q := &pq{4, 1}; var s sort.Interface = q; sort.Sort(s); *q = append(*q, 0); fmt.Println(s.Len(), *q)`, "3 [1 4 0]"},
		{`q := pq{2, 1}; var s sort.Interface = q; q[0] = 9; sort.Sort(s); fmt.Println(q, s.Len())`, "[1 9] 2"},
		{`q := &pq{1}; f := q.Len; *q = append(*q, 2); fmt.Println(f(), q.Len())`, "1 2"},
	}
	for _, tt := range tests {
		src := goMain(decls, tt.body)
		src = src[:len("package main\nimport (\"errors\"; \"fmt\"")] + `; "container/heap"; "sort"` + src[len("package main\nimport (\"errors\"; \"fmt\""):]
		src = src + "\nvar _ = heap.Init\nvar _ = sort.Sort\n"
		if got := runOutput(t, src); got != tt.want+"\n" {
			t.Errorf("%s:\n got %q\nwant %q", tt.body, got, tt.want)
		}
	}
}
