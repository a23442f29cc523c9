package personal_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/personal"
)

// TestSealRevealErase: a sealed text hides its plaintext and reveals it
// again, alone or inside a JSON document (escaped); each subject has a
// key of its own; erasing one subject's key turns its texts into the
// erased marker, in this process and in another one once its cache
// expires, and leaves the other subject's alone; the table then holds
// neither the subject nor the key.
func TestSealRevealErase(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.New(t)
	keys := personal.New(pool, nil)
	const alice, bob = "user:alice", "user:bob"
	text := "我想在北京办一场AI主题聚会，\"需要\"场地\n和嘉宾"
	a, err := keys.Seal(ctx, alice, text)
	if err != nil {
		t.Fatal(err)
	}
	b, err := keys.Seal(ctx, bob, "bob 的需求")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(a, "北京") || !personal.IsSealed(a) || !personal.IsSealed(b) {
		t.Fatalf("sealed: %q %q", a, b)
	}
	// A summary's clip applies once revealed; a text that only looks like
	// the start of an envelope is left as it is.
	for _, tc := range []struct{ in, want string }{
		{negotiation.ClipText(a, 8), "我想在北京办一…"},
		{"看 " + a[:20] + " 和 " + b, "看 " + a[:20] + " 和 bob 的需求"},
		{a + a, text + text},
	} {
		if got, err := keys.Reveal(ctx, tc.in, false); err != nil || got != tc.want {
			t.Fatalf("Reveal(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if again, _ := keys.Seal(ctx, alice, a); again != a {
		t.Fatal("sealing a sealed text sealed it twice")
	}
	if empty, _ := keys.Seal(ctx, alice, ""); empty != "" {
		t.Fatalf("an empty text sealed as %q", empty)
	}
	if got, err := keys.Reveal(ctx, a, false); err != nil || got != text {
		t.Fatalf("reveal: %q %v", got, err)
	}
	doc, _ := json.Marshal(map[string]any{"raw_input": a, "list": []string{b, "plain"}, "note": "前缀 " + a})
	revealed, err := keys.Reveal(ctx, string(doc), true)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal([]byte(revealed), &back); err != nil {
		t.Fatalf("revealed JSON does not parse: %v\n%s", err, revealed)
	}
	if back["raw_input"] != text || back["note"] != "前缀 "+text || back["list"].([]any)[0] != "bob 的需求" {
		t.Fatalf("revealed %v", back)
	}

	other := personal.New(pool, nil) // another process, which has seen alice's key
	if got, _ := other.Reveal(ctx, a, false); got != text {
		t.Fatalf("another process reveals %q", got)
	}
	id, ok, err := keys.Erase(ctx, alice)
	if err != nil || !ok {
		t.Fatalf("erase: %v %v", ok, err)
	}
	if got, _ := keys.Reveal(ctx, a+" / "+b, false); got != personal.Erased+" / bob 的需求" {
		t.Fatalf("after erasure: %q", got)
	}
	fresh := personal.New(pool, nil)
	if got, _ := fresh.Reveal(ctx, a, false); got != personal.Erased {
		t.Fatalf("a process that starts after the erasure reveals %q", got)
	}
	if _, again, _ := keys.Erase(ctx, alice); again {
		t.Fatal("erasing twice found a key")
	}
	var subject, key any
	if err := pool.QueryRow(ctx, `SELECT subject, wrapped_key FROM personal_keys WHERE key_id = $1`, id).Scan(&subject, &key); err != nil {
		t.Fatal(err)
	}
	if subject != alice || key != nil {
		t.Fatalf("the erased row keeps %v %v; want its subject and no key", subject, key)
	}
	// The erasure is final: a text sealed for alice afterwards (a step
	// still running) is stored erased, in this process and in a fresh one.
	for _, k := range []*personal.Keys{keys, personal.New(pool, nil)} {
		if c, err := k.Seal(ctx, alice, "新的"); err != nil || c != personal.Erased {
			t.Fatalf("sealed after the erasure: %q %v; want %q", c, err, personal.Erased)
		}
	}
	// A subject with nothing sealed yet is erased all the same.
	if _, had, err := keys.Erase(ctx, "user:carol"); err != nil || had {
		t.Fatalf("erase a subject without a key: %v %v", had, err)
	}
	if c, _ := keys.Seal(ctx, "user:carol", "后来的"); c != personal.Erased {
		t.Fatalf("sealed for an erased subject without a key: %q", c)
	}
	// A text written around a sealed one reveals both; erased inside, the
	// marker stands where the inner text was.
	outer, err := keys.Seal(ctx, "user:dave", "改写自："+b)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := keys.Reveal(ctx, outer, false); got != "改写自：bob 的需求" {
		t.Fatalf("nested: %q", got)
	}
	// Tampered or foreign envelopes reveal as erased, never as garbage.
	tampered := b[:len(b)-6] + "AAAA}}"
	if got, _ := fresh.Reveal(ctx, tampered, false); got != personal.Erased {
		t.Fatalf("a tampered envelope: %q", got)
	}
	const prefix = len("{{towow:p1:")
	foreign := b[:prefix] + strings.Repeat("0", 32) + b[prefix+32:]
	if got, _ := fresh.Reveal(ctx, foreign, false); got != personal.Erased {
		t.Fatalf("an unknown key id: %q", got)
	}
}

// TestSealConcurrently: processes sealing for a new subject at once agree
// on one key.
func TestSealConcurrently(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.New(t)
	var wg sync.WaitGroup
	sealed := make([]string, 8)
	for i := range sealed {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := personal.New(pool, nil).Seal(ctx, "user:carol", "carol 的话")
			if err != nil {
				t.Error(err)
			}
			sealed[i] = s
		}()
	}
	wg.Wait()
	var n int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM personal_keys`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d keys (%v), want 1", n, err)
	}
	keys := personal.New(pool, nil)
	for _, s := range sealed {
		if got, _ := keys.Reveal(ctx, s, false); got != "carol 的话" {
			t.Fatalf("reveal %q", got)
		}
	}
}
