#!/usr/bin/env bash
# Makes sure the MCP Inspector (pinned here) is installed in bin/ for the
# MCP schema test (mcpserver TestInspectorStrict: its CLI lists and calls
# the tools with --strict and finds 0 errors and 0 warnings) and prints the
# path of its launcher (run it as: mcp-inspector --cli ...).
set -euo pipefail
exec "$(dirname "$0")/ensure-npm-tool.sh" mcp-inspector-2.12.0 mcp-inspector "@modelcontextprotocol/inspector@2.12.0"
