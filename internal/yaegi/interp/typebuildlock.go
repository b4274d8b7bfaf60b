package interp // toolscript patch 206

// typeBuildSteps bounds the walk of needsTypeBuildLock: a type graph
// larger than that is built under the lock, as if recursive.
const typeBuildSteps = 256

// needsTypeBuildLock reports whether building t's reflect type may make
// a recursive type, that is, write a placeholder (unsafe2.DummyType)
// into a type that reflect.StructOf shares with every interpreter:
// only such a build takes typeBuild (patch 189). A build of other types
// makes only complete types, which reflect's constructors share safely,
// and takes no lock: the lock's goroutine id is read from the stack,
// which cost as much as the rest of a short script's compilation.
// It answers true for anything it cannot tell: a type not finished
// (incomplete, nilT), a name met again on the path, a graph too large.
func needsTypeBuildLock(t *itype) bool {
	var path []*itype
	steps := 0
	var walk func(t *itype) bool
	walk = func(t *itype) bool {
		if t == nil {
			return false
		}
		if t.incomplete || t.cat == nilT {
			return true
		}
		if t.rtype != nil || isGeneric(t) {
			return false // built: refType returns it as it is
		}
		if steps++; steps > typeBuildSteps {
			return true
		}
		for _, p := range path {
			if p == t || t.name != "" && p.name == t.name && p.path == t.path {
				return true
			}
		}
		path = append(path, t)
		defer func() { path = path[:len(path)-1] }()
		switch t.cat {
		case linkedT, arrayT, sliceT, variadicT, chanT, chanRecvT, chanSendT, ptrT:
			return walk(t.val)
		case mapT:
			return walk(t.key) || walk(t.val)
		case funcT:
			for _, a := range t.arg {
				if walk(a) {
					return true
				}
			}
			for _, r := range t.ret {
				if walk(r) {
					return true
				}
			}
		case structT:
			for _, f := range t.field {
				if walk(f.typ) {
					return true
				}
			}
		}
		return false
	}
	return walk(t)
}
