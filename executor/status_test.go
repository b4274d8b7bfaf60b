package executor_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/executor"
)

var allStatuses = []executor.Status{executor.Pending, executor.Running, executor.Completed, executor.Failed, executor.Cancelled}

func TestStatus_String(t *testing.T) {
	want := []string{"PENDING", "RUNNING", "COMPLETED", "FAILED", "CANCELLED"}
	for i, s := range allStatuses {
		assert.Equal(t, want[i], s.String())
	}
	assert.Equal(t, "Status(9)", executor.Status(9).String())
}

func TestStatus_Terminal(t *testing.T) {
	for _, s := range allStatuses {
		assert.Equal(t, s == executor.Completed || s == executor.Failed || s == executor.Cancelled, s.Terminal(), s)
	}
}

func TestCanTransition(t *testing.T) {
	legal := map[[2]executor.Status]bool{
		{executor.Pending, executor.Running}:   true,
		{executor.Pending, executor.Cancelled}: true,
		{executor.Pending, executor.Failed}:    true,
		{executor.Running, executor.Completed}: true,
		{executor.Running, executor.Failed}:    true,
		{executor.Running, executor.Cancelled}: true,
	}
	for _, from := range allStatuses {
		for _, to := range allStatuses {
			assert.Equal(t, legal[[2]executor.Status{from, to}], executor.CanTransition(from, to), "%v -> %v", from, to)
		}
	}
}

// TestTask_Transitions drives a Task through every legal transition with
// its public API and checks that every other request is refused.
func TestTask_Transitions(t *testing.T) {
	type step struct {
		op   string // start, finish, finishErr, fail, cancel
		ok   bool
		want executor.Status
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"pending to running to completed", []step{{"start", true, executor.Running}, {"finish", true, executor.Completed}}},
		{"pending to running to failed by error", []step{{"start", true, executor.Running}, {"finishErr", true, executor.Failed}}},
		{"pending to running to failed by Fail", []step{{"start", true, executor.Running}, {"fail", true, executor.Failed}}},
		{"pending to running to cancelled", []step{{"start", true, executor.Running}, {"cancel", true, executor.Cancelled}}},
		{"pending to cancelled", []step{{"cancel", true, executor.Cancelled}, {"start", false, executor.Cancelled}}},
		{"pending to failed", []step{{"fail", true, executor.Failed}, {"start", false, executor.Failed}}},
		{"pending cannot complete", []step{{"finish", false, executor.Pending}, {"finishErr", false, executor.Pending}}},
		{"running cannot start again", []step{{"start", true, executor.Running}, {"start", false, executor.Running}}},
		{"completed is final", []step{{"start", true, executor.Running}, {"finish", true, executor.Completed},
			{"cancel", false, executor.Completed}, {"fail", false, executor.Completed}, {"finishErr", false, executor.Completed}, {"start", false, executor.Completed}}},
		{"failed is final", []step{{"fail", true, executor.Failed}, {"cancel", false, executor.Failed}, {"finish", false, executor.Failed}}},
		{"cancelled is final", []step{{"cancel", true, executor.Cancelled}, {"cancel", false, executor.Cancelled}, {"fail", false, executor.Cancelled}, {"finish", false, executor.Cancelled}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			task := executor.NewTask()
			require.Equal(t, executor.Pending, task.Status())
			for _, s := range tt.steps {
				var ok bool
				switch s.op {
				case "start":
					_, ok = task.Start()
				case "finish":
					ok = task.Finish(42, nil)
				case "finishErr":
					ok = task.Finish(nil, errSentinel)
				case "fail":
					ok = task.Fail(errSentinel)
				case "cancel":
					ok = task.Cancel()
				}
				assert.Equal(t, s.ok, ok, s.op)
				assert.Equal(t, s.want, task.Status(), "after %s", s.op)
			}
			if task.Status().Terminal() {
				select {
				case <-task.Done():
				default:
					t.Fatal("Done not closed in a final status")
				}
			}
		})
	}
}

func TestTask_Result(t *testing.T) {
	task := executor.NewTask(executor.WithID("t1"))
	assert.Equal(t, "t1", task.ID())
	_, err := task.Result(10 * time.Millisecond)
	require.ErrorIs(t, err, executor.ErrResultTimeout)
	assert.Equal(t, executor.Pending, task.Status(), "a result timeout does not touch the execution")

	ec, ok := task.Start()
	require.True(t, ok)
	assert.Equal(t, "t1", ec.ID())
	go task.Finish("v", nil)
	v, err := task.Result(0)
	require.NoError(t, err)
	assert.Equal(t, "v", v)
	assert.True(t, ec.Cancelled(), "the context ends with the execution")

	cancelled := executor.NewTask()
	cancelled.Cancel()
	_, err = cancelled.Result(0)
	var ce *executor.CancelledError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, cancelled.ID(), ce.ID)
	require.ErrorIs(t, err, executor.ErrCancelled)
	assert.Contains(t, err.Error(), "executor: execution exec-")

	failed := executor.NewTask()
	failed.Fail(nil)
	_, err = failed.Result(0)
	require.Error(t, err)
}

func TestTask_FinishAfterContextCancelledIsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	task := executor.NewTask(executor.WithContext(ctx))
	ec, ok := task.Start()
	require.True(t, ok)
	cancel(errSentinel)
	require.ErrorIs(t, ec.CheckCancelled(), errSentinel)
	task.Finish(nil, ec.CheckCancelled()) // may lose the race with the context watcher; same outcome
	assert.Equal(t, executor.Cancelled, task.Status())
	_, err := task.Result(0)
	require.ErrorIs(t, err, executor.ErrCancelled)
	require.ErrorIs(t, err, errSentinel)
}

func TestTask_OnProgress(t *testing.T) {
	task := executor.NewTask()
	var early, late []executor.Progress
	task.OnProgress(func(p executor.Progress) { early = append(early, p) })
	task.OnProgress(nil) // ignored
	ec, _ := task.Start()
	ec.ReportProgress(-1, "clamped low", nil)
	ec.ReportProgress(0.5, "half", "d")
	ec.ReportProgress(7, "clamped high", nil)
	task.OnProgress(func(p executor.Progress) { late = append(late, p) })
	require.Len(t, early, 3)
	assert.Equal(t, []float64{0, 0.5, 1}, []float64{early[0].Fraction, early[1].Fraction, early[2].Fraction})
	assert.Equal(t, "d", early[1].Detail)
	require.Len(t, late, 1, "a late callback sees the latest report at once")
	assert.Equal(t, "clamped high", late[0].Message)
	task.Finish(nil, nil)
	ec.ReportProgress(0.9, "after the end", nil)
	assert.Len(t, early, 3, "reports after the end are dropped")
	var after []executor.Progress
	task.OnProgress(func(p executor.Progress) { after = append(after, p) })
	assert.Len(t, after, 1, "a callback registered after the end still sees the latest report")
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		is     []error
		prefix string
	}{
		{"timeout", executor.ErrTimeout, []error{context.DeadlineExceeded}, "executor: "},
		{"timeout error", &executor.TimeoutError{Timeout: time.Second}, []error{executor.ErrTimeout, context.DeadlineExceeded}, "executor: execution timed out after 1s"},
		{"cancelled by a timeout", &executor.CancelledError{ID: "y", Err: &executor.TimeoutError{Timeout: time.Second}}, []error{executor.ErrCancelled, executor.ErrTimeout, context.DeadlineExceeded}, "executor: execution y cancelled: executor: execution timed out after 1s"},
		{"cancelled", &executor.CancelledError{ID: "x", Err: executor.ErrShutdown}, []error{executor.ErrCancelled, executor.ErrShutdown}, "executor: execution x cancelled"},
		{"panic of error", &executor.FuncPanicError{Value: errSentinel}, []error{errSentinel}, "executor: panic: sentinel"},
		{"result timeout", executor.ErrResultTimeout, nil, "executor: "},
		{"remote", &executor.RemoteError{Message: "Tool Failed"}, nil, "Tool Failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, target := range tt.is {
				assert.ErrorIs(t, tt.err, target)
			}
			assert.Contains(t, tt.err.Error(), tt.prefix)
		})
	}
	assert.False(t, errors.Is(executor.ErrShutdown, executor.ErrCancelled))
	assert.Nil(t, (&executor.FuncPanicError{Value: "x"}).Unwrap())
}

// TestTimeoutError_As checks that the sentinel ErrTimeout has an exported
// type: errors.As finds the bound of a run that timed out.
func TestTimeoutError_As(t *testing.T) {
	h := executor.NewInlineBackend().Submit(sleepCoop, map[string]any{"ms": 60_000}, executor.WithTimeout(time.Millisecond))
	_, err := h.Result(0)
	var te *executor.TimeoutError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, time.Millisecond, te.Timeout)
	assert.ErrorIs(t, err, executor.ErrTimeout)
	require.ErrorAs(t, executor.ErrTimeout, &te)
}
