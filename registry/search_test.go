package registry_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/registry"
)

// catalogueTool is one entry of testdata/search_catalogue.json: tools of
// 27 domains in the shape an MCP server lists them.
type catalogueTool struct {
	Namespace   string          `json:"namespace"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// loadCatalogue registers the catalogue's tools (247) in a new registry.
func loadCatalogue(t testing.TB) *registry.Registry {
	t.Helper()
	data, err := os.ReadFile("testdata/search_catalogue.json")
	require.NoError(t, err)
	var tools []catalogueTool
	require.NoError(t, json.Unmarshal(data, &tools))
	r := registry.New("catalogue")
	for _, ct := range tools {
		name := ct.Name
		require.NoError(t, r.Register(&registry.Tool{
			Name: name, Namespace: ct.Namespace, Description: ct.Description, Parameters: ct.InputSchema,
			Func: func(context.Context, map[string]any) (any, error) { return name, nil },
		}), ct.Name)
	}
	return r
}

// searchQueries are questions a model asks of the catalogue, worded
// unlike the tools' names, with the tool that answers each.
var searchQueries = []struct{ query, want string }{
	{"read a text file", "files-read_file"},
	{"rename a file", "files-move_file"},
	{"find files matching *.go", "files-glob_files"},
	{"search inside files for a regex", "files-grep_files"},
	{"schedule a meeting with attendees", "calendar-create_event"},
	{"when are we all free for an hour", "calendar-find_free_slots"},
	{"decline an invitation", "calendar-respond_to_invitation"},
	{"add a new contact to the CRM", "crm-create_contact"},
	{"move deal to won", "crm-update_deal_stage"},
	{"commit my staged changes", "git-git_commit"},
	{"who changed this line", "git-git_blame"},
	{"open a pull request", "github-create_pull_request"},
	{"CI workflow status", "github-list_workflow_runs"},
	{"refund a payment", "payments-refund_payment"},
	{"charge the customer's card", "payments-create_charge"},
	{"cancel subscription", "payments-cancel_subscription"},
	{"weather forecast for the next days", "weather-forecast"},
	{"is there a storm warning", "weather-weather_alerts"},
	{"send an email", "email-send_email"},
	{"out of office auto reply", "email-set_out_of_office"},
	{"post a message to a slack channel", "slack-post_message"},
	{"run a SQL select", "database-run_sql_query"},
	{"columns of a table", "database-describe_table"},
	{"pod logs", "kubernetes-get_pod_logs"},
	{"scale replicas of a deployment", "kubernetes-scale_deployment"},
	{"temporary download link for an object", "cloud_storage-presigned_url"},
	{"latitude and longitude of an address", "maps-geocode_address"},
	{"directions from home to the airport", "maps-get_directions"},
	{"book a hotel room", "travel-book_hotel"},
	{"is my flight delayed", "travel-flight_status"},
	{"convert dollars to euros", "finance-convert_currency"},
	{"bitcoin price", "finance-crypto_price"},
	{"export document as PDF", "docs-export_pdf"},
	{"append rows to a spreadsheet", "spreadsheet-append_rows"},
	{"open a support ticket", "tickets-create_ticket"},
	{"mark task done", "projects-complete_task"},
	{"who is on call for the payments service", "monitoring-who_is_on_call"},
	{"request vacation days", "hr-request_time_off"},
	{"track a parcel", "ecommerce-track_shipment"},
	{"translate text to French", "translation-translate_text"},
	{"speech to text of a recording", "media-transcribe_audio"},
	{"OCR a scanned page", "media-extract_text_ocr"},
	{"when does the TLS certificate expire", "web-ssl_certificate"},
	{"turn the lights off in the kitchen", "smart_home-turn_off_lights"},
	{"set the heating to 21 degrees", "smart_home-set_thermostat"},
}

// TestSearch_Accuracy checks the search's top-3 accuracy on the catalogue:
// the tool that answers each query is among the first three hits for at
// least 90% of the queries (README states the figure).
func TestSearch_Accuracy(t *testing.T) {
	r := loadCatalogue(t)
	require.GreaterOrEqual(t, r.Len(), 200)
	require.GreaterOrEqual(t, len(searchQueries), 30)
	top1, top3 := 0, 0
	for _, q := range searchQueries {
		hits := r.Search(q.query, 3)
		var names []string
		for i, h := range hits {
			names = append(names, h.Tool.Name)
			if h.Tool.Name == q.want {
				top3++
				if i == 0 {
					top1++
				}
			}
		}
		if len(hits) == 0 || hits[0].Tool.Name != q.want {
			t.Logf("%-45q want %s, got %v", q.query, q.want, names)
		}
	}
	n := len(searchQueries)
	t.Logf("top-1 %d/%d (%.0f%%), top-3 %d/%d (%.0f%%)", top1, n, 100*float64(top1)/float64(n), top3, n, 100*float64(top3)/float64(n))
	assert.GreaterOrEqual(t, float64(top3)/float64(n), 0.9, "top-3 accuracy")
}

func TestSearch_Basics(t *testing.T) {
	r := loadCatalogue(t)
	t.Run("empty query", func(t *testing.T) {
		assert.Empty(t, r.Search("", 5))
		assert.Empty(t, r.Search("the of a", 5))
	})
	t.Run("no match", func(t *testing.T) {
		assert.Empty(t, r.Search("zzqxj", 5))
	})
	t.Run("limit and default", func(t *testing.T) {
		assert.Len(t, r.Search("list", 4), 4)
		assert.Len(t, r.Search("list", 0), registry.DefaultSearchLimit)
	})
	t.Run("camelCase and snake_case", func(t *testing.T) {
		hits := r.Search("getPodLogs", 1)
		require.Len(t, hits, 1)
		assert.Equal(t, "kubernetes-get_pod_logs", hits[0].Tool.Name)
	})
	t.Run("argument names count", func(t *testing.T) {
		hits := r.Search("flight_number", 1)
		require.Len(t, hits, 1)
		assert.Equal(t, "travel-flight_status", hits[0].Tool.Name)
	})
	t.Run("prefix", func(t *testing.T) {
		hits := r.Search("thermo", 1)
		require.Len(t, hits, 1)
		assert.Equal(t, "smart_home-set_thermostat", hits[0].Tool.Name)
	})
	t.Run("signature", func(t *testing.T) {
		hits := r.Search("refund a payment", 1)
		require.Len(t, hits, 1)
		assert.Equal(t, "payments.RefundPayment(args map[string]any) (any, error) // args: payment_id string, amount_cents? int", hits[0].Signature)
		assert.Greater(t, hits[0].Score, 0.0)
	})
	t.Run("disabled tools are not found, the index follows changes", func(t *testing.T) {
		require.NoError(t, r.Disable("payments-refund_payment", "no refunds today"))
		for _, h := range r.Search("refund a payment", 10) {
			assert.NotEqual(t, "payments-refund_payment", h.Tool.Name)
		}
		require.NoError(t, r.Enable("payments-refund_payment"))
		hits := r.Search("refund a payment", 1)
		require.Len(t, hits, 1)
		assert.Equal(t, "payments-refund_payment", hits[0].Tool.Name)
	})
}

// TestSignature_MatchesEngine checks that the registry's signatures name
// packages and functions as scripts see them (engine.PackageName and
// engine.FuncName; both use projection's naming).
func TestSignature_MatchesEngine(t *testing.T) {
	for _, ns := range []string{"", "math_ops", "a-b", "x.y", "go", "_", "__", "2fa", "café", "Mixed"} {
		tool := &registry.Tool{Name: "t", Namespace: ns, MethodName: "get_user_info"}
		if ns == "" {
			tool = &registry.Tool{Name: "get_user_info"}
		}
		want := engine.PackageName(ns) + "." + engine.FuncName("get_user_info") + "("
		assert.Contains(t, registry.Signature(tool), want, ns)
	}
	for _, m := range []string{"get_user_info", "multiply", "2d", "x__y", "ünï", "a-b"} {
		tool := &registry.Tool{Name: "t", Namespace: "ns", MethodName: m}
		assert.Contains(t, registry.Signature(tool), "ns."+engine.FuncName(m)+"(", m)
	}
}

func BenchmarkSearch_Catalogue(b *testing.B) {
	r := loadCatalogue(b)
	r.Search("warm up", 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Search("schedule a meeting with attendees", 5)
	}
}
