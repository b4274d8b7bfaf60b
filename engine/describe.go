package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/toolscript/toolscript/projection"
)

// Describe renders the tools of ns as the Go declarations a script sees:
// the text an agent puts in the model's prompt. It is DescribeWith(ns,
// DescribeOptions{}).Text.
func Describe(ns map[string]projection.ToolProjection) string {
	return DescribeWith(ns, DescribeOptions{}).Text
}

// DescribeOptions selects the tools DescribeWith describes. Empty fields
// select everything; the fields that are set must all match a tool.
type DescribeOptions struct {
	// Namespaces selects tools by namespace, as in the tool's name
	// ("math_ops") or as its Go package ("math_ops", "tools" or "" for
	// the tools without namespace). Package tools, with the dynamic API
	// (Call, Names, Decode), is described only when Namespaces is empty
	// or selects it.
	Namespaces []string
	// Tools selects tools by name ("math_ops-multiply") or as the script
	// calls them ("math_ops.Multiply").
	Tools []string
	// Words selects the tools whose name, description or schemas
	// contain every word, ignoring case.
	Words []string
}

// Description is what DescribeWith renders, with its size.
type Description struct {
	// Text is the Go declarations: one section per package, each a Go
	// file of declarations without bodies ("package customers", the
	// functions with their doc comments, the generated types), packages
	// and functions sorted by name, sections separated by a blank line.
	Text string
	// Tools is the number of tools described.
	Tools int
	// Bytes is len(Text); Tokens estimates its size in a model's tokens
	// (Bytes/4, rounded up).
	Bytes, Tokens int
}

// DescribeWith renders the tools of ns that opts selects as the Go
// declarations a script sees. A tool with an input schema the generator
// can express is a typed function: its argument struct, its result type
// (from its output schema, any without one) and the named types they use
// are declared after it, with doc comments from the schemas' titles and
// descriptions, required fields and defaults; a tool without one keeps the
// map form, func(args map[string]any) (any, error).
func DescribeWith(ns map[string]projection.ToolProjection, opts DescribeOptions) Description {
	s, err := surfaceFor(ns) // cached per namespace, as for Execute
	if err != nil {
		s = buildSurface(ns) // an invalid namespace is described as it is
	}
	pkgs := make([]string, 0, len(s.pkgs))
	for p := range s.pkgs {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var b strings.Builder
	d := Description{}
	for _, p := range pkgs {
		funcs := make([]toolFunc, 0, len(s.pkgs[p]))
		for _, f := range s.pkgs[p] {
			if opts.selects(p, f) {
				funcs = append(funcs, f)
			}
		}
		dynamic := p == toolsPackage && opts.selectsNamespace(toolsPackage, "")
		if len(funcs) == 0 && !dynamic {
			continue
		}
		d.Tools += len(funcs)
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		s.describePackage(&b, p, funcs, dynamic)
	}
	d.Text = b.String()
	d.Bytes = len(d.Text)
	d.Tokens = (d.Bytes + 3) / 4
	return d
}

// selectsNamespace reports whether the Namespaces filter selects package
// pkg of namespace ns.
func (o DescribeOptions) selectsNamespace(pkg, ns string) bool {
	if len(o.Namespaces) == 0 {
		return true
	}
	for _, n := range o.Namespaces {
		if n == ns || n == pkg || pkg == toolsPackage && n == "" {
			return true
		}
	}
	return false
}

// selects reports whether the options select tool f of package pkg.
func (o DescribeOptions) selects(pkg string, f toolFunc) bool {
	ns, _ := splitName(f.tool)
	if !o.selectsNamespace(pkg, ns) {
		return false
	}
	if len(o.Tools) > 0 {
		found := false
		for _, t := range o.Tools {
			if t == f.tool.Name() || t == pkg+"."+f.goName {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	if len(o.Words) > 0 {
		in, out := toolSchemas(f.tool)
		text := strings.ToLower(f.tool.Name() + " " + pkg + "." + f.goName + " " + f.tool.Doc() + " " + string(in) + " " + string(out))
		for _, w := range o.Words {
			if !strings.Contains(text, strings.ToLower(w)) {
				return false
			}
		}
	}
	return true
}

// describePackage writes the section of package pkg: its functions funcs,
// the types they use, and the dynamic API of package tools when dynamic.
func (s *surface) describePackage(b *strings.Builder, pkg string, funcs []toolFunc, dynamic bool) {
	fmt.Fprintf(b, "package %s\n", pkg)
	sort.Slice(funcs, func(i, j int) bool { return funcs[i].goName < funcs[j].goName })
	tp := s.typed(pkg)
	if tp != nil && len(tp.funcs) > 0 {
		b.WriteString("\n")
		writeComment(b, "A typed function also accepts a map[string]any of its arguments, or nil: it then returns its result untyped, as any (see tools.Decode).")
	}
	declared := map[*gtype]bool{}
	for _, f := range funcs {
		b.WriteString("\n")
		var tf *typedFunc
		if tp != nil {
			tf = tp.funcs[f.goName]
		}
		doc := fmt.Sprintf("%s calls tool %q. %s", f.goName, f.tool.Name(), f.tool.Doc())
		if why := fallbackReason(tp, f.goName); why != "" {
			doc += " Its arguments are a map: " + why + "."
		}
		writeComment(b, doc)
		if tf == nil {
			fmt.Fprintf(b, "func %s(args map[string]any) (any, error)\n", f.goName)
			continue
		}
		param, result := "", "any"
		if tf.args != nil {
			param = "args " + tf.args.goString()
		}
		if tf.result != nil {
			result = tf.result.goString()
		}
		fmt.Fprintf(b, "func %s(%s) (%s, error)\n", f.goName, param, result)
		if tf.args != nil {
			writeDecls(b, tf.args, declared)
		}
		if tf.result != nil {
			writeDecls(b, tf.result, declared)
		}
	}
	if !dynamic {
		return
	}
	b.WriteString("\n")
	writeComment(b, "Call calls any tool of the namespace by its name, such as \"math_ops-multiply\", with the map form.")
	b.WriteString("func Call(name string, args map[string]any) (any, error)\n\n")
	writeComment(b, "Names lists the names of every tool, sorted.")
	b.WriteString("func Names() []string\n\n")
	writeComment(b, "Decode fills out, a pointer, from an untyped result v (maps, lists, numbers, strings): struct fields by json tag or name (ignoring case), whole numbers into integers; keys without a field are ignored.")
	b.WriteString("func Decode(v any, out any) error\n")
	if s.search != nil {
		b.WriteString("\n")
		writeComment(b, fmt.Sprintf("Search returns the %d tools that best match the words of query, best first, with their names (for Call) and Go signatures.", SearchLimit))
		b.WriteString("func Search(query string) ([]SearchResult, error)\n\n")
		writeComment(b, "SearchResult is one tool found by Search.")
		b.WriteString("type SearchResult struct{ Name, Signature, Description string }\n")
	}
}

// fallbackReason says why a tool with a schema keeps the map form, "" when
// it does not.
func fallbackReason(tp *typedPkg, goName string) string {
	if tp == nil {
		return ""
	}
	return tp.fallback[goName]
}

// writeDecls writes the declarations of the named types t uses that are
// not declared yet: t's own first, then those of its fields in order.
func writeDecls(b *strings.Builder, t *gtype, declared map[*gtype]bool) {
	switch t.kind {
	case gSlice, gMap, gPtr:
		writeDecls(b, t.elem, declared)
		return
	case gStruct, gEnum:
	default:
		return
	}
	if declared[t] {
		return
	}
	declared[t] = true
	b.WriteString("\n")
	if t.kind == gEnum {
		doc := docOf(t.name, t.doc) + " One of the constants below."
		writeComment(b, doc)
		fmt.Fprintf(b, "type %s string\n\nconst (\n", t.name)
		w := 0
		for _, c := range t.consts {
			w = max(w, len(c))
		}
		for i, c := range t.consts {
			fmt.Fprintf(b, "\t%-*s %s = %q\n", w, c, t.name, t.values[i])
		}
		b.WriteString(")\n")
		return
	}
	writeComment(b, docOf(t.name, t.doc))
	fmt.Fprintf(b, "type %s struct {\n", t.name)
	nw, tw, gw := 0, 0, 0
	tags := make([]string, len(t.fields))
	for i, f := range t.fields {
		tag := f.jsonName
		if f.omitempty {
			tag += ",omitempty"
		}
		tags[i] = fmt.Sprintf("`json:%q`", tag)
		nw, tw, gw = max(nw, len(f.goName)), max(tw, len(f.t.goString())), max(gw, len(tags[i]))
	}
	for i, f := range t.fields {
		line := fmt.Sprintf("\t%-*s %-*s %s", nw, f.goName, tw, f.t.goString(), tags[i])
		if f.doc != "" {
			line = fmt.Sprintf("\t%-*s %-*s %-*s // %s", nw, f.goName, tw, f.t.goString(), gw, tags[i], f.doc)
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("}\n")
	for _, f := range t.fields {
		writeDecls(b, f.t, declared)
	}
}

// docOf is the doc comment of a declared type: its description, after its
// name unless the description starts with it.
func docOf(name, desc string) string {
	switch {
	case desc == "":
		return name + " is a value of the tool's schema."
	case strings.HasPrefix(desc, name+" "):
		return desc
	}
	return name + ": " + desc
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
