package harness

import (
	"bytes"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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
		if err := save(dir, curve, title, curveX[curve], "µs per execution (median, log scale)", spansDecades(series, func(p plotter.XY) float64 { return p.X }), true, names, series); err != nil {
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
			ylabel := "executions per second (median)"
			if spansDecades(series, func(p plotter.XY) float64 { return p.Y }) {
				ylabel = "executions/s (median, log scale)"
			}
			if err := save(dir, "concurrency", title, "executions at once (k)", ylabel, false, spansDecades(series, func(p plotter.XY) float64 { return p.Y }), names, series); err != nil {
				return err
			}
		}
	}
	return nil
}

// plainLogTicks are plot.LogTicks labelled without exponents
// ("1000000", not "1e+06").
type plainLogTicks struct{}

// Ticks implements plot.Ticker: plot.LogTicks' ticks, their labels in plain digits.
func (plainLogTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.LogTicks{Prec: -1}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', -1, 64)
		}
	}
	return ticks
}

// spansDecades reports whether the values (X or Y) of series span two
// decades or more: such an axis is drawn on a log scale.
func spansDecades(series map[string]plotter.XYs, v func(plotter.XY) float64) bool {
	lo, hi := 0.0, 0.0
	for _, xys := range series {
		for _, p := range xys {
			x := v(p)
			if lo == 0 || x < lo {
				lo = x
			}
			hi = max(hi, x)
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
		p.X.Tick.Marker = plainLogTicks{}
	}
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plainLogTicks{}
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
	// The legend goes right of the plot, where it hides no line.
	legend := p.Legend
	legend.Top = true
	p.Legend = plot.NewLegend()
	width := legend.Rectangle(draw.Canvas{}).Size().X + 0.2*vg.Inch
	for _, ext := range []string{"png", "svg"} {
		cw, err := draw.NewFormattedCanvas(6*vg.Inch+width, 3.5*vg.Inch, ext)
		if err != nil {
			return err
		}
		c := draw.New(cw)
		c.SetColor(color.White)
		c.Fill(c.Rectangle.Path())
		p.Draw(draw.Crop(c, 0, -width, 0, 0))
		legend.Draw(draw.Crop(c, c.Max.X-c.Min.X-width+0.1*vg.Inch, 0, 0, -0.3*vg.Inch))
		f, err := os.Create(filepath.Join(dir, "curve_"+name+"."+ext))
		if err != nil {
			return err
		}
		_, err = cw.WriteTo(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
