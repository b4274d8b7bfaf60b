package policy

import "testing"

// TestMayBeScriptMethod: a template's "can't evaluate field" error makes
// the script fail at Execute only when the type may be a script type's
// representation, whose methods the template does not see.
func TestMayBeScriptMethod(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want bool
	}{
		{`template: t:1:2: executing "t" at <.Total>: can't evaluate field Total in type struct { ID int }`, true},
		{`template: t:1:2: executing "t" at <.Len>: can't evaluate field Len in type int`, true},
		{`template: t:1:2: executing "t" at <.N>: can't evaluate field N in type []struct { A int }`, true},
		{`template: t:1:2: executing "t" at <.N>: can't evaluate field N in type *struct { A int }`, true},
		{`template: x:1:8: executing "x" at <.ParseGlob>: can't evaluate field ParseGlob in type *template.Template`, false},
		{`template: t:1:2: executing "t" at <.X>: map has no entry for key "X"`, false},
		{`template: t:1:2: executing "t" at <index . 5>: error calling index: index out of range: 5`, false},
	} {
		if got := mayBeScriptMethod(tc.msg); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.msg, got, tc.want)
		}
	}
}
