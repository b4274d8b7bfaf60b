package harness

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Machine describes where a report was measured.
type Machine struct {
	CPU        string `json:"cpu"`
	Cores      int    `json:"cores"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Go         string `json:"go"`
	OS         string `json:"os"`
	Load       string `json:"load,omitempty"` // /proc/loadavg at the start
}

// ThisMachine describes the running machine.
func ThisMachine() Machine {
	m := Machine{Cores: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), Go: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH, CPU: "unknown"}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		m.Load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	return m
}

// CurvePoint is one point of a scaling curve.
type CurvePoint struct {
	Curve string `json:"curve"`
	X     int    `json:"x"`
	Cell
}

// Report is one run of the runner.
type Report struct {
	Machine     Machine       `json:"machine"`
	Short       bool          `json:"short"`
	Settings    Settings      `json:"settings"`
	Engines     []string      `json:"engines"`
	StartErrors []string      `json:"start_errors,omitempty"`
	Cells       []Cell        `json:"cells"`
	Rates       []Rate        `json:"rates"`
	Curves      []CurvePoint  `json:"curves"`
	Concurrency []Rate        `json:"concurrency"`
	Elapsed     time.Duration `json:"elapsed_ns"`
}

// WriteJSON writes the report, raw samples included, to file.
func (r *Report) WriteJSON(file string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(b, '\n'), 0o644)
}

// Missing lists the cells that apply but have no result: a failed or
// wrong run, an engine that did not start, a rate without samples. A
// peer's crash (Crashed, see Crashes) is a finding about the peer, not a
// missing result.
func (r *Report) Missing() []string {
	var m []string
	m = append(m, r.StartErrors...)
	check := func(kind string, c Cell) {
		if !c.Unsupported && !c.Crashed && !c.OK() {
			m = append(m, fmt.Sprintf("%s %s on %s: %s", kind, c.Workload, c.Engine, c.Err))
		}
	}
	for _, c := range r.Cells {
		check("workload", c)
	}
	for _, c := range r.Curves {
		check("curve", c.Cell)
	}
	for _, rs := range [][]Rate{r.Rates, r.Concurrency} {
		for _, x := range rs {
			if !x.Crashed && (x.Err != "" || len(x.Samples) == 0) {
				m = append(m, fmt.Sprintf("rate %s ×%d on %s: %s", x.Workload, x.Concurrency, x.Engine, x.Err))
			}
		}
	}
	// Every workload of the table needs a result from both runtimes.
	for _, w := range uniq(r.Cells) {
		for _, e := range []string{InProcessName, IsolatedName} {
			if slices.Contains(r.Engines, e) && r.cell(w, e) == nil {
				m = append(m, fmt.Sprintf("workload %s on %s: not measured", w, e))
			}
		}
	}
	return m
}

// Crashes lists the cells whose engine crashed its child process, with
// the crash.
func (r *Report) Crashes() []string {
	var m []string
	for _, c := range r.Cells {
		if c.Crashed {
			m = append(m, fmt.Sprintf("%s %s: %s", c.Engine, c.Workload, c.Err))
		}
	}
	for _, c := range r.Curves {
		if c.Crashed {
			m = append(m, fmt.Sprintf("%s %s: %s", c.Engine, c.Workload, c.Err))
		}
	}
	for _, rs := range [][]Rate{r.Rates, r.Concurrency} {
		for _, x := range rs {
			if x.Crashed {
				m = append(m, fmt.Sprintf("%s %s ×%d: %s", x.Engine, x.Workload, x.Concurrency, x.Err))
			}
		}
	}
	return m
}

func uniq(cs []Cell) []string {
	var names []string
	for _, c := range cs {
		if !slices.Contains(names, c.Workload) {
			names = append(names, c.Workload)
		}
	}
	return names
}

func (r *Report) cell(workload, engine string) *Cell {
	for i := range r.Cells {
		if c := &r.Cells[i]; c.Workload == workload && c.Engine == engine {
			return c
		}
	}
	return nil
}

// Duration formats nanoseconds with three significant digits.
func Duration(ns float64) string {
	switch {
	case ns >= 999.5e6:
		return sig3(ns/1e9) + " s"
	case ns >= 999.5e3:
		return sig3(ns/1e6) + " ms"
	case ns >= 999.5:
		return sig3(ns/1e3) + " µs"
	}
	return sig3(ns) + " ns"
}

// sig3 formats v >= 0 with three significant digits, without exponent.
func sig3(v float64) string {
	switch {
	case v >= 99.95:
		return fmt.Sprintf("%.0f", v)
	case v >= 9.995:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// Bytes formats a byte count.
func Bytes(b float64) string {
	switch {
	case b >= 999.5*(1<<10):
		return sig3(b/(1<<20)) + " MB"
	case b >= 999.5:
		return sig3(b/(1<<10)) + " KB"
	}
	return fmt.Sprintf("%.0f B", b)
}

// ratio formats a/b as a factor.
func ratio(a, b float64) string {
	if b <= 0 || a <= 0 {
		return ""
	}
	r := a / b
	switch {
	case r >= 100:
		return fmt.Sprintf("×%.0f", r)
	case r >= 10:
		return fmt.Sprintf("×%.1f", r)
	}
	return fmt.Sprintf("×%.2f", r)
}

// text is a cell as the table prints it: median ±interval, the ratio to
// the floor, heap bytes and allocations per execution.
func (c *Cell) text(floor *Cell) string {
	switch {
	case c == nil || c.Unsupported:
		return "–"
	case c.Crashed:
		return "crashed"
	case !c.OK():
		return "FAILED"
	}
	s := Duration(c.Summary.Center) + " ±" + c.Summary.PctRangeString()
	if floor != nil && floor.OK() && floor != c {
		s += " " + ratio(c.Summary.Center, floor.Summary.Center)
	}
	return s + fmt.Sprintf(" · %s · %.0f allocs", Bytes(c.BytesPerOp), c.AllocsPerOp)
}

func rateText(r *Rate) string {
	if r == nil {
		return "–"
	}
	if r.Crashed {
		return "crashed"
	}
	if r.Err != "" || len(r.Samples) == 0 {
		return "FAILED"
	}
	return fmt.Sprintf("%s/s ±%s", count(r.Summary.Center), r.Summary.PctRangeString())
}

func count(v float64) string {
	switch {
	case v >= 999.5e3:
		return sig3(v/1e6) + "M"
	case v >= 999.5:
		return sig3(v/1e3) + "k"
	}
	return sig3(v)
}

// mdTable writes a Markdown table with padded columns.
func mdTable(w io.Writer, head []string, rows [][]string) {
	width := make([]int, len(head))
	for i, h := range head {
		width[i] = len([]rune(h))
	}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		b.WriteString("|")
		for i, c := range cells {
			b.WriteString(" " + c + strings.Repeat(" ", width[i]-len([]rune(c))) + " |")
		}
		fmt.Fprintln(w, b.String())
	}
	line(head)
	sep := make([]string, len(head))
	for i := range sep {
		sep[i] = strings.Repeat("-", width[i])
	}
	line(sep)
	for _, r := range rows {
		line(r)
	}
}

// WriteTable writes the report as Markdown: the workloads' table, the
// derived per-call cost, the throughput and the curves.
func (r *Report) WriteTable(w io.Writer) {
	mode := "full"
	if r.Short {
		mode = "--short"
	}
	m := r.Machine
	fmt.Fprintf(w, "toolscript bench (%s run, %v): %s, %d cores, GOMAXPROCS %d, %s, %s, load %s\n\n",
		mode, r.Elapsed.Round(time.Second), m.CPU, m.Cores, m.GOMAXPROCS, m.Go, m.OS, m.Load)
	fmt.Fprintln(w, "Each cell: median time per execution ±95 % interval, ratio to the native floor, heap bytes and allocations per execution (this process; for the isolated runtime the host's side only).")
	fmt.Fprintln(w)
	head := append([]string{"workload"}, r.Engines...)
	var rows [][]string
	for _, name := range uniq(r.Cells) {
		floor := r.cell(name, NativeName)
		row := []string{name}
		for _, e := range r.Engines {
			row = append(row, r.cell(name, e).text(floor))
		}
		rows = append(rows, row)
	}
	mdTable(w, head, rows)
	if crashes := r.Crashes(); len(crashes) > 0 {
		fmt.Fprintln(w, "\nCrashed (the engine's child process died; every other cell was measured):")
		fmt.Fprintln(w)
		for _, c := range crashes {
			fmt.Fprintln(w, "- "+c)
		}
	}
	// The cost of one tool call, as a difference.
	var per []string
	for _, e := range r.Engines {
		calls, loop := r.cell("calls_1000", e), r.cell("loop_1000", e)
		if calls != nil && loop != nil && calls.OK() && loop.OK() {
			d := (calls.Summary.Center - loop.Summary.Center) / 1000
			if d <= 0 {
				per = append(per, e+" below the noise")
				continue
			}
			per = append(per, fmt.Sprintf("%s %s", e, Duration(d)))
		}
	}
	if len(per) > 0 {
		fmt.Fprintf(w, "\nOne tool call ((calls_1000 − loop_1000) / 1000): %s.\n", strings.Join(per, ", "))
	}
	if len(r.Rates) > 0 {
		fmt.Fprintf(w, "\nThroughput, %d executions at once (GOMAXPROCS):\n\n", r.Machine.GOMAXPROCS)
		var rrows [][]string
		for _, name := range uniqRates(r.Rates) {
			row := []string{name}
			for _, e := range r.Engines {
				row = append(row, rateText(findRate(r.Rates, name, e, 0)))
			}
			rrows = append(rrows, row)
		}
		mdTable(w, head, rrows)
	}
	for _, curve := range []string{CurveNamespace, CurveLines, CurveResultBytes} {
		var xs []int
		for _, p := range r.Curves {
			if p.Curve == curve && !slices.Contains(xs, p.X) {
				xs = append(xs, p.X)
			}
		}
		if len(xs) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nCurve %q (%s):\n\n", curve, curveX[curve])
		var crows [][]string
		for _, x := range xs {
			row := []string{fmt.Sprint(x)}
			for _, e := range r.Engines {
				row = append(row, r.point(curve, x, e).text(nil))
			}
			crows = append(crows, row)
		}
		mdTable(w, append([]string{curveX[curve]}, r.Engines...), crows)
		if s, ok := r.Slope(curve, InProcessName); ok && curve == CurveNamespace {
			fmt.Fprintf(w, "\nin-process slope: %s per tool", Duration(s))
			if s2, ok := r.Slope(curve, IsolatedName); ok {
				fmt.Fprintf(w, ", isolated %s per tool", Duration(s2))
			}
			fmt.Fprintln(w, " (least squares over the points).")
		}
	}
	if len(r.Concurrency) > 0 {
		fmt.Fprintf(w, "\nCurve \"concurrency\" (one_call, executions per second with k at once):\n\n")
		var ks []int
		var engines []string
		for _, x := range r.Concurrency {
			if !slices.Contains(ks, x.Concurrency) {
				ks = append(ks, x.Concurrency)
			}
			if !slices.Contains(engines, x.Engine) {
				engines = append(engines, x.Engine)
			}
		}
		var crows [][]string
		for _, k := range ks {
			row := []string{fmt.Sprint(k)}
			for _, e := range engines {
				row = append(row, rateText(findRate(r.Concurrency, "one_call", e, k)))
			}
			crows = append(crows, row)
		}
		mdTable(w, append([]string{"k"}, engines...), crows)
	}
}

var curveX = map[string]string{
	CurveNamespace:   "tools in the namespace",
	CurveLines:       "lines of script",
	CurveResultBytes: "bytes of one tool result",
}

func (r *Report) point(curve string, x int, engine string) *Cell {
	for i := range r.Curves {
		if p := &r.Curves[i]; p.Curve == curve && p.X == x && p.Engine == engine {
			return &p.Cell
		}
	}
	return nil
}

// Slope is the least-squares slope of a curve's medians against X, in
// nanoseconds per unit of X.
func (r *Report) Slope(curve, engine string) (float64, bool) {
	var xs, ys []float64
	for _, p := range r.Curves {
		if p.Curve == curve && p.Engine == engine && p.OK() {
			xs, ys = append(xs, float64(p.X)), append(ys, p.Summary.Center)
		}
	}
	if len(xs) < 2 {
		return 0, false
	}
	var mx, my float64
	for i := range xs {
		mx, my = mx+xs[i], my+ys[i]
	}
	mx, my = mx/float64(len(xs)), my/float64(len(xs))
	var num, den float64
	for i := range xs {
		num += (xs[i] - mx) * (ys[i] - my)
		den += (xs[i] - mx) * (xs[i] - mx)
	}
	if den == 0 || math.IsNaN(num) {
		return 0, false
	}
	return num / den, true
}

func uniqRates(rs []Rate) []string {
	var names []string
	for _, r := range rs {
		if !slices.Contains(names, r.Workload) {
			names = append(names, r.Workload)
		}
	}
	return names
}

// findRate finds a rate; k 0 matches any concurrency.
func findRate(rs []Rate, workload, engine string, k int) *Rate {
	for i := range rs {
		if x := &rs[i]; x.Workload == workload && x.Engine == engine && (k == 0 || x.Concurrency == k) {
			return x
		}
	}
	return nil
}
