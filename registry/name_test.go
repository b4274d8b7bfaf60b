package registry_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/registry"
)

var openAIName = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

func TestNormalizeToolName(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// The Python ToolRegistry's documented examples, verbatim.
		{"python doc acronym with underscore", "HTTP_Request", "http_request"},
		{"python doc openapi duplicate", "add_add_get", "add_get"},
		{"python doc camel case", "calculateTotal", "calculate_total"},
		{"python doc acronym then word", "OpenAPI service", "open_api_service"},
		{"python doc spaces", "get user info", "get_user_info"},
		{"python doc dot", "process.data", "process_data"},
		{"python doc at sign", "encode@url", "encode_url"},
		// Beyond those.
		{"already normalized", "math_ops", "math_ops"},
		{"pascal case", "Multiply", "multiply"},
		{"acronym inside", "parseHTTPResponse", "parse_http_response"},
		{"digits stay attached", "base64Encode", "base64_encode"},
		{"digit then upper", "HTTP2Server", "http2_server"},
		{"dash separator", "math_ops-multiply", "math_ops_multiply"},
		{"runs of separators", "  a -- b..c  ", "a_b_c"},
		{"non ascii separates", "café menu", "caf_menu"},
		{"repeated word", "get_get_get", "get"},
		{"repeat across case", "Add_add", "add"},
		{"non consecutive repeat kept", "a_b_a", "a_b_a"},
		{"all caps", "URL", "url"},
		{"single char", "x", "x"},
		// The Python ToolRegistry's tested edge cases: a separator run at
		// either end stays as one underscore, white space does not, and a
		// name of punctuation alone is "_".
		{"python at prefix", "@decorator", "_decorator"},
		{"python underscore", "_", "_"},
		{"python double underscore", "__", "_"},
		{"python underscore digits", "_123", "_123"},
		{"python digits", "123", "123"},
		{"python spaces trimmed", "  multiple   spaces  ", "multiple_spaces"},
		{"python acronym runs", "XMLHTTPRequest", "xmlhttp_request"},
		{"python digit in acronym", "parseXML2JSON", "parse_xml2_json"},
		{"python digit before acronym", "parse3DData", "parse3_d_data"},
		{"python triple dash", "multi---dash", "multi_dash"},
		{"dunder", "__init__", "_init_"},
		{"trailing punctuation", "name@", "name_"},
		{"leading camel", "_FooBar", "_foo_bar"},
		{"punctuation only", "@@ .. --", "_"},
		{"space then underscore", " _a", "_a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := registry.NormalizeToolName(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			again, err := registry.NormalizeToolName(got)
			require.NoError(t, err)
			assert.Equal(t, got, again, "idempotent")
		})
	}
}

func TestNormalizeToolName_Refused(t *testing.T) {
	tests := []struct {
		name, in, msg string
	}{
		{"empty", "", "has no letters or digits"},
		{"only white space", " \t\n ", "has no letters or digits"},
		{"non ascii and punctuation", "天气_", "has no letters or digits"},
		{"only non ascii", "天气", "has no letters or digits"},
		{"too long", strings.Repeat("abc", 30), "longer than 64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := registry.NormalizeToolName(tt.in)
			require.ErrorIs(t, err, registry.ErrInvalidName)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

// FuzzNormalizeToolName checks that every accepted name matches the OpenAI
// function-name pattern and normalizes to itself, and that only names
// without letters or digits, or too long, are refused.
func FuzzNormalizeToolName(f *testing.F) {
	for _, s := range []string{"HTTP_Request", "add_add_get", "calculateTotal", "OpenAPI service",
		"get user info", "process.data", "encode@url", "", "天气", "a\x00b", "ABCDefGHi9Jk"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := registry.NormalizeToolName(s)
		if err != nil {
			if !strings.Contains(err.Error(), "no letters or digits") && !strings.Contains(err.Error(), "longer than") {
				t.Fatalf("unexpected refusal of %q: %v", s, err)
			}
			return
		}
		if !openAIName.MatchString(got) || len(got) > registry.MaxNameLength {
			t.Fatalf("NormalizeToolName(%q) = %q: not a valid function name", s, got)
		}
		again, err := registry.NormalizeToolName(got)
		if err != nil || again != got {
			t.Fatalf("not idempotent: %q -> %q -> %q (%v)", s, got, again, err)
		}
	})
}
