package interp // toolscript patch 229

import "sort"

// jsonMethodOrder returns the names of methods in the order encoding/json
// looks for them (MarshalJSON before MarshalText, UnmarshalJSON before
// UnmarshalText), so that jsonMethodIn names the one json would call. It
// named either, by the map's order, once a pointer to a struct embedding
// time.Time by value had both (patch 221).
func jsonMethodOrder(methods map[string]string) []string {
	names := make([]string, 0, len(methods))
	for m := range methods {
		names = append(names, m)
	}
	sort.Strings(names)
	return names
}
