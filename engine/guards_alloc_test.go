package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/internal/policy"
)

// TestGuardedNatives runs every native policy bounds (policy.AllocGuarded)
// twice: under the bound the script prints what Go prints, over it the
// execution ends with a MaxAllocBytes error naming the call.
func TestGuardedNatives(t *testing.T) {
	const limit = 1 << 20 // MaxAllocBytes of these tests
	tests := []struct {
		entry      string // "recv.Method" or "path.Func"
		under      string // a script within the bound
		want       string // its output, as Go prints it
		over       string // a script over the bound
		overDetail string // part of the error
	}{
		{"*strings.Builder.Grow", `var b strings.Builder; b.Grow(100); b.WriteString("ab"); fmt.Println(b.Len(), b.Cap() >= 100)`, "2 true\n",
			`var b strings.Builder; b.Grow(2 << 20)`, "(*strings.Builder).Grow"},
		{"*bytes.Buffer.Grow", `var b bytes.Buffer; b.Grow(100); b.WriteString("ab"); fmt.Println(b.Len(), b.Cap() >= 100)`, "2 true\n",
			`var b bytes.Buffer; b.Grow(2 << 20)`, "(*bytes.Buffer).Grow"},
		{"*strings.Replacer.Replace", `fmt.Println(strings.NewReplacer("a", "1", "b", "22").Replace("abcab"))`, "122c122\n",
			`r := strings.NewReplacer("a", strings.Repeat("b", 1000)); fmt.Println(len(r.Replace(strings.Repeat("a", 2000))))`, "(*strings.Replacer).Replace"},
		{"*regexp.Regexp.ReplaceAllString", `fmt.Println(regexp.MustCompile("(a)(b)").ReplaceAllString("xabyab", "<$2$1>"))`, "x<ba>y<ba>\n",
			`regexp.MustCompile("a").ReplaceAllString(strings.Repeat("a", 1000), strings.Repeat("$0", 1000))`, "ReplaceAllString"},
		{"*regexp.Regexp.ReplaceAll", `fmt.Println(string(regexp.MustCompile("b+").ReplaceAll([]byte("abbbc"), []byte("[$0]"))))`, "a[bbb]c\n",
			`regexp.MustCompile("a").ReplaceAll([]byte(strings.Repeat("a", 1000)), []byte(strings.Repeat("x", 2000)))`, "ReplaceAll"},
		{"*regexp.Regexp.ReplaceAllLiteralString", `fmt.Println(regexp.MustCompile("a").ReplaceAllLiteralString("banana", "$1"))`, "b$1n$1n$1\n",
			`regexp.MustCompile("a").ReplaceAllLiteralString(strings.Repeat("a", 1000), strings.Repeat("x", 2000))`, "ReplaceAllLiteralString"},
		{"*regexp.Regexp.ReplaceAllLiteral", `fmt.Println(string(regexp.MustCompile("a").ReplaceAllLiteral([]byte("banana"), []byte("o"))))`, "bonono\n",
			`regexp.MustCompile("a").ReplaceAllLiteral([]byte(strings.Repeat("a", 1000)), []byte(strings.Repeat("x", 2000)))`, "ReplaceAllLiteral"},
		{"*regexp.Regexp.ReplaceAllStringFunc", `fmt.Println(regexp.MustCompile("a").ReplaceAllStringFunc("banana", strings.ToUpper))`, "bAnAnA\n",
			`big := strings.Repeat("x", 2000); regexp.MustCompile("a").ReplaceAllStringFunc(strings.Repeat("a", 1000), func(string) string { return big })`, "ReplaceAllStringFunc"},
		{"*regexp.Regexp.ReplaceAllFunc", `fmt.Println(string(regexp.MustCompile("a").ReplaceAllFunc([]byte("banana"), bytes.ToUpper)))`, "bAnAnA\n",
			`big := []byte(strings.Repeat("x", 2000)); regexp.MustCompile("a").ReplaceAllFunc([]byte(strings.Repeat("a", 1000)), func([]byte) []byte { return big })`, "ReplaceAllFunc"},
		{"*regexp.Regexp.ExpandString", `re := regexp.MustCompile("(\\w+)@(\\w+)"); m := re.FindStringSubmatchIndex("ann@host"); fmt.Println(string(re.ExpandString(nil, "$2:$1", "ann@host", m)))`, "host:ann\n",
			`s := strings.Repeat("a", 4000); re := regexp.MustCompile("(a+)"); re.ExpandString(nil, strings.Repeat("$1", 400), s, re.FindStringSubmatchIndex(s))`, "ExpandString"},
		{"*regexp.Regexp.Expand", `re := regexp.MustCompile("(\\w+)@(\\w+)"); s := []byte("ann@host"); fmt.Println(string(re.Expand(nil, []byte("$2:$1"), s, re.FindSubmatchIndex(s))))`, "host:ann\n",
			`s := []byte(strings.Repeat("a", 4000)); re := regexp.MustCompile("(a+)"); re.Expand(nil, []byte(strings.Repeat("$1", 400)), s, re.FindSubmatchIndex(s))`, "(*regexp.Regexp).Expand"},
		{"*big.Int.Lsh", `fmt.Println(new(big.Int).Lsh(big.NewInt(3), 70))`, "3541774862152233910272\n",
			`new(big.Int).Lsh(big.NewInt(1), 9 << 20)`, "(*big.Int).Lsh"},
		{"*big.Int.SetBit", `fmt.Println(new(big.Int).SetBit(big.NewInt(0), 65, 1))`, "36893488147419103232\n",
			`new(big.Int).SetBit(big.NewInt(0), 9 << 20, 1)`, "(*big.Int).SetBit"},
		{"*big.Int.Mul", `fmt.Println(new(big.Int).Mul(big.NewInt(1 << 40), big.NewInt(1 << 40)))`, "1208925819614629174706176\n",
			`x := new(big.Int).Lsh(big.NewInt(1), 5 << 20); new(big.Int).Mul(x, x)`, "(*big.Int).Mul"},
		{"*big.Int.Exp", `fmt.Println(new(big.Int).Exp(big.NewInt(3), big.NewInt(50), nil), new(big.Int).Exp(big.NewInt(3), big.NewInt(1 << 40), big.NewInt(1000)))`, "717897987691852588770249 921\n",
			`new(big.Int).Exp(big.NewInt(3), big.NewInt(1 << 40), nil)`, "(*big.Int).Exp"},
		{"*big.Int.MulRange", `fmt.Println(new(big.Int).MulRange(1, 25))`, "15511210043330985984000000\n",
			`new(big.Int).MulRange(1, 1 << 20)`, "(*big.Int).MulRange"},
		{"*big.Int.Binomial", `fmt.Println(new(big.Int).Binomial(60, 30))`, "118264581564861424\n",
			`new(big.Int).Binomial(1 << 40, 1 << 20)`, "(*big.Int).Binomial"},
		{"*big.Int.Text", `fmt.Println(big.NewInt(255).Text(2))`, "11111111\n",
			`x := new(big.Int).Lsh(big.NewInt(1), 1 << 21); _ = x.Text(2)`, "(*big.Int).Text"},
		{"*big.Int.Append", `fmt.Println(string(big.NewInt(255).Append([]byte("0x"), 16)))`, "0xff\n",
			`x := new(big.Int).Lsh(big.NewInt(1), 1 << 21); _ = x.Append(nil, 2)`, "(*big.Int).Append"},
		{"*big.Float.SetPrec", `f := new(big.Float).SetPrec(200); f.SetInt64(1); f.Quo(f, big.NewFloat(3)); fmt.Println(f.Text('g', 30))`, "0.333333333333333333333333333333\n",
			`new(big.Float).SetPrec(9 << 20 * 8)`, "(*big.Float).SetPrec"},
		{"*big.Float.Text", `fmt.Println(big.NewFloat(1.5).Text('f', 3))`, "1.500\n",
			`_ = big.NewFloat(1.5).Text('f', 2 << 20)`, "(*big.Float).Text"},
		{"*big.Float.Append", `fmt.Println(string(big.NewFloat(2.25).Append([]byte("v="), 'g', 4)))`, "v=2.25\n",
			`_ = big.NewFloat(1.5).Append(nil, 'f', 2 << 20)`, "(*big.Float).Append"},
		{"*big.Rat.FloatString", `fmt.Println(big.NewRat(1, 3).FloatString(5))`, "0.33333\n",
			`_ = big.NewRat(1, 3).FloatString(2 << 20)`, "(*big.Rat).FloatString"},
		{"*big.Rat.SetString", `r, ok := new(big.Rat).SetString("1.5e3"); fmt.Println(r, ok)`, "1500/1 true\n",
			`new(big.Rat).SetString("1e100000000")`, "(*big.Rat).SetString"},
		{"strings.Repeat", `fmt.Println(strings.Repeat("ab", 3))`, "ababab\n",
			`_ = strings.Repeat("ab", 1 << 20)`, "Repeat"},
		{"strings.Replace", `fmt.Println(strings.Replace("aaaa", "a", "bb", 2), strings.Replace("ab", "", "-", -1))`, "bbbbaa -a-b-\n",
			`_ = strings.Replace(strings.Repeat("a", 1000), "a", strings.Repeat("b", 2000), -1)`, "strings.Replace"},
		{"strings.ReplaceAll", `fmt.Println(strings.ReplaceAll("banana", "a", "o"))`, "bonono\n",
			`_ = strings.ReplaceAll(strings.Repeat("a", 1000), "a", strings.Repeat("b", 2000))`, "strings.ReplaceAll"},
		{"strings.Join", `fmt.Println(strings.Join([]string{"a", "b", "c"}, ", "))`, "a, b, c\n",
			`_ = strings.Join(make([]string, 2000), strings.Repeat(",", 1000))`, "strings.Join"},
		{"bytes.Repeat", `fmt.Println(string(bytes.Repeat([]byte("ab"), 3)))`, "ababab\n",
			`_ = bytes.Repeat([]byte("ab"), 1 << 20)`, "Repeat"},
		{"bytes.Replace", `fmt.Println(string(bytes.Replace([]byte("aaaa"), []byte("a"), []byte("bb"), 2)))`, "bbbbaa\n",
			`_ = bytes.Replace(bytes.Repeat([]byte("a"), 1000), []byte("a"), bytes.Repeat([]byte("b"), 2000), -1)`, "bytes.Replace"},
		{"bytes.ReplaceAll", `fmt.Println(string(bytes.ReplaceAll([]byte("banana"), []byte("a"), []byte("o"))))`, "bonono\n",
			`_ = bytes.ReplaceAll(bytes.Repeat([]byte("a"), 1000), []byte("a"), bytes.Repeat([]byte("b"), 2000))`, "bytes.ReplaceAll"},
		{"bytes.Join", `fmt.Println(string(bytes.Join([][]byte{[]byte("a"), []byte("b")}, []byte("-"))))`, "a-b\n",
			`_ = bytes.Join(make([][]byte, 2000), bytes.Repeat([]byte(","), 1000))`, "bytes.Join"},
		{"strconv.FormatFloat", `fmt.Println(strconv.FormatFloat(1.5, 'f', 3, 64), strconv.FormatFloat(1e21, 'g', -1, 64))`, "1.500 1e+21\n",
			`_ = strconv.FormatFloat(1.5, 'f', 2 << 20, 64)`, "strconv.FormatFloat"},
		{"strconv.AppendFloat", `fmt.Println(string(strconv.AppendFloat([]byte("x="), 0.25, 'f', 2, 64)))`, "x=0.25\n",
			`_ = strconv.AppendFloat(nil, 1.5, 'f', 2 << 20, 64)`, "strconv.AppendFloat"},
		{"bufio.NewReaderSize", `r := bufio.NewReaderSize(strings.NewReader("hi\n"), 64); l, _ := r.ReadString('\n'); fmt.Print(l, r.Size(), "\n")`, "hi\n64\n",
			`bufio.NewReaderSize(strings.NewReader(""), 2 << 20)`, "bufio.NewReaderSize"},
		{"bufio.NewWriterSize", `var b strings.Builder; w := bufio.NewWriterSize(&b, 64); w.WriteString("hi"); w.Flush(); fmt.Println(b.String(), w.Size())`, "hi 64\n",
			`var b strings.Builder; bufio.NewWriterSize(&b, 2 << 20)`, "bufio.NewWriterSize"},
		{"math/big.ParseFloat", `f, _, err := big.ParseFloat("1.25", 10, 100, big.ToNearestEven); fmt.Println(f, err)`, "1.25 <nil>\n",
			`big.ParseFloat("1", 10, 9 << 20 * 8, big.ToNearestEven)`, "big.ParseFloat"},
	}
	// Every guarded native has its row.
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.entry] = true
	}
	for _, name := range policy.AllocGuarded() {
		assert.True(t, covered[name], "guarded native %s has no test", name)
	}
	lim := WithLimits(Limits{MaxAllocBytes: limit})
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			res, err := Execute(context.Background(), tt.under, nil, lim)
			require.NoError(t, err)
			assert.Equal(t, CodeOK, res.ReturnCode, res.Error)
			assert.Equal(t, tt.want, res.Stdout)
			res, err = Execute(context.Background(), tt.over, nil, lim)
			require.NoError(t, err)
			assert.Equal(t, CodeLimit, res.ReturnCode, res.Error)
			var le *LimitError
			if assert.ErrorAs(t, res.Err, &le) {
				assert.Contains(t, []string{"MaxAllocBytes", "MaxAllocLen"}, le.Limit)
			}
			assert.Contains(t, res.Error, tt.overDetail)
		})
	}
}

// TestAllocBounds covers the interpreter's hooks: make of any element
// size, keyed slice literals, and array and struct types at compile time,
// each exact under the bound and a MaxAllocBytes error over it.
func TestAllocBounds(t *testing.T) {
	lim := WithLimits(Limits{MaxAllocBytes: 1 << 20})
	tests := []struct {
		name, code, out string
		rc              int
		msg             string
	}{
		{"make under", "b := make([][1024]byte, 1000); m := make(map[int]int, 100); c := make(chan [64]byte, 10); fmt.Println(len(b), len(m), cap(c))", "1000 0 10\n", CodeOK, ""},
		{"make of large elements", "b := make([][1024]byte, 2000); fmt.Println(len(b))", "", CodeLimit, "make([][1024]uint8, 2000)"},
		{"make capacity", "b := make([]int64, 0, 1 << 18); fmt.Println(len(b))", "", CodeLimit, "MaxAllocBytes"},
		{"map hint", "m := make(map[int64][64]byte, 1 << 16); fmt.Println(len(m))", "", CodeLimit, "MaxAllocBytes"},
		{"channel buffer", "c := make(chan [1024]byte, 2000); fmt.Println(cap(c))", "", CodeLimit, "MaxAllocBytes"},
		{"keyed slice literal", "s := []int64{1 << 17: 1}; fmt.Println(len(s))", "", CodeLimit, "MaxAllocBytes"},
		{"array type under", "var a [1000]int64; a[999] = 7; fmt.Println(a[999], len(a))", "7 1000\n", CodeOK, ""},
		{"array variable", "var a [1 << 18]int64\nfmt.Println(len(a))", "", CodeLimit, "at line 1:7"},
		{"new of an array", "p := new([1 << 21]byte)\nfmt.Println(len(p))", "", CodeLimit, "type [2097152]uint8"},
		{"nested arrays", "var a [1 << 10][1 << 11]byte\nfmt.Println(len(a))", "", CodeLimit, "MaxAllocBytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Execute(context.Background(), tt.code, nil, lim)
			require.NoError(t, err)
			assert.Equal(t, tt.rc, res.ReturnCode, res.Error)
			assert.Equal(t, tt.out, res.Stdout)
			if tt.msg != "" {
				assert.Contains(t, res.Error, tt.msg)
			}
		})
	}
}

// TestCompileBounds covers class 7: the source's size and nesting, and
// constant shifts, each with the construct's line and column; and that a
// compilation runs under the deadline.
func TestCompileBounds(t *testing.T) {
	tests := []struct {
		name, code string
		rc         int
		msg        string
	}{
		{"nesting", "x := " + strings.Repeat("(", 600) + "1" + strings.Repeat(")", 600) + "\nfmt.Println(x)", CodeError, "line 1:502: the script is nested too deeply"},
		{"binary chain", "x := 1" + strings.Repeat(" + 1", 600) + "\nfmt.Println(x)", CodeError, "nested too deeply"},
		{"nesting of a program", "package main\nfunc main() {\n\tx := " + strings.Repeat("-", 600) + "1\n\tprintln(x)\n}", CodeError, "line 3:"},
		{"source size", strings.Repeat("x := 1; _ = x\n", 80_000), CodeLimit, "MaxSourceBytes"},
		{"constant shift", "const x = 1 << 100000000\nfmt.Println(x > 0)", CodeError, "line 1:16: invalid operation: invalid shift count"},
		{"constant overflow", "const x = 1 << 600\nfmt.Println(x > 0)", CodeError, "line 1:13: constant shift overflow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Execute(context.Background(), tt.code, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.rc, res.ReturnCode, res.Error)
			assert.Contains(t, res.Error, tt.msg)
		})
	}
	// A legitimate script nested below the bound compiles and runs.
	res, err := Execute(context.Background(), "x := 1"+strings.Repeat(" + 1", 300)+"\nfmt.Println(x)", nil)
	require.NoError(t, err)
	assert.Equal(t, "301\n", res.Stdout, res.Error)
}
