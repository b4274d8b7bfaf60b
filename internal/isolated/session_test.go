package isolated

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSessionRequest_RoundTrip(t *testing.T) {
	sr := &SessionRequest{Session: 7, MaxStateBytes: -1}
	req := &RunRequest{Code: "x := 1", Limits: json.RawMessage(`{"Timeout":1}`), Grace: 5, Deadline: 9}
	var got RunRequest
	require.NoError(t, decodeRun(sessionCall, sr.encode(req), &got))
	require.NotNil(t, got.session)
	assert.Equal(t, uint64(7), got.session.Session)
	assert.Equal(t, int64(-1), got.session.MaxStateBytes)
	assert.Equal(t, "x := 1", got.Code)
	assert.Equal(t, req.Deadline, got.Deadline)
	assert.JSONEq(t, `{"Timeout":1}`, string(got.Limits))

	// A run call's args are a plain RunRequest: no session.
	b, _ := json.Marshal(req)
	var plain RunRequest
	require.NoError(t, decodeRun(runCall, b, &plain))
	assert.Nil(t, plain.session)
}

func TestParseSessionRequest_Refuses(t *testing.T) {
	for _, in := range []string{``, `null`, `[]`, `{}`, `{"session":0,"limits":{}}`, `{"session":3}`, `{"session":-1,"limits":{}}`, `{"session":"1","limits":{}}`} {
		_, err := parseSessionRequest([]byte(in))
		assert.ErrorIs(t, err, errBadSession, "%q", in)
	}
	sr, err := parseSessionRequest([]byte(`{"session":3,"limits":{},"code":"1"}`))
	require.NoError(t, err)
	assert.Equal(t, uint64(3), sr.Session)
}

// FuzzParseSessionRequest checks that any bytes decode to a valid request
// or to errBadSession, never a panic, and that a valid one survives a
// round trip.
func FuzzParseSessionRequest(f *testing.F) {
	f.Add([]byte(`{"session":1,"limits":{"Timeout":5},"code":"x := 1","tools":[{"name":"a"}]}`))
	f.Add([]byte(`{"session":18446744073709551615,"limits":null}`))
	f.Add([]byte(`{"session":1,"limits":{},"max_state_bytes":-5,"deadline":-1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		sr, err := parseSessionRequest(b)
		if err != nil {
			assert.ErrorIs(t, err, errBadSession)
			return
		}
		require.NotZero(t, sr.Session)
		again, err := parseSessionRequest(sr.encode(&sr.RunRequest))
		require.NoError(t, err)
		assert.Equal(t, sr.Session, again.Session)
		assert.Equal(t, sr.MaxStateBytes, again.MaxStateBytes)
		assert.Equal(t, sr.Code, again.Code)
	})
}
