package timeline_test

import (
	"fmt"

	"github.com/towow/towow/timeline"
)

func ExampleCanonical() {
	for _, name := range []string{"plan.distributed", "channel.created", "towow.agent.withdrawn"} {
		t, _ := timeline.Canonical(name)
		fmt.Println(name, "→", t)
	}
	// Output:
	// plan.distributed → towow.proposal.distributed
	// channel.created → towow.channel.created
	// towow.agent.withdrawn → towow.agent.withdrawn
}
