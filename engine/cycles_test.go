package engine

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPrintCycle(t *testing.T) {
	cyclicMap := map[string]any{}
	cyclicMap["self"] = cyclicMap
	cyclicSlice := []any{1, nil}
	cyclicSlice[1] = cyclicSlice
	tail := []any{nil}
	tail[0] = tail[:1] // the same elements under another header
	shared := map[string]any{"a": 1}
	type node struct {
		Next *node
		Kids []any
	}
	ptrCycle := &node{}
	ptrCycle.Next = ptrCycle
	viaStruct := &node{}
	viaStruct.Kids = []any{*viaStruct}
	viaStruct.Kids[0] = node{Kids: viaStruct.Kids}
	for _, tt := range []struct {
		name string
		args []any
		want bool
	}{
		{"scalars", []any{1, "a", 2.5, nil}, false},
		{"map holding itself", []any{cyclicMap}, true},
		{"slice holding itself", []any{"x", cyclicSlice}, true},
		{"slice holding a reslice of itself", []any{tail}, true},
		{"a cycle below a pointer at the top", []any{&cyclicMap}, true},
		{"the same map twice, no cycle", []any{[]any{shared, shared, map[string]any{"s": shared}}}, false},
		{"a pointer cycle (printed as an address)", []any{ptrCycle, *ptrCycle}, false},
		{"a cycle through a struct field", []any{viaStruct.Kids}, true},
		{"a large slice of ints", []any{make([]int, 1<<16)}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, printCycle(tt.args))
		})
	}
}

// TestTemplateDataCycle checks the walk of template data, which follows
// pointers at every level: a map cycle behind a pointer field counts, a
// cycle of pointers alone (parent pointers) does not.
func TestTemplateDataCycle(t *testing.T) {
	m := map[string]any{}
	m["m"] = m
	type page struct{ Meta *map[string]any }
	type node struct {
		Parent *node
		Kids   []*node
	}
	root := &node{}
	root.Kids = []*node{{Parent: root}}
	deep := func(v any) bool { c := cycleWalk{deep: true}; return c.walk(reflect.ValueOf(v), 0) }
	assert.True(t, deep(page{Meta: &m}))
	assert.False(t, printCycle([]any{page{Meta: &m}}), "fmt prints the nested pointer as an address")
	assert.False(t, deep(root))
}
