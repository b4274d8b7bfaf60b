package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/mcp"
	"github.com/toolscript/toolscript/projection"
	"github.com/toolscript/toolscript/registry"
)

// toolFlags choose the tools of run and describe: the demo tools unless
// --no-demo, plus the servers of an MCP configuration file (--mcp).
type toolFlags struct {
	mcpFile string
	noDemo  bool
}

func addToolFlags(fs *flag.FlagSet) *toolFlags {
	f := &toolFlags{}
	fs.StringVar(&f.mcpFile, "mcp", "", "also offer the tools of the MCP servers of this configuration `file`\n(the mcpServers format of MCP clients); each server's tools are in a\npackage named after it")
	fs.BoolVar(&f.noDemo, "no-demo", false, "leave out the demo tools")
	return f
}

// namespace returns the chosen tools, and a function that stops the MCP
// servers. Warnings (MCP tools left out) go to stderr. ask decides the
// calls of the servers' ask tools; nil refuses them all.
func (f *toolFlags) namespace(ctx context.Context, stderr io.Writer, ask registry.AskFunc) (map[string]projection.ToolProjection, func(), error) {
	ns := map[string]projection.ToolProjection{}
	if !f.noDemo {
		ns = demo.Namespace()
	}
	if f.mcpFile == "" {
		return ns, func() {}, nil
	}
	cfg, err := mcp.LoadConfig(f.mcpFile)
	if err != nil {
		return nil, nil, err
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		},
	}))
	var opts []registry.Option
	if ask != nil {
		opts = append(opts, registry.WithAskFunc(ask))
	}
	reg := registry.New("", opts...)
	clients, err := mcp.ConnectConfig(ctx, cfg, reg, &mcp.Options{Logger: logger})
	if err != nil {
		return nil, nil, err
	}
	for name, p := range reg.Projections() {
		if _, dup := ns[name]; dup {
			_ = clients.Close()
			return nil, nil, fmt.Errorf("MCP tool %s has the name of a demo tool: rename the server or use --no-demo", name)
		}
		ns[name] = p
	}
	return ns, func() { _ = clients.Close() }, nil
}
