package schema_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/toolscript/toolscript/internal/schema"
)

// FuzzSchema_Validate checks that any JSON arguments object validates or
// fails with a *ValidationError, and never panics.
func FuzzSchema_Validate(f *testing.F) {
	f.Add([]byte(`{"customer":"a","items":[{"sku":"x","qty":1}]}`))
	f.Add([]byte(`{"items":[{"qty":1.5},null,[]],"addr":{"next":{"next":{"city":1}}}}`))
	f.Add([]byte(`{"one":1,"both":2,"id":"x","labels":{"a":null}}`))
	s := schema.MustCompile(json.RawMessage(orderSchema))
	f.Fuzz(func(t *testing.T, data []byte) {
		var args map[string]any
		if json.Unmarshal(data, &args) != nil {
			return
		}
		err := s.Validate(args)
		var ve *schema.ValidationError
		if err != nil && (!errors.As(err, &ve) || !errors.Is(err, schema.ErrInvalid)) {
			t.Fatalf("unexpected error type %T: %v", err, err)
		}
	})
}
