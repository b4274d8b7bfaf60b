package interp

import (
	"io"
	"strings"
	"testing"
)

// methodDecls are the script types the method tests use.
const methodDecls = `type E struct{ Code int }
func (e E) Error() string { return fmt.Sprint("E", e.Code) }
type PE struct{ Msg string }
func (e *PE) Error() string { return "PE:" + e.Msg }
type S struct{ N int }
func (s S) String() string { return fmt.Sprint("S", s.N) }
type Named interface{ Name() string }
type Animal struct{ name string }
func (a Animal) Name() string { return a.name }
type Dog struct {
	Animal
	Breed string
}
type Cat struct{ *Animal }
type Level int
func (l Level) String() string { return [...]string{"low", "high"}[l] }
type Ptr struct{ n int }
func (p *Ptr) Name() string { return "ptr" }
func mk() any { return E{5} }
func classify(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case error:
		return "error " + x.Error()
	case fmt.Stringer:
		return "stringer " + x.String()
	case Named:
		return "named " + x.Name()
	case interface{ Len() int }:
		return fmt.Sprint("len ", x.Len())
	default:
		return fmt.Sprintf("other %T", x)
	}
}
func kind(v any) string {
	switch v.(type) {
	case error, fmt.Stringer:
		return "printable"
	case int:
		return "int"
	}
	return "?"
}`

// TestInterfaceCases checks patch 38: type switch cases and type
// assertions of interface types test the dynamic value's method set, for
// values in an any, a []any, a map, a function's result, any(T{}) and
// any(&T{}); promoted methods count, pointer-receiver ones only for a
// pointer (each want is go run's output).
func TestInterfaceCases(t *testing.T) {
	tests := []struct{ body, want string }{
		{`var v any = E{3}; fmt.Println(classify(v), classify(E{4}), classify(&PE{"x"}))`, "error E3 error E4 error PE:x"},
		{`fmt.Println(classify(S{1}), classify(Level(1)), classify(mk()), classify(nil), classify(3))`, "stringer S1 stringer high error E5 nil other int"},
		{`fmt.Println(classify(Dog{Animal{"rex"}, "lab"}), classify(Cat{&Animal{"tom"}}))`, "named rex named tom"},
		{`fmt.Println(classify(Ptr{}), classify(&Ptr{}), classify(PE{}))`, "other main.Ptr named ptr other main.PE"},
		{`fmt.Println(classify(errors.New("native")), classify(strings.NewReader("abc")))`, "error native len 3"},
		{`xs := []any{E{1}, S{2}, &PE{"p"}, 3}; for _, x := range xs { fmt.Print(classify(x), kind(x), "; ") }`, "error E1printable; stringer S2printable; error PE:pprintable; other intint; "},
		{`m := map[string]any{"a": E{9}}; fmt.Println(classify(m["a"]))`, "error E9"},
		{`_, a := any(E{}).(error); _, b := any(&E{}).(error); _, c := any(Dog{}).(Named); _, d := any(PE{}).(error); fmt.Println(a, b, c, d)`, "true true true false"},
		{`var v any = E{3}; s, ok := v.(fmt.Stringer); fmt.Println(s == nil, ok)`, "true false"},
		{`var v any = Dog{Animal{"rex"}, ""}; n := v.(Named); fmt.Println(n.Name())`, "rex"},
		{`var v any = E{3}; err := v.(error); fmt.Println(err.Error(), err)`, "E3 E3"},
		{`var n Named = Dog{Animal{"a"}, ""}; var v any = n; _, ok := v.(fmt.Stringer); fmt.Println(classify(v), ok)`, "named a false"},
	}
	decls := methodDecls
	for _, tt := range tests {
		src := "package main\nimport (\"errors\"; \"fmt\"; \"strings\")\nvar _ = errors.New\nvar _ = strings.NewReader\n" + decls + "\nfunc main() {\n" + tt.body + "\n}"
		if got := runOutput(t, src); got != tt.want+"\n" && got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.body, got, tt.want)
		}
	}
}

// TestInterfaceAssertionPanics checks patch 38: a failed assertion to an
// interface type panics with Go's message naming the missing method.
func TestInterfaceAssertionPanics(t *testing.T) {
	p := runPanic(t, goMain(methodDecls, `var v any = E{3}; _ = v.(fmt.Stringer)`))
	e, ok := p.Value.(*TypeAssertionError)
	if !ok {
		t.Fatalf("panic value %T %v", p.Value, p.Value)
	}
	if want := "interface conversion: main.E is not fmt.Stringer: missing method String"; e.Error() != want {
		t.Errorf("got %q, want %q", e.Error(), want)
	}
}

// TestScriptErrorWrappers checks patch 39: a script error converted to
// error keeps its Unwrap (one error or several), Is and As methods for
// the errors package, compares by its value, and a nil pointer of a
// script type in an error is not nil (each want is go run's output).
func TestScriptErrorWrappers(t *testing.T) {
	decls := `var ErrTemp = errors.New("temporary")
type Temp struct{ msg string }
func (e *Temp) Error() string { return "temp " + e.msg }
func (e *Temp) Is(target error) bool { return target == ErrTemp }
type Wrap struct {
	Op  string
	Err error
}
func (w *Wrap) Error() string { return w.Op + ": " + w.Err.Error() }
func (w *Wrap) Unwrap() error { return w.Err }
type Multi struct{ errs []error }
func (m Multi) Error() string   { return "multi" }
func (m Multi) Unwrap() []error { return m.errs }
type Code int
func (c Code) Error() string { return fmt.Sprint("code ", int(c)) }
func (c Code) As(target any) bool {
	if p, ok := target.(**Wrap); ok {
		*p = &Wrap{Op: fmt.Sprint("op", int(c)), Err: io.EOF}
		return true
	}
	return false
}
func nilTemp() error {
	var p *Temp
	return p
}`
	tests := []struct{ body, want string }{
		{`err := &Wrap{"get", &Temp{"busy"}}; fmt.Println(errors.Is(err, ErrTemp), errors.Is(fmt.Errorf("x: %w", err), ErrTemp), errors.Unwrap(err) == err.Err)`, "true true true"},
		{`m := Multi{[]error{io.EOF, &Temp{"t"}}}; fmt.Println(errors.Is(m, io.EOF), errors.Is(m, ErrTemp), errors.Is(m, io.ErrUnexpectedEOF))`, "true true false"},
		{`var w error; fmt.Println(errors.As(fmt.Errorf("w: %w", Code(7)), &w), w)`, "true w: code 7"},
		{`fmt.Println(nilTemp() == nil, nilTemp() != nil)`, "false true"},
		{`var e error = Code(3); var f error = Code(3); fmt.Println(e == f, e == Code(3), e == Code(4))`, "true true false"},
		{`j := errors.Join(io.EOF, Code(2)); fmt.Println(errors.Is(j, io.EOF), strings.ReplaceAll(j.Error(), "\n", "|"))`, "true EOF|code 2"},
		{`var e error = Code(3); fmt.Printf("%T %T %v\n", e, &Wrap{}, e)`, "main.Code *main.Wrap code 3"},
		{`var e error = Code(3); var v any = e; _, ok := v.(interface{ As(any) bool }); fmt.Println(ok)`, "true"},
	}
	for _, tt := range tests {
		src := "package main\nimport (\"errors\"; \"fmt\"; \"io\"; \"strings\")\nvar _ = strings.ToUpper\nvar _ = io.EOF\n" + decls + "\nfunc main() {\n" + tt.body + "\n}"
		if got := runOutput(t, src); got != tt.want+"\n" {
			t.Errorf("%s: got %q, want %q", tt.body, got, tt.want)
		}
	}
}

// TestGoSyntaxNamesScriptTypes checks patch 42: %#v prints the script's
// type names as Go does (main.P{X:1, Y:2}), nested, through pointers,
// slices, maps and interfaces (each want is go run's output).
func TestGoSyntaxNamesScriptTypes(t *testing.T) {
	decls := `type P struct{ X, Y int }
type Level int
func (l Level) String() string { return "L" }
type Q struct {
	Name string
	P    *P
	L    Level
	xs   []int
	A    any
	E    error
}
type E struct{ Code int }
func (e E) Error() string { return "boom" }`
	tests := []struct{ body, want string }{
		{`fmt.Printf("%#v %#v\n", P{1, 2}, &P{1, 2})`, "main.P{X:1, Y:2} &main.P{X:1, Y:2}"},
		{`fmt.Printf("%#v %#v\n", []P{{1, 2}}, map[string]P{"a": {1, 2}})`, `[]main.P{main.P{X:1, Y:2}} map[string]main.P{"a":main.P{X:1, Y:2}}`},
		{`fmt.Printf("%#v %d %v\n", Level(1), Level(1), Level(1))`, "1 1 L"},
		{`fmt.Printf("%#v\n", Q{Name: "n", L: 2})`, `main.Q{Name:"n", P:(*main.P)(nil), L:2, xs:[]int(nil), A:interface {}(nil), E:error(nil)}`},
		{`var e error = E{3}; var a any = E{4}; fmt.Printf("%T %#v %#v|%5d|\n", e, e, a, 7)`, "main.E main.E{Code:3} main.E{Code:4}|    7|"},
		{`fmt.Printf("%v %+v %s\n", P{1, 2}, P{1, 2}, "x")`, "{1 2} {X:1 Y:2} x"},
	}
	for _, tt := range tests {
		if got := runOutput(t, goMain(decls, tt.body)); got != tt.want+"\n" {
			t.Errorf("%s: got %q, want %q", tt.body, got, tt.want)
		}
	}
}

// TestJSONEmbeddedStruct checks patch 43: encoding/json flattens an
// embedded script struct or pointer, in Marshal and Unmarshal.
func TestJSONEmbeddedStruct(t *testing.T) {
	src := `package main
import ("encoding/json"; "fmt")
type Base struct {
	ID   int    ` + "`json:\"id\"`" + `
	Name string ` + "`json:\"name\"`" + `
}
type Extra struct{ Note string ` + "`json:\"note\"`" + ` }
type View struct {
	Base
	*Extra
	Price float64 ` + "`json:\"price,omitempty\"`" + `
}
func main() {
	b, err := json.Marshal(View{Base: Base{1, "x"}, Extra: &Extra{"n"}})
	fmt.Println(string(b), err)
	var v View
	err = json.Unmarshal([]byte(` + "`" + `{"id":7,"name":"y","note":"z"}` + "`" + `), &v)
	fmt.Println(v.ID, v.Name, v.Extra != nil && v.Note == "z", err)
}`
	want := "{\"id\":1,\"name\":\"x\",\"note\":\"n\"} <nil>\n7 y true <nil>\n"
	if got := runOutput(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestJSONScriptMethods checks patch 44: a script value in an interface
// marshals as its value (its own MarshalJSON or MarshalText called), and
// a call of encoding/json whose value has a JSON method of a script type
// the interpreter cannot call is a compile error naming it (since patch
// 122 the marshalling functions call those below the value too).
func TestJSONScriptMethods(t *testing.T) {
	decls := `type Tag struct{ Label string }
func (t Tag) String() string { return "#" + t.Label }
type Celsius float64
func (c Celsius) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf("%q", fmt.Sprint(float64(c), "C"))), nil }
type Level int
func (l Level) MarshalText() ([]byte, error) { return []byte([]string{"low", "high"}[l]), nil }
type Upper string
func (u *Upper) UnmarshalJSON(b []byte) error { *u = Upper(b); return nil }
type Reading struct{ Temp Celsius }
type Opt struct {
	Z Zero ` + "`json:\",omitzero\"`" + `
}
type Zero struct{ A int }
func (z Zero) IsZero() bool { return z.A < 0 }`
	src := func(body string) string {
		return "package main\nimport (\"encoding/json\"; \"fmt\")\nvar _ = json.Valid\n" + decls + "\nfunc main() {\n" + body + "\n}"
	}
	got := runOutput(t, src(`b, err := json.Marshal(map[string]any{"t": Tag{"a"}, "l": []any{Tag{"b"}, Celsius(2), Level(1)}}); fmt.Println(string(b), err)`))
	if want := `{"l":[{"Label":"b"},"2C","high"],"t":{"Label":"a"}}` + " <nil>\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// Patch 122: the methods below the value are called too.
	got = runOutput(t, src(`a, _ := json.Marshal(Reading{1}); b, _ := json.Marshal([]Level{1}); c, _ := json.MarshalIndent(Celsius(1), "", " ")
fmt.Println(string(a), string(b), string(c))`))
	if want := `{"Temp":"1C"} ["high"] "1C"` + "\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, tt := range []struct{ body, want string }{
		{`var u Upper; json.Unmarshal([]byte("1"), &u)`, "json.Unmarshal: the interpreter does not call the UnmarshalJSON method of main.Upper"},
		{`json.Marshal(Opt{})`, "the IsZero method of main.Zero (field Z, omitzero)"},
	} {
		it := New(Options{Stdout: io.Discard, Stderr: io.Discard})
		if err := it.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		_, err := it.Eval(src(tt.body))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error with %q", tt.body, err, tt.want)
		}
	}
}
