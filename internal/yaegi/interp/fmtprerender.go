package interp // toolscript patch 153

// toolscript patch 153: a printf call whose format fmt would print with
// a reflect type's name where Go prints the script's (%p of a value of a
// script type that is no pointer, an extra argument's %!(EXTRA
// main.Level=4), a format with explicit argument indexes, where the
// conversions of the arguments cannot see their verbs) is printed by the
// interpreter: the format is parsed as fmt parses it (doPrintf), each
// directive is printed by fmt alone with its argument converted for its
// verb (fmtTypeVerbs' conversion, given the directive as its format),
// and the call prints that text (its format escaped, each argument
// printing nothing).

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// pfDirective is one directive of a printf format, as fmt reads it.
type pfDirective struct {
	lit       string // the text before it
	verb      rune   // 0: the format ended in the directive (%!(NOVERB))
	flags     string
	wid, prec int
	hasWid    bool
	hasPrec   bool
	arg       int    // the argument printed; -1 for %%
	fail      string // BADINDEX, MISSING
	pre       string // %!(BADWIDTH), %!(BADPREC), written before the verb's text
	starArgs  []int  // the arguments of * widths and precisions
}

// pfPlan is a parsed format: its directives, the text after the last
// one, the extra arguments (none for a format with explicit indexes).
type pfPlan struct {
	ds        []pfDirective
	tail      string
	extraFrom int // -1 when fmt reports no extra argument
	reordered bool
	nargs     int
}

// parsePrintf parses format as fmt's doPrintf does for nargs arguments,
// with star(i) the integer of argument i used as a width or precision
// (ok false when it is none).
func parsePrintf(format string, nargs int, star func(i int) (int, bool)) pfPlan {
	pl := pfPlan{nargs: nargs}
	end := len(format)
	argNum := 0
	afterIndex := false
	argNumber := func(i int, good *bool) (int, bool) {
		if end <= i || format[i] != '[' {
			return i, false
		}
		pl.reordered = true
		index, wid, ok := pfArgNumber(format[i:])
		if ok && 0 <= index && index < nargs {
			argNum = index
			return i + wid, true
		}
		*good = false
		return i + wid, ok
	}
	lasti := 0
	for i := 0; i < end; {
		good := true
		for i < end && format[i] != '%' {
			i++
		}
		if i >= end {
			break
		}
		d := pfDirective{lit: format[lasti:i], arg: -1}
		i++
		var flags []byte
		for ; i < end; i++ {
			c := format[i]
			if c != '#' && c != '0' && c != '+' && c != '-' && c != ' ' {
				break
			}
			flags = append(flags, c)
		}
		i, afterIndex = argNumber(i, &good)
		if i < end && format[i] == '*' {
			i++
			d.starArgs = append(d.starArgs, argNum)
			w, ok := 0, false
			if argNum < nargs {
				w, ok = star(argNum)
				argNum++
			}
			if !ok {
				d.pre += "%!(BADWIDTH)"
			} else {
				d.wid, d.hasWid = w, true
				if w < 0 {
					d.wid = -w
					flags = append(flags, '-')
					flags = []byte(strings.ReplaceAll(string(flags), "0", ""))
				}
			}
			afterIndex = false
		} else {
			d.wid, d.hasWid, i = pfNum(format, i, end)
			if afterIndex && d.hasWid {
				good = false
			}
		}
		if i+1 < end && format[i] == '.' {
			i++
			if afterIndex {
				good = false
			}
			i, afterIndex = argNumber(i, &good)
			if i < end && format[i] == '*' {
				i++
				d.starArgs = append(d.starArgs, argNum)
				p, ok := 0, false
				if argNum < nargs {
					p, ok = star(argNum)
					argNum++
				}
				if p < 0 {
					p, ok = 0, false
					d.hasPrec = false
				}
				if !ok {
					d.pre += "%!(BADPREC)"
				} else {
					d.prec, d.hasPrec = p, true
				}
				afterIndex = false
			} else {
				d.prec, d.hasPrec, i = pfNum(format, i, end)
				if !d.hasPrec {
					d.prec, d.hasPrec = 0, true
				}
			}
		}
		if !afterIndex {
			i, afterIndex = argNumber(i, &good)
		}
		d.flags = string(flags)
		if i >= end {
			pl.ds = append(pl.ds, d) // %!(NOVERB)
			lasti = end
			break
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size
		lasti = i
		d.verb = verb
		switch {
		case verb == '%':
		case !good:
			d.fail = "BADINDEX"
		case argNum >= nargs:
			d.fail = "MISSING"
		default:
			d.arg = argNum
			argNum++
		}
		pl.ds = append(pl.ds, d)
	}
	if lasti < end {
		pl.tail = format[lasti:]
	}
	pl.extraFrom = -1
	if !pl.reordered && argNum < nargs {
		pl.extraFrom = argNum
	}
	return pl
}

// pfArgNumber is fmt's parseArgNumber.
func pfArgNumber(format string) (index int, wid int, ok bool) {
	if len(format) < 3 {
		return 0, 1, false
	}
	for i := 1; i < len(format); i++ {
		if format[i] == ']' {
			width, ok, newi := pfNum(format, 1, i)
			if !ok || newi != i {
				return 0, i + 1, false
			}
			return width - 1, i + 1, true
		}
	}
	return 0, 1, false
}

// pfNum is fmt's parsenum.
func pfNum(s string, start, end int) (num int, isnum bool, newi int) {
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

// pfStar is fmt's intFromArg of v, a value given as an argument.
func pfStar(v reflect.Value) (int, bool) {
	for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if v.IsValid() && v.CanInterface() {
		if vi, ok := v.Interface().(valueInterface); ok {
			v = vi.value
		}
	}
	n, ok := 0, false
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if x := v.Int(); int64(int(x)) == x {
			n, ok = int(x), true
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if x := v.Uint(); int64(x) >= 0 && uint64(int(x)) == x {
			n, ok = int(x), true
		}
	}
	if n > 1e6 || n < -1e6 {
		return 0, false
	}
	return n, ok
}

// mini is the directive d alone, with its widths and precisions as
// numbers and no argument index.
func (d pfDirective) mini(verb rune) string {
	var b strings.Builder
	b.WriteByte('%')
	b.WriteString(d.flags)
	if d.hasWid {
		b.WriteString(strconv.Itoa(d.wid))
	}
	if d.hasPrec {
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(d.prec))
	}
	b.WriteRune(verb)
	return b.String()
}

// pfArg is an argument of a printf call for the interpreter's printing:
// at is its value for the format fs where it is argument arg (nil for an
// argument printed as it is, prior), raw its value, t its static type.
type pfArg struct {
	at    func(f *frame, fs string, arg int) reflect.Value
	prior func(*frame) reflect.Value
	raw   func(*frame) reflect.Value
	t     *itype
}

// pfCall is the interpreter's printing of a printf call (fmtTypeVerbs).
type pfCall struct {
	interp *Interpreter
	n      *node
	args   []*pfArg
	errorf bool

	mu     sync.Mutex
	last   string
	needs  bool
	cached bool
}

// needed tells whether the call, with the format s, is printed by the
// interpreter (which depends on the format alone, not on the values of
// the arguments of its * widths).
func (c *pfCall) needed(s string) bool {
	c.mu.Lock()
	if c.cached && c.last == s {
		needs := c.needs
		c.mu.Unlock()
		return needs
	}
	c.mu.Unlock()
	pl := parsePrintf(s, len(c.args), func(int) (int, bool) { return 0, true })
	needs, loud := pfNeeds(pl, c.errorf, func(i int) bool { return c.args[i].at != nil })
	if loud {
		panic(c.n.cfgErrorf("Errorf with %%w and %%p or an extra argument of a value of a script type or in an interface "+
			"is not supported (format %q)", s))
	}
	c.mu.Lock()
	c.last, c.needs, c.cached = s, needs, true
	c.mu.Unlock()
	return needs
}

// pfNeeds tells whether a call of a print function (Errorf: errorf) with
// the format pl is printed by the interpreter, named telling which
// arguments are of a script type or an interface; loud tells that it
// would be but cannot: an Errorf whose %w needs the error itself.
func pfNeeds(pl pfPlan, errorf bool, named func(i int) bool) (needs, loud bool) {
	wraps := false
	if errorf {
		for _, d := range pl.ds {
			wraps = wraps || d.verb == 'w'
		}
	}
	if pl.reordered {
		for _, d := range pl.ds {
			if d.verb == 'T' || d.verb == 'v' && strings.IndexByte(d.flags, '#') >= 0 {
				return false, false // patch 90's error
			}
		}
	}
	for _, d := range pl.ds {
		if d.arg >= 0 && named(d.arg) && (pl.reordered || d.verb == 'p' || d.verb == 'w' && !errorf) {
			needs = true
		}
	}
	if pl.extraFrom >= 0 {
		for i := pl.extraFrom; i < pl.nargs; i++ {
			needs = needs || named(i)
		}
	}
	if needs && wraps {
		for _, d := range pl.ds {
			if d.arg >= 0 && named(d.arg) && d.verb == 'p' {
				return false, true
			}
		}
		if pl.extraFrom >= 0 {
			return false, true
		}
		return false, false // explicit indexes: the arguments' conversions
	}
	return needs, false
}

// star is the integer of argument i as fmt reads a * width.
func (c *pfCall) star(f *frame, i int) (int, bool) {
	a := c.args[i]
	if a.at == nil {
		return pfStar(a.prior(f))
	}
	return pfStar(a.raw(f))
}

// value is argument i's value printed by the format fs, where it is the
// first argument.
func (c *pfCall) value(f *frame, i int, fs string) reflect.Value {
	a := c.args[i]
	if a.at == nil {
		return a.prior(f)
	}
	return a.at(f, fs, 0)
}

// render is the text of the call with the format plan pl.
func (c *pfCall) render(f *frame, pl pfPlan) string {
	var b strings.Builder
	for _, d := range pl.ds {
		b.WriteString(d.lit)
		b.WriteString(d.pre)
		switch {
		case d.verb == 0:
			b.WriteString("%!(NOVERB)")
		case d.verb == '%':
			b.WriteByte('%')
		case d.fail != "":
			b.WriteString("%!" + string(d.verb) + "(" + d.fail + ")")
		default:
			b.WriteString(c.directive(f, d))
		}
	}
	b.WriteString(pl.tail)
	if pl.extraFrom >= 0 {
		b.WriteString("%!(EXTRA ")
		for i := pl.extraFrom; i < len(c.args); i++ {
			if i > pl.extraFrom {
				b.WriteString(", ")
			}
			name := c.typeName(f, i)
			if name == "<nil>" {
				b.WriteString(name)
				continue
			}
			b.WriteString(name + "=" + fmt.Sprintf("%v", ifaceOf(c.value(f, i, "%v"))))
		}
		b.WriteByte(')')
	}
	return b.String()
}

// typeName is Go's name of the type of argument i's value (%T).
func (c *pfCall) typeName(f *frame, i int) string {
	a := c.args[i]
	if a.at == nil {
		v := a.prior(f)
		if x := ifaceOf(v); x != nil {
			return reflect.TypeOf(x).String()
		}
		return "<nil>"
	}
	return a.at(f, "%T", 0).String()
}

// directive is the text of d, a directive printing an argument.
func (c *pfCall) directive(f *frame, d pfDirective) string {
	if strings.ContainsRune("#0+- .[*", d.verb) {
		// toolscript patch 153: a verb that fmt would read as a flag or
		// an index when given alone (in %[1]+d the verb is +) is a bad
		// verb; its text is that of another bad verb (!) with the verb
		// put back (it printed %!(NOVERB)).
		verb := d.verb
		d.verb = '!'
		s := c.directive(f, d)
		if strings.HasPrefix(s, "%!!") {
			return "%!" + string(verb) + s[3:]
		}
		return s
	}
	a := c.args[d.arg]
	mini := d.mini(d.verb)
	if a.at == nil {
		return fmt.Sprintf(mini, ifaceOf(a.prior(f)))
	}
	if d.verb == 'p' || d.verb == 'w' {
		return c.badPointerVerb(f, d, mini)
	}
	v := a.at(f, mini, 0)
	return fmt.Sprintf(rewriteTypeVerbs(mini, []bool{true}, -1), ifaceOf(v))
}

// badPointerVerb is the text of %p (or %w outside Errorf) of argument
// d.arg, of a script type: a pointer's address, as fmt prints it, or
// fmt's %!p(main.Level=4) for another value, printed without its
// methods.
func (c *pfCall) badPointerVerb(f *frame, d pfDirective, mini string) string {
	a := c.args[d.arg]
	v := a.raw(f)
	t := a.t
	if isInterface(t) {
		_, ht, held, ok := heldRecord(v)
		if !ok || !held.IsValid() {
			return fmt.Sprintf(mini, nil)
		}
		v, t = held, ht
	}
	if !v.IsValid() || !v.CanInterface() {
		return fmt.Sprintf(mini, nil)
	}
	switch v.Kind() {
	case reflect.Ptr, reflect.Chan, reflect.Func, reflect.Map, reflect.Slice, reflect.UnsafePointer:
		if d.verb == 'p' {
			return fmt.Sprintf(mini, v.Interface())
		}
	}
	if t != nil && (holdsInterface(t, map[*itype]bool{}) || hasHiddenFieldIn(t, map[*itype]bool{}) || fmtNeedsFormat(t, map[*itype]bool{})) {
		// fmt prints the value with %v, the directive's flags and no
		// method: below an unexported field, as fmtPlainPrint does,
		// but for + and #, which are no %+v and %#v there.
		if strings.ContainsAny(d.flags, "+#") {
			panic(c.n.cfgErrorf("%%%c with the flags %q of a value of type %s is not supported", d.verb, d.flags, c.typeName(f, d.arg)))
		}
		var b strings.Builder
		fmtPlainPrint(&b, pfState{d: d}, 'v', t, v, 1)
		return "%!" + string(d.verb) + "(" + c.typeName(f, d.arg) + "=" + b.String() + ")"
	}
	return fmtRename(fmt.Sprintf(mini, v.Interface()), d.verb, v.Type().String(), c.typeName(f, d.arg))
}

// wrap makes values (the call's, the format's at fmtIdx) print the
// call as the interpreter renders it where fmt would not print it as Go
// does.
func (c *pfCall) wrap(values []func(*frame) reflect.Value, fmtIdx int, format func(*frame) reflect.Value) {
	prevFormat := values[fmtIdx]
	values[fmtIdx] = func(f *frame) reflect.Value {
		rewritten := prevFormat(f)
		s := format(f).String()
		if !c.needed(s) {
			return rewritten
		}
		pl := parsePrintf(s, len(c.args), func(i int) (int, bool) { return c.star(f, i) })
		text := strings.ReplaceAll(c.render(f, pl), "%", "%%") + strings.Repeat("%v", len(c.args))
		return reflect.ValueOf(text)
	}
	for i := range c.args {
		k := fmtIdx + 1 + i
		prior := values[k]
		values[k] = func(f *frame) reflect.Value {
			if c.needed(format(f).String()) {
				return reflect.ValueOf(fmtText(""))
			}
			return prior(f)
		}
	}
}

// wrapSpread is wrap for a printf call whose arguments are the elements
// of a slice spread into it (fmt.Printf(format, args...)), the argument
// values[k]: each is a value of its element type, elem, an interface.
func (interp *Interpreter) wrapSpread(n *node, values []func(*frame) reflect.Value, fmtIdx, k int, format func(*frame) reflect.Value, raw func(*frame) reflect.Value, elem *itype) {
	errorf := n.child[0].child[1].ident == "Errorf"
	prevFormat, prevArgs := values[fmtIdx], values[k]
	// spreadCall is the call's printing for the slice's elements, rv,
	// and their conversions for printing, pv.
	spreadCall := func(f *frame) (*pfCall, reflect.Value, bool) {
		rv := raw(f)
		if rv.Kind() != reflect.Slice || rv.Len() == 0 {
			return nil, rv, false
		}
		needs, loud := pfNeeds(parsePrintf(format(f).String(), rv.Len(), func(int) (int, bool) { return 0, true }), errorf, func(int) bool { return true })
		if loud {
			panic(n.cfgErrorf("Errorf with %%w and %%p or an extra argument of a value of a script type or in an interface "+
				"is not supported (format %q)", format(f).String()))
		}
		if !needs {
			return nil, rv, false
		}
		c := &pfCall{interp: interp, n: n, errorf: errorf, args: make([]*pfArg, rv.Len())}
		var pv reflect.Value
		for i := range c.args {
			i := i
			ev := func(*frame) reflect.Value { return rv.Index(i) }
			c.args[i] = &pfArg{raw: ev, t: elem, at: func(f *frame, fs string, arg int) reflect.Value {
				switch {
				case typeVerbAt(fs, arg):
					return reflect.ValueOf(interp.dynamicTypeName(n, rv.Index(i)))
				case goSyntaxVerbAt(fs, arg):
					return reflect.ValueOf(fmtText(goSyntaxer{interp: interp, n: n, f: f}.goSyntax(elem, rv.Index(i), true)))
				}
				if b, ok := badVerbArg(elem, "", rv.Index(i), fs, arg); ok {
					return b
				}
				if !pv.IsValid() {
					pv = prevArgs(f)
					for pv.Kind() == reflect.Interface && !pv.IsNil() {
						pv = pv.Elem()
					}
				}
				if pv.Kind() == reflect.Slice && pv.Len() == rv.Len() {
					return pv.Index(i)
				}
				return rv.Index(i)
			}}
		}
		return c, rv, true
	}
	values[fmtIdx] = func(f *frame) reflect.Value {
		rewritten := prevFormat(f)
		c, _, needs := spreadCall(f)
		if !needs {
			return rewritten
		}
		pl := parsePrintf(format(f).String(), len(c.args), func(i int) (int, bool) { return c.star(f, i) })
		return reflect.ValueOf(strings.ReplaceAll(c.render(f, pl), "%", "%%") + strings.Repeat("%v", len(c.args)))
	}
	values[k] = func(f *frame) reflect.Value {
		c, rv, needs := spreadCall(f)
		if !needs {
			return spreadBadVerbs(format(f).String(), prevArgs(f), rv, elem)
		}
		out := make([]interface{}, len(c.args))
		for i := range out {
			out[i] = fmtText("")
		}
		return reflect.ValueOf(out)
	}
}

// pfState is the fmt.State of a directive's flags, width and precision
// (fmt.FormatString reads them).
type pfState struct{ d pfDirective }

func (s pfState) Write(b []byte) (int, error) { return len(b), nil }
func (s pfState) Width() (int, bool)          { return s.d.wid, s.d.hasWid }
func (s pfState) Precision() (int, bool)      { return s.d.prec, s.d.hasPrec }
func (s pfState) Flag(c int) bool             { return strings.IndexByte(s.d.flags, byte(c)) >= 0 }

// spreadBadVerbs is pv, the converted elements of the slice rv spread
// into a printf call with the format fs, with patch 145's fmtBadVerb for
// an element printed by a verb that may not apply to it.
func spreadBadVerbs(fs string, pv, rv reflect.Value, elem *itype) reflect.Value {
	for pv.Kind() == reflect.Interface && !pv.IsNil() {
		pv = pv.Elem()
	}
	if pv.Kind() != reflect.Slice || rv.Kind() != reflect.Slice || pv.Len() != rv.Len() {
		return pv
	}
	var out []interface{}
	for i := 0; i < rv.Len(); i++ {
		if typeVerbAt(fs, i) || goSyntaxVerbAt(fs, i) {
			continue
		}
		b, ok := badVerbArg(elem, "", rv.Index(i), fs, i)
		if !ok {
			continue
		}
		if out == nil {
			out = make([]interface{}, pv.Len())
			for j := range out {
				out[j] = ifaceOf(pv.Index(j))
			}
		}
		out[i] = ifaceOf(b)
	}
	if out == nil {
		return pv
	}
	return reflect.ValueOf(out)
}
