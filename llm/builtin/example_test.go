package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
)

func ExampleNew() {
	p := builtin.New()
	resp, err := p.Complete(context.Background(), llm.Request{
		Key:   llm.PromptUnderstand,
		Input: &llm.UnderstandInput{RawInput: "我想在北京办一场AI主题聚会，需要场地和嘉宾", UserID: "alice"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	// The reply may sit in a code fence or follow a sentence, like a real
	// model's; the JSON object is between the first { and the last }.
	text := resp.Text[strings.Index(resp.Text, "{") : strings.LastIndex(resp.Text, "}")+1]
	var u negotiation.Understanding
	if err := json.Unmarshal([]byte(text), &u); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Name(), p.Model())
	fmt.Println(u.CapabilityTags, u.Context.Location)
	// Output:
	// builtin towow-builtin-v1
	// [场地提供 演讲嘉宾 活动策划] 北京
}
