package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	require.Equal(t, `paid orders: 2, revenue: 28.00
called shop-list_orders map[status:paid]
called shop-price map[sku:tea]
called shop-price map[sku:cup]
5 functions described
`, out.String())
}
