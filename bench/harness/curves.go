package harness

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// The scaling curves (Workload.Curve).
const (
	CurveNamespace   = "namespace" // X: tools in the namespace
	CurveLines       = "lines"     // X: lines of the script
	CurveResultBytes = "result"    // X: bytes of one tool result
)

// Curves returns the workloads of the scaling curves, in order of X
// within each curve; short keeps fewer points.
func Curves(short bool) []*Workload {
	tools := []int{10, 100, 1000, 10000}
	lines := []int{10, 30, 100, 300, 1000}
	sizes := []int{1 << 10, 10 << 10, 100 << 10, 1 << 20}
	if short {
		lines = []int{10, 100, 1000}
		sizes = []int{1 << 10, 100 << 10, 1 << 20}
	}
	var ws []*Workload
	for _, n := range tools {
		ws = append(ws, namespaceWorkload(n))
	}
	for _, n := range lines {
		ws = append(ws, linesWorkload(n))
	}
	for _, n := range sizes {
		ws = append(ws, resultWorkload(n))
	}
	return ws
}

// namespaceWorkload calls one tool of a namespace of n tools.
func namespaceWorkload(n int) *Workload {
	c := &Counter{}
	specs := make([]ToolSpec, n)
	for i := range specs {
		name := fmt.Sprintf("tool_%05d", i)
		v := i
		specs[i] = tool(c, name, "Tool number "+strconv.Itoa(i)+". No args. Returns its number (int).", nil,
			func(context.Context, map[string]any) (any, error) { return v, nil })
	}
	last := specs[n-1]
	want := fmt.Sprintln(n - 1)
	return &Workload{
		Name:  "namespace_" + strconv.Itoa(n),
		Doc:   fmt.Sprintf("one call of the last of %d tools", n),
		Go:    fmt.Sprintf("r, err := tools.Tool%05d(map[string]any{})\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(r)\n", n-1),
		Tools: specs,
		Want:  wantExact(want),
		Short: true,
		Native: func(ctx context.Context) (string, error) {
			r, err := last.Fn(ctx, map[string]any{})
			return fmt.Sprintln(r), err
		},
		Counter: c, Calls: 1,
		Curve: CurveNamespace, X: n, Params: map[string]int{"tools": n},
	}
}

// linesWorkload is a straight-line script of n statements.
func linesWorkload(n int) *Workload {
	var b strings.Builder
	b.WriteString("x := 1\n")
	x := 1
	for i := 1; i < n-1; i++ {
		fmt.Fprintf(&b, "x = (x*31 + %d) %% 1000003\n", i)
		x = (x*31 + i) % 1000003
	}
	b.WriteString("fmt.Println(x)\n")
	want := fmt.Sprintln(x)
	return &Workload{
		Name:   "lines_" + strconv.Itoa(n),
		Doc:    fmt.Sprintf("a script of %d lines, no loop", n),
		Go:     b.String(),
		Want:   wantExact(want),
		Short:  true,
		Native: func(context.Context) (string, error) { return want, nil },
		Curve:  CurveLines, X: n, Params: map[string]int{"lines": n},
	}
}

// resultWorkload receives one tool result of n bytes.
func resultWorkload(n int) *Workload {
	c := &Counter{}
	blob := strings.Repeat("x", n)
	t := tool(c, "blob", "A blob. No args. Returns string.", nil,
		func(context.Context, map[string]any) (any, error) { return blob, nil })
	want := fmt.Sprintln(n)
	return &Workload{
		Name:  "result_" + strconv.Itoa(n),
		Doc:   fmt.Sprintf("one tool result of %d bytes", n),
		Go:    "r, err := tools.Blob(map[string]any{})\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(len(r.(string)))\n",
		Tools: []ToolSpec{t},
		Want:  wantExact(want),
		Short: true,
		Native: func(ctx context.Context) (string, error) {
			r, err := t.Fn(ctx, map[string]any{})
			if err != nil {
				return "", err
			}
			return fmt.Sprintln(len(r.(string))), nil
		},
		Counter: c, Calls: 1,
		Curve: CurveResultBytes, X: n, Params: map[string]int{"bytes": n},
	}
}
