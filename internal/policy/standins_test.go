package policy

import "testing"

// TestStandIns checks that each stand-in type's methods are methods of
// the type it stands for, of the same signatures: an assertion the
// stand-in passes, the real type passes too, so the interpreter need only
// check the assertions the stand-in fails (interp.Options.StandIns).
func TestStandIns(t *testing.T) {
	if len(StandIns()) == 0 {
		t.Fatal("no stand-ins")
	}
	for st, rt := range StandIns() {
		if st.String() != rt.String() {
			t.Errorf("%v stands for %v: scripts see another name", st, rt)
		}
		for i := 0; i < st.NumMethod(); i++ {
			m := st.Method(i)
			r, ok := rt.MethodByName(m.Name)
			if !ok {
				t.Errorf("%v has %s, %v has not", st, m.Name, rt)
				continue
			}
			if m.Type.NumIn() != r.Type.NumIn() || m.Type.NumOut() != r.Type.NumOut() {
				t.Errorf("%v.%s is %v, %v's is %v", st, m.Name, m.Type, rt, r.Type)
				continue
			}
			for j := 1; j < m.Type.NumIn(); j++ {
				if m.Type.In(j) != r.Type.In(j) {
					t.Errorf("%v.%s is %v, %v's is %v", st, m.Name, m.Type, rt, r.Type)
				}
			}
			for j := 0; j < m.Type.NumOut(); j++ {
				if m.Type.Out(j) != r.Type.Out(j) {
					t.Errorf("%v.%s is %v, %v's is %v", st, m.Name, m.Type, rt, r.Type)
				}
			}
		}
	}
}
