package template

import (
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The printf of scripts' templates. A template reaches a script's values
// as the interpreter's representations of them: a value of a script type
// Row is a value of an unnamed struct type, one of type Celsius (a
// float64) a float64, and an unexported field name is exported as X and
// the name. fmt names a value's type in %T, in %#v (of a struct, slice,
// map, pointer, ...), for a verb that does not print a value's kind
// (%!d(main.Name=a)) and after the verbs of a format that leaves
// arguments over (%!(EXTRA main.Row={a})), and %+v names fields, so
// text/template's printf printed "struct { Name string }" where Go prints
// "main.Row". Every template a script makes has this printf instead of
// the builtin: it is fmt.Sprintf, except that it fails the template's
// execution, with an error saying why, for a format with a %T verb (any
// flags, width or argument index), with a %#v verb whose argument is not
// a boolean, a number, a string or nil (those print the same whatever
// their type), with a verb fmt cannot print a value it reaches with, or
// with %+v of a value that reaches a renamed field, and for one that
// leaves arguments over. A printf of the script's own (Funcs) replaces
// it: it runs in the interpreter, whose fmt names the script's types.

// UnsupportedError is the error of a printf in a template that fmt
// would print with a type's or a renamed field's name. Execute's wrapper
// for scripts (package policy) makes it a run-time panic of the script,
// so that a script that ignores Execute's error does not get the output
// cut short without a word.
type UnsupportedError struct{ msg string }

// Error returns the message, which names the verb and the format.
func (e *UnsupportedError) Error() string { return e.msg }

func unsupported(format string, args ...any) error {
	return &UnsupportedError{msg: fmt.Sprintf(format, args...)}
}

// funcs are the functions every template a script makes starts with.
var funcs = FuncMap{"printf": printf}

// printf is fmt.Sprintf for a template, failing where fmt would print a
// type's name: see the comment above.
func printf(format string, args ...any) (string, error) {
	if err := checkFormat(format, args); err != nil {
		return "", err
	}
	return fmt.Sprintf(format, args...), nil
}

// checkFormat walks format as fmt's Sprintf does with args, and returns
// an error for a verb, or arguments left over, that fmt would print with
// an argument's type name or a renamed field's name.
func checkFormat(format string, args []any) error {
	end := len(format)
	argNum := 0
	reordered := false
	for i := 0; i < end; {
		if format[i] != '%' {
			i++
			continue
		}
		start := i
		i++
		sharp, plus, good := false, false, true
	flags:
		for ; i < end; i++ {
			switch format[i] {
			case '#':
				sharp = true
			case '+':
				plus = true
			case '0', '-', ' ':
			default:
				break flags
			}
		}
		// An argument index, a width, a precision and an index again, as
		// fmt's doPrintf reads them.
		index := func() bool {
			if i >= end || format[i] != '[' {
				return false
			}
			reordered = true
			n, wid, ok := parseArgNumber(format[i:])
			i += wid
			if ok && 0 <= n && n < len(args) {
				argNum = n
				return true
			}
			good = false
			return ok
		}
		afterIndex := index()
		if i < end && format[i] == '*' {
			i++
			if argNum < len(args) {
				argNum++
			}
			afterIndex = false
		} else {
			var present bool
			_, present, i = parsenum(format, i, end)
			if afterIndex && present {
				good = false
			}
		}
		if i+1 < end && format[i] == '.' {
			i++
			if afterIndex {
				good = false
			}
			afterIndex = index()
			if i < end && format[i] == '*' {
				i++
				if argNum < len(args) {
					argNum++
				}
				afterIndex = false
			} else {
				_, _, i = parsenum(format, i, end)
			}
		}
		if !afterIndex {
			index()
		}
		if i >= end {
			break
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size
		switch {
		case verb == 'T':
			return unsupported("printf's %%T in a template is not supported (%s in format %q): the template sees script values as the interpreter's representations, without their types' names", format[start:i], format)
		case verb == '%' || !good || argNum >= len(args):
			continue
		case verb == 'v' && sharp:
			if k := kindOf(args[argNum]); k != "" {
				return unsupported("printf's %%#v in a template is not supported of a %s (%s in format %q): the template sees script values as the interpreter's representations, without their types' names; %%#v prints a boolean, a number or a string", k, format[start:i], format)
			}
		case verb == 'v' && plus:
			if w := (printWalk{verb: verb, plus: true}); !w.arg(args[argNum]) {
				return unsupported("printf's %%+v in a template is not supported of a value with a script struct's unexported field (%s in format %q): the template sees the field renamed (%s)", format[start:i], format, w.bad)
			}
		case verb != 'v':
			if w := (printWalk{verb: verb}); !w.arg(args[argNum]) {
				return unsupported("printf's %s in a template is not supported of a value of type %s (in format %q): fmt prints the value with its type's name (%%!%c(%s=...)), and the template sees script values as the interpreter's representations", format[start:i], w.bad, format, verb, w.bad)
			}
		}
		argNum++
	}
	if !reordered && argNum < len(args) {
		for _, a := range args[argNum:] {
			if a != nil {
				return unsupported("printf in a template with arguments its format %q does not use is not supported: fmt names their types (%%!(EXTRA ...)), and the template sees script values as the interpreter's representations", format)
			}
		}
	}
	return nil
}

// printWalk walks a value as fmt prints it with one verb, and finds what
// fmt would print with a type's name: a value of a kind the verb does not
// print (%!d(string=a)), or, for %+v, a struct field that holds a script
// struct's unexported field (the interpreter's representation exports it
// as X and its name, with a json:"-" tag).
type printWalk struct {
	verb rune
	plus bool
	bad  string // the value's type, or the field, found
}

// maxPrintDepth bounds the walk: a value nested deeper fails the call.
const maxPrintDepth = 10000

// arg walks an argument of printf as fmt's printArg prints it, and
// reports whether fmt prints it without the names the walk looks for.
func (w *printWalk) arg(a any) bool {
	if a == nil {
		return true // %!d(<nil>)
	}
	if w.verb == 'p' {
		switch reflect.ValueOf(a).Kind() {
		case reflect.Chan, reflect.Func, reflect.Map, reflect.Pointer, reflect.Slice, reflect.UnsafePointer:
			return true
		}
		w.bad = reflect.TypeOf(a).String()
		return false
	}
	return w.value(reflect.ValueOf(a), 0)
}

// methods reports whether fmt prints a with one of its methods, as fmt's
// handleMethods does, or fails it (%w, which Sprintf does not wrap).
func (w *printWalk) methods(a any) (handled, ok bool) {
	if w.verb == 'w' {
		w.bad = reflect.TypeOf(a).String()
		return true, false
	}
	if _, is := a.(fmt.Formatter); is {
		return true, true
	}
	switch w.verb {
	case 'v', 's', 'x', 'X', 'q':
		switch a.(type) {
		case error, fmt.Stringer:
			return true, true
		}
	}
	return false, true
}

// value walks v as fmt's printValue prints it at depth.
func (w *printWalk) value(v reflect.Value, depth int) bool {
	if depth > maxPrintDepth {
		w.bad = v.Type().String() + " nested deeper than the template's printf walks"
		return false
	}
	if v.IsValid() && v.CanInterface() {
		if handled, ok := w.methods(v.Interface()); handled {
			return ok
		}
	}
	accepts := func(verbs string) bool {
		if strings.ContainsRune(verbs, w.verb) {
			return true
		}
		w.bad = v.Type().String()
		return false
	}
	switch v.Kind() {
	case reflect.Invalid:
		return true
	case reflect.Bool:
		return accepts("tv")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return accepts("vdboOxXcqU")
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return accepts("vbgGxXfFeE")
	case reflect.String:
		return accepts("vsxXq")
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if !w.value(iter.Key(), depth+1) || !w.value(iter.Value(), depth+1) {
				return false
			}
		}
		return true
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if f := t.Field(i); w.plus && renamed(f) {
				w.bad = f.Name + " for " + f.Name[1:]
				return false
			}
			if !w.value(v.Field(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Interface:
		return w.value(v.Elem(), depth+1)
	case reflect.Array, reflect.Slice:
		if strings.ContainsRune("sqxX", w.verb) && v.Type().Elem().Kind() == reflect.Uint8 {
			return true
		}
		for i := range v.Len() {
			if !w.value(v.Index(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		if depth == 0 && !v.IsNil() {
			switch v.Elem().Kind() {
			case reflect.Array, reflect.Slice, reflect.Struct, reflect.Map:
				return w.value(v.Elem(), depth+1)
			}
		}
	}
	return accepts("vpbodxX") // fmt's fmtPointer: chans, funcs, pointers
}

// renamed reports whether f is the interpreter's representation of a
// script struct's unexported field: X and the field's name, tagged
// json:"-".
func renamed(f reflect.StructField) bool {
	if len(f.Name) < 2 || f.Name[0] != 'X' || f.Tag.Get("json") != "-" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(f.Name[1:])
	return !unicode.IsUpper(r)
}

// kindOf returns "" for a value that %#v prints the same whatever its
// type's name (nil, or a boolean, number or string whose type has no
// GoString or Format method), and the value's kind otherwise.
func kindOf(a any) string {
	if a == nil {
		return ""
	}
	v := reflect.ValueOf(a)
	switch v.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		switch a.(type) {
		case fmt.GoStringer, fmt.Formatter:
			return "value of type " + v.Type().String() + ", whose method prints it"
		}
		return ""
	}
	return v.Kind().String()
}

// parsenum is fmt's: the number in s[start:end] at start, whether there
// is one, and the index after it.
func parsenum(s string, start, end int) (num int, isnum bool, newi int) {
	if start >= end {
		return 0, false, end
	}
	for newi = start; newi < end && '0' <= s[newi] && s[newi] <= '9'; newi++ {
		if num > 1e6 || num < -1e6 {
			return 0, false, end
		}
		num = num*10 + int(s[newi]-'0')
		isnum = true
	}
	return
}

// parseArgNumber is fmt's: the argument index of the bracketed number at
// the start of format (zero-based), the bytes it takes, and whether it is
// one.
func parseArgNumber(format string) (index int, wid int, ok bool) {
	if len(format) < 3 {
		return 0, 1, false
	}
	for i := 1; i < len(format); i++ {
		if format[i] == ']' {
			width, ok, newi := parsenum(format, 1, i)
			if !ok || newi != i {
				return 0, i + 1, false
			}
			return width - 1, i + 1, true
		}
	}
	return 0, 1, false
}
