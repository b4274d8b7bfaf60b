package interp // toolscript patch 182

import "reflect"

// genShiftCount is genValueUint for the count of a shift: a negative count
// of a signed type panics with Go's run-time error (it was converted to a
// huge unsigned count, and the shift gave 0 or -1).
func genShiftCount(n *node) func(*frame) (reflect.Value, uint64) {
	switch n.typ.TypeOf().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		value := genValue(n)
		return func(f *frame) (reflect.Value, uint64) {
			v := value(f)
			i := v.Int()
			if i < 0 {
				panic(&RuntimeError{Kind: KindNegativeShift})
			}
			return v, uint64(i)
		}
	}
	return genValueUint(n)
}
