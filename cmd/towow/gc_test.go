package main

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	was := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(was) })
	tests := []struct {
		name string
		gogc string
		set  int // the target in force before tuneGC
		want int
	}{
		{"unset: towow's default", "", 100, defaultGCPercent},
		{"set: the runtime's reading stands", "150", 150, 150},
		{"off stays off", "off", -1, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetGCPercent(tt.set)
			got := tuneGC(func(k string) string {
				if k == "GOGC" {
					return tt.gogc
				}
				return ""
			})
			inForce := debug.SetGCPercent(tt.set)
			if got != tt.want || inForce != tt.want {
				t.Errorf("tuneGC = %d, target in force %d, want %d", got, inForce, tt.want)
			}
		})
	}
}
