package peers

import (
	"fmt"
	"strings"

	"github.com/toolscript/toolscript/bench/harness"
)

// curveScript writes the script of a scaling curve's workload (generated
// from its Params, as the harness generates the Go one) in JavaScript
// ("js") or Starlark ("star"); ok is false for a workload of no curve.
func curveScript(lang string, w *harness.Workload) (src string, ok bool) {
	js := lang == "js"
	var b strings.Builder
	switch w.Curve {
	case harness.CurveNamespace:
		// One call of the last of n tools: call_tool's look-up by name
		// is the same for any n.
		name := fmt.Sprintf("tool_%05d", w.Params["tools"]-1)
		if js {
			fmt.Fprintf(&b, "const r = call_tool(%q, {});\nconsole.log(r);\n", name)
		} else {
			fmt.Fprintf(&b, "r = call_tool(%q, {})\nprint(r)\n", name)
		}
	case harness.CurveLines:
		n := w.Params["lines"]
		if js {
			b.WriteString("let x = 1;\n")
		} else {
			b.WriteString("x = 1\n")
		}
		for i := 1; i < n-1; i++ {
			end := ""
			if js {
				end = ";"
			}
			fmt.Fprintf(&b, "x = (x*31 + %d) %% 1000003%s\n", i, end)
		}
		if js {
			b.WriteString("console.log(x);\n")
		} else {
			b.WriteString("print(x)\n")
		}
	case harness.CurveResultBytes:
		if js {
			b.WriteString("const r = call_tool(\"blob\", {});\nconsole.log(r.length);\n")
		} else {
			b.WriteString("r = call_tool(\"blob\", {})\nprint(len(r))\n")
		}
	default:
		return "", false
	}
	return b.String(), true
}
