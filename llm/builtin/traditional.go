package builtin

import (
	"strings"
	"sync"
)

// simplified returns text with its traditional Chinese characters written
// in their simplified forms, so that the vocabulary, which is written in
// simplified characters, reads a demand written in either ("需要一位攝影師"
// reads as "需要一位摄影师"). Only characters that traditional writing
// alone uses are mapped (traditionalPairs, from OpenCC's t2s data): a
// character both scripts use stays as it is, and so does every other
// rune.
func simplified(text string) string {
	table := traditionalTable()
	if strings.IndexFunc(text, func(r rune) bool { _, ok := table[r]; return ok }) < 0 {
		return text
	}
	return strings.Map(func(r rune) rune {
		if s, ok := table[r]; ok {
			return s
		}
		return r
	}, text)
}

// traditionalTable maps each traditional character of traditionalPairs to
// its simplified form, built the first time a text needs it.
var traditionalTable = sync.OnceValue(func() map[rune]rune {
	rs := []rune(traditionalPairs)
	m := make(map[rune]rune, len(rs)/2)
	for i := 0; i+1 < len(rs); i += 2 {
		m[rs[i]] = rs[i+1]
	}
	return m
})
