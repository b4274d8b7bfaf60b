// Package mcp imports the tools of MCP (Model Context Protocol) servers
// into a registry, so that scripts call them as Go functions.
package mcp
