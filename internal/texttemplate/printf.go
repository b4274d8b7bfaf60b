package template

import (
	"fmt"
	"reflect"
	"unicode/utf8"
)

// The printf of scripts' templates. A template reaches a script's values
// as the interpreter's representations of them: a value of a script type
// Row is a value of an unnamed struct type, one of type Celsius (a
// float64) a float64. fmt names a value's type in %T, in %#v (of a
// struct, slice, map, pointer, ...) and after the verbs of a format that
// leaves arguments over (%!(EXTRA T=v)), so text/template's printf
// printed "struct { Name string }" where Go prints "main.Row". Every
// template a script makes has this printf instead of the builtin: it is
// fmt.Sprintf, except that a format with a %T verb (any flags, width or
// argument index), with a %#v verb whose argument is not a boolean, a
// number, a string or nil (those print the same whatever their type), or
// that leaves arguments over, fails the template's execution with an
// error saying so. A printf of the script's own (Funcs) replaces it: it
// runs in the interpreter, whose fmt names the script's types.

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
// an argument's type name.
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
		sharp, good := false, true
	flags:
		for ; i < end; i++ {
			switch format[i] {
			case '#':
				sharp = true
			case '0', '+', '-', ' ':
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
			return fmt.Errorf("printf's %%T in a template is not supported (%s in format %q): the template sees script values as the interpreter's representations, without their types' names", format[start:i], format)
		case verb == '%' || !good || argNum >= len(args):
			continue
		case verb == 'v' && sharp:
			if k := kindOf(args[argNum]); k != "" {
				return fmt.Errorf("printf's %%#v in a template is not supported of a %s (%s in format %q): the template sees script values as the interpreter's representations, without their types' names; %%#v prints a boolean, a number or a string", k, format[start:i], format)
			}
		}
		argNum++
	}
	if !reordered && argNum < len(args) {
		for _, a := range args[argNum:] {
			if a != nil {
				return fmt.Errorf("printf in a template with arguments its format %q does not use is not supported: fmt names their types (%%!(EXTRA ...)), and the template sees script values as the interpreter's representations", format)
			}
		}
	}
	return nil
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
