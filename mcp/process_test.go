package mcp_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/toolscript/toolscript/mcp"
)

// parentEnv makes the test binary a host of an MCP server (serveAsParent):
// its value is a file, and parentEnv+"_CHILD" the file where the server
// writes its pid.
const parentEnv = "TOOLSCRIPT_MCP_TEST_PARENT"

// serveAsParent connects to an "orphan" stdio server (one that outlives
// the end of its input), says "connected" on standard output and waits to
// be killed (at most two minutes). It exits.
func serveAsParent(pidFile string) {
	cfg := stdioConfig("orphan")
	cfg.Env = map[string]string{serverEnv: "orphan", parentEnv + "_CHILD": pidFile, parentEnv: ""}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := mcp.Connect(ctx, cfg, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "parent:", err)
		os.Exit(1)
	}
	_ = c
	fmt.Println("connected")
	time.Sleep(2 * time.Minute)
	os.Exit(0)
}
