package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// JSON types, the field types of the reply shapes (each prompt's reply
// type, such as GapsReply). Alone they decode leniently and never fail on
// a well-formed JSON value of the "wrong" kind; but a reply is first
// checked for its shape (shape.go: text must be a string, a list a list,
// an object an object), so only what stays lenient in a reply is a
// scalar's form ("0.8", "80%", " 0.9 "), surrounding prose and code
// fences; validation happens afterwards, on the typed result. They
// also encode (the builtin brain writes its replies with them) exactly as
// the plain Go type of their value would: a Text as a string, a Scalar
// made by NumberScalar as that number, and so on.

// Size limits applied while normalising replies.
const (
	maxReplyBytes = 256 << 10 // the part of a reply searched for JSON
	maxJSONStarts = 64        // candidate '{' positions tried
	maxTextRunes  = 2000      // any free-text field
	maxShortRunes = 200       // names, roles, tags, dates
	maxListItems  = 30        // any list
	maxTagItems   = 12        // capability tags
)

// decodeAny decodes one JSON value with numbers kept as json.Number.
func decodeAny(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// stringify renders a decoded JSON value as text: strings as they are,
// numbers and booleans in JSON form, lists joined with "；", objects by a
// well-known text field when they have one, else as compact JSON.
func stringify(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, 0, len(x))
		for _, e := range x {
			if s := strings.TrimSpace(stringify(e)); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "；")
	case map[string]any:
		for _, k := range []string{"gap_type", "name", "request", "issue", "description", "text", "content", "value"} {
			if s, ok := x[k].(string); ok && strings.TrimSpace(s) != "" {
				return s
			}
		}
		b, err := json.Marshal(x)
		if err != nil {
			return ""
		}
		return string(b)
	}
	return ""
}

// Text is a lenient string: any JSON value, stringified and trimmed. It
// encodes as a JSON string.
type Text string

// UnmarshalJSON implements json.Unmarshaler.
func (s *Text) UnmarshalJSON(b []byte) error {
	v, err := decodeAny(b)
	if err != nil {
		return err
	}
	*s = Text(strings.TrimSpace(stringify(v)))
	return nil
}

// TextList is a lenient list of strings: a list (each element
// stringified), a single string or object (one element), or null. It
// encodes as a JSON list of strings (null when nil).
type TextList []string

// UnmarshalJSON implements json.Unmarshaler.
func (l *TextList) UnmarshalJSON(b []byte) error {
	v, err := decodeAny(b)
	if err != nil {
		return err
	}
	*l = nil
	switch x := v.(type) {
	case nil:
	case []any:
		for _, e := range x {
			*l = append(*l, stringify(e))
		}
	default:
		*l = append(*l, stringify(x))
	}
	return nil
}

// Scalar is a lenient scalar: a number, a numeric string ("80", "80%",
// " 0.9 "), a boolean or any other string. Present reports whether the
// field was in the reply and not null. Make one to encode with
// NumberScalar, IntScalar, BoolScalar or StringScalar; the zero Scalar
// encodes as null.
type Scalar struct {
	Present bool    // in the reply and not null
	IsNum   bool    // a number, or a string that reads as one: Num
	Num     float64 // finite
	IsBool  bool    // a boolean: Bool
	Bool    bool
	Str     string // trimmed text form of a non-numeric, non-boolean value
}

// NumberScalar returns the Scalar of the number n (finite), which encodes
// as encoding/json encodes a float64.
func NumberScalar(n float64) Scalar { return Scalar{Present: true, IsNum: true, Num: n} }

// IntScalar returns the Scalar of the integer n, which encodes as
// encoding/json encodes an int (for |n| < 2^53).
func IntScalar(n int) Scalar { return NumberScalar(float64(n)) }

// BoolScalar returns the Scalar of b, which encodes as true or false.
func BoolScalar(b bool) Scalar { return Scalar{Present: true, IsBool: true, Bool: b} }

// StringScalar returns the Scalar of the word s (such as "high"), which
// encodes as a JSON string. It is a string even when s looks like a
// number.
func StringScalar(s string) Scalar { return Scalar{Present: true, Str: s} }

// UnmarshalJSON implements json.Unmarshaler.
func (f *Scalar) UnmarshalJSON(b []byte) error {
	v, err := decodeAny(b)
	if err != nil {
		return err
	}
	*f = Scalar{}
	switch x := v.(type) {
	case nil:
		return nil
	case bool:
		f.Present, f.IsBool, f.Bool = true, true, x
		return nil
	case json.Number:
		f.Present = true
		f.setNumber(x.String())
		return nil
	}
	f.Present = true
	s := strings.TrimSpace(stringify(v))
	if !f.setNumber(strings.TrimSpace(strings.TrimSuffix(s, "%"))) {
		f.Str = s
	}
	return nil
}

// MarshalJSON implements json.Marshaler: null when absent, else the
// boolean, the number or the string.
func (f Scalar) MarshalJSON() ([]byte, error) {
	switch {
	case !f.Present:
		return []byte("null"), nil
	case f.IsBool:
		return json.Marshal(f.Bool)
	case f.IsNum:
		return json.Marshal(f.Num)
	}
	return marshalRaw(f.Str)
}

// setNumber parses s as a finite number.
func (f *Scalar) setNumber(s string) bool {
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
		// Large literals overflow to ±Inf with ErrRange: clamp them.
		if errors.Is(err, strconv.ErrRange) {
			f.IsNum, f.Num = true, math.Copysign(math.MaxFloat64, n)
			return true
		}
		return false
	}
	f.IsNum, f.Num = true, n
	return true
}

// Object is a lenient nested object: an object decoded into V; any other
// value (or an object that does not decode) leaves V zero and OK false.
// Make one to encode with ObjectOf; an Object that is not OK encodes as
// null.
type Object[T any] struct {
	V  T    // the object
	OK bool // the value was an object that decoded into V
}

// ObjectOf returns the Object holding v.
func ObjectOf[T any](v T) Object[T] { return Object[T]{V: v, OK: true} }

// UnmarshalJSON implements json.Unmarshaler.
func (o *Object[T]) UnmarshalJSON(b []byte) error {
	*o = Object[T]{}
	if firstByte(b) != '{' {
		return nil
	}
	if err := json.Unmarshal(b, &o.V); err == nil {
		o.OK = true
	} else {
		var zero T
		o.V = zero
	}
	return nil
}

// valueType is T, for the shape check (shape.go).
func (Object[T]) valueType() reflect.Type { return reflect.TypeFor[T]() }

// MarshalJSON implements json.Marshaler: V, or null when not OK.
func (o Object[T]) MarshalJSON() ([]byte, error) {
	if !o.OK {
		return []byte("null"), nil
	}
	return marshalRaw(o.V)
}

// marshalRaw encodes v without escaping <, > and &: the encoder that calls
// a MarshalJSON method escapes them itself when it is asked to, so the
// result is what encoding v in place would have given.
func marshalRaw(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// List is a lenient list of objects: a list whose elements are decoded one
// by one (elements that do not decode are skipped), a single element, or
// null. It encodes as a JSON list (null when nil).
type List[T any] []T

// elemType is T, for the shape check (shape.go).
func (List[T]) elemType() reflect.Type { return reflect.TypeFor[T]() }

// UnmarshalJSON implements json.Unmarshaler.
func (l *List[T]) UnmarshalJSON(b []byte) error {
	*l = nil
	var elems []json.RawMessage
	if firstByte(b) == '[' {
		if err := json.Unmarshal(b, &elems); err != nil {
			return nil
		}
	} else if c := firstByte(b); c == '{' || c == '"' {
		elems = []json.RawMessage{b}
	}
	for _, e := range elems {
		var v T
		if err := json.Unmarshal(e, &v); err == nil {
			*l = append(*l, v)
		}
	}
	return nil
}

// decodeObjectOrString decodes b into obj when it is an object, or calls
// set with the string when it is a bare string (e.g. a list of agent ids
// where a list of candidates was expected). Other values are an error, so
// List skips them.
func decodeObjectOrString(b []byte, obj any, set func(string)) error {
	switch firstByte(b) {
	case '{':
		return json.Unmarshal(b, obj)
	case '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		set(strings.TrimSpace(s))
		return nil
	}
	return errors.New("not an object")
}

// firstByte returns the first non-space byte of b (0 if none).
func firstByte(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// ---- Extraction of the JSON object from a reply.

// errNoJSON is returned when a reply holds no JSON object that decodes.
var errNoJSON = errors.New("no json object in reply")

// decodeReply finds the first balanced top-level JSON object of text that
// decodes into v with every field of the right kind (shapeError), plain
// JSON, inside a ``` fence, or inside prose. A
// balanced candidate that does not decode is skipped as a whole; an
// unbalanced '{' is skipped by one byte. At most maxJSONStarts candidates
// in the first maxReplyBytes are tried. When keys are given, a candidate
// must have at least one of them as a top-level key (so that a small
// example object in the prose before the answer is not taken for it).
func decodeReply(text string, v any, keys ...string) error {
	if len(text) > maxReplyBytes {
		text = text[:maxReplyBytes]
	}
	var lastErr error
	var keyless []byte // the first valid object without any of keys
	i, tries := 0, 0
	for tries < maxJSONStarts {
		start := strings.IndexByte(text[i:], '{')
		if start < 0 {
			break
		}
		start += i
		tries++
		end := matchBrace(text, start)
		if end < 0 {
			i = start + 1
			continue
		}
		cand := []byte(text[start : end+1])
		switch {
		case !json.Valid(cand):
		case hasAnyKey(cand, keys):
			err := json.Unmarshal(cand, v)
			if err == nil {
				msg := shapeError(cand, reflect.TypeOf(v))
				if msg == "" {
					return nil
				}
				err = errors.New(msg)
			}
			lastErr = err
		case keyless == nil:
			keyless = cand
		}
		i = end + 1
	}
	switch {
	case lastErr != nil:
		return errors.Join(errNoJSON, lastErr)
	case keyless != nil:
		what := "a JSON object without"
		if m := map[string]json.RawMessage{}; json.Unmarshal(keyless, &m) == nil && len(m) == 0 {
			what = "an empty JSON object {}, without"
		}
		return fmt.Errorf("%w: the reply is %s any of the fields %s", errMissingFields, what, strings.Join(keys, ", "))
	}
	return errNoJSON
}

// errMissingFields is returned when a reply's JSON object has none of the
// fields the prompt asks for.
var errMissingFields = errors.New("reply lacks the prompt's fields")

// hasAnyKey reports whether the JSON object obj has one of keys as a
// top-level key (case-insensitively, as encoding/json matches fields), or
// keys is empty.
func hasAnyKey(obj []byte, keys []string) bool {
	if len(keys) == 0 {
		return true
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil {
		return false
	}
	for k := range m {
		for _, want := range keys {
			if strings.EqualFold(k, want) {
				return true
			}
		}
	}
	return false
}

// matchBrace returns the index of the '}' closing the '{' at start, taking
// JSON strings and escapes into account, or -1 if it is never closed.
func matchBrace(s string, start int) int {
	depth, inString, escaped := 0, false, false
	for j := start; j < len(s); j++ {
		c := s[j]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				if c != '}' {
					return -1
				}
				return j
			}
			if depth < 0 {
				return -1
			}
		}
	}
	return -1
}

// ---- Normalisation helpers.

// clip trims s and cuts it to at most n runes (invalid UTF-8 is replaced).
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n]))
}

// cleanList trims and clips each item to n runes, drops empty items and
// duplicates, and keeps at most limit items.
func cleanList(items []string, n, limit int) []string {
	var out []string
	for _, it := range items {
		it = clip(it, n)
		if it == "" || slices.Contains(out, it) {
			continue
		}
		out = append(out, it)
		if len(out) == limit {
			break
		}
	}
	return out
}

// enumKey normalises an enum value for lookup: lower case, without spaces,
// underscores, hyphens, quotes and sentence punctuation.
func enumKey(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || strings.ContainsRune("_-.。!！'\"“”‘’`", r) {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// lookupEnum returns the value of s in table (by enumKey).
func lookupEnum[T any](table map[string]T, s string) (T, bool) {
	v, ok := table[enumKey(s)]
	return v, ok
}

// percent converts a confidence or importance to 0-100: fractions in
// (0, 1] are scaled by 100, the result is rounded and clamped.
func percent(n float64) int {
	if n > 0 && n <= 1 {
		n *= 100
	}
	return int(math.Round(math.Max(0, math.Min(100, n))))
}

// boolOf interprets a lenient value as a boolean.
func boolOf(f Scalar) (value, ok bool) {
	switch {
	case !f.Present:
		return false, false
	case f.IsBool:
		return f.Bool, true
	case f.IsNum:
		return f.Num != 0, true
	}
	switch enumKey(f.Str) {
	case "true", "yes", "y", "是", "对", "需要", "满足", "已满足":
		return true, true
	case "false", "no", "n", "否", "不", "不需要", "不满足", "未满足":
		return false, true
	}
	return false, false
}
