package interp

import (
	"bytes"
	htmltemplate "html/template"
	"io"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// templateDecls are the script types of the template tests.
const templateDecls = `type Label struct{ Name string }
func (l Label) String() string { return "L:" + l.Name }
type PL struct{ Name string }
func (l *PL) String() string { return "PL:" + l.Name }
type Fault struct{ Code int }
func (f Fault) Error() string { return "fault" }
type Fancy struct{ N int }
func (f Fancy) Format(s fmt.State, verb rune) { fmt.Fprint(s, "fancy") }
type Gs struct{ N int }
func (g Gs) GoString() string { return "gs" }
type Tagged struct {
	Label
	N int
}
type Order struct {
	ID   int
	Item Label
}
type Inner struct{ Total int }
type Outer struct{ Inner }
func (Outer) Total() int { return 5 }
type Bag map[string]int
func (b Bag) Count() int { return len(b) }
type Stamp struct {
	time.Time
	Note string
}
type Row struct {
	Name string
	N    int
}
func (r Row) Double() int { return 2 * r.N }
type Report struct {
	Title string
	Rows  []Row
	Meta  map[string]int
	Ptr   *Row
	Arr   [2]Row
}
type Hidden struct {
	N int
	l Label
}
type Odd struct{ N int }
func (o Odd) String() int { return 7 }
func mkLabel() Label { return Label{"m"} }
func tpl(s string) *template.Template { return template.Must(template.New("x").Parse(s)) }
var b bytes.Buffer
var _ = time.Now
var _ = html.New`

// runTemplateProgram compiles and runs a program of the template tests,
// whose main is body, with text/template and (as html) html/template.
func runTemplateProgram(t *testing.T, body string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Stderr: io.Discard})
	require.NoError(t, it.Use(stdlib.Symbols))
	require.NoError(t, it.Use(Exports{"html/template/template": {
		"Must":     reflect.ValueOf(htmltemplate.Must),
		"New":      reflect.ValueOf(htmltemplate.New),
		"FuncMap":  reflect.ValueOf((*htmltemplate.FuncMap)(nil)),
		"Template": reflect.ValueOf((*htmltemplate.Template)(nil)),
	}}))
	src := "package main\nimport (\"bytes\"; \"fmt\"; html \"html/template\"; \"text/template\"; \"time\")\n" +
		templateDecls + "\nfunc main() {\n" + body + "\nfmt.Print(b.String())\n}"
	_, err := it.Eval(src)
	return out.String(), err
}

// TestTemplateScriptMethods checks patch 117: a call of a template's
// Execute or ExecuteTemplate whose data reaches a script type with a
// method the template would call (String, Error, Format, GoString to
// print it, a method it calls by the name of a field or a map key) is a
// compile error naming the type and the method; the template printed the
// value's fields (Go prints L:t for Label{"t"}, the interpreter printed
// {t}) or read the field or the key.
func TestTemplateScriptMethods(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"direct", `tpl("{{.}}").Execute(&b, Label{"t"})`, "template.Execute: text/template does not call methods of script types: main.Label has String"},
		{"field", `tpl("{{.Item}}").Execute(&b, Order{1, Label{"t"}})`, "main.Label (field Item of main.Order) has String"},
		{"slice element", `tpl("{{range .}}{{.}}{{end}}").Execute(&b, []Label{{"t"}})`, "main.Label (element of []main.Label) has String"},
		{"pointer", `tpl("{{.}}").Execute(&b, &PL{"p"})`, "main.PL has String"},
		{"pointer method, addressable element", `tpl("{{range .}}{{.}}{{end}}").Execute(&b, []PL{{"e"}})`, "main.PL (element of []main.PL) has String"},
		{"pointer to a field", `tpl("{{.Item}}").Execute(&b, &Order{1, Label{"t"}})`, "main.Label (field Item of main.Order) has String"},
		{"promoted", `tpl("{{.}}").Execute(&b, Tagged{Label{"t"}, 1})`, "main.Tagged has String"},
		{"promoted from a native type", `tpl("{{.}}").Execute(&b, Stamp{Note: "n"})`, "main.Stamp has String"},
		{"Error", `tpl("{{.}}").Execute(&b, []*Fault{{1}})`, "main.Fault (element of []*main.Fault) has Error"},
		{"Format", `tpl("{{.}}").Execute(&b, Fancy{1})`, "main.Fancy has Format"},
		{"GoString", `tpl("{{printf \"%#v\" .}}").Execute(&b, Gs{1})`, "main.Gs has GoString"},
		{"map value", `tpl("{{.k}}").Execute(&b, map[string]Label{"k": {"m"}})`, "main.Label (value of map[string]main.Label) has String"},
		{"map key", `tpl("{{.}}").Execute(&b, map[Label]int{{"k"}: 1})`, "main.Label (key of map[main.Label]int) has String"},
		{"nested", `tpl("{{.}}").Execute(&b, map[string][]Order{"a": {{1, Label{"t"}}}})`, "main.Label (field Item of main.Order in element of []main.Order in value of map[string][]main.Order) has String"},
		{"method shadowing a promoted field", `tpl("{{.Total}}").Execute(&b, Outer{Inner{3}})`, "main.Outer has Total, which the template calls for .Total where the interpreter's reads the field Total"},
		{"method of a map type", `tpl("{{.Count}}").Execute(&b, Bag{"a": 1})`, `main.Bag has Count, which the template calls for .Count where the interpreter's reads the map key "Count"`},
		{"ExecuteTemplate", `tpl("{{define \"r\"}}{{.}}{{end}}").ExecuteTemplate(&b, "r", Label{"t"})`, "template.ExecuteTemplate: text/template does not call methods of script types: main.Label has String"},
		{"Must chain", `template.Must(template.New("x").Parse("{{.}}")).Execute(&b, Label{"t"})`, "main.Label has String"},
		{"html/template", `html.Must(html.New("x").Parse("{{.}}")).Execute(&b, Label{"t"})`, "template.Execute: html/template does not call methods of script types: main.Label has String"},
		{"method value", `f := tpl("{{.}}").Execute; f(&b, Label{"t"})`, "template.Execute as a function value is not supported by the interpreter"},
		{"FuncMap result", `template.Must(template.New("x").Funcs(template.FuncMap{"lbl": func() Label { return Label{"t"} }}).Parse("{{lbl}}")).Execute(&b, nil)`, `text/template does not call methods of script types: main.Label (result of FuncMap function "lbl") has String`},
		{"FuncMap element assigned", `fm := template.FuncMap{}; fm["lbl"] = func() []Label { return nil }; _ = fm`, `text/template does not call methods of script types: main.Label (element of []main.Label in result of FuncMap function "lbl") has String`},
		{"FuncMap of a declared function", `_ = template.FuncMap{"mk": mkLabel}`, `main.Label (result of FuncMap function "mk") has String`},
		{"html FuncMap result", `html.New("x").Funcs(html.FuncMap{"f": func() (*Fault, error) { return nil, nil }})`, `html/template does not call methods of script types: main.Fault (result of FuncMap function "f") has Error`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runTemplateProgram(t, tt.body)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestTemplatePlainScriptData checks patch 117: data whose script types
// have none of the methods a template calls (plain structs, slices,
// maps, a struct with another method, a String method of another
// signature, a pointer-receiver String on a value the template cannot
// address, a method type in an unexported field) compiles and prints as
// go run prints it (each want).
func TestTemplatePlainScriptData(t *testing.T) {
	rep := `rep := Report{Title: "r", Rows: []Row{{"a", 1}, {"b", 2}}, Meta: map[string]int{"k": 3}, Ptr: &Row{"p", 4}, Arr: [2]Row{{"x", 5}}}
tp := tpl("{{.Title}}{{range .Rows}} {{.Name}}={{.N}}{{end}} {{.Meta.k}} {{.Ptr.Name}} {{(index .Arr 0).Name}} {{len .Rows}}|{{.Rows}}|{{.Meta}}")`
	tests := []struct{ name, body, want string }{
		{"fields, range, nested", rep + "\ntp.Execute(&b, rep)", "r a=1 b=2 3 p x 2|[{a 1} {b 2}]|map[k:3]"},
		{"through a pointer", rep + "\ntp.Execute(&b, &rep)", "r a=1 b=2 3 p x 2|[{a 1} {b 2}]|map[k:3]"},
		{"map of slices", `tpl("{{.}} {{range .a}}{{.Name}}{{end}}").Execute(&b, map[string][]Row{"a": {{"z", 9}}})`, "map[a:[{z 9}]] z"},
		{"pointer method, value not addressable", `tpl("{{.}}").Execute(&b, PL{"v"})`, "{v}"},
		{"unexported field", `tpl("{{.}}").Execute(&b, Hidden{1, Label{"t"}})`, "{1 {t}}"},
		{"String of another signature", `tpl("{{.}}").Execute(&b, Odd{1})`, "{1}"},
		{"ExecuteTemplate", `tpl("{{define \"r\"}}{{.Name}}{{end}}").ExecuteTemplate(&b, "r", Row{"n", 1})`, "n"},
		{"html/template", `html.Must(html.New("x").Parse("<b>{{.Name}}</b>")).Execute(&b, &Row{"<n>", 1})`, "<b>&lt;n&gt;</b>"},
		{"FuncMap of plain results", `template.Must(template.New("x").Funcs(template.FuncMap{"row": func() Row { return Row{"f", 2} }}).Parse("{{row}} {{row.Name}}")).Execute(&b, nil)`, "{f 2} f"},
		{"FuncMap element of a plain result", `fm := template.FuncMap{}; fm["n"] = func() Row { return Row{"g", 1} }; template.Must(template.New("x").Funcs(fm).Parse("{{n.Name}}")).Execute(&b, nil)`, "g"},
		{"nil data", `tpl("{{.}}").Execute(&b, nil)`, "<no value>"},
		{"method value to the blank identifier", `_ = tpl("").Execute; fmt.Print("ok")`, "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := runTemplateProgram(t, tt.body)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
