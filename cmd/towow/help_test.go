package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestCommandHelp: every command of the usage text answers --help (and
// -h) with its usage on stdout and exit 0, without running; a command
// with flags lists them.
func TestCommandHelp(t *testing.T) {
	getenv := func(string) string { return "" }
	var commands [][]string
	for _, line := range strings.Split(usageText, "\n") {
		if !strings.HasPrefix(line, "  towow ") {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(line, "  towow "))
		c := []string{f[0]}
		if len(f) > 1 && f[0] == "bench" || f[0] == "projections" {
			c = append(c, f[1])
		}
		if f[0] == "db" {
			c = append(c, "start")
		}
		commands = append(commands, c)
	}
	if len(commands) < 15 {
		t.Fatalf("only %d commands in the usage text", len(commands))
	}
	for _, c := range commands {
		for _, h := range []string{"--help", "-h"} {
			var out, errOut bytes.Buffer
			code := run(context.Background(), append(append([]string{}, c...), h), getenv, &out, &errOut)
			name := strings.Join(c, " ")
			if name == "help" {
				continue
			}
			if code != 0 || !strings.Contains(out.String(), "Usage:\n  towow "+c[0]) || errOut.Len() != 0 {
				t.Errorf("towow %s %s: exit %d\nstdout %q\nstderr %q", name, h, code, out.String(), errOut.String())
			}
			if flagged[name] && !strings.Contains(out.String(), "\nFlags:\n") {
				t.Errorf("towow %s %s: no flags listed: %q", name, h, out.String())
			}
		}
	}
}
