package interp

// toolscript patch 46: checkpoints of a package's global state, for an
// interpreter that evaluates one input after another (a session): a
// checkpoint holds the package's symbols and copies of its global
// variables' values, and restoring it undoes whatever later inputs
// declared, redeclared or assigned at package level.

import "reflect"

// State is a checkpoint of one package of an interpreter: its symbol
// table and copies of the values of its global variables (toolscript
// patch 46). It is made by SaveState and used by RestoreState.
type State struct {
	pkg    string
	syms   map[string]*symbol
	saved  map[string]symbol  // the symbols' contents: a redeclaration changes a type's symbol in place
	method map[*itype][]*node // the methods of the package's types: a method declaration adds to its type
	slots  []int              // frame indexes of the global variables
	values []reflect.Value    // their copies, in the order of slots
}

// Vars returns the names of the checkpoint's global variables and their
// kept copies (toolscript patch 46).
func (s *State) Vars() ([]string, []reflect.Value) {
	names := make([]string, 0, len(s.slots))
	byIndex := make(map[int]string, len(s.slots))
	for name, sym := range s.syms {
		if isStateVar(sym) {
			byIndex[sym.index] = name
		}
	}
	for _, i := range s.slots {
		names = append(names, byIndex[i])
	}
	return names, s.values
}

// isStateVar reports whether sym is a global variable with a frame slot.
func isStateVar(sym *symbol) bool {
	return sym.kind == varSym && sym.global && sym.index >= 0
}

// SaveState returns a checkpoint of package pkg (toolscript patch 46):
// its symbols, and copy(v) of the value v of each of its global variables.
// copy must return a value of v's type that the running program cannot
// reach (a deep copy); it is called in the order of the variables' frame
// slots. The interpreter must not be running.
func (interp *Interpreter) SaveState(pkg string, copy func(reflect.Value) reflect.Value) *State {
	interp.mutex.RLock()
	sc := interp.scopes[pkg]
	interp.mutex.RUnlock()
	s := &State{pkg: pkg, syms: map[string]*symbol{}, saved: map[string]symbol{}, method: map[*itype][]*node{}}
	if sc == nil {
		return s
	}
	seen := map[int]bool{}
	for name, sym := range sc.sym {
		s.syms[name] = sym
		s.saved[name] = *sym
		if sym.kind == typeSym && sym.typ != nil {
			s.method[sym.typ] = append([]*node(nil), sym.typ.method...)
		}
		if isStateVar(sym) && !seen[sym.index] {
			seen[sym.index] = true
			s.slots = append(s.slots, sym.index)
		}
	}
	sortInts(s.slots)
	interp.frame.mutex.RLock()
	data := interp.frame.data
	interp.frame.mutex.RUnlock()
	for _, i := range s.slots {
		if i >= len(data) || !data[i].IsValid() {
			s.values = append(s.values, reflect.Value{})
			continue
		}
		s.values = append(s.values, copy(data[i]))
	}
	return s
}

// RestoreState puts the checkpoint s back (toolscript patch 46): the
// package's symbols become those of s (names declared since are gone,
// names redeclared since are the earlier declarations again), and each of
// its global variables is set to copy(kept value), so that s can be
// restored again. The interpreter must not be running.
func (interp *Interpreter) RestoreState(s *State, copy func(reflect.Value) reflect.Value) {
	interp.mutex.Lock()
	sc := interp.scopes[s.pkg]
	interp.mutex.Unlock()
	if sc == nil {
		return
	}
	for name := range sc.sym {
		if _, ok := s.syms[name]; !ok {
			delete(sc.sym, name)
		}
	}
	for name, sym := range s.syms {
		*sym = s.saved[name]
		sc.sym[name] = sym
	}
	for t, m := range s.method {
		t.method = append(t.method[:0:0], m...)
	}
	interp.frame.mutex.Lock()
	defer interp.frame.mutex.Unlock()
	for k, i := range s.slots {
		v := s.values[k]
		if i >= len(interp.frame.data) || !v.IsValid() {
			continue
		}
		slot := interp.frame.data[i]
		if slot.CanSet() && slot.Type() == v.Type() {
			slot.Set(copy(v))
			continue
		}
		nv := reflect.New(v.Type()).Elem()
		nv.Set(copy(v))
		interp.frame.data[i] = nv
	}
}

// sortInts sorts a short slice of ints in place.
func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
