package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/toolscript/toolscript/projection"
)

// Describe renders the tools of ns as the Go declarations a script sees,
// with each tool's documentation as its doc comment: the text an agent puts
// in the model's prompt. Packages and functions are sorted by name.
func Describe(ns map[string]projection.ToolProjection) string {
	s := buildSurface(ns)
	pkgs := make([]string, 0, len(s.pkgs))
	for p := range s.pkgs {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var b strings.Builder
	for i, p := range pkgs {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "package %s\n", p)
		funcs := append([]toolFunc(nil), s.pkgs[p]...)
		sort.Slice(funcs, func(i, j int) bool { return funcs[i].goName < funcs[j].goName })
		for _, f := range funcs {
			b.WriteString("\n")
			writeComment(&b, fmt.Sprintf("%s calls tool %q. %s", f.goName, f.tool.Name(), f.tool.Doc()))
			fmt.Fprintf(&b, "func %s(args map[string]any) (any, error)\n", f.goName)
		}
		if p == toolsPackage {
			b.WriteString("\n")
			writeComment(&b, "Call calls any tool of the namespace by its name, such as \"math_ops-multiply\".")
			b.WriteString("func Call(name string, args map[string]any) (any, error)\n\n")
			writeComment(&b, "Names lists the names of every tool, sorted.")
			b.WriteString("func Names() []string\n")
			if s.search != nil {
				b.WriteString("\n")
				writeComment(&b, fmt.Sprintf("Search returns the %d tools that best match the words of query, best first, with their names (for Call) and Go signatures.", SearchLimit))
				b.WriteString("func Search(query string) ([]SearchResult, error)\n\n")
				writeComment(&b, "SearchResult is one tool found by Search.")
				b.WriteString("type SearchResult struct{ Name, Signature, Description string }\n")
			}
		}
	}
	return b.String()
}

// writeComment writes text as // comment lines wrapped near 80 columns.
func writeComment(b *strings.Builder, text string) {
	line := "//"
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > 80 && line != "//" {
			b.WriteString(line + "\n")
			line = "//"
		}
		line += " " + w
	}
	b.WriteString(line + "\n")
}
