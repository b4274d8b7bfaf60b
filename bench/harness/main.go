package harness

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/toolscript/toolscript/engine"
)

// Main runs the CLI with extra engines (peers) and returns the exit
// status; bench/cmd/bench calls harness.Main(os.Args[1:], nil). It first
// hands a worker process of the isolated runtime to
// engine.MaybeServeWorker, so it must run before anything else of main.
// Main closes the extra engines. The runner measures each cell of an
// extra engine in a child process of its own binary (see inChild), which
// Main serves too.
func Main(args []string, extra []Engine) int {
	engine.MaybeServeWorker()
	if len(args) > 0 && args[0] == childArg {
		defer func() {
			for _, e := range extra {
				e.Close()
			}
		}()
		return serveChild(args[1:], extra, os.Stderr)
	}
	return run(args, extra, os.Stdout, os.Stderr)
}

// options are the command's flags.
type options struct {
	short, check, peers, curves bool
	jsonFile, outDir            string
	cpuProfile, memProfile      string
	workload, engine            string
	filter, engines             *regexp.Regexp
	// extraInProcess measures the extra engines in this process (the
	// tests' fakes), not in child processes.
	extraInProcess bool
}

func run(args []string, extra []Engine, stdout, stderr io.Writer) int {
	defer func() {
		for _, e := range extra {
			e.Close()
		}
	}()
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	var filter, engines string
	fs.BoolVar(&o.short, "short", false, "fewer and shorter samples, fewer curve points (under a minute on 2 cores)")
	fs.BoolVar(&o.check, "check", false, "exit 1 when any cell that applies has no result (for CI)")
	fs.BoolVar(&o.peers, "peers", false, "run the peers module's runner (bench/peers), which adds the peers' columns")
	fs.BoolVar(&o.curves, "curves", true, "measure the scaling curves")
	fs.StringVar(&o.jsonFile, "json", "", "write the raw samples as JSON to `file`")
	fs.StringVar(&o.outDir, "out", "", "write everything BENCHMARKS.md embeds into `dir`: table.md (the table printed), bench.json (the raw samples) and the curves as PNG and SVG plots")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of --workload to `file` (no table)")
	fs.StringVar(&o.memProfile, "memprofile", "", "write a heap (allocation) profile of --workload to `file` (no table)")
	fs.StringVar(&o.workload, "workload", "", "the workload to profile")
	fs.StringVar(&o.engine, "engine", InProcessName, "the engine to profile")
	fs.StringVar(&filter, "filter", "", "only workloads (and curve points) whose name matches this `regexp`")
	fs.StringVar(&engines, "engines", "", "only engines whose name matches this `regexp`")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bench [flags]\n\nRuns toolscript's benchmark workloads and prints the table (see BENCHMARKS.md).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	var err error
	if o.filter, err = regexp.Compile(filter); err != nil {
		fmt.Fprintln(stderr, "bench: --filter:", err)
		return 2
	}
	if o.engines, err = regexp.Compile(engines); err != nil {
		fmt.Fprintln(stderr, "bench: --engines:", err)
		return 2
	}
	if o.peers {
		return runPeers(args, stdout, stderr)
	}
	ctx := context.Background()
	if o.cpuProfile != "" || o.memProfile != "" {
		return profile(ctx, o, extra, stdout, stderr)
	}
	rep, err := bench(ctx, o, extra, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	rep.WriteTable(stdout)
	if o.jsonFile != "" {
		if err := rep.WriteJSON(o.jsonFile); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
	}
	if o.outDir != "" {
		if err := rep.WriteDir(o.outDir); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
		fmt.Fprintln(stderr, "bench: table.md, bench.json and plots written to", o.outDir)
	}
	if missing := rep.Missing(); len(missing) > 0 {
		fmt.Fprintf(stderr, "bench: %d cells without a result:\n", len(missing))
		for _, m := range missing {
			fmt.Fprintln(stderr, "  "+m)
		}
		if o.check {
			return 1
		}
	}
	return 0
}

// openEngines starts the built-in engines and adds extra, keeping those
// --engines selects. An engine that cannot start is reported in errs.
func openEngines(o options, extra []Engine) (es []Engine, errs map[string]error) {
	errs = map[string]error{}
	want := func(name string) bool { return o.engines.MatchString(name) }
	if want(NativeName) {
		es = append(es, Native{})
	}
	if want(InProcessName) {
		es = append(es, NewInProcess())
	}
	if want(IsolatedName) {
		if iso, err := NewIsolated(); err != nil {
			errs[IsolatedName] = err
		} else {
			es = append(es, iso)
		}
	}
	if want(RegistryName) {
		es = append(es, &Registry{})
	}
	for _, e := range extra {
		if want(e.Name()) {
			es = append(es, e)
		}
	}
	return es, errs
}

// progress reports the runner's steps: a bar on a terminal, else one
// plain line per step.
type progress struct {
	bar   *progressbar.ProgressBar
	w     io.Writer
	n, of int
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, of: total}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish(), progressbar.OptionSetWidth(30))
	}
	return p
}

// step says what is measured next.
func (p *progress) step(what string) {
	p.n++
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("%-40s", what))
		p.bar.Add(1)
		return
	}
	fmt.Fprintf(p.w, "[%d/%d] %s\n", p.n, p.of, what)
}

func (p *progress) done() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

// bench measures every selected cell.
func bench(ctx context.Context, o options, extra []Engine, stderr io.Writer) (*Report, error) {
	start := time.Now()
	s := FullSettings
	if o.short {
		s = ShortSettings
	}
	es, startErrs := openEngines(o, extra)
	defer func() {
		for _, e := range es {
			if !slices.Contains(extra, e) {
				e.Close()
			}
		}
	}()
	rep := &Report{Machine: ThisMachine(), Short: o.short, Settings: s}
	for _, e := range es {
		rep.Engines = append(rep.Engines, e.Name())
	}
	for name, err := range startErrs {
		rep.Engines = append(rep.Engines, name)
		rep.StartErrors = append(rep.StartErrors, name+": "+err.Error())
	}
	var rows, curves []*Workload
	for _, w := range Workloads() {
		if (!o.short || w.Short) && o.filter.MatchString(w.Name) {
			rows = append(rows, w)
		}
	}
	if o.curves {
		for _, w := range Curves(o.short) {
			if o.filter.MatchString(w.Name) {
				curves = append(curves, w)
			}
		}
	}
	rateWorkloads := []string{"trivial", "one_call"}
	levels := concurrencyLevels()
	total := (len(rows) + len(curves)) * len(es)
	total += len(rateWorkloads) * len(es)
	if o.curves {
		total += len(levels) * len(es)
	}
	p := newProgress(stderr, total)
	defer p.done()
	// An extra engine (a peer) is measured in child processes: one that
	// crashes costs its cell, not the run.
	child := func(e Engine) bool { return !o.extraInProcess && slices.Contains(extra, e) }
	cell := func(w *Workload, e Engine) Cell {
		p.step(e.Name() + " " + w.Name)
		if child(e) {
			var c Cell
			crash, err := inChild(ctx, "cell", e.Name(), w.Name, 0, o.short, &c)
			switch {
			case err != nil:
				return Cell{Workload: w.Name, Engine: e.Name(), Err: err.Error()}
			case crash != "":
				return Cell{Workload: w.Name, Engine: e.Name(), Crashed: true, Err: crash}
			}
			c.summarize()
			return c
		}
		runFn, err := e.Prepare(w)
		if errors.Is(err, ErrUnsupported) {
			return Cell{Workload: w.Name, Engine: e.Name(), Unsupported: true}
		}
		if err != nil {
			return Cell{Workload: w.Name, Engine: e.Name(), Err: err.Error()}
		}
		return Measure(ctx, w, e.Name(), runFn, s)
	}
	for _, w := range rows {
		for _, e := range es {
			rep.Cells = append(rep.Cells, cell(w, e))
		}
	}
	for _, w := range curves {
		for _, e := range es {
			c := cell(w, e)
			rep.Curves = append(rep.Curves, CurvePoint{Curve: w.Curve, X: w.X, Cell: c})
		}
	}
	rate := func(name string, k int, e Engine) (Rate, bool) {
		w, _ := WorkloadByName(name)
		p.step(fmt.Sprintf("%s %s ×%d", e.Name(), name, k))
		if child(e) {
			var r Rate
			crash, err := inChild(ctx, "rate", e.Name(), name, k, o.short, &r)
			switch {
			case err != nil:
				return Rate{Workload: name, Engine: e.Name(), Concurrency: k, Err: err.Error()}, true
			case crash != "":
				return Rate{Workload: name, Engine: e.Name(), Concurrency: k, Crashed: true, Err: crash}, true
			case r.Unsupported:
				return Rate{}, false
			}
			r.summarize()
			return r, true
		}
		runFn, err := e.Prepare(w)
		if errors.Is(err, ErrUnsupported) {
			return Rate{}, false
		}
		if err != nil {
			return Rate{Workload: name, Engine: e.Name(), Concurrency: k, Err: err.Error()}, true
		}
		return MeasureRate(ctx, w, e.Name(), runFn, k, s), true
	}
	for _, name := range rateWorkloads {
		if !o.filter.MatchString(name) {
			p.n += len(es)
			continue
		}
		for _, e := range es {
			if r, ok := rate(name, runtime.GOMAXPROCS(0), e); ok {
				rep.Rates = append(rep.Rates, r)
			}
		}
	}
	if o.curves && o.filter.MatchString("concurrency") {
		for _, k := range levels {
			for _, e := range es {
				if e.Name() == NativeName || e.Name() == RegistryName {
					p.step("skip " + e.Name())
					continue // the curve is about executions of scripts
				}
				if r, ok := rate("one_call", k, e); ok {
					rep.Concurrency = append(rep.Concurrency, r)
				}
			}
		}
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// concurrencyLevels are 1 to 2×GOMAXPROCS executions at once (at most
// eight points).
func concurrencyLevels() []int {
	n := 2 * runtime.GOMAXPROCS(0)
	step := max(1, n/8)
	var ks []int
	for k := 1; k <= n; k += step {
		ks = append(ks, k)
	}
	if ks[len(ks)-1] != n {
		ks = append(ks, n)
	}
	return ks
}

// profile runs one workload on one engine under the CPU or heap profiler.
func profile(ctx context.Context, o options, extra []Engine, stdout, stderr io.Writer) int {
	w, ok := WorkloadByName(o.workload)
	if !ok {
		fmt.Fprintf(stderr, "bench: --cpuprofile and --memprofile need --workload NAME (one of the table's or curves' names); got %q\n", o.workload)
		return 2
	}
	o.engines = regexp.MustCompile("^" + regexp.QuoteMeta(o.engine) + "$")
	es, errs := openEngines(o, extra)
	defer func() {
		for _, e := range es {
			if !slices.Contains(extra, e) {
				e.Close()
			}
		}
	}()
	if len(es) == 0 {
		fmt.Fprintf(stderr, "bench: no engine %q %v\n", o.engine, errs)
		return 2
	}
	e := es[0]
	runFn, err := e.Prepare(w)
	if err != nil {
		fmt.Fprintf(stderr, "bench: %s %s: %v\n", e.Name(), w.Name, err)
		return 1
	}
	if err := Check(ctx, w, runFn); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	d := 3 * time.Second
	if o.short {
		d = time.Second
	}
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
	}
	n := 0
	for start := time.Now(); time.Since(start) < d; n++ {
		out, err := runFn(ctx)
		if err := verify(w, out, err); err != nil {
			pprof.StopCPUProfile()
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
	}
	if o.cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	if o.memProfile != "" {
		runtime.GC()
		if err := writeProfile(o.memProfile, "allocs"); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "%s on %s: %d executions in %v (%v each)\n", w.Name, e.Name(), n, d, d/time.Duration(max(n, 1)))
	for _, f := range []string{o.cpuProfile, o.memProfile} {
		if f != "" {
			fmt.Fprintf(stdout, "go tool pprof -top %s\n", f)
		}
	}
	return 0
}

func writeProfile(file, name string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := pprof.Lookup(name).WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// runPeers runs the peers module's command with the same flags (less
// --peers), in bench/peers, or says how to.
func runPeers(args []string, stdout, stderr io.Writer) int {
	rest := absPaths(args)
	dir := findPeers()
	how := "cd bench/peers && go run ./cmd/bench " + fmt.Sprint(rest)
	if dir == "" {
		fmt.Fprintln(stderr, "bench: --peers: no bench/peers/go.mod above the current directory; from a checkout of toolscript run:\n  "+how)
		return 2
	}
	cmd := exec.Command("go", append([]string{"run", "./cmd/bench"}, rest...)...)
	cmd.Dir, cmd.Stdout, cmd.Stderr, cmd.Stdin = dir, stdout, stderr, os.Stdin
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		fmt.Fprintln(stderr, "bench: --peers:", err, "\n  "+how)
		return 1
	}
	return 0
}

// findPeers looks for bench/peers/go.mod in the current directory and
// its parents.
func findPeers() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "bench", "peers", "go.mod")); err == nil {
			return filepath.Join(dir, "bench", "peers")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// absPaths drops --peers from args and makes the file flags' paths
// absolute, so that they stay relative to where the command was run.
func absPaths(args []string) []string {
	files := map[string]bool{"json": true, "out": true, "cpuprofile": true, "memprofile": true}
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case !strings.HasPrefix(a, "-"):
		case name == "peers":
			continue
		case files[name] && hasVal:
			a = "--" + name + "=" + abs(val)
		case files[name] && i+1 < len(args):
			rest = append(rest, a)
			i++
			a = abs(args[i])
		}
		rest = append(rest, a)
	}
	return rest
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
