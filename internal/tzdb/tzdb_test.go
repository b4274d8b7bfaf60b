package tzdb

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoadLocation(t *testing.T) {
	ref := time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		offset  int // seconds east of UTC at ref
		same    *time.Location
		wantErr string
	}{
		{name: "", same: time.UTC},
		{name: "UTC", same: time.UTC},
		{name: "Local", same: time.Local},
		{name: "America/New_York", offset: -4 * 3600},
		{name: "Europe/Paris", offset: 2 * 3600},
		{name: "Asia/Kolkata", offset: 5*3600 + 1800},
		{name: "Etc/GMT+3", offset: -3 * 3600},
		{name: "Nowhere/Atlantis", wantErr: "unknown time zone Nowhere/Atlantis"},
		{name: "../../etc/passwd", wantErr: "time: invalid location name"},
		{name: "/etc/passwd", wantErr: "time: invalid location name"},
		{name: "zone1970.tab", wantErr: "unknown time zone zone1970.tab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc, err := LoadLocation(tt.name)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				assert.Nil(t, loc)
				return
			}
			require.NoError(t, err)
			if tt.same != nil {
				assert.Same(t, tt.same, loc)
				return
			}
			assert.Equal(t, tt.name, loc.String())
			_, off := ref.In(loc).Zone()
			assert.Equal(t, tt.offset, off)
		})
	}
}

func TestNames(t *testing.T) {
	names := Names()
	assert.Greater(t, len(names), 300)
	assert.Contains(t, names, "Europe/London")
	for _, n := range names {
		_, err := LoadLocation(n)
		require.NoError(t, err, n)
	}
}
