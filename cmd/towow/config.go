package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/tabwriter"
)

// envVar documents one environment variable. The README's configuration
// table is checked against this list by TestReadmeConfigTable.
type envVar struct {
	Name    string
	Default string
	Usage   string
}

// envVars is every environment variable towow reads.
var envVars = []envVar{
	{"DATABASE_URL", "(unset: embedded cluster)", "PostgreSQL connection URL. When unset, towow runs a private cluster in $TOWOW_DATA_DIR/pg from the system's PostgreSQL binaries."},
	{"TOWOW_DATA_DIR", "./.towow", "Folder for the embedded cluster (pg/, pg.password, pg.log)."},
	{"TOWOW_ADDR", "127.0.0.1:8080", "HTTP listen address of `towow serve`."},
	{"TOWOW_LOG_LEVEL", "info", "Log level: debug, info, warn or error."},
	{"TOWOW_TEST_DATABASE_URL", "(unset: embedded test cluster)", "Tests only: a server on which tests may create databases. When unset, tests use an embedded cluster in .towow/testpg."},
}

// config is the resolved environment.
type config struct {
	DatabaseURL string
	DataDir     string
	Addr        string
	LogLevel    slog.Level
}

func loadConfig(getenv func(string) string) (config, error) {
	c := config{
		DatabaseURL: getenv("DATABASE_URL"),
		DataDir:     orDefault(getenv("TOWOW_DATA_DIR"), ".towow"),
		Addr:        orDefault(getenv("TOWOW_ADDR"), "127.0.0.1:8080"),
	}
	if err := c.LogLevel.UnmarshalText([]byte(orDefault(getenv("TOWOW_LOG_LEVEL"), "info"))); err != nil {
		return c, fmt.Errorf("TOWOW_LOG_LEVEL=%q: want debug, info, warn or error", getenv("TOWOW_LOG_LEVEL"))
	}
	return c, nil
}

func orDefault(v, def string) string {
	if strings.TrimSpace(v) == "" {
		return def
	}
	return v
}

func (c config) logger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: c.LogLevel}))
}

// writeEnvHelp prints the environment table for --help.
func writeEnvHelp(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Environment:")
	for _, v := range envVars {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", v.Name, v.Default, v.Usage)
	}
	tw.Flush()
}
