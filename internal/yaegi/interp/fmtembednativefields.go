package interp // toolscript patch 188

// toolscript patch 188: a script struct that embeds a native type with a
// method fmt calls is printed by a copy of its fields (the methods of
// patch 187 aside): the struct that represents it in the interpreter has
// the first embedded field's methods promoted by reflect, also where Go
// promotes none (two at the same depth, a pointer-receiver method of a
// field embedded by value, one hidden by a field), and for a pointer
// field a method table that fmt cannot read (%d of struct{ *bytes.Buffer }
// crashed the process); given directly with a verb that calls no method
// (%d), it printed the interpreter's own wrapper of the value.

// fmtRepPromotes tells whether the struct t embeds a native field with a
// method fmt calls, in t's method set or not (a pointer-receiver method
// of a field embedded by value, two at the same depth, one hidden by a
// field): the struct that represents t may have it promoted, or a method
// table fmt cannot read, so a value of t is printed converted, by its
// fields (and by the method, when Go promotes it).
func fmtRepPromotes(t *itype) bool {
	for _, name := range []string{"Format", "GoString", "Error", "String"} {
		if _, decided := fmtNativeMethodOf(t, name); decided {
			return true
		}
	}
	return false
}
