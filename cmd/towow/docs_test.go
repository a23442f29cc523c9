package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// readmeMaxLines is the README's length limit: what ToWow is, the diagram,
// the two commands, the first ten minutes and links; the rest is in docs/.
const readmeMaxLines = 250

// mdLink is a markdown link or image: [text](target) or ![alt](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// slug is the anchor GitHub gives a heading: lower case, punctuation
// dropped (letters of any script, digits, '-' and '_' kept), spaces as '-'.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the anchors of a markdown document's headings (those
// outside fenced code blocks).
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		if title := strings.TrimLeft(line, "#"); strings.HasPrefix(title, " ") {
			out[slug(title)] = true
		}
	}
	return out
}

// TestDocsLinks checks the README and docs/*.md: every relative link
// reaches a file of the repository and, with a #fragment, a heading of
// that file; the README stays within readmeMaxLines; and no document cites
// an issue number or a design document's section, since neither is in the
// repository (a document states the rule itself).
func TestDocsLinks(t *testing.T) {
	files := docFiles(t)
	texts := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Clean(f)] = string(b)
	}
	citation := regexp.MustCompile(`(?i)issue\s[0-9]+|\x{00A7}|ADR-\d`)
	for _, f := range files {
		text := texts[filepath.Clean(f)]
		if f == "../../README.md" {
			if n := strings.Count(text, "\n"); n > readmeMaxLines {
				t.Errorf("README.md has %d lines, at most %d: move the rest to docs/", n, readmeMaxLines)
			}
		}
		for i, line := range strings.Split(text, "\n") {
			if m := citation.FindString(line); m != "" {
				t.Errorf("%s:%d cites %q: state the rule itself", f, i+1, m)
			}
		}
		links := 0
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			path, frag, _ := strings.Cut(target, "#")
			dest := filepath.Clean(f)
			if path != "" {
				dest = filepath.Clean(filepath.Join(filepath.Dir(f), path))
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s links to %s, which does not exist", f, target)
					continue
				}
			}
			if frag == "" {
				continue
			}
			destText, ok := texts[dest]
			if !ok {
				t.Errorf("%s links to %s: a fragment into a file that is not a document", f, target)
				continue
			}
			if !anchors(destText)[frag] {
				t.Errorf("%s links to %s: %s has no heading #%s", f, target, dest, frag)
			}
		}
		if links == 0 {
			t.Errorf("%s links to no other document", f)
		}
	}
}
