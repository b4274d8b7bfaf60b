//go:build unix

package proc_test

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/toolscript/toolscript/internal/proc"
)

const childEnv = "TOOLSCRIPT_PROC_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		time.Sleep(time.Minute) // a child: wait to be killed
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

func child(t *testing.T) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = []string{childEnv + "=1"}
	return cmd
}

// TestSpawnerStartsInOwnGroup checks that a started child leads its own
// process group and that KillGroup ends it.
func TestSpawnerStartsInOwnGroup(t *testing.T) {
	s := proc.NewSpawner()
	defer s.Close()
	cmd := child(t)
	require.NoError(t, s.Start(cmd))
	pgid, err := syscall.Getpgid(cmd.Process.Pid)
	require.NoError(t, err)
	assert.Equal(t, cmd.Process.Pid, pgid, "the child must lead its own process group")
	proc.KillGroup(cmd)
	err = cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	ws, ok := exit.Sys().(syscall.WaitStatus)
	require.True(t, ok)
	assert.Equal(t, syscall.SIGKILL, ws.Signal())
}

// TestSpawnerClosed checks that Close is idempotent, ends the spawning
// goroutine (goleak in TestMain) and refuses later starts.
func TestSpawnerClosed(t *testing.T) {
	s := proc.NewSpawner()
	s.Close()
	s.Close()
	cmd := child(t)
	require.ErrorIs(t, s.Start(cmd), proc.ErrClosed)
	assert.Nil(t, cmd.Process, "nothing may start after Close")
}

// TestSpawnerReportsStartErrors checks that a command that cannot start
// returns its error.
func TestSpawnerReportsStartErrors(t *testing.T) {
	s := proc.NewSpawner()
	defer s.Close()
	err := s.Start(exec.Command("/nonexistent/toolscript-proc-test"))
	require.Error(t, err)
	assert.NotErrorIs(t, err, proc.ErrClosed)
}
