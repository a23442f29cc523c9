// Package eventtest holds one sample payload of every registered event
// type, with every field filled, for the tests of the packages that read
// events (round trips, golden encodings, summaries).
package eventtest
