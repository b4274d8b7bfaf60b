package harness

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// WriteDir writes into dir what BENCHMARKS.md embeds: table.md (the
// table WriteTable prints), bench.json (WriteJSON) and the plots
// (WritePlots).
func (r *Report) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	r.WriteTable(&b)
	if err := os.WriteFile(filepath.Join(dir, "table.md"), b.Bytes(), 0o644); err != nil {
		return err
	}
	if err := r.WriteJSON(filepath.Join(dir, "bench.json")); err != nil {
		return err
	}
	if err := r.WritePlots(dir); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	return nil
}

// WritePlots writes each curve as curve_<name>.png and .svg into dir.
func (r *Report) WritePlots(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, curve := range []string{CurveNamespace, CurveLines, CurveResultBytes} {
		series := map[string]plotter.XYs{}
		var names []string
		for _, p := range r.Curves {
			if p.Curve != curve || !p.OK() || p.Engine == NativeName {
				continue
			}
			if !slices.Contains(names, p.Engine) {
				names = append(names, p.Engine)
			}
			series[p.Engine] = append(series[p.Engine], plotter.XY{X: float64(p.X), Y: p.Summary.Center / 1e3})
		}
		if len(names) == 0 {
			continue
		}
		title := "cost per execution by " + curveX[curve]
		if err := save(dir, curve, title, curveX[curve], "µs per execution (median, log scale)", decades(series), true, names, series); err != nil {
			return err
		}
	}
	if len(r.Concurrency) > 0 {
		series := map[string]plotter.XYs{}
		var names []string
		for _, x := range r.Concurrency {
			if x.Err != "" || len(x.Samples) == 0 {
				continue
			}
			if !slices.Contains(names, x.Engine) {
				names = append(names, x.Engine)
			}
			series[x.Engine] = append(series[x.Engine], plotter.XY{X: float64(x.Concurrency), Y: x.Summary.Center})
		}
		if len(names) > 0 {
			title := fmt.Sprintf("one_call executions per second, k at once (GOMAXPROCS %d)", r.Machine.GOMAXPROCS)
			if err := save(dir, "concurrency", title, "executions at once (k)", "executions per second (median)", false, false, names, series); err != nil {
				return err
			}
		}
	}
	return nil
}

// decades reports whether the X values of series span two decades or
// more: such an axis is drawn on a log scale.
func decades(series map[string]plotter.XYs) bool {
	lo, hi := 0.0, 0.0
	for _, xys := range series {
		for _, p := range xys {
			if lo == 0 || p.X < lo {
				lo = p.X
			}
			hi = max(hi, p.X)
		}
	}
	return lo > 0 && hi/lo >= 100
}

func save(dir, name, title, xlabel, ylabel string, logX, logY bool, names []string, series map[string]plotter.XYs) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	} else {
		p.Y.Min = 0
	}
	var args []any
	for _, n := range names {
		args = append(args, n, series[n])
	}
	if err := plotutil.AddLinePoints(p, args...); err != nil {
		return err
	}
	p.Legend.Top = true
	p.Legend.Left = true
	for _, ext := range []string{"png", "svg"} {
		if err := p.Save(6*vg.Inch, 3.5*vg.Inch, filepath.Join(dir, "curve_"+name+"."+ext)); err != nil {
			return err
		}
	}
	return nil
}
