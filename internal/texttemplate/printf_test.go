package template_test

import (
	"fmt"
	"strings"
	"testing"
	stdtemplate "text/template"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	template "github.com/toolscript/toolscript/internal/texttemplate"
)

// row stands for the interpreter's representation of a script struct.
type row = struct{ Name string }

// goStringer has a GoString method that %#v calls.
type goStringer int

func (goStringer) GoString() string { return "gs" }

// hidden stands for the representation of a script struct with an
// unexported field name.
type hidden struct {
	Xname string `json:"-"`
	N     int
}

// TestPrintf_TypeNames checks that printf fails where fmt would print an
// argument's type name (a script type's would be its representation's),
// and prints as text/template's printf everywhere else.
func TestPrintf_TypeNames(t *testing.T) {
	tests := []struct {
		name, text string
		data       any
		err        string // "" when the output is the standard package's
	}{
		{"T", `{{printf "%T" .}}`, row{"a"}, "printf's %T in a template is not supported (%T in format"},
		{"T of an int", `{{printf "%T" .}}`, 1, "printf's %T"},
		{"T with flags and width", `{{printf "%-10T|" .}}`, 1, "(%-10T in format"},
		{"T with an index", `{{printf "%[1]T" .}}`, 1, "(%[1]T in format"},
		{"T with a star width", `{{printf "%*T" 3 .}}`, 1, "(%*T in format"},
		{"T with a star precision and indexes", `{{printf "%[2].[1]*T" 3 .}}`, 1, "(%[2].[1]*T in format"},
		{"T of a missing argument", `{{printf "%T"}}`, nil, "printf's %T"},
		{"T of a field", `{{printf "%s %T" .Name .Name}}`, row{"a"}, "printf's %T"},
		{"T in a defined template", `{{define "s"}}{{printf "%T" .}}{{end}}{{template "s" .}}`, 1, "printf's %T"},
		{"sharp v of a struct", `{{printf "%#v" .}}`, row{"a"}, "printf's %#v in a template is not supported of a struct (%#v in format"},
		{"plus sharp v of a slice", `{{printf "%+#v" .}}`, []float64{1}, "of a slice (%+#v in format"},
		{"sharp v of a map in any", `{{printf "%#v" .m}}`, map[string]any{"m": map[string]int{"a": 1}}, "of a map"},
		{"sharp v of a pointer", `{{printf "%#v" .}}`, &row{"a"}, "of a ptr"},
		{"sharp v by index", `{{printf "%v %#[1]v" .}}`, row{"a"}, "of a struct"},
		{"sharp v second argument", `{{printf "%v %#v" 1 .}}`, row{"a"}, "of a struct"},
		{"sharp v of a GoString method", `{{printf "%#v" .}}`, goStringer(1), "of a value of type template_test.goStringer, whose method prints it"},
		{"sharp v of time.Time", `{{printf "%#v" .}}`, time.Unix(0, 0).UTC(), "of a struct"},
		{"overflowing index", `{{printf "%[99999999999999999999]T" 1}}`, nil, "printf's %T"},
		{"extra argument", `{{printf "%d" 1 .}}`, row{"a"}, `printf in a template with arguments its format "%d" does not use is not supported`},
		{"extra argument without verbs", `{{printf "x" .}}`, 1, "does not use"},

		{"bad verb", `{{printf "%s" .}}`, 5, "printf's %s in a template is not supported of a value of type int"},
		{"bad verb in a field", `{{printf "%d" .}}`, row{"a"}, "of a value of type string"},
		{"bad verb in a map in any", `{{printf "%x" .}}`, map[string]any{"a": []any{true}}, "of a value of type bool"},
		{"bad verb of a nil pointer", `{{printf "%s" .}}`, (*row)(nil), "of a value of type *struct { Name string }"},
		{"bad verb behind a pointer in a field", `{{printf "%s" .}}`, struct{ P *int }{new(int)}, "of a value of type *int"},
		{"p of a struct", `{{printf "%p" .}}`, row{"a"}, "of a value of type struct { Name string }"},
		{"w", `{{printf "%w" .}}`, fmt.Errorf("e"), "printf's %w in a template"},
		{"plus v of an unexported field", `{{printf "%+v" .}}`, []hidden{{"a", 1}}, "printf's %+v in a template is not supported of a value with a script struct's unexported field (%+v in format \"%+v\"): the template sees the field renamed (Xname for name)"},
		{"plus v of an unexported field in any", `{{printf "%v %+v" 1 .}}`, map[string]any{"k": hidden{}}, "renamed (Xname for name)"},
		{"v of an unexported field", `{{printf "%v" .}}`, hidden{"a", 1}, ""},
		{"plus v of an exported X field", `{{printf "%+v" .}}`, struct{ Xname, XName string }{"a", "b"}, ""},
		{"d of a struct of numbers", `{{printf "%d" .}}`, struct {
			A int
			B []uint8
			C map[string]float32
		}{1, []uint8{2}, nil}, ""},
		{"x of bytes and strings", `{{printf "%x %X %q" .B .S .B}}`, map[string]any{"B": []byte("hi"), "S": "s"}, ""},
		{"s of a Stringer and an error", `{{printf "%s %s %d" .D .E .D}}`, map[string]any{"D": time.Second, "E": fmt.Errorf("e")}, ""},
		{"d of a time", `{{printf "%d" .}}`, time.Unix(0, 0).UTC(), ""},
		{"s of a nil", `{{printf "%s %d" nil .n}}`, map[string]any{"n": nil}, ""},
		{"plus v of a pointer held below", `{{printf "%+v" .}}`, map[string]any{"k": &hidden{}}, ""},
		{"p of a pointer", `{{printf "%t" (eq (printf "%p" .) "")}}`, &row{}, ""},
		{"sharp v of a float", `{{printf "%#v" .}}`, 1.5, ""},
		{"sharp v of a string, bool, uint", `{{printf "%#v %#v %#v" .Name true 7}}`, row{"a"}, ""},
		{"sharp v of a duration", `{{printf "%#v" .}}`, time.Duration(5), ""},
		{"sharp v of nil", `{{printf "%#v" nil}}`, nil, ""},
		{"sharp x of a struct", `{{printf "%#x" .Name}}`, row{"a"}, ""},
		{"v and plus v", `{{printf "%v %+v %s %q" . . .Name .Name}}`, row{"a"}, ""},
		{"percent T", `{{printf "%%T %d" 3}}`, nil, ""},
		{"percent with flags", `{{printf "%-5%T"}}`, nil, ""},
		{"star width", `{{printf "%*d|%-*d|" 5 3 2 1}}`, nil, ""},
		{"indexes reused", `{{printf "%[1]d %[1]v %[2]s" 3 "x"}}`, nil, ""},
		{"index with extra not checked", `{{printf "%[1]d" 3 .}}`, row{"a"}, ""},
		{"bad index", `{{printf "%[5]d %v" 3}}`, nil, ""},
		{"missing argument", `{{printf "%d %d" 3}}`, nil, ""},
		{"no verb", `{{printf "100%"}}`, nil, ""},
		{"extra nil", `{{printf "x" nil}}`, nil, ""},
		{"huge width", `{{printf "%999999d|%[99999999999]v|%.999999[1]v" 1}}`, nil, ""},
		{"overflowing width", `{{printf "%99999999999999999999T"}}`, nil, ""},
		{"overflowing width leaves an argument", `{{printf "%99999999999999999999T" 1}}`, nil, "does not use"},
		{"print and plain action", `{{.}} {{print .}} {{println .Name}}`, row{"a"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got strings.Builder
			err := template.Must(template.New("t").Parse(tt.text)).Execute(&got, tt.data)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				assert.Contains(t, err.Error(), "error calling printf")
				var ee template.ExecError
				assert.ErrorAs(t, err, &ee)
				return
			}
			require.NoError(t, err)
			var want strings.Builder
			require.NoError(t, stdtemplate.Must(stdtemplate.New("t").Parse(tt.text)).Execute(&want, tt.data))
			assert.Equal(t, want.String(), got.String())
		})
	}
}

// TestPrintf_Association checks that every template a script reaches has
// the printf: associated (New, Lookup, Parse's define), cloned, and that
// a printf of the template's own Funcs replaces it.
func TestPrintf_Association(t *testing.T) {
	const typeVerb = `{{printf "%T" .}}`
	root := template.Must(template.New("root").Parse(`{{define "d"}}` + typeVerb + `{{end}}`))
	child := template.Must(root.New("child").Parse(typeVerb))
	clone, err := root.Clone()
	require.NoError(t, err)
	cloneChild := template.Must(clone.New("cc").Parse(typeVerb))
	for name, run := range map[string]func(*strings.Builder) error{
		"defined":        func(b *strings.Builder) error { return root.ExecuteTemplate(b, "d", 1) },
		"lookup":         func(b *strings.Builder) error { return root.Lookup("d").Execute(b, 1) },
		"new":            func(b *strings.Builder) error { return child.Execute(b, 1) },
		"clone":          func(b *strings.Builder) error { return clone.ExecuteTemplate(b, "d", 1) },
		"clone's new":    func(b *strings.Builder) error { return cloneChild.Execute(b, 1) },
		"clone's lookup": func(b *strings.Builder) error { return clone.Lookup("d").Execute(b, 1) },
	} {
		var b strings.Builder
		err := run(&b)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "printf's %T", name)
	}

	own := template.Must(template.New("own").Funcs(template.FuncMap{"printf": func(f string, a ...any) string {
		return "own:" + fmt.Sprintf(f, a...)
	}}).Parse(typeVerb))
	var b strings.Builder
	require.NoError(t, own.Execute(&b, 1))
	assert.Equal(t, "own:int", b.String())

	// Funcs on one template of an association changes them all, as
	// text/template's common function map does.
	root.Lookup("child").Funcs(template.FuncMap{"printf": fmt.Sprint})
	b.Reset()
	require.NoError(t, root.ExecuteTemplate(&b, "d", 1))
	assert.Equal(t, "%T1", b.String())
}

// zzqStruct, zzqInt and zzqHidden are named types whose names printf's
// output must never hold: they stand for script types whose
// representations would print other names.
type (
	zzqStruct struct {
		A int
		S string
	}
	zzqInt    int
	zzqHidden struct {
		Xzzq int `json:"-"`
	}
)

// TestPrintf_NeverNamesTypes formats generated formats with arguments of
// named types: where printf does not fail, its output names none of them
// (and no renamed field), as fmt itself would print them.
func TestPrintf_NeverNamesTypes(t *testing.T) {
	pieces := []string{"%", "%", "%", "#", "+", "-", " ", "0", "[1]", "[2]", "[3]", "[x]", "*", ".", "5", "12", "v", "v", "d", "s", "q", "x", "T", "p", "t", "w", "c", "g", "|"}
	args := [][]any{
		{zzqStruct{1, "a"}, zzqInt(2), 3},
		{[]zzqInt{1}, map[string]any{"k": zzqStruct{}}, "s"},
		{&zzqStruct{}, zzqHidden{1}, 1.5},
		{zzqInt(1)},
		{},
	}
	seed := uint64(1)
	next := func(n int) int { // a fixed sequence: xorshift
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return int(seed % uint64(n))
	}
	failed, printed := 0, 0
	for range 20000 {
		var b strings.Builder
		for range 1 + next(8) {
			b.WriteString(pieces[next(len(pieces))])
		}
		format := b.String()
		a := args[next(len(args))]
		out, err := template.Printf(format, a...)
		if err != nil {
			failed++
			continue
		}
		printed++
		require.NotContains(t, out, "zzq", "format %q args %#v", format, a)
		require.Equal(t, fmt.Sprintf(format, a...), out)
	}
	assert.Greater(t, failed, 1000)
	assert.Greater(t, printed, 1000)
}
