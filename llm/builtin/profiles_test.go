package builtin

import (
	"slices"
	"testing"

	"github.com/towow/towow/data"
	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/mocknet"
)

// TestProfilesClaimOnlyTheirTags holds the mock profiles, hand-written and
// generated, to the rule that what a profile's summary says about its work names no
// capability its tags lack: the filter reads capabilities from that text,
// so a venue whose summary mentioned taking photos would be shortlisted,
// and could be assigned, as a photographer.
func TestProfilesClaimOnlyTheirTags(t *testing.T) {
	written, errs := neg.ParseProfiles(data.MockProfiles)
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	tests := []struct {
		name     string
		profiles []neg.AgentProfile
	}{
		{"data/mock_profiles.json", written},
		{"mocknet.Network(3000)", mocknet.Network(3000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := 0
			for _, p := range tt.profiles {
				own := normalizeTags(p.Tags)
				var extra []string
				for _, tag := range tagsInText(p.ProfileSummary) {
					if !slices.Contains(own, tag) {
						extra = append(extra, tag)
					}
				}
				if len(extra) > 0 {
					if bad++; bad <= 10 {
						t.Errorf("%s (tags %v) reads as %v too: %s", p.AgentID, p.Tags, extra, p.ProfileSummary)
					}
				}
			}
			if bad > 10 {
				t.Errorf("… %d profiles in all", bad)
			}
		})
	}
}
