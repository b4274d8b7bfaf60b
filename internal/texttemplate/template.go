// Package template is the text/template that scripts import: the standard
// package behind a Template type of toolscript's own, which offers every
// method of text/template's Template except those that read files
// (ParseFiles, ParseGlob, ParseFS) and those of text/template/parse's
// types, which scripts cannot import (AddParseTree, and Copy and
// ErrorContext of the embedded *parse.Tree). The standard Template stays
// in an unexported field, so neither a script nor a template executing
// with any data (text/template calls exported methods by reflection) can
// reach the methods left out. Everything else is the standard package's
// own code, but for the printf function of templates (printf.go).
package template

import (
	"io"
	"sync"
	"text/template"
)

// FuncMap is text/template's FuncMap.
type FuncMap = template.FuncMap

// ExecError is text/template's ExecError.
type ExecError = template.ExecError

// Template is a text/template Template without the methods that read files.
// Its methods are those of text/template, with the same behaviour; each
// standard template has one Template, so Lookup and Templates return the
// same pointers each time, as text/template's do.
type Template struct {
	t   *template.Template
	set *family
}

// family maps the standard templates of one association (templates made by
// New from one another share it) to their wrappers.
type family struct {
	mu sync.Mutex
	of map[*template.Template]*Template
}

func (f *family) wrap(t *template.Template) *Template {
	if t == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if w, ok := f.of[t]; ok {
		return w
	}
	w := &Template{t: t, set: f}
	f.of[t] = w
	return w
}

// wrapNew wraps t in a family of its own.
func wrapNew(t *template.Template) *Template {
	return (&family{of: map[*template.Template]*Template{}}).wrap(t)
}

// New allocates a new, undefined template with the given name. Its
// printf, and that of the templates associated with it, is fmt.Sprintf
// failing where fmt would print a type's name (printf.go).
func New(name string) *Template { return wrapNew(template.New(name).Funcs(funcs)) }

// Must panics if err is non-nil and returns t otherwise, as
// text/template.Must does.
func Must(t *Template, err error) *Template {
	if err != nil {
		panic(err)
	}
	return t
}

// HTMLEscape is text/template.HTMLEscape.
func HTMLEscape(w io.Writer, b []byte) { template.HTMLEscape(w, b) }

// HTMLEscapeString is text/template.HTMLEscapeString.
func HTMLEscapeString(s string) string { return template.HTMLEscapeString(s) }

// HTMLEscaper is text/template.HTMLEscaper.
func HTMLEscaper(args ...any) string { return template.HTMLEscaper(args...) }

// IsTrue is text/template.IsTrue.
func IsTrue(val any) (truth, ok bool) { return template.IsTrue(val) }

// JSEscape is text/template.JSEscape.
func JSEscape(w io.Writer, b []byte) { template.JSEscape(w, b) }

// JSEscapeString is text/template.JSEscapeString.
func JSEscapeString(s string) string { return template.JSEscapeString(s) }

// JSEscaper is text/template.JSEscaper.
func JSEscaper(args ...any) string { return template.JSEscaper(args...) }

// URLQueryEscaper is text/template.URLQueryEscaper.
func URLQueryEscaper(args ...any) string { return template.URLQueryEscaper(args...) }

// result wraps a standard method's (template, error) result.
func (t *Template) result(nt *template.Template, err error) (*Template, error) {
	if err != nil {
		return nil, err
	}
	return t.set.wrap(nt), nil
}

// Name returns the name of the template.
func (t *Template) Name() string { return t.t.Name() }

// New allocates a new, undefined template associated with t, as
// text/template's Template.New does.
func (t *Template) New(name string) *Template { return t.set.wrap(t.t.New(name)) }

// Parse parses text as a template body for t.
func (t *Template) Parse(text string) (*Template, error) { return t.result(t.t.Parse(text)) }

// Execute applies the template to data and writes the output to wr.
func (t *Template) Execute(wr io.Writer, data any) error { return t.t.Execute(wr, data) }

// ExecuteTemplate applies the template associated with t that has the given
// name to data and writes the output to wr.
func (t *Template) ExecuteTemplate(wr io.Writer, name string, data any) error {
	return t.t.ExecuteTemplate(wr, name, data)
}

// Funcs adds the elements of funcMap to the template's function map.
func (t *Template) Funcs(funcMap FuncMap) *Template {
	t.t.Funcs(funcMap)
	return t
}

// Delims sets the action delimiters for subsequent calls to Parse.
func (t *Template) Delims(left, right string) *Template {
	t.t.Delims(left, right)
	return t
}

// Option sets options for the template, as text/template's Option does.
func (t *Template) Option(opt ...string) *Template {
	t.t.Option(opt...)
	return t
}

// Lookup returns the template with the given name associated with t, or
// nil if there is none.
func (t *Template) Lookup(name string) *Template { return t.set.wrap(t.t.Lookup(name)) }

// Templates returns the defined templates associated with t.
func (t *Template) Templates() []*Template {
	std := t.t.Templates()
	out := make([]*Template, len(std))
	for i, s := range std {
		out[i] = t.set.wrap(s)
	}
	return out
}

// DefinedTemplates returns a string listing the defined templates, as
// text/template's DefinedTemplates does.
func (t *Template) DefinedTemplates() string { return t.t.DefinedTemplates() }

// Clone returns a duplicate of the template and of all its associated
// templates, in a family of its own.
func (t *Template) Clone() (*Template, error) {
	c, err := t.t.Clone()
	if err != nil {
		return nil, err
	}
	f := &family{of: map[*template.Template]*Template{}}
	for _, s := range c.Templates() {
		f.wrap(s)
	}
	return f.wrap(c), nil
}
