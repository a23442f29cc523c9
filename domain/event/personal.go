package event

import (
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// A payload declares its personal fields, the texts that are a person's
// own words or say who they are (a demand's text, a message, a profile,
// a name, a plan written from them), with the struct tag
// `personal:"true"` on a string or []string field, at any depth. They
// are stored sealed, so that destroying their data subject's key erases
// them; ids, enums, tags, counts and places stay plain, because folds,
// read models and matching work on them.
const personalTag = "personal"

// SealedPrefix opens every sealed text as stored:
// "{{towow:p1:<key id>:<nonce and ciphertext>}}".
const SealedPrefix = "{{towow:p1:"

// ClipSealed marks a sealed text to be clipped to n characters once
// revealed (a one-line summary of a text it cannot read), and reports
// whether s is sealed at all. A text that merely holds a sealed one is
// returned whole: clipping it could cut the sealed text apart.
func ClipSealed(s string, n int) (string, bool) {
	if !strings.Contains(s, SealedPrefix) {
		return s, false
	}
	if !strings.HasPrefix(s, SealedPrefix) || !strings.HasSuffix(s, "}}") || strings.Count(s, SealedPrefix) != 1 {
		return s, true
	}
	body := s[:len(s)-2]
	if i := strings.LastIndexByte(body, '~'); i > 0 {
		body = body[:i]
	}
	return body + "~" + strconv.Itoa(n) + "}}", true
}

// SealPersonal replaces, in place, every personal text reachable from v
// (a pointer to a payload, to metadata, or to any value whose types carry
// the tag) with what seal returns for it; empty texts are passed over. It
// stops at seal's first error.
func SealPersonal(v any, seal func(text string) (string, error)) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil
	}
	return walkPersonal(rv.Elem(), false, seal)
}

// HasPersonal reports whether values of v's type can hold a personal
// text (a payload type without any is stored as it is).
func HasPersonal(v any) bool {
	t := reflect.TypeOf(v)
	if t == nil {
		return false
	}
	return personalIn(t)
}

// personalTypes caches, per type, whether it can hold a personal text.
var personalTypes sync.Map // reflect.Type → bool

func personalIn(t reflect.Type) bool {
	if v, ok := personalTypes.Load(t); ok {
		return v.(bool)
	}
	personalTypes.Store(t, false) // a recursive type meets itself as false
	has := false
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		has = personalIn(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if f.Tag.Get(personalTag) == "true" || personalIn(f.Type) {
				has = true
				break
			}
		}
	}
	personalTypes.Store(t, has)
	return has
}

// walkPersonal seals the personal texts in v; personal says v itself is
// (or holds, as a slice) a personal text.
func walkPersonal(v reflect.Value, personal bool, seal func(string) (string, error)) error {
	switch v.Kind() {
	case reflect.String:
		if !personal || v.Len() == 0 || !v.CanSet() {
			return nil
		}
		s, err := seal(v.String())
		if err != nil {
			return err
		}
		v.SetString(s)
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return walkPersonal(v.Elem(), personal, seal)
	case reflect.Slice, reflect.Array:
		if !personal && !personalIn(v.Type().Elem()) {
			return nil
		}
		for i := range v.Len() {
			if err := walkPersonal(v.Index(i), personal, seal); err != nil {
				return err
			}
		}
	case reflect.Map:
		if !personalIn(v.Type().Elem()) && !personal {
			return nil
		}
		// Map values are not addressable: each is copied, sealed and
		// stored back.
		iter := v.MapRange()
		for iter.Next() {
			cp := reflect.New(v.Type().Elem()).Elem()
			cp.Set(iter.Value())
			if err := walkPersonal(cp, personal, seal); err != nil {
				return err
			}
			v.SetMapIndex(iter.Key(), cp)
		}
	case reflect.Struct:
		if !personalIn(v.Type()) {
			return nil
		}
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if err := walkPersonal(v.Field(i), f.Tag.Get(personalTag) == "true", seal); err != nil {
				return err
			}
		}
	}
	return nil
}

// Subjected is a payload or job's arguments kept outside its data
// subject's streams (a notice in its recipient's inbox, a webhook
// delivery) that names the subject itself, so that erasing the subject
// erases its texts there too.
type Subjected interface {
	// PersonalSubject returns the data subject ("" for the stream's).
	PersonalSubject() string
}

// TreeSubject is the data subject of a negotiation tree's texts (its
// demands, offers, plans, its workflow's conversation), by its root
// demand id (a person's own workflow: its workflow id): they are the
// requester's, and erasing the requester erases them.
func TreeSubject(root string) string { return "tree:" + root }

// PrincipalSubject is the data subject of what belongs to a principal
// outside any tree, by its actor string ("user:<id>", "agent:<id>"): an
// agent's profile, a notice that names no tree.
func PrincipalSubject(actor string) string { return actor }
