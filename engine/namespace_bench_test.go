package engine_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// namespaceSizes are the namespace sizes of the namespace benchmarks.
var namespaceSizes = []int{10, 1000, 10000}

// bigNamespace is a namespace of n tools in package tools, tool_00000 to
// tool_<n-1>, each returning its number; typed gives each tool an input
// schema (a typed function of an argument struct).
func bigNamespace(n int, typed bool) map[string]projection.ToolProjection {
	type in struct {
		X int `json:"x"`
	}
	ns := make(map[string]projection.ToolProjection, n)
	for i := range n {
		name := fmt.Sprintf("tool_%05d", i)
		var p projection.ToolProjection
		if typed {
			p = projection.MustDirect(name, func(_ context.Context, a in) (int, error) { return i + a.X, nil }, "Tool number "+strconv.Itoa(i)+".")
		} else {
			p = projection.MustDirect(name, func(context.Context, map[string]any) (any, error) { return i, nil }, "Tool number "+strconv.Itoa(i)+".")
		}
		ns[p.Name()] = p
	}
	return ns
}

// BenchmarkExecute_Namespace is one call of the last tool of a namespace
// of n tools given again on every execution (as a host holding its
// namespace does): the set-up must not grow with n.
func BenchmarkExecute_Namespace(b *testing.B) {
	for _, n := range namespaceSizes {
		b.Run("tools="+strconv.Itoa(n), func(b *testing.B) {
			ns := bigNamespace(n, false)
			code := fmt.Sprintf("r, err := tools.Tool%05d(map[string]any{})\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(r)", n-1)
			want := fmt.Sprintln(n - 1)
			benchExecuteNamespace(b, ns, code, want)
		})
	}
}

// benchExecuteNamespace runs code on ns once, as the host's earlier
// executions, then measures its executions, each checked against want.
func benchExecuteNamespace(b *testing.B, ns map[string]projection.ToolProjection, code, want string) {
	ctx := context.Background()
	if _, err := engine.Execute(ctx, code, ns); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := engine.Execute(ctx, code, ns)
		if err != nil || res.ReturnCode != 0 || res.Stdout != want {
			b.Fatal(err, res.Error, res.Stdout)
		}
	}
}

// BenchmarkExecute_NamespaceTyped is BenchmarkExecute_Namespace with
// typed tools: one typed call of the last of n tools.
func BenchmarkExecute_NamespaceTyped(b *testing.B) {
	for _, n := range namespaceSizes {
		b.Run("tools="+strconv.Itoa(n), func(b *testing.B) {
			ns := bigNamespace(n, true)
			code := fmt.Sprintf("r, err := tools.Tool%05d(tools.Tool%05dArgs{X: 1})\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(r)", n-1, n-1)
			want := fmt.Sprintln(n)
			benchExecuteNamespace(b, ns, code, want)
		})
	}
}

// BenchmarkSession_Namespace is a session's first input, one call of the
// last of n tools: a session on a namespace of n tools, opened and run.
func BenchmarkSession_Namespace(b *testing.B) {
	for _, n := range namespaceSizes {
		b.Run("tools="+strconv.Itoa(n), func(b *testing.B) {
			ns := bigNamespace(n, false)
			e := engine.New(engine.Config{})
			code := fmt.Sprintf("r, err := tools.Tool%05d(map[string]any{})\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(r)", n-1)
			want := fmt.Sprintln(n - 1)
			ctx := context.Background()
			if _, err := engine.Execute(ctx, code, ns); err != nil { // as the host's earlier executions
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				s, err := engine.NewSession(e, ns)
				if err != nil {
					b.Fatal(err)
				}
				res, err := s.Execute(ctx, code)
				if err != nil || res.ReturnCode != 0 || res.Stdout != want {
					b.Fatal(err, res.Error, res.Stdout)
				}
				s.Close()
			}
		})
	}
}

// BenchmarkExecute_NamespaceCompileError is a script that does not
// compile, on a namespace of n tools: the type-checking pass that
// explains the error finds its checker once per namespace.
func BenchmarkExecute_NamespaceCompileError(b *testing.B) {
	for _, n := range namespaceSizes {
		b.Run("tools="+strconv.Itoa(n), func(b *testing.B) {
			ns := bigNamespace(n, false)
			const code = "r, err := tools.Tool00000(map[string]any{})\nfmt.Println(r, err, y)"
			ctx := context.Background()
			if _, err := engine.Execute(ctx, code, ns); err != nil { // as the host's earlier executions
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				res, err := engine.Execute(ctx, code, ns)
				if err != nil || res.ReturnCode != engine.CodeError || !strings.Contains(res.Error, "undefined: y") {
					b.Fatal(err, res.Error)
				}
			}
		})
	}
}
