package engine

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPackages_CallerCopy checks that Packages gives the caller a copy:
// changing it (a refused path written in, one appended) widens nothing.
func TestPackages_CallerCopy(t *testing.T) {
	before := Packages()
	require.Contains(t, before, "strings")
	require.NotContains(t, before, "os/exec")
	p := Packages()
	for i := range p {
		p[i] = "os/exec"
	}
	_ = append(p[:0], "net/http")
	assert.Equal(t, before, Packages())
	for _, path := range []string{"os/exec", "net/http"} {
		res, err := Execute(context.Background(), fmt.Sprintf("import _ %q\nfmt.Println(1)", path), nil)
		require.NoError(t, err)
		assert.Equal(t, CodeError, res.ReturnCode)
		assert.ErrorIs(t, res.Err, ErrImportNotAllowed, res.Error)
	}
}

// TestPackages_Importable runs a script importing each package of
// Packages, in process.
func TestPackages_Importable(t *testing.T) {
	for _, path := range Packages() {
		res, err := Execute(context.Background(), fmt.Sprintf("import _ %q\nfmt.Println(%q)", path, path), nil)
		require.NoError(t, err)
		assert.Equal(t, CodeOK, res.ReturnCode, "%s: %s", path, res.Error)
		assert.Equal(t, path+"\n", res.Stdout)
	}
}
