package interp // toolscript patch 155

// toolscript patch 155: Print, Sprint, Fprint and Append (and log's Print,
// Fatal and Panic) put a space between two operands when neither is a
// string, a value of a kind String as Go's fmt sees it: a value of a
// script type of kind string with a method fmt calls (type Name string
// with String) is one, but its conversion for printing (fmtPrinted) is
// not, and fmt put a space next to it (N:a 3 where Go prints N:a3). Such
// a call prints its operands as one value, fmtOperands, that puts the
// spaces where Go does, by the kinds of the script's values, the others
// made empty strings (next to which fmt puts no space).

import (
	"fmt"
	"reflect"
)

// fmtOperands is the operands of a Print call, converted for printing,
// each printed as fmt prints an operand, with a space before each one
// where Go's fmt puts one.
type fmtOperands struct {
	vals  []interface{}
	space []bool
}

// Format implements fmt.Formatter; Print calls it with %v.
func (o fmtOperands) Format(s fmt.State, _ rune) {
	for i, v := range o.vals {
		if o.space[i] {
			_, _ = s.Write([]byte{' '})
		}
		fmt.Fprint(s, v)
	}
}

// spacedPrint tells whether the print function of the call n puts spaces
// between its operands as Print does (not Println, not Printf).
func spacedPrint(n *node) bool {
	switch n.child[0].child[1].ident {
	case "Print", "Sprint", "Fprint", "Append", "Fatal", "Panic":
		return true
	case "HTMLEscaper", "JSEscaper", "URLQueryEscaper": // toolscript patch 198: text/template's, which call fmt.Sprint
		return true
	}
	return false
}

// fmtStringKind tells whether v, a script value or an interface holding
// one, is a string for fmt: its dynamic type's kind is String.
func fmtStringKind(v reflect.Value) bool {
	_, held, ok := heldScriptValue(v)
	return ok && held.IsValid() && held.Kind() == reflect.String
}

// fmtPrintSpaces makes the operands of the call n of a function that
// spacedPrint, the values from start (child the arguments), print with
// the spaces Go puts between them, when a value of a kind String may be
// converted for printing to another kind.
func (interp *Interpreter) fmtPrintSpaces(n *node, values []func(*frame) reflect.Value, child []*node, start int, getMapType func(*itype) reflect.Type) {
	if n.action == aCallSlice {
		t := child[len(child)-1].typ
		if start != len(child)-1 || interp.fmtSpreadConv(t, interp.fmtConv(t, false)) == nil {
			return
		}
		prior, raw := values[start], genValue(child[start])
		values[start] = func(f *frame) reflect.Value {
			pv, rv := prior(f), raw(f)
			if pv.Kind() != reflect.Slice || rv.Kind() != reflect.Slice || pv.Len() != rv.Len() || pv.Len() < 2 {
				return pv
			}
			o := fmtOperands{vals: make([]interface{}, pv.Len()), space: make([]bool, pv.Len())}
			for i := range o.vals {
				o.vals[i] = ifaceOf(pv.Index(i))
				o.space[i] = i > 0 && !fmtStringKind(rv.Index(i-1)) && !fmtStringKind(rv.Index(i))
			}
			s := reflect.MakeSlice(pv.Type(), 1, 1)
			s.Index(0).Set(reflect.ValueOf(o))
			return s
		}
		return
	}
	if len(child)-start < 2 {
		return
	}
	may := false
	for _, c := range child[start:] {
		t := c.typ
		if t == nil || interp.fmtConv(t, true) == nil {
			continue
		}
		if isInterface(t) {
			may = true
			break
		}
		if rt := t.TypeOf(); rt != nil && rt.Kind() == reflect.String {
			may = true
			break
		}
	}
	if !may {
		return
	}
	priors := append([]func(*frame) reflect.Value(nil), values[start:]...)
	raws := make([]func(*frame) reflect.Value, len(priors))
	for i, c := range child[start:] {
		raws[i] = genValue(c)
	}
	empty := reflect.ValueOf("")
	values[start] = func(f *frame) reflect.Value {
		o := fmtOperands{vals: make([]interface{}, len(priors)), space: make([]bool, len(priors))}
		prevStr := false
		for i, prior := range priors {
			o.vals[i] = ifaceOf(argNow(getBinValue(getMapType, prior, f)))
			str := fmtStringKind(raws[i](f))
			o.space[i] = i > 0 && !prevStr && !str
			prevStr = str
		}
		return reflect.ValueOf(o)
	}
	for i := start + 1; i < len(values); i++ {
		values[i] = func(*frame) reflect.Value { return empty }
	}
}
