package main

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	was := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(was) })
	tests := []struct {
		name    string
		gogc    string
		before  int // the target in force before tuneGC (as the runtime read GOGC)
		wantSet bool
		want    int
	}{
		{"unset: towow's default", "", 100, true, defaultGCPercent},
		{"set: the runtime's reading stands", "150", 150, false, 150},
		{"off stays off", "off", -1, false, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetGCPercent(tt.before)
			set := tuneGC(func(k string) string {
				if k == "GOGC" {
					return tt.gogc
				}
				return ""
			})
			inForce := debug.SetGCPercent(tt.before)
			if set != tt.wantSet || inForce != tt.want {
				t.Errorf("tuneGC set %v, target in force %d; want %v, %d", set, inForce, tt.wantSet, tt.want)
			}
		})
	}
}
