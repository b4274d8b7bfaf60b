package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNearest(t *testing.T) {
	names := []string{"Contains", "ContainsAny", "Count", "Fields", "ID", "Total", "strings"}
	for _, tc := range []struct{ name, want string }{
		{"Contain", "Contains"}, {"Feilds", "Fields"}, {"Id", "ID"}, {"Totl", "Total"},
		{"strngs", "strings"}, {"Fetch", ""}, {"X", ""}, {"Count", ""},
	} {
		assert.Equal(t, tc.want, Nearest(tc.name, names), tc.name)
	}
}

func TestHint(t *testing.T) {
	assert.Equal(t, " (did you mean id?)", Hint("idd", []string{"id", "limit"}))
	assert.Equal(t, "", Hint("query", []string{"id", "limit"}))
}
