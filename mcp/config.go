package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/toolscript/toolscript/registry"
)

// The transport types a ServerConfig can name.
const (
	// TypeStdio runs a command and speaks MCP on its standard input and
	// output.
	TypeStdio = "stdio"
	// TypeHTTP speaks MCP's streamable HTTP transport to a URL. The
	// configuration also accepts "streamable-http" and
	// "streamableHttp" for it.
	TypeHTTP = "http"
)

// MaxConfigBytes bounds the size of a configuration file: 1 MiB.
const MaxConfigBytes = 1 << 20

// Config is a configuration file of MCP servers, in the format MCP clients
// (Claude Desktop, IDEs, agent frameworks) use:
//
//	{
//	  "mcpServers": {
//	    "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
//	    "weather": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${WEATHER_TOKEN}"}}
//	  }
//	}
//
// See ParseConfig for the rules.
type Config struct {
	// Servers are the servers by the name the file gives them.
	Servers map[string]ServerConfig
}

// Names returns the names of the enabled servers, sorted.
func (c *Config) Names() []string {
	names := make([]string, 0, len(c.Servers))
	for n, s := range c.Servers {
		if !s.Disabled {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// ServerConfig describes one MCP server: a command to run (stdio) or a URL
// to reach (streamable HTTP).
type ServerConfig struct {
	// Name is the server's name in the configuration; its normalized form
	// (registry.NormalizeToolName) is the namespace of its tools.
	Name string `json:"-"`
	// Type is TypeStdio or TypeHTTP. ParseConfig sets it: from the
	// "type" field when present, else TypeStdio for a command and TypeHTTP
	// for a URL.
	Type string `json:"type,omitempty"`

	// Command is the program of a stdio server, looked up in PATH.
	Command string `json:"command,omitempty"`
	// Args are its arguments.
	Args []string `json:"args,omitempty"`
	// Env holds variables added to (or replacing those of) the host's
	// environment, which the command inherits.
	Env map[string]string `json:"env,omitempty"`
	// Cwd is the command's working directory; "" for the host's.
	Cwd string `json:"cwd,omitempty"`

	// URL is the endpoint of a streamable HTTP server (http or https).
	URL string `json:"url,omitempty"`
	// Headers are sent with every HTTP request, such as an Authorization
	// header.
	Headers map[string]string `json:"headers,omitempty"`

	// Disabled leaves the server out: ConnectConfig does not start it.
	Disabled bool `json:"disabled,omitempty"`

	// Permissions set the permissions of the server's tools (see
	// registry.SetPermission); nil leaves them all allowed.
	Permissions *Permissions `json:"permissions,omitempty"`
}

// Permissions are the "permissions" of a server entry: globs of the
// server's tool names (the method names in its namespace, such as
// "delete_*" or "*"), in package path's Match syntax, by permission:
//
//	"permissions": {"ask": ["*"], "allow": ["list_*", "get_*"], "deny": ["delete_*"]}
//
// Deny wins over allow, and allow over ask: the lists are applied ask
// first, then allow, then deny, the last matching rule winning. A tool no
// glob matches is allowed.
type Permissions struct {
	Ask   []string `json:"ask,omitempty"`
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
}

// Apply sets the permissions in reg for the tools of namespace ns.
func (p *Permissions) Apply(reg *registry.Registry, ns string) error {
	if p == nil {
		return nil
	}
	for _, l := range []struct {
		globs []string
		perm  registry.Permission
	}{{p.Ask, registry.PermissionAsk}, {p.Allow, registry.PermissionAllow}, {p.Deny, registry.PermissionDeny}} {
		for _, g := range l.globs {
			if err := reg.SetNamespacePermission(ns, g, l.perm); err != nil {
				return err
			}
		}
	}
	return nil
}

// Namespace returns the registry namespace of the server's tools: its name
// normalized with registry.NormalizeToolName.
func (s ServerConfig) Namespace() (string, error) {
	return registry.NormalizeToolName(s.Name)
}

// serverFields are the fields a server entry may have; any other is an
// error (a misspelt "headers" must not silently drop a credential).
var serverFields = []string{"type", "command", "args", "env", "cwd", "url", "headers", "disabled", "permissions"}

// ConfigError is a problem in a configuration: the server (when the
// problem is in one) and the field it is in.
type ConfigError struct {
	// Server is the server's name; "" for a problem of the whole file.
	Server string
	// Field is the field of the server entry, such as "command" or
	// "env.TOKEN"; "" when the problem is the entry as a whole.
	Field string
	// Err is the problem.
	Err error
}

// Error names the server and the field, then the problem.
func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString("mcp: config")
	if e.Server != "" {
		fmt.Fprintf(&b, ": server %q", e.Server)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ": %s", e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the problem, for errors.Is and errors.As.
func (e *ConfigError) Unwrap() error { return e.Err }

// ErrConfig is matched (errors.Is) by every error of ParseConfig and
// LoadConfig about the configuration's content.
var ErrConfig = errors.New("invalid MCP configuration")

func configErr(server, field, format string, a ...any) error {
	return &ConfigError{Server: server, Field: field, Err: fmt.Errorf("%w: "+format, append([]any{ErrConfig}, a...)...)}
}

// LoadConfig reads and parses the configuration file at path (see
// ParseConfig). Errors name the file.
func LoadConfig(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mcp: config: %w", err)
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(&limitedReader{r: f, n: MaxConfigBytes + 1}); err != nil {
		return nil, fmt.Errorf("mcp: config: %s: %w", path, err)
	}
	cfg, err := ParseConfig(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}

type limitedReader struct {
	r interface{ Read([]byte) (int, error) }
	n int
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, fmt.Errorf("%w: larger than %d bytes", ErrConfig, MaxConfigBytes)
	}
	if len(p) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= n
	return n, err
}

// ParseConfig parses a configuration (see Config). The rules:
//
//   - The top level is an object with an "mcpServers" object (required;
//     it may be empty). Other top-level members are ignored, so a client's
//     whole settings file can be given.
//   - Each server is an object with either "command" (with optional "args",
//     "env" and "cwd") or "url" (with optional "headers"), not both, and
//     optionally "type" ("stdio", or "http", "streamable-http" or
//     "streamableHttp", which are the same), "disabled" and "permissions"
//     (see Permissions: an object of "allow", "ask" and "deny" lists of
//     globs). Any other member, a wrong JSON type, a type that contradicts
//     the fields, a malformed glob, or a URL that is not absolute http(s)
//     is an error.
//   - In command, args, env values, cwd, url and header values, ${NAME}
//     is replaced by the host's environment variable NAME and
//     ${NAME:-default} by it or, when it is unset or empty, by default. An
//     unset variable without a default is an error naming it; "$$" stands
//     for a literal "$".
//   - Server names must normalize (registry.NormalizeToolName) to
//     distinct namespaces.
//
// Every error is a *ConfigError naming the server and the field, and
// matches ErrConfig.
func ParseConfig(data []byte) (*Config, error) {
	if len(data) > MaxConfigBytes {
		return nil, configErr("", "", "larger than %d bytes", MaxConfigBytes)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, configErr("", "", "not a JSON object: %v", jsonMsg(err))
	}
	raw, ok := top["mcpServers"]
	if !ok {
		return nil, configErr("", "mcpServers", "missing")
	}
	var servers map[string]json.RawMessage
	if err := json.Unmarshal(raw, &servers); err != nil || servers == nil {
		return nil, configErr("", "mcpServers", "must be an object of servers by name")
	}
	cfg := &Config{Servers: make(map[string]ServerConfig, len(servers))}
	namespaces := map[string]string{}
	names := make([]string, 0, len(servers))
	for name := range servers {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		sc, err := parseServer(name, servers[name])
		if err != nil {
			return nil, err
		}
		ns, err := sc.Namespace()
		if err != nil {
			return nil, &ConfigError{Server: name, Err: fmt.Errorf("%w: the name cannot be a namespace: %w", ErrConfig, err)}
		}
		if other, dup := namespaces[ns]; dup {
			return nil, configErr(name, "", "its namespace %q is also that of server %q: rename one", ns, other)
		}
		namespaces[ns] = name
		cfg.Servers[name] = sc
	}
	return cfg, nil
}

func parseServer(name string, raw json.RawMessage) (ServerConfig, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return ServerConfig{}, configErr(name, "", "must be an object")
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(serverFields, k) {
			return ServerConfig{}, configErr(name, k, "unknown field (known: %s)", strings.Join(serverFields, ", "))
		}
	}
	sc := ServerConfig{Name: name}
	for _, k := range keys {
		var dst any
		want := ""
		switch k {
		case "type":
			dst, want = &sc.Type, "a string"
		case "command":
			dst, want = &sc.Command, "a string"
		case "cwd":
			dst, want = &sc.Cwd, "a string"
		case "url":
			dst, want = &sc.URL, "a string"
		case "args":
			dst, want = &sc.Args, "an array of strings"
		case "env":
			dst, want = &sc.Env, "an object of strings"
		case "headers":
			dst, want = &sc.Headers, "an object of strings"
		case "disabled":
			dst, want = &sc.Disabled, "true or false"
		case "permissions":
			p, err := parsePermissions(name, fields[k])
			if err != nil {
				return ServerConfig{}, err
			}
			sc.Permissions = p
			continue
		}
		if err := json.Unmarshal(fields[k], dst); err != nil {
			return ServerConfig{}, configErr(name, k, "must be %s", want)
		}
	}
	if err := sc.resolve(); err != nil {
		return ServerConfig{}, err
	}
	return sc, nil
}

// parsePermissions parses a server's "permissions" object.
func parsePermissions(name string, raw json.RawMessage) (*Permissions, error) {
	var lists map[string]json.RawMessage
	if err := json.Unmarshal(raw, &lists); err != nil || lists == nil {
		return nil, configErr(name, "permissions", "must be an object of allow, ask and deny lists")
	}
	p := &Permissions{}
	keys := make([]string, 0, len(lists))
	for k := range lists {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var dst *[]string
		switch k {
		case "allow":
			dst = &p.Allow
		case "ask":
			dst = &p.Ask
		case "deny":
			dst = &p.Deny
		default:
			return nil, configErr(name, "permissions."+k, "unknown field (known: allow, ask, deny)")
		}
		if err := json.Unmarshal(lists[k], dst); err != nil {
			return nil, configErr(name, "permissions."+k, "must be an array of strings")
		}
		for i, g := range *dst {
			if _, err := path.Match(g, ""); err != nil || g == "" {
				return nil, configErr(name, fmt.Sprintf("permissions.%s[%d]", k, i), "%q is not a glob of tool names", g)
			}
		}
	}
	return p, nil
}

// resolve expands variables, infers and checks the type.
func (sc *ServerConfig) resolve() error {
	name := sc.Name
	expand := func(field string, s *string) error {
		v, err := expandVars(*s)
		if err != nil {
			return configErr(name, field, "%v", err)
		}
		*s = v
		return nil
	}
	if err := expand("command", &sc.Command); err != nil {
		return err
	}
	if err := expand("cwd", &sc.Cwd); err != nil {
		return err
	}
	if err := expand("url", &sc.URL); err != nil {
		return err
	}
	for i := range sc.Args {
		if err := expand(fmt.Sprintf("args[%d]", i), &sc.Args[i]); err != nil {
			return err
		}
	}
	for _, m := range []struct {
		field string
		m     map[string]string
	}{{"env", sc.Env}, {"headers", sc.Headers}} {
		for _, k := range sortedKeys(m.m) {
			v := m.m[k]
			if err := expand(m.field+"."+k, &v); err != nil {
				return err
			}
			m.m[k] = v
		}
	}
	for k := range sc.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return configErr(name, "env", "invalid variable name %q", k)
		}
	}
	for k, v := range sc.Headers {
		if !validHeaderName(k) {
			return configErr(name, "headers", "invalid header name %q", k)
		}
		if strings.ContainsAny(v, "\r\n\x00") {
			return configErr(name, "headers."+k, "the value holds a line break or NUL")
		}
	}
	switch strings.ToLower(sc.Type) {
	case "":
	case TypeStdio:
		sc.Type = TypeStdio
	case TypeHTTP, "streamable-http", "streamablehttp", "streamable_http":
		sc.Type = TypeHTTP
	case "sse":
		return configErr(name, "type", "the SSE transport is not supported: use a streamable HTTP endpoint")
	default:
		return configErr(name, "type", "unknown transport %q (want stdio or http)", sc.Type)
	}
	hasCmd, hasURL := sc.Command != "", sc.URL != ""
	switch {
	case hasCmd && hasURL:
		return configErr(name, "", "has both command and url: give one")
	case !hasCmd && !hasURL:
		if sc.Type == TypeHTTP {
			return configErr(name, "url", "missing")
		}
		return configErr(name, "", "needs command (stdio) or url (http)")
	case hasCmd && sc.Type == TypeHTTP:
		return configErr(name, "type", "is http but the server has a command, not a url")
	case hasURL && sc.Type == TypeStdio:
		return configErr(name, "type", "is stdio but the server has a url, not a command")
	}
	if hasCmd {
		sc.Type = TypeStdio
		if len(sc.Headers) > 0 {
			return configErr(name, "headers", "only an http server has headers")
		}
		return nil
	}
	sc.Type = TypeHTTP
	if len(sc.Args) > 0 || len(sc.Env) > 0 || sc.Cwd != "" {
		field := "args"
		switch {
		case len(sc.Env) > 0:
			field = "env"
		case sc.Cwd != "":
			field = "cwd"
		}
		return configErr(name, field, "only a stdio server (one with a command) has %s", field)
	}
	u, err := url.Parse(sc.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return configErr(name, "url", "%q is not an absolute http or https URL", sc.URL)
	}
	return nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// validHeaderName reports whether s is an HTTP token.
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// expandVars replaces ${NAME} and ${NAME:-default} by environment
// variables and "$$" by "$"; any other "$" stays.
func expandVars(s string) (string, error) {
	if !strings.Contains(s, "$") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
			continue
		case '{':
		default:
			b.WriteByte(c)
			continue
		}
		end := strings.IndexByte(s[i+2:], '}')
		if end < 0 {
			return "", fmt.Errorf("unclosed ${ at offset %d", i)
		}
		expr := s[i+2 : i+2+end]
		name, def, hasDef := strings.Cut(expr, ":-")
		if !validVarName(name) {
			return "", fmt.Errorf("invalid variable reference ${%s}", expr)
		}
		v, set := os.LookupEnv(name)
		switch {
		case v != "":
		case hasDef:
			v = def
		case !set:
			return "", fmt.Errorf("environment variable %s is not set (write ${%s:-default} for a default)", name, name)
		}
		b.WriteString(v)
		i += 2 + end
	}
	return b.String(), nil
}

func validVarName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// jsonMsg shortens a JSON syntax error to its message and offset.
func jsonMsg(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v (offset %d)", se, se.Offset)
	}
	return err.Error()
}
