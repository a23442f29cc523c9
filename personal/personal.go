// Package personal keeps personal data erasable in an append-only log by
// crypto-shredding. Each data subject (a person, an agent's owner) has a
// data key of its own, made the first time something of theirs is sealed;
// a personal text is stored sealed with it (AES-256-GCM) as an envelope
// string, "{{towow:p1:<key id>:<nonce and ciphertext, base64url>}}", which
// fits any JSON string field and is found again inside any text (a JSON
// document, a rendered prompt). Reveal puts the plaintext back in place of
// every envelope; once the subject's key is erased (Erase), it puts
// Erased instead, wherever the envelope went: events, read models,
// backups taken afterwards. The key id is random, so recording an erasure
// names no one.
package personal

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/internal/sqlcdb"
)

// Erased is what a reader sees in place of a personal text whose
// subject's key is erased.
const Erased = "[已删除]"

// envelopePrefix opens every sealed text.
const envelopePrefix = event.SealedPrefix

// An envelope is envelopePrefix, the key id (32 hex digits), ":", the
// nonce and ciphertext (unpadded base64url), optionally "~" and the length
// a summary clips it to once revealed (event.ClipSealed), and "}}".

// envelopeAt parses the envelope text holds at its start: its parts (key
// id, sealed data, clip length or "") and its length; n is 0 when text
// does not start with a whole envelope.
func envelopeAt(text string) (parts [3]string, n int) {
	if !strings.HasPrefix(text, envelopePrefix) {
		return parts, 0
	}
	i := len(envelopePrefix)
	if len(text) < i+33 || text[i+32] != ':' {
		return parts, 0
	}
	for _, c := range []byte(text[i : i+32]) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return parts, 0
		}
	}
	parts[0] = text[i : i+32]
	i += 33
	start := i
	for i < len(text) && (text[i] >= 'A' && text[i] <= 'Z' || text[i] >= 'a' && text[i] <= 'z' || text[i] >= '0' && text[i] <= '9' || text[i] == '-' || text[i] == '_') {
		i++
	}
	if i == start {
		return parts, 0
	}
	parts[1] = text[start:i]
	if i < len(text) && text[i] == '~' {
		i++
		start = i
		for i < len(text) && i-start < 4 && text[i] >= '0' && text[i] <= '9' {
			i++
		}
		if i == start {
			return parts, 0
		}
		parts[2] = text[start:i]
	}
	if !strings.HasPrefix(text[i:], "}}") {
		return parts, 0
	}
	return parts, i + 2
}

// KeyProvider wraps and unwraps data keys: the local provider stores them
// as they are (erasing the row destroys them); a KMS would wrap them with
// a key it never hands out, so that the table alone reveals nothing.
type KeyProvider interface {
	Wrap(ctx context.Context, key []byte) ([]byte, error)
	Unwrap(ctx context.Context, wrapped []byte) ([]byte, error)
}

// Local is the KeyProvider that keeps data keys in the table as they are.
type Local struct{}

// Wrap returns key as it is.
func (Local) Wrap(_ context.Context, key []byte) ([]byte, error) { return key, nil }

// Unwrap returns wrapped as it is.
func (Local) Unwrap(_ context.Context, wrapped []byte) ([]byte, error) { return wrapped, nil }

// Keys seals and reveals personal texts with the data keys of the
// personal_keys table. Keys it has used are cached (unwrapped): for
// revealing, revealFor, so another process's erasure takes effect here
// within that long (this process's own, at once); for sealing, sealFor (a
// text sealed meanwhile with a key erased elsewhere opens for no one).
type Keys struct {
	db       sqlcdb.DBTX
	provider KeyProvider
	now      func() time.Time

	mu    sync.Mutex
	byID  map[uuid.UUID]cachedKey
	bySub map[string]uuid.UUID
	// erasures counts this process's erasures: a lease taken before one
	// no longer holds.
	erasures atomic.Uint64
}

// cachedKey is a data key (nil: erased) and when it was read.
type cachedKey struct {
	aead cipher.AEAD
	read time.Time
}

// revealFor and sealFor are how long a data key read from the table is
// used, to reveal and to seal, without reading it again.
const (
	revealFor = 5 * time.Second
	sealFor   = 30 * time.Second
)

// New returns the keys of db's personal_keys table, wrapped by provider
// (nil: Local).
func New(db sqlcdb.DBTX, provider KeyProvider) *Keys {
	if provider == nil {
		provider = Local{}
	}
	return &Keys{db: db, provider: provider, now: time.Now, byID: map[uuid.UUID]cachedKey{}, bySub: map[string]uuid.UUID{}}
}

// ErrNoSubject is a seal for an empty subject.
var ErrNoSubject = errors.New("personal: no data subject")

// Seal returns text sealed with subject's data key (made now if the
// subject has none), or Erased once the subject is erased: an erasure is
// final, also for what a step still running writes after it. An empty
// text stays empty: there is nothing to protect, and "no answer" stays
// visible as such. A text already sealed is returned as it is (a copy
// keeps the key of the text it copies).
func (k *Keys) Seal(ctx context.Context, subject, text string) (string, error) {
	if text == "" || IsSealed(text) {
		return text, nil
	}
	if subject == "" {
		return "", ErrNoSubject
	}
	id, aead, err := k.subjectKey(ctx, subject)
	if err != nil {
		return "", err
	}
	if aead == nil {
		return Erased, nil
	}
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(text)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("personal: nonce: %w", err)
	}
	// The key id is the additional data: a sealed text moved under
	// another key's envelope does not open.
	sealed := aead.Seal(nonce, nonce, []byte(text), id[:])
	return envelopePrefix + strings.ReplaceAll(id.String(), "-", "") + ":" + base64.RawURLEncoding.EncodeToString(sealed) + "}}", nil
}

// IsSealed reports whether text is exactly one envelope.
func IsSealed(text string) bool {
	if !strings.HasPrefix(text, envelopePrefix) {
		return false
	}
	_, n := envelopeAt(text)
	return n == len(text)
}

// Reveal returns text with every envelope in it replaced by its plaintext,
// or by Erased when its key is erased, unknown or the envelope does not
// open; a plaintext holding envelopes of its own (a text written around a
// copied one) is revealed in turn, to maxNesting levels. With escape, each
// plaintext is escaped as the inside of a JSON string (text is a JSON
// document). It fails only when the table cannot be read.
func (k *Keys) Reveal(ctx context.Context, text string, escape bool) (string, error) {
	out, _, err := k.revealLease(ctx, text, escape)
	return out, err
}

// RevealHeld is Reveal that also returns whether its answer still holds:
// holds turns false once a key that revealed it is due to be read from
// the table again (another process may have erased it meanwhile), or once
// this process erases any key. Whoever keeps a revealed text to hand out
// again (one frame for a thousand followers of a stream) reveals it anew
// when it no longer holds, so an erasure reaches them as it reaches
// Reveal.
func (k *Keys) RevealHeld(ctx context.Context, text string, escape bool) (revealed string, holds func() bool, err error) {
	out, l, err := k.revealLease(ctx, text, escape)
	if err != nil {
		return "", nil, err
	}
	return out, l.holds, nil
}

// A lease says how long a revealed text reads the same: until one of the
// keys that revealed it is due to be read from the table again, and only
// while this process erases nothing. A text no key decided (nothing in it
// was sealed) reads the same for good.
type lease struct {
	keys     *Keys // nil: no key decided the text
	until    time.Time
	erasures uint64
}

// holds reports whether the text revealed under l still reads the same.
func (l lease) holds() bool {
	if l.keys == nil {
		return true
	}
	return l.keys.erasures.Load() == l.erasures && l.keys.now().Before(l.until)
}

// revealLease is Reveal that also returns how long its answer holds.
func (k *Keys) revealLease(ctx context.Context, text string, escape bool) (string, lease, error) {
	l := lease{erasures: k.erasures.Load()}
	for range maxNesting {
		if !strings.Contains(text, envelopePrefix) {
			return text, l, nil
		}
		var b strings.Builder
		b.Grow(len(text))
		rest, changed := text, false
		for {
			i := strings.Index(rest, envelopePrefix)
			if i < 0 {
				b.WriteString(rest)
				break
			}
			b.WriteString(rest[:i])
			parts, n := envelopeAt(rest[i:])
			if n == 0 { // not a whole envelope: kept as it is
				b.WriteString(envelopePrefix)
				rest = rest[i+len(envelopePrefix):]
				continue
			}
			plain, read, err := k.open(ctx, parts)
			if err != nil {
				return "", lease{}, err
			}
			if until := read.Add(revealFor); !read.IsZero() && (l.keys == nil || until.Before(l.until)) {
				l.keys, l.until = k, until
			}
			if escape {
				plain = jsonEscape(plain)
			}
			b.WriteString(plain)
			rest, changed = rest[i+n:], true
		}
		if !changed {
			return text, l, nil
		}
		text = b.String()
	}
	return text, l, nil
}

// maxNesting bounds how deep Reveal opens envelopes inside plaintexts.
const maxNesting = 4

// open returns the plaintext of one envelope (clipped as it asks), or
// Erased, and when the key that decided it was read from the table (zero
// when no key did: the envelope is malformed, and stays so).
func (k *Keys) open(ctx context.Context, parts [3]string) (string, time.Time, error) {
	plain, read, err := k.openSealed(ctx, parts)
	if err != nil || parts[2] == "" {
		return plain, read, err
	}
	n, _ := strconv.Atoi(parts[2])
	return negotiation.ClipText(plain, max(n, 2)), read, nil
}

// openSealed returns the plaintext of one envelope's parts, or Erased, and
// when its key was read.
func (k *Keys) openSealed(ctx context.Context, parts [3]string) (string, time.Time, error) {
	id, err := uuid.Parse(parts[0])
	if err != nil {
		return Erased, time.Time{}, nil
	}
	sealed, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return Erased, time.Time{}, nil
	}
	aead, read, err := k.keyByID(ctx, id)
	if err != nil {
		return "", time.Time{}, err
	}
	if aead == nil || len(sealed) < aead.NonceSize() {
		return Erased, read, nil
	}
	plain, err := aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], id[:])
	if err != nil {
		return Erased, read, nil
	}
	return string(plain), read, nil
}

// Erase destroys subject's data key: every text sealed with it reveals
// Erased from now on, in this process at once and in others within
// revealFor. It returns the key's id (what an erasure event may record),
// and ok false when the subject had no key (nothing of theirs was sealed,
// or it is erased already).
func (k *Keys) Erase(ctx context.Context, subject string) (id uuid.UUID, ok bool, err error) {
	q := sqlcdb.New(k.db)
	id, err = q.ErasePersonalKey(ctx, sqlcdb.ErasePersonalKeyParams{ErasedAt: k.now().UTC(), Subject: subject})
	if errors.Is(err, pgx.ErrNoRows) {
		// Nothing sealed for it (yet): recorded as erased all the same.
		if err := q.MarkSubjectErased(ctx, sqlcdb.MarkSubjectErasedParams{KeyID: uuid.New(), Subject: subject, ErasedAt: k.now().UTC()}); err != nil {
			return uuid.Nil, false, fmt.Errorf("personal: erase: %w", err)
		}
		k.forgetSubject(subject)
		return uuid.Nil, false, nil
	}
	if err != nil {
		return uuid.Nil, false, fmt.Errorf("personal: erase: %w", err)
	}
	k.mu.Lock()
	k.byID[id] = cachedKey{read: k.now()}
	k.mu.Unlock()
	k.erasures.Add(1)
	k.forgetSubject(subject)
	return id, true, nil
}

// forgetSubject drops what the cache knows of subject's key.
func (k *Keys) forgetSubject(subject string) {
	k.mu.Lock()
	delete(k.bySub, subject)
	k.mu.Unlock()
}

// subjectKey is subject's data key, made and recorded if it has none; a
// nil cipher when the subject is erased.
func (k *Keys) subjectKey(ctx context.Context, subject string) (uuid.UUID, cipher.AEAD, error) {
	k.mu.Lock()
	id, ok := k.bySub[subject]
	c := k.byID[id]
	k.mu.Unlock()
	if ok && c.aead != nil && k.now().Sub(c.read) < sealFor {
		return id, c.aead, nil
	}
	q := sqlcdb.New(k.db)
	row, err := q.PersonalKeyOfSubject(ctx, subject)
	if errors.Is(err, pgx.ErrNoRows) {
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return uuid.Nil, nil, fmt.Errorf("personal: new key: %w", err)
		}
		wrapped, werr := k.provider.Wrap(ctx, key)
		if werr != nil {
			return uuid.Nil, nil, fmt.Errorf("personal: wrap a new key: %w", werr)
		}
		if err := q.CreatePersonalKey(ctx, sqlcdb.CreatePersonalKeyParams{KeyID: uuid.New(), Subject: subject, WrappedKey: wrapped}); err != nil {
			return uuid.Nil, nil, fmt.Errorf("personal: record a new key: %w", err)
		}
		row, err = q.PersonalKeyOfSubject(ctx, subject) // ours, or one recorded meanwhile
	}
	if err != nil {
		return uuid.Nil, nil, fmt.Errorf("personal: key of a subject: %w", err)
	}
	if row.WrappedKey == nil {
		return row.KeyID, nil, nil
	}
	aead, err := k.aead(ctx, row.WrappedKey)
	if err != nil {
		return uuid.Nil, nil, err
	}
	k.mu.Lock()
	k.byID[row.KeyID] = cachedKey{aead: aead, read: k.now()}
	k.bySub[subject] = row.KeyID
	k.mu.Unlock()
	return row.KeyID, aead, nil
}

// keyByID is the data key of id, nil when erased or unknown, and when it
// was read from the table.
func (k *Keys) keyByID(ctx context.Context, id uuid.UUID) (cipher.AEAD, time.Time, error) {
	k.mu.Lock()
	c, ok := k.byID[id]
	k.mu.Unlock()
	if ok && k.now().Sub(c.read) < revealFor {
		return c.aead, c.read, nil
	}
	row, err := sqlcdb.New(k.db).PersonalKeyByID(ctx, id)
	var aead cipher.AEAD
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return nil, time.Time{}, fmt.Errorf("personal: read a key: %w", err)
	case row.WrappedKey != nil:
		if aead, err = k.aead(ctx, row.WrappedKey); err != nil {
			return nil, time.Time{}, err
		}
	}
	read := k.now()
	k.mu.Lock()
	k.byID[id] = cachedKey{aead: aead, read: read}
	k.mu.Unlock()
	return aead, read, nil
}

// aead unwraps a data key into its cipher.
func (k *Keys) aead(ctx context.Context, wrapped []byte) (cipher.AEAD, error) {
	key, err := k.provider.Unwrap(ctx, wrapped)
	if err != nil {
		return nil, fmt.Errorf("personal: unwrap a key: %w", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("personal: key: %w", err)
	}
	return cipher.NewGCM(block)
}

// jsonEscape is s escaped as the inside of a JSON string.
func jsonEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
