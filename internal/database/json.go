package database

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// registerRawJSON makes conn scan json and jsonb values into a
// json.RawMessage as it scans them into a []byte: a copy of the bytes the
// server sent. pgx's own codecs run a json.RawMessage target through
// json.Unmarshal, which validates every document the server has already
// validated (a tenth of the engine's CPU when it folds streams).
func registerRawJSON(_ context.Context, conn *pgx.Conn) error {
	m := conn.TypeMap()
	m.RegisterType(&pgtype.Type{Name: "json", OID: pgtype.JSONOID,
		Codec: rawJSONCodec{&pgtype.JSONCodec{Marshal: json.Marshal, Unmarshal: json.Unmarshal}}})
	m.RegisterType(&pgtype.Type{Name: "jsonb", OID: pgtype.JSONBOID,
		Codec: rawJSONCodec{&pgtype.JSONBCodec{Marshal: json.Marshal, Unmarshal: json.Unmarshal}}})
	return nil
}

// rawJSONCodec is a json or jsonb codec whose scan into a *json.RawMessage
// is its scan into a *[]byte.
type rawJSONCodec struct{ pgtype.Codec }

// PlanScan implements pgtype.Codec.
func (c rawJSONCodec) PlanScan(m *pgtype.Map, oid uint32, format int16, target any) pgtype.ScanPlan {
	if _, ok := target.(*json.RawMessage); ok {
		return rawJSONScan{c.Codec.PlanScan(m, oid, format, new([]byte))}
	}
	return c.Codec.PlanScan(m, oid, format, target)
}

// rawJSONScan scans into a *json.RawMessage through a plan for *[]byte.
type rawJSONScan struct{ bytes pgtype.ScanPlan }

// Scan implements pgtype.ScanPlan.
func (p rawJSONScan) Scan(src []byte, dst any) error {
	return p.bytes.Scan(src, (*[]byte)(dst.(*json.RawMessage)))
}
