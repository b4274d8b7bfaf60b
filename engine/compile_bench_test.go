package engine_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/toolscript/toolscript/engine"
)

// slicesTask and sortTask are one task written with slices (an
// interpreted source package) and with sort (native): their ratio is
// the import's cost (the target: at most 10 %).
const (
	slicesTask = `words := strings.Fields("pear fig apple kiwi banana cherry date grape lemon mango")
slices.Sort(words)
i, ok := slices.BinarySearch(words, "kiwi")
nums := []int{5, 2, 9, 1, 7}
slices.SortFunc(nums, func(a, b int) int { return b - a })
fmt.Println(words, i, ok, nums, slices.Index(words, "fig"))
`
	sortTask = `words := strings.Fields("pear fig apple kiwi banana cherry date grape lemon mango")
sort.Strings(words)
i := sort.SearchStrings(words, "kiwi")
ok := i < len(words) && words[i] == "kiwi"
nums := []int{5, 2, 9, 1, 7}
sort.Slice(nums, func(a, b int) bool { return nums[a] > nums[b] })
at := -1
for j, w := range words {
	if w == "fig" {
		at = j
		break
	}
}
fmt.Println(words, i, ok, nums, at)
`
	sortTaskOut = "[apple banana cherry date fig grape kiwi lemon mango pear] 6 true [9 7 5 2 1] 4\n"
)

func benchScript(b *testing.B, code, want string) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := engine.Execute(ctx, code, nil)
		if err != nil || res.ReturnCode != 0 || res.Stdout != want {
			b.Fatal(err, res.Error, res.Stdout)
		}
	}
}

// BenchmarkExecute_Slices is a short script importing slices: with
// BenchmarkExecute_Sort, the cost of the import.
func BenchmarkExecute_Slices(b *testing.B) { benchScript(b, slicesTask, sortTaskOut) }

// BenchmarkExecute_SlicesDistinct is BenchmarkExecute_Slices with a
// new text in every execution (a comment changed): the script's
// normalisation is never served again, the parse of slices' source is
// (interp's srctrees.go: it depends on the functions the script names).
func BenchmarkExecute_SlicesDistinct(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		res, err := engine.Execute(ctx, slicesTask+"// run "+strconv.Itoa(i)+"\n", nil)
		if err != nil || res.ReturnCode != 0 || res.Stdout != sortTaskOut {
			b.Fatal(err, res.Error, res.Stdout)
		}
	}
}

// BenchmarkExecute_TrivialDistinct is the trivial script with a new
// text in every execution: the cost of a short script seen first.
func BenchmarkExecute_TrivialDistinct(b *testing.B) {
	ns, _ := benchNS()
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		res, err := engine.Execute(ctx, "fmt.Println(\"hi\")\n// run "+strconv.Itoa(i)+"\n", ns)
		if err != nil || res.ReturnCode != 0 || res.Stdout != "hi\n" {
			b.Fatal(err, res.Error, res.Stdout)
		}
	}
}

// BenchmarkExecute_Sort is BenchmarkExecute_Slices' task with sort.
func BenchmarkExecute_Sort(b *testing.B) { benchScript(b, sortTask, sortTaskOut) }

// BenchmarkExecute_SlicesMapsIter imports slices, maps, cmp and iter,
// calling one function of each.
func BenchmarkExecute_SlicesMapsIter(b *testing.B) {
	benchScript(b, `m := map[string]int{"b": 2, "a": 1, "c": 3}
keys := slices.Sorted(maps.Keys(m))
next, stop := iter.Pull(slices.Values(keys))
defer stop()
first, _ := next()
fmt.Println(keys, first, cmp.Compare(m["a"], m["b"]))
`, "[a b c] a -1\n")
}
