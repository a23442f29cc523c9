package pgcluster

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

// readyTimeout bounds how long a started or attached server may take to
// accept connections.
const readyTimeout = 60 * time.Second

// errNotReady means the server answered but is starting up or shutting down.
var errNotReady = errors.New("server is not accepting connections yet")

// probe checks, like pg_isready, that the server on 127.0.0.1:port accepts
// connections: it sends a protocol 3.0 startup message and reads the first
// reply. An authentication request, or any error other than SQLSTATE 57P03
// (cannot_connect_now), means the server is up.
func probe(ctx context.Context, port int) error {
	d := net.Dialer{Timeout: 2 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(2 * time.Second))

	var body bytes.Buffer
	_ = binary.Write(&body, binary.BigEndian, int32(3<<16))
	for _, s := range []string{"user", "towow", "database", "postgres", ""} {
		body.WriteString(s)
		body.WriteByte(0)
	}
	msg := binary.BigEndian.AppendUint32(nil, uint32(body.Len()+4))
	if _, err := conn.Write(append(msg, body.Bytes()...)); err != nil {
		return err
	}

	r := bufio.NewReader(conn)
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return err
	}
	if head[0] != 'E' {
		return nil // 'R' (authentication request) or anything else: alive
	}
	n := int(binary.BigEndian.Uint32(head[1:])) - 4
	if n < 0 || n > 1<<16 {
		return nil
	}
	fields := make([]byte, n)
	if _, err := io.ReadFull(r, fields); err != nil {
		return err
	}
	for _, f := range bytes.Split(fields, []byte{0}) {
		if len(f) > 0 && f[0] == 'C' && string(f[1:]) == "57P03" {
			return errNotReady
		}
	}
	return nil
}

// waitReady polls probe until the server accepts connections.
func waitReady(ctx context.Context, port int) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	for {
		err := probe(ctx, port)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for postgres on port %d to accept connections: %w (last: %v)", port, ctx.Err(), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
