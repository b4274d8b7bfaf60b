package isolated

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAddDecisions: entries of the worker's trace that name no frame get
// the decisions of the host's calls no entry named, by tool name in
// order.
func TestAddDecisions(t *testing.T) {
	host := []Call{
		{Name: "ask", Decision: "approved"}, // named by a frame
		{Name: "plain"},
		{Name: "ask", Decision: "refused"},
		{Name: "deny", Decision: "denied"},
		{Name: "ask", Decision: "approved"},
	}
	calls := []Call{
		{Name: "ask", Decision: "approved"}, // filled from its frame
		{Name: "plain"},
		{Name: "ask"},
		{Name: "deny"},
		{Name: "ask"},
	}
	addDecisions(calls, host, []bool{0: true, 4: false})
	var got []string
	for _, c := range calls {
		got = append(got, c.Name+":"+c.Decision)
	}
	assert.Equal(t, []string{"ask:approved", "plain:", "ask:refused", "deny:denied", "ask:approved"}, got)
}
