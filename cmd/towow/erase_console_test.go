package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestConsoleErasesData: a person reads their negotiation with their own
// words in it, opens 删除我的数据 from the header, reads what goes and
// confirms; the page says it is done, and the negotiation then shows
// 「[已删除]」 where their words were, at desktop and phone width.
// Screenshots: erase-*.png in .towow/screenshots.
func TestConsoleErasesData(t *testing.T) {
	chrome, _, s, base, shots := browserServer(t)
	token := s.token(t, "alice")
	demand := runDemand(t, s, token, "我想在北京望湖书店办一场AI主题聚会，需要场地和嘉宾，联系人王小明")
	bodyText := func(out *string) chromedp.Action { return chromedp.Evaluate(`document.body.innerText`, out) }
	waitText := func(want string) chromedp.Action {
		return chromedp.Poll(`document.body.innerText.includes(`+strconv.Quote(want)+`)`, nil, chromedp.WithPollingTimeout(20*time.Second))
	}
	screenshotTo := func(dir, name string) chromedp.Action {
		return chromedp.ActionFunc(func(ctx context.Context) error {
			var png []byte
			if err := chromedp.FullScreenshot(&png, 100).Do(ctx); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, name), png, 0o644)
		})
	}
	for i, size := range []struct {
		name string
		w, h int
	}{{"desktop", 1200, 860}, {"phone", 390, 844}} {
		ctx := newBrowser(t, chrome, size.w, size.h, 2*time.Minute)
		var before, after, done string
		tasks := chromedp.Tasks{signIn(base, "alice"), visit(base + "/#/n/" + demand)}
		if i == 0 {
			tasks = append(tasks, waitText("王小明"), bodyText(&before), screenshotTo(shots, "erase-before-"+size.name+".png"),
				chromedp.Click(`#erase-link`, chromedp.ByQuery), chromedp.WaitVisible(`#erase-confirm`, chromedp.ByQuery),
				screenshotTo(shots, "erase-confirm-"+size.name+".png"),
				chromedp.Click(`#erase-confirm`, chromedp.ByQuery), chromedp.WaitVisible(`#erase-done`, chromedp.ByQuery),
				chromedp.Text(`#erase`, &done, chromedp.ByQuery), screenshotTo(shots, "erase-done-"+size.name+".png"),
				visit(base+"/#/n/"+demand))
		}
		tasks = append(tasks, waitText("[已删除]"), bodyText(&after), screenshotTo(shots, "erase-after-"+size.name+".png"))
		if err := chromedp.Run(ctx, tasks); err != nil {
			t.Fatalf("%s: %v; log:\n%s", size.name, err, s.log())
		}
		if i == 0 && (!strings.Contains(before, "王小明") || !strings.Contains(done, "已删除")) {
			t.Fatalf("before the erasure the page showed %q; after confirming, %q", before, done)
		}
		if strings.Contains(after, "王小明") || strings.Contains(after, "{{towow") {
			t.Fatalf("%s: after the erasure the page shows %q", size.name, after)
		}
	}
}
