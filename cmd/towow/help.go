package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Every `towow <command> --help` (or -h) prints that command's help to
// stdout and exits 0: its lines of the usage text, then, for a command
// with flags, its flags with their defaults. A command that takes no flags
// is never run for its help.

// wantsHelp reports whether args (after the command) ask for help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// flagged are the commands that parse flags: their help adds the flags.
var flagged = map[string]bool{
	"bench append": true, "bench negotiate": true, "bench sse": true, "bench sse-clients": true, "bench rebuild": true, "bench soak": true,
	"bench filter": true, "bench fork": true, "bench faults": true, "db start": true, "db stop": true, "db status": true, "db url": true,
	"eval": true, "fuzz": true, "mcp": true, "token": true, "projections rebuild": true,
}

// commandHelp prints the help of the command args names.
func commandHelp(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) int {
	name := args[0]
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") {
		if _, ok := flagged[name+" "+args[1]]; ok {
			name += " " + args[1]
		}
	}
	section := usageOf(name)
	if section == "" && strings.Contains(name, " ") { // "db start": the line is "towow db start|stop|..."
		section = usageOf(strings.Fields(name)[0] + " " + strings.Fields(name)[1])
	}
	if section == "" {
		fmt.Fprintf(stdout, "towow: unknown command %q\n\n", args[0])
		usage(stdout)
		return 0
	}
	fmt.Fprint(stdout, "Usage:\n"+section+"\nConfigured by the environment: `towow --help` lists its variables.\n")
	if !flagged[name] {
		return 0
	}
	fmt.Fprintln(stdout, "\nFlags:")
	cfg, _ := loadConfig(getenv) // the flags' defaults; a bad variable is the command's to report when it runs
	var err error
	sub := strings.Fields(name)
	cmdArgs := append(sub[1:], "-h")
	switch sub[0] {
	case "bench":
		err = cmdBench(ctx, cfg, cmdArgs, stdout, stdout)
	case "db":
		err = cmdDB(ctx, cfg, cmdArgs, stdout, stdout)
	case "eval":
		err = cmdEval(ctx, cfg, cmdArgs, stdout, stdout)
	case "fuzz":
		err = cmdFuzz(ctx, cfg, cmdArgs, stdout, stdout)
	case "mcp":
		err = cmdMCP(ctx, cfg, cmdArgs, stdout, stdout)
	case "token":
		err = cmdToken(ctx, cfg, cmdArgs, stdout, stdout)
	case "projections":
		err = cmdProjections(ctx, cfg, cmdArgs, stdout, stdout)
	}
	if !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(stdout, "towow: %s: no flags to show (%v)\n", name, err)
	}
	return 0
}

// usageOf is the usage text's lines of the command name ("" when none):
// its line and the indented lines that continue it.
func usageOf(name string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(usageText, "\n") {
		switch {
		case startsCommand(line, name):
			in = true
		case in && strings.HasPrefix(line, "    "):
		default:
			in = false
		}
		if in {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// startsCommand reports whether a usage line begins the command name:
// "  towow <name>" then the end, a space, '|' (alternatives) or '['.
func startsCommand(line, name string) bool {
	head := "  towow " + name
	if !strings.HasPrefix(line, head) {
		return false
	}
	return len(line) == len(head) || strings.ContainsRune(" |[", rune(line[len(head)]))
}
