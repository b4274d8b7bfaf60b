package policy

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"math/big"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Allocation guards: MaxAllocBytes bounds, in bytes and before the call,
// every single allocation whose size a script chooses. The engine checks
// make and array and struct types through the interpreter's hooks; the
// natives of the tables below, which would otherwise exhaust memory in one
// call that no watchdog can stop, are replaced per execution (Exports,
// Method) by versions that check first, through Hooks.CheckAlloc.
//
// Each guarded native works exactly as the standard one under the bound
// and fails with the engine's MaxAllocBytes error, naming the call and the
// size over it. The tables are the one place that lists them; the
// engine's tests cover every entry (AllocGuarded).

// AllocGuarded returns the natives bounded by MaxAllocBytes, as
// "*recv.Method" and "path.Func".
func AllocGuarded() []string {
	var out []string
	for k := range guardedMethods {
		out = append(out, k.recv.String()+"."+k.name)
	}
	for path, funcs := range guardedFuncs {
		for name := range funcs {
			out = append(out, path+"."+name)
		}
	}
	sort.Strings(out)
	return out
}

// mulSat multiplies without overflow, saturating at math.MaxUint64.
func mulSat(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}

// addSat adds without overflow, saturating at math.MaxUint64.
func addSat(a, b uint64) uint64 {
	if a+b < a {
		return math.MaxUint64
	}
	return a + b
}

// guardedMethods replace native methods whose result a script can make
// arbitrarily large with one call. Each takes the execution's Hooks and the
// receiver and returns a function of the method's signature.
var guardedMethods = map[methodKey]func(h Hooks, recv reflect.Value) reflect.Value{
	{reflect.TypeFor[*strings.Builder](), "Grow"}: func(h Hooks, r reflect.Value) reflect.Value {
		b := r.Interface().(*strings.Builder)
		return reflect.ValueOf(func(n int) {
			if n > 0 {
				h.CheckAlloc("(*strings.Builder).Grow", addSat(uint64(b.Len()), uint64(n)))
			}
			b.Grow(n)
		})
	},
	{reflect.TypeFor[*bytes.Buffer](), "Grow"}: func(h Hooks, r reflect.Value) reflect.Value {
		b := r.Interface().(*bytes.Buffer)
		return reflect.ValueOf(func(n int) {
			if n > 0 {
				h.CheckAlloc("(*bytes.Buffer).Grow", addSat(uint64(b.Len()), uint64(n)))
			}
			b.Grow(n)
		})
	},
	{reflect.TypeFor[*strings.Replacer](), "Replace"}: func(h Hooks, r reflect.Value) reflect.Value {
		rp := r.Interface().(*strings.Replacer)
		return reflect.ValueOf(func(s string) string {
			w := &boundedBuilder{h: h, call: "(*strings.Replacer).Replace"}
			if _, err := rp.WriteString(w, s); err != nil {
				panic(err)
			}
			return w.String()
		})
	},
	{reflect.TypeFor[*regexp.Regexp](), "ReplaceAllString"}: func(h Hooks, r reflect.Value) reflect.Value {
		re := r.Interface().(*regexp.Regexp)
		return reflect.ValueOf(func(src, repl string) string {
			checkReplace(h, re, "(*regexp.Regexp).ReplaceAllString", len(src), func() int { return countMatches(re, src) }, repl, true)
			return re.ReplaceAllString(src, repl)
		})
	},
	{reflect.TypeFor[*regexp.Regexp](), "ReplaceAll"}: func(h Hooks, r reflect.Value) reflect.Value {
		re := r.Interface().(*regexp.Regexp)
		return reflect.ValueOf(func(src, repl []byte) []byte {
			checkReplace(h, re, "(*regexp.Regexp).ReplaceAll", len(src), func() int { return countMatches(re, string(src)) }, string(repl), true)
			return re.ReplaceAll(src, repl)
		})
	},
	{reflect.TypeFor[*regexp.Regexp](), "ReplaceAllLiteralString"}: func(h Hooks, r reflect.Value) reflect.Value {
		re := r.Interface().(*regexp.Regexp)
		return reflect.ValueOf(func(src, repl string) string {
			checkReplace(h, re, "(*regexp.Regexp).ReplaceAllLiteralString", len(src), func() int { return countMatches(re, src) }, repl, false)
			return re.ReplaceAllLiteralString(src, repl)
		})
	},
	{reflect.TypeFor[*regexp.Regexp](), "ReplaceAllLiteral"}: func(h Hooks, r reflect.Value) reflect.Value {
		re := r.Interface().(*regexp.Regexp)
		return reflect.ValueOf(func(src, repl []byte) []byte {
			checkReplace(h, re, "(*regexp.Regexp).ReplaceAllLiteral", len(src), func() int { return countMatches(re, string(src)) }, string(repl), false)
			return re.ReplaceAllLiteral(src, repl)
		})
	},
	{reflect.TypeFor[*regexp.Regexp](), "ReplaceAllStringFunc"}: func(h Hooks, r reflect.Value) reflect.Value {
		re := r.Interface().(*regexp.Regexp)
		return reflect.ValueOf(func(src string, f func(string) string) string {
			total := uint64(len(src))
			return re.ReplaceAllStringFunc(src, func(m string) string {
				s := f(m)
				total = addSat(total, uint64(len(s)))
				h.CheckAlloc("(*regexp.Regexp).ReplaceAllStringFunc", total)
				return s
			})
		})
	},
	{reflect.TypeFor[*regexp.Regexp](), "ReplaceAllFunc"}: func(h Hooks, r reflect.Value) reflect.Value {
		re := r.Interface().(*regexp.Regexp)
		return reflect.ValueOf(func(src []byte, f func([]byte) []byte) []byte {
			total := uint64(len(src))
			return re.ReplaceAllFunc(src, func(m []byte) []byte {
				s := f(m)
				total = addSat(total, uint64(len(s)))
				h.CheckAlloc("(*regexp.Regexp).ReplaceAllFunc", total)
				return s
			})
		})
	},
	{reflect.TypeFor[*regexp.Regexp](), "ExpandString"}: func(h Hooks, r reflect.Value) reflect.Value {
		re := r.Interface().(*regexp.Regexp)
		return reflect.ValueOf(func(dst []byte, template string, src string, match []int) []byte {
			lit, refs := templateSize(template)
			h.CheckAlloc("(*regexp.Regexp).ExpandString", addSat(uint64(len(dst)), addSat(lit, mulSat(refs, uint64(len(src))))))
			return re.ExpandString(dst, template, src, match)
		})
	},
	{reflect.TypeFor[*regexp.Regexp](), "Expand"}: func(h Hooks, r reflect.Value) reflect.Value {
		re := r.Interface().(*regexp.Regexp)
		return reflect.ValueOf(func(dst []byte, template []byte, src []byte, match []int) []byte {
			lit, refs := templateSize(string(template))
			h.CheckAlloc("(*regexp.Regexp).Expand", addSat(uint64(len(dst)), addSat(lit, mulSat(refs, uint64(len(src))))))
			return re.Expand(dst, template, src, match)
		})
	},
	{reflect.TypeFor[*big.Int](), "Lsh"}: func(h Hooks, r reflect.Value) reflect.Value {
		z := r.Interface().(*big.Int)
		return reflect.ValueOf(func(a *big.Int, n uint) *big.Int {
			h.CheckAlloc("(*big.Int).Lsh", addSat(uint64(a.BitLen()), uint64(n))/8)
			return z.Lsh(a, n)
		})
	},
	{reflect.TypeFor[*big.Int](), "SetBit"}: func(h Hooks, r reflect.Value) reflect.Value {
		z := r.Interface().(*big.Int)
		return reflect.ValueOf(func(a *big.Int, i int, b uint) *big.Int {
			if i > 0 {
				h.CheckAlloc("(*big.Int).SetBit", uint64(max(a.BitLen(), i))/8)
			}
			return z.SetBit(a, i, b)
		})
	},
	{reflect.TypeFor[*big.Int](), "Mul"}: func(h Hooks, r reflect.Value) reflect.Value {
		z := r.Interface().(*big.Int)
		return reflect.ValueOf(func(a, b *big.Int) *big.Int {
			h.CheckAlloc("(*big.Int).Mul", uint64(a.BitLen()+b.BitLen())/8)
			return z.Mul(a, b)
		})
	},
	{reflect.TypeFor[*big.Int](), "Exp"}: func(h Hooks, r reflect.Value) reflect.Value {
		z := r.Interface().(*big.Int)
		return reflect.ValueOf(func(a, y, m *big.Int) *big.Int {
			if (m == nil || m.Sign() == 0) && y.Sign() > 0 && a.BitLen() > 1 {
				e := uint64(math.MaxUint64)
				if y.IsUint64() {
					e = y.Uint64()
				}
				h.CheckAlloc("(*big.Int).Exp", mulSat(uint64(a.BitLen()), e)/8)
			}
			return z.Exp(a, y, m)
		})
	},
	{reflect.TypeFor[*big.Int](), "MulRange"}: func(h Hooks, r reflect.Value) reflect.Value {
		z := r.Interface().(*big.Int)
		return reflect.ValueOf(func(a, b int64) *big.Int {
			if a <= b && (a > 0 || b < 0) {
				h.CheckAlloc("(*big.Int).MulRange", mulSat(uint64(b-a)+1, uint64(bitLen64(max(abs64(a), abs64(b)))))/8)
			}
			return z.MulRange(a, b)
		})
	},
	{reflect.TypeFor[*big.Int](), "Binomial"}: func(h Hooks, r reflect.Value) reflect.Value {
		z := r.Interface().(*big.Int)
		return reflect.ValueOf(func(n, k int64) *big.Int {
			if k > n-k {
				k = n - k
			}
			if n > 0 && k > 0 {
				h.CheckAlloc("(*big.Int).Binomial", mulSat(uint64(k), uint64(bitLen64(n)))/8)
			}
			return z.Binomial(n, k)
		})
	},
	{reflect.TypeFor[*big.Int](), "Text"}: func(h Hooks, r reflect.Value) reflect.Value {
		z := r.Interface().(*big.Int)
		return reflect.ValueOf(func(base int) string {
			h.CheckAlloc("(*big.Int).Text", intTextBytes(z, base))
			return z.Text(base)
		})
	},
	{reflect.TypeFor[*big.Int](), "Append"}: func(h Hooks, r reflect.Value) reflect.Value {
		z := r.Interface().(*big.Int)
		return reflect.ValueOf(func(buf []byte, base int) []byte {
			h.CheckAlloc("(*big.Int).Append", addSat(uint64(len(buf)), intTextBytes(z, base)))
			return z.Append(buf, base)
		})
	},
	{reflect.TypeFor[*big.Float](), "SetPrec"}: func(h Hooks, r reflect.Value) reflect.Value {
		z := r.Interface().(*big.Float)
		return reflect.ValueOf(func(prec uint) *big.Float {
			h.CheckAlloc("(*big.Float).SetPrec", uint64(prec)/8)
			return z.SetPrec(prec)
		})
	},
	{reflect.TypeFor[*big.Float](), "Text"}: func(h Hooks, r reflect.Value) reflect.Value {
		z := r.Interface().(*big.Float)
		return reflect.ValueOf(func(format byte, prec int) string {
			h.CheckAlloc("(*big.Float).Text", floatTextBytes(z, format, prec))
			return z.Text(format, prec)
		})
	},
	{reflect.TypeFor[*big.Float](), "Append"}: func(h Hooks, r reflect.Value) reflect.Value {
		z := r.Interface().(*big.Float)
		return reflect.ValueOf(func(buf []byte, format byte, prec int) []byte {
			h.CheckAlloc("(*big.Float).Append", addSat(uint64(len(buf)), floatTextBytes(z, format, prec)))
			return z.Append(buf, format, prec)
		})
	},
	{reflect.TypeFor[*big.Rat](), "FloatString"}: func(h Hooks, r reflect.Value) reflect.Value {
		z := r.Interface().(*big.Rat)
		return reflect.ValueOf(func(prec int) string {
			digits := uint64(max(z.Num().BitLen()-z.Denom().BitLen(), 0))*31/100 + 2
			h.CheckAlloc("(*big.Rat).FloatString", addSat(digits, uint64(max(prec, 0))))
			return z.FloatString(prec)
		})
	},
	{reflect.TypeFor[*big.Rat](), "SetString"}: func(h Hooks, r reflect.Value) reflect.Value {
		z := r.Interface().(*big.Rat)
		return reflect.ValueOf(func(s string) (*big.Rat, bool) {
			// An exponent is computed exactly: 1e1000000000 is a
			// number of 415 MB.
			h.CheckAlloc("(*big.Rat).SetString", mulSat(decimalExponent(s), 42)/100)
			return z.SetString(s)
		})
	},
}

// guardedFuncs replace native functions of the allowlist whose result a
// script can make arbitrarily large with one call, by import path and
// name; each is bound to the execution's Hooks.
var guardedFuncs = map[string]map[string]func(h Hooks) any{
	"strings": {
		"Repeat": func(h Hooks) any {
			return func(s string, count int) string { h.CheckRepeat(len(s), count); return strings.Repeat(s, count) }
		},
		"Replace": func(h Hooks) any {
			return func(s, old, new string, n int) string {
				h.CheckAlloc("strings.Replace", replaceBytes(len(s), len(old), len(new), func() int { return strings.Count(s, old) }, n, utf8.RuneCountInString(s)))
				return strings.Replace(s, old, new, n)
			}
		},
		"ReplaceAll": func(h Hooks) any {
			return func(s, old, new string) string {
				h.CheckAlloc("strings.ReplaceAll", replaceBytes(len(s), len(old), len(new), func() int { return strings.Count(s, old) }, -1, utf8.RuneCountInString(s)))
				return strings.ReplaceAll(s, old, new)
			}
		},
		"Join": func(h Hooks) any {
			return func(elems []string, sep string) string {
				var n uint64
				for _, e := range elems {
					n = addSat(n, uint64(len(e)))
				}
				if len(elems) > 1 {
					n = addSat(n, mulSat(uint64(len(elems)-1), uint64(len(sep))))
				}
				h.CheckAlloc("strings.Join", n)
				return strings.Join(elems, sep)
			}
		},
	},
	"bytes": {
		"Repeat": func(h Hooks) any {
			return func(b []byte, count int) []byte { h.CheckRepeat(len(b), count); return bytes.Repeat(b, count) }
		},
		"Replace": func(h Hooks) any {
			return func(s, old, new []byte, n int) []byte {
				h.CheckAlloc("bytes.Replace", replaceBytes(len(s), len(old), len(new), func() int { return bytes.Count(s, old) }, n, utf8.RuneCount(s)))
				return bytes.Replace(s, old, new, n)
			}
		},
		"ReplaceAll": func(h Hooks) any {
			return func(s, old, new []byte) []byte {
				h.CheckAlloc("bytes.ReplaceAll", replaceBytes(len(s), len(old), len(new), func() int { return bytes.Count(s, old) }, -1, utf8.RuneCount(s)))
				return bytes.ReplaceAll(s, old, new)
			}
		},
		"Join": func(h Hooks) any {
			return func(s [][]byte, sep []byte) []byte {
				var n uint64
				for _, e := range s {
					n = addSat(n, uint64(len(e)))
				}
				if len(s) > 1 {
					n = addSat(n, mulSat(uint64(len(s)-1), uint64(len(sep))))
				}
				h.CheckAlloc("bytes.Join", n)
				return bytes.Join(s, sep)
			}
		},
	},
	"strconv": {
		"FormatFloat": func(h Hooks) any {
			return func(f float64, fmt byte, prec, bitSize int) string {
				h.CheckAlloc("strconv.FormatFloat", floatDigits(prec))
				return strconv.FormatFloat(f, fmt, prec, bitSize)
			}
		},
		"AppendFloat": func(h Hooks) any {
			return func(dst []byte, f float64, fmt byte, prec, bitSize int) []byte {
				h.CheckAlloc("strconv.AppendFloat", addSat(uint64(len(dst)), floatDigits(prec)))
				return strconv.AppendFloat(dst, f, fmt, prec, bitSize)
			}
		},
	},
	"bufio": {
		"NewReaderSize": func(h Hooks) any {
			return func(r io.Reader, size int) *bufio.Reader {
				if size > 0 {
					h.CheckAlloc("bufio.NewReaderSize", uint64(size))
				}
				return bufio.NewReaderSize(r, size)
			}
		},
		"NewWriterSize": func(h Hooks) any {
			return func(w io.Writer, size int) *bufio.Writer {
				if size > 0 {
					h.CheckAlloc("bufio.NewWriterSize", uint64(size))
				}
				return bufio.NewWriterSize(w, size)
			}
		},
	},
	"math/big": {
		"ParseFloat": func(h Hooks) any {
			return func(s string, base int, prec uint, mode big.RoundingMode) (*big.Float, int, error) {
				h.CheckAlloc("big.ParseFloat", uint64(prec)/8)
				return big.ParseFloat(s, base, prec, mode)
			}
		},
	},
}

// replaceBytes is the size of a replacement's result: count is called
// only when the crude bound (every position a match) is over a megabyte.
func replaceBytes(ls, lold, lnew int, count func() int, n, runes int) uint64 {
	if lnew <= lold {
		return uint64(ls)
	}
	m := runes + 1 // an empty old matches at every rune boundary
	if lold > 0 {
		m = ls/lold + 1
	}
	if n >= 0 && n < m {
		m = n
	}
	if bound := addSat(uint64(ls), mulSat(uint64(m), uint64(lnew-lold))); bound <= 1<<20 {
		return bound
	}
	if lold > 0 {
		m = count()
		if n >= 0 && n < m {
			m = n
		}
	}
	return addSat(uint64(ls), mulSat(uint64(m), uint64(lnew-lold)))
}

// checkReplace bounds a regexp replacement: each match adds at most the
// template's literal bytes, and each of its references at most the whole
// source (the matches do not overlap). count is called only when the
// bound without it is over the limit.
func checkReplace(h Hooks, re *regexp.Regexp, call string, lsrc int, count func() int, repl string, expand bool) {
	limit := h.MaxAllocBytes()
	if limit < 0 {
		return
	}
	lit, refs := uint64(len(repl)), uint64(0)
	if expand {
		lit, refs = templateSize(repl)
	}
	base := addSat(uint64(lsrc), mulSat(refs, uint64(lsrc)))
	size := addSat(base, mulSat(uint64(lsrc)+1, lit))
	if size <= uint64(limit) {
		return
	}
	h.CheckAlloc(call, addSat(base, mulSat(uint64(count()), lit)))
}

// countMatches counts the matches of re in s without keeping them.
func countMatches(re *regexp.Regexp, s string) int {
	n := 0
	re.ReplaceAllStringFunc(s, func(string) string { n++; return "" })
	return n
}

// templateSize splits a regexp Expand template into its literal bytes
// and its number of group references ($1, ${name}).
func templateSize(t string) (lit, refs uint64) {
	for i := 0; i < len(t); i++ {
		if t[i] != '$' || i+1 == len(t) {
			lit++
			continue
		}
		if t[i+1] == '$' {
			lit++
			i++
			continue
		}
		refs++
	}
	return lit, refs
}

// floatDigits bounds the bytes of a float formatted with precision prec:
// the digits asked for plus the largest exponent's.
func floatDigits(prec int) uint64 {
	return uint64(max(prec, 0)) + 400
}

// intTextBytes bounds the digits of z in base.
func intTextBytes(z *big.Int, base int) uint64 {
	bits := uint64(z.BitLen())
	per := uint64(1)
	for b := 4; b <= base; b *= 2 {
		per++
	}
	return bits/per + 2
}

// floatTextBytes bounds big.Float's Text: the digits before the point in
// format 'f', the precision asked for, or the mantissa's digits.
func floatTextBytes(z *big.Float, format byte, prec int) uint64 {
	n := uint64(z.Prec())*31/100 + 32
	if prec > 0 {
		n = addSat(n, uint64(prec))
	}
	if format == 'f' {
		if e := z.MantExp(nil); e > 0 {
			n = addSat(n, uint64(e)*31/100)
		}
	}
	return n
}

// decimalExponent reads the magnitude of the exponent of a number in
// SetString's syntax (1e9, 1E-9, 0x1p9), or 0.
func decimalExponent(s string) uint64 {
	marks := "eEpP"
	if t := strings.TrimLeft(s, "+-"); strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X") {
		marks = "pP" // e is a hexadecimal digit
	}
	i := strings.LastIndexAny(s, marks)
	if i < 0 {
		return 0
	}
	e := strings.TrimLeft(s[i+1:], "+-")
	var v uint64
	for _, c := range e {
		if c < '0' || c > '9' {
			if c == '_' {
				continue
			}
			return 0
		}
		v = addSat(mulSat(v, 10), uint64(c-'0'))
	}
	return v
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func bitLen64(v int64) int {
	n := 0
	for u := uint64(abs64(v)); u > 0; u >>= 1 {
		n++
	}
	return n
}

// boundedBuilder is a strings.Builder that refuses to grow past
// MaxAllocBytes.
type boundedBuilder struct {
	strings.Builder
	h    Hooks
	call string
}

func (b *boundedBuilder) Write(p []byte) (int, error) {
	b.h.CheckAlloc(b.call, addSat(uint64(b.Len()), uint64(len(p))))
	return b.Builder.Write(p)
}

func (b *boundedBuilder) WriteString(s string) (int, error) {
	b.h.CheckAlloc(b.call, addSat(uint64(b.Len()), uint64(len(s))))
	return b.Builder.WriteString(s)
}
