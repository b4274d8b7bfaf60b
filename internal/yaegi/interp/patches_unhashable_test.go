package interp

import "testing"

// TestUnhashableKeyRuntimeError checks patch 134: a map key of an
// unhashable type held in an interface panics as in Go: a store with the
// runtime error "runtime error: hash of unhashable type []int", a read or
// a delete with the map code's "hash of unhashable type: []int" (Go's
// compiled code gives both), and _, _ = m[k] too (it did nothing).
func TestUnhashableKeyRuntimeError(t *testing.T) {
	const src = `package main

import "fmt"

func try(name string, f func()) {
	defer func() { r := recover(); _, rt := r.(interface{ RuntimeError() }); fmt.Println(name, r, rt) }()
	f()
}

func main() {
	m := map[any]int{}
	var k any = []int{1}
	try("assign", func() { m[k] = 1 })
	try("read", func() { _ = m[k] })
	try("commaok", func() { _, _ = m[k] })
	try("delete", func() { delete(m, k) })
	try("literal", func() { _ = map[any]int{k: 1} })
	try("inc", func() { m[k]++ })
}
`
	want := `assign runtime error: hash of unhashable type []int true
read hash of unhashable type: []int true
commaok hash of unhashable type: []int true
delete hash of unhashable type: []int true
literal runtime error: hash of unhashable type []int true
inc runtime error: hash of unhashable type []int true
`
	if got := runOutput(t, src); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
