//go:build !linux

package bench

import "errors"

const pollAvailable = false

type pollReader struct{ reader }

func newPollReader(string) (*pollReader, error) {
	return nil, errors.New("the poll reader needs Linux")
}
