package template_test

import (
	"reflect"
	"strings"
	"testing"
	stdtemplate "text/template"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	template "github.com/toolscript/toolscript/internal/texttemplate"
)

// TestTemplate_NoFileMethods checks that no method that reads files is
// reachable, by a script or by a template executing with the Template as
// data, and that every other method of text/template's Template is there.
func TestTemplate_NoFileMethods(t *testing.T) {
	ours := reflect.TypeFor[*template.Template]()
	std := reflect.TypeFor[*stdtemplate.Template]()
	left := map[string]string{
		"ParseFiles": "reads files", "ParseGlob": "reads files", "ParseFS": "reads files",
		"AddParseTree": "needs text/template/parse, which scripts cannot import",
		// Promoted from the embedded *parse.Tree, whose package scripts
		// cannot import either.
		"Copy": "parse.Tree's", "ErrorContext": "parse.Tree's",
	}
	for i := range std.NumMethod() {
		name := std.Method(i).Name
		_, has := ours.MethodByName(name)
		if _, out := left[name]; out {
			assert.False(t, has, "%s must not be reachable", name)
			continue
		}
		assert.True(t, has, "text/template's %s is missing", name)
	}
	for i := range ours.Elem().NumField() {
		assert.False(t, ours.Elem().Field(i).IsExported(), "an exported field would hand out the standard template")
	}
	tm := template.Must(template.New("t").Parse(`{{.ParseFiles "/etc/hostname"}}`))
	var b strings.Builder
	err := tm.Execute(&b, tm)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ParseFiles")
	assert.Empty(t, b.String())
}

// TestTemplate_SameAsStandard runs the same templates through both
// packages and compares outputs and errors.
func TestTemplate_SameAsStandard(t *testing.T) {
	tests := []struct{ name, text string }{
		{"fields and range", `{{range .Items}}{{.}},{{end}} {{len .Items}}`},
		{"define and template", `{{define "x"}}<{{.}}>{{end}}{{template "x" .Name}}`},
		{"funcs", `{{upper .Name}} {{printf "%05d" 42}}`},
		{"parse error", `{{if}}`},
		{"exec error", `{{.Missing.Field}}`},
		{"missingkey", `{{.m.nokey}}`},
	}
	data := map[string]any{"Items": []int{1, 2, 3}, "Name": "ada", "m": map[string]int{}}
	funcs := template.FuncMap{"upper": strings.ToUpper}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want, got strings.Builder
			st, serr := stdtemplate.New("t").Funcs(funcs).Option("missingkey=error").Parse(tt.text)
			ot, oerr := template.New("t").Funcs(funcs).Option("missingkey=error").Parse(tt.text)
			require.Equal(t, serr == nil, oerr == nil)
			if serr != nil {
				assert.Equal(t, serr.Error(), oerr.Error())
				return
			}
			serr = st.Execute(&want, data)
			oerr = ot.Execute(&got, data)
			assert.Equal(t, want.String(), got.String())
			require.Equal(t, serr == nil, oerr == nil)
			if serr != nil {
				assert.Equal(t, serr.Error(), oerr.Error())
			}
		})
	}
}

// TestTemplate_Identity checks that wrappers are canonical, as the
// standard package's pointers are, and that Clone makes a new family.
func TestTemplate_Identity(t *testing.T) {
	root := template.Must(template.New("root").Parse(`{{define "a"}}A{{end}}{{define "b"}}B{{end}}`))
	assert.Same(t, root.Lookup("a"), root.Lookup("a"))
	assert.Same(t, root, root.Lookup("root"))
	assert.Nil(t, root.Lookup("none"))
	child := template.Must(root.New("c").Parse("C"))
	assert.Same(t, child, root.Lookup("c"))
	assert.Len(t, root.Templates(), 4)
	c, err := root.Clone()
	require.NoError(t, err)
	assert.NotSame(t, root, c)
	assert.NotSame(t, root.Lookup("a"), c.Lookup("a"))
	assert.Same(t, c.Lookup("a"), c.Lookup("a"))
	var b strings.Builder
	require.NoError(t, c.ExecuteTemplate(&b, "a", nil))
	assert.Equal(t, "A", b.String())
	assert.Contains(t, root.DefinedTemplates(), `"a"`)
	assert.Equal(t, "root", root.Name())
	d := template.Must(template.New("d").Delims("<<", ">>").Parse(`<<.>>`))
	b.Reset()
	require.NoError(t, d.Execute(&b, 7))
	assert.Equal(t, "7", b.String())
	assert.Panics(t, func() { template.Must(template.New("x").Parse("{{")) })
}
