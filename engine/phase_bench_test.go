package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/toolscript/toolscript/internal/policy"
	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

// fmtOnly are the imports of the benchmarks' scripts.
var fmtOnly = []string{"fmt"}

func BenchmarkPhase(b *testing.B) {
	code := `fmt.Println("hi")`
	imp := imports{surf: buildSurface(nil)}
	b.Run("normalize", func(b *testing.B) {
		for b.Loop() {
			_, _ = normalizeScript(code, imp, false)
		}
	})
	p, _ := normalizeScript(code, imp, false)
	x := &execution{ctx: context.Background(), stdout: &capWriter{limit: -1}, stderr: &capWriter{limit: -1}}
	b.Run("new", func(b *testing.B) {
		for b.Loop() {
			_ = interp.New(interp.Options{SourcecodeFilesystem: policy.SourceFS(), GoPath: ".", Stdin: strings.NewReader("")})
		}
	})
	b.Run("new+use", func(b *testing.B) {
		for b.Loop() {
			it := interp.New(interp.Options{SourcecodeFilesystem: policy.SourceFS(), GoPath: "."})
			_ = policy.UseShared(fmtOnly, it.UseShared)
			it.Use(policy.Exports(fmtOnly, code, hooks{x}))
		}
	})
	b.Run("new+use+compile", func(b *testing.B) {
		for b.Loop() {
			it := interp.New(interp.Options{SourcecodeFilesystem: policy.SourceFS(), GoPath: "."})
			_ = policy.UseShared(fmtOnly, it.UseShared)
			it.Use(policy.Exports(fmtOnly, code, hooks{x}))
			_, _ = it.Compile(p.src)
		}
	})
	b.Run("new+use+compile-plain", func(b *testing.B) {
		for b.Loop() {
			it := interp.New(interp.Options{SourcecodeFilesystem: policy.SourceFS(), GoPath: "."})
			_ = policy.UseShared(fmtOnly, it.UseShared)
			_, _ = it.Compile("package main\nimport \"fmt\"\nfunc main() { fmt.Sprint(\"hi\") }")
		}
	})
}

func BenchmarkCompileVariants(b *testing.B) {
	x := &execution{ctx: context.Background(), stdout: &capWriter{limit: -1}, stderr: &capWriter{limit: -1}}
	for _, v := range []struct{ name, src string }{
		{"sprint", "package main\nimport \"fmt\"\nfunc main() { fmt.Sprint(\"hi\") }"},
		{"plain", "package main\nimport \"fmt\"\nfunc main() { fmt.Println(\"hi\") }"},
		{"rt import", "package main\nimport (__ts \"toolscript/rt\"; \"fmt\")\nfunc main() { __ts.At(1, 1, nil); fmt.Println(\"hi\") }"},
		{"rt setresult", "package main\nimport (__ts \"toolscript/rt\"; \"fmt\")\nfunc main() { __ts.SetResult(1); fmt.Println(\"hi\") }"},
		{"rt twice", "package main\nimport (__ts \"toolscript/rt\"; \"fmt\")\nfunc main() { __ts.SetResult(1); __ts.SetResult(2); fmt.Println(\"hi\") }"},
		{"directives", "/*line script.go:1:1*/package main;import (\"fmt\"; );func main() {/*line script.go:1:1*/fmt.Println(\"hi\")\n}\n/*line script.go:2:1*/"},
	} {
		b.Run(v.name, func(b *testing.B) {
			for b.Loop() {
				it := interp.New(interp.Options{SourcecodeFilesystem: policy.SourceFS(), GoPath: "."})
				_ = policy.UseShared(fmtOnly, it.UseShared)
				it.Use(policy.Exports(fmtOnly, v.src, hooks{x}))
				it.Use(x.rtExports())
				if _, err := it.Compile(v.src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
