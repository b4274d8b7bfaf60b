package registry

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/toolscript/toolscript/projection"
)

// SearchHit is one tool found by Registry.Search.
type SearchHit struct {
	// Tool is a copy of the tool.
	Tool *Tool
	// Signature is the tool as a script calls it, with its arguments:
	//	inventory.Stock(args map[string]any) (any, error) // args: sku string
	Signature string
	// Score is the relevance of the tool to the query; higher is better.
	// Scores compare only within one search.
	Score float64
}

// DefaultSearchLimit is the number of hits Search returns for a limit of
// zero or less.
const DefaultSearchLimit = 10

// Search returns the visible tools (enabled, not denied) that best match
// query, best first, at most limit of them (DefaultSearchLimit when limit
// is zero or less). It ranks with BM25 over the words of each tool's
// method name, namespace, description, argument names and argument
// descriptions, the name's words counting most: names are split at
// underscores, dashes, dots and camelCase humps, words are lower-cased and
// lightly stemmed ("files", "filing" and "filed" are "file"), a query word
// of three letters or more also matches the words it begins ("cal" finds
// "calendar", for less), and a few common verbs match their synonyms
// ("remove" finds "delete", for less). A tool that matches no word of the
// query is not returned; an empty query returns nothing.
//
// The index is built on the first search and rebuilt after the visible
// tools change; a search itself takes a read lock only.
func (r *Registry) Search(query string, limit int) []SearchHit {
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	idx := r.searchIndex()
	hits := idx.search(query, limit)
	out := make([]SearchHit, len(hits))
	for i, h := range hits {
		t := idx.tools[h.doc]
		out[i] = SearchHit{Tool: t.clone(), Signature: Signature(t), Score: h.score}
	}
	return out
}

// searchCache is a registry's search index and the tools it was built from.
type searchCache struct {
	mu  sync.Mutex
	idx *searchIndex
}

// searchIndex returns the index of the visible tools, rebuilding it when
// they changed (the registry replaces a Tool on every change, so the
// pointers tell).
func (r *Registry) searchIndex() *searchIndex {
	tools := r.enabledTools()
	r.search.mu.Lock()
	defer r.search.mu.Unlock()
	if idx := r.search.idx; idx != nil && sameTools(idx.tools, tools) {
		return idx
	}
	idx := buildIndex(tools)
	r.search.idx = idx
	return idx
}

func sameTools(a, b []*Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Field weights: a word of the method name counts three times a word of
// the description.
const (
	weightMethod    = 3.0
	weightNamespace = 2.0
	weightArgName   = 1.5
	weightDesc      = 1.0
	weightArgDesc   = 0.5

	bm25K1 = 1.2
	bm25B  = 0.75

	prefixFactor  = 0.5 // a query word that only begins a tool's word
	synonymFactor = 0.6 // a synonym of a query word
)

type searchIndex struct {
	tools    []*Tool
	postings map[string][]posting // term -> documents
	terms    []string             // sorted vocabulary, for prefix matches
	lens     []float64            // weighted length of each document
	avgLen   float64
}

type posting struct {
	doc int
	tf  float64 // weighted term frequency
}

type scored struct {
	doc   int
	score float64
}

func buildIndex(tools []*Tool) *searchIndex {
	idx := &searchIndex{tools: tools, postings: map[string][]posting{}, lens: make([]float64, len(tools))}
	total := 0.0
	for d, t := range tools {
		tf := map[string]float64{}
		add := func(text string, w float64) {
			for _, term := range terms(text) {
				tf[term] += w
				idx.lens[d] += w
			}
		}
		add(t.MethodName, weightMethod)
		if t.MethodName == "" {
			add(t.Name, weightMethod)
		}
		add(t.Namespace, weightNamespace)
		add(t.Description, weightDesc)
		for _, a := range schemaArgs(t.Parameters) {
			add(a.name, weightArgName)
			add(a.desc, weightArgDesc)
		}
		for term, f := range tf {
			idx.postings[term] = append(idx.postings[term], posting{doc: d, tf: f})
		}
		total += idx.lens[d]
	}
	if len(tools) > 0 {
		idx.avgLen = total / float64(len(tools))
	}
	idx.terms = make([]string, 0, len(idx.postings))
	for term := range idx.postings {
		idx.terms = append(idx.terms, term)
	}
	sort.Strings(idx.terms)
	return idx
}

// search scores every document that matches a word of query.
func (idx *searchIndex) search(query string, limit int) []scored {
	qterms := terms(query)
	if len(qterms) == 0 || len(idx.tools) == 0 {
		return nil
	}
	scores := map[int]float64{}
	seen := map[string]bool{}
	for _, q := range qterms {
		if seen[q] {
			continue
		}
		seen[q] = true
		// Each query word counts once per document, through its best match.
		best := map[int]float64{}
		match := func(term string, factor float64) {
			ps := idx.postings[term]
			if len(ps) == 0 {
				return
			}
			n := float64(len(idx.tools))
			idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
			for _, p := range ps {
				norm := 1 - bm25B + bm25B*idx.lens[p.doc]/idx.avgLen
				s := factor * idf * p.tf * (bm25K1 + 1) / (p.tf + bm25K1*norm)
				if s > best[p.doc] {
					best[p.doc] = s
				}
			}
		}
		match(q, 1)
		if len(q) >= 3 {
			i := sort.SearchStrings(idx.terms, q)
			for ; i < len(idx.terms) && strings.HasPrefix(idx.terms[i], q); i++ {
				if idx.terms[i] != q {
					match(idx.terms[i], prefixFactor)
				}
			}
		}
		for _, syn := range synonyms[q] {
			match(syn, synonymFactor)
		}
		for d, s := range best {
			scores[d] += s
		}
	}
	out := make([]scored, 0, len(scores))
	for d, s := range scores {
		out = append(out, scored{d, s})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].doc < out[j].doc // registration order breaks ties
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// terms splits text into lower-case, stemmed words, leaving out the
// commonest English words.
func terms(text string) []string {
	var out []string
	for _, w := range words(text) {
		w = strings.ToLower(w)
		if stopWords[w] {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

// words splits text at every character that is not a letter or a digit
// and at camelCase humps: "getUserID_v2" is "get", "User", "ID", "v2".
func words(text string) []string {
	var out []string
	rs := []rune(text)
	start := -1
	for i, c := range rs {
		alnum := unicode.IsLetter(c) || unicode.IsDigit(c)
		if !alnum {
			if start >= 0 {
				out = append(out, string(rs[start:i]))
				start = -1
			}
			continue
		}
		if start >= 0 && unicode.IsUpper(c) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				out = append(out, string(rs[start:i]))
				start = i
			}
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, string(rs[start:]))
	}
	return out
}

// stem removes the commonest English inflections: plurals, -ing, -ed.
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		return trimDouble(w[:len(w)-3])
	case len(w) > 4 && strings.HasSuffix(w, "ed"):
		return trimDouble(w[:len(w)-2])
	}
	return w
}

// trimDouble undoes a doubled final consonant: "stopp" -> "stop".
func trimDouble(w string) string {
	if n := len(w); n > 2 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of to in on at by for from with and or is are be
		it its this that these those as into my me i you your we our all any some can do does
		how what which who whom when where please want need would like should could will`) {
		m[w] = true
	}
	return m
}()

// synonyms maps a stemmed word to stemmed words of the same meaning, for
// the verbs and nouns tool names use most.
var synonyms = func() map[string][]string {
	groups := [][]string{
		{"get", "fetch", "retrieve", "read", "show", "view", "look"},
		{"delete", "remove", "erase", "drop", "destroy", "cancel"},
		{"create", "add", "new", "make", "insert", "open"},
		{"update", "edit", "modify", "change", "set", "rename"},
		{"list", "enumerate", "browse"},
		{"search", "find", "lookup", "query", "locate"},
		{"send", "post", "deliver", "notify"},
		{"write", "save", "store", "put"},
		{"email", "mail", "message"},
		{"user", "person", "account", "member"},
		{"file", "document", "doc"},
		{"event", "meeting", "appointment"},
		{"payment", "charge", "pay"},
		{"refund", "reimburse"},
		{"forecast", "prediction"},
		{"price", "cost", "quote"},
		{"customer", "client"},
		{"directory", "folder", "dir"},
		{"download", "fetch"},
		{"upload", "push"},
		{"stop", "halt", "terminate", "kill"},
		{"start", "launch", "run", "begin"},
		{"translate", "translation"},
	}
	m := map[string][]string{}
	for _, g := range groups {
		for _, w := range g {
			sw := stem(w)
			for _, o := range g {
				if so := stem(o); so != sw {
					m[sw] = append(m[sw], so)
				}
			}
		}
	}
	return m
}()

// schemaArg is one argument of a tool, read from its JSON Schema.
type schemaArg struct {
	name, typ, desc string
	required        bool
}

// schemaArgs returns the top-level properties of an object schema, sorted
// by name with the required ones first.
func schemaArgs(raw json.RawMessage) []schemaArg {
	if len(raw) == 0 {
		return nil
	}
	var s struct {
		Properties map[string]struct {
			Type        any    `json:"type"`
			Description string `json:"description"`
			Items       *struct {
				Type any `json:"type"`
			} `json:"items"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	req := map[string]bool{}
	for _, n := range s.Required {
		req[n] = true
	}
	out := make([]schemaArg, 0, len(s.Properties))
	for name, p := range s.Properties {
		typ := jsonTypeName(p.Type)
		if typ == "[]" {
			elem := "any"
			if p.Items != nil {
				if e := jsonTypeName(p.Items.Type); e != "[]" {
					elem = e
				}
			}
			typ = "[]" + elem
		}
		out = append(out, schemaArg{name: name, typ: typ, desc: p.Description, required: req[name]})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].required != out[j].required {
			return out[i].required
		}
		return out[i].name < out[j].name
	})
	return out
}

// jsonTypeName is the Go type a script receives for a JSON Schema type.
func jsonTypeName(t any) string {
	name, _ := t.(string)
	if list, ok := t.([]any); ok {
		for _, x := range list {
			if s, _ := x.(string); s != "null" {
				name = s
				break
			}
		}
	}
	switch name {
	case "string":
		return "string"
	case "integer":
		return "int"
	case "number":
		return "float64"
	case "boolean":
		return "bool"
	case "object":
		return "map[string]any"
	case "array":
		return "[]"
	}
	return "any"
}

// Signature returns how a script calls t, as Go: the package and function
// the engine gives it (engine.PackageName and engine.FuncName), with its
// arguments in a comment, optional ones marked with "?":
//
//	inventory.Stock(args map[string]any) (any, error) // args: sku string, limit? int
func Signature(t *Tool) string {
	ns, method := t.Namespace, t.MethodName
	if method == "" {
		method = t.Name
	}
	var b strings.Builder
	b.WriteString(projection.GoPackageName(ns))
	b.WriteString(".")
	b.WriteString(projection.GoFuncName(method))
	b.WriteString("(args map[string]any) (any, error)")
	if args := schemaArgs(t.Parameters); len(args) > 0 {
		b.WriteString(" // args: ")
		for i, a := range args {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(a.name)
			if !a.required {
				b.WriteString("?")
			}
			b.WriteString(" ")
			b.WriteString(a.typ)
		}
	}
	return b.String()
}
