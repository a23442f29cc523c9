// Live streams: an EventSource per followed stream, with a listener for
// every event type of the catalog, under the console's reconnect policy.
import { showBanner, showLost, stillSignedIn } from "./api.js";
import { eventTypes } from "./catalog.js";

// SSE_RECONNECT is the reconnect policy: after a dropped connection, try
// again after 3 s, each next wait ×1.5, at most 5 times, each time right
// after the last event received (last_event_id); then say so with a "重试"
// control. (localStorage "towow.sse.delay" shortens the first wait, in ms:
// the browser test uses it.)
const SSE_RECONNECT = { attempts: 5, delay: 3000, backoff: 1.5 };

// STREAM_END is the name of a stream's terminal message.
const STREAM_END = "towow.stream.end";

// followStream follows an SSE url from cursor from (0: the start), under
// that policy: onEvent gets every event of the catalog's types, extra maps
// other message types (e.g. towow.canvas.ack) to their listeners, each
// message once, in the order of its cursor (its id). After the server
// refused the stream (an HTTP error, not a dropped connection) it stops
// when the session ended (the sign-in view follows) or when gone, if
// given, returns true (it shows why). The stream of something that ends
// (a negotiation tree, a workflow, unless the url asks to follow on) sends
// one last message, towow.stream.end, and closes: following stops there,
// without reconnecting, and onEnd, if given, gets that message's data
// (what ended and how). It returns the function that stops following.
export function followStream(url, onEvent, extra, from, gone, onEnd) {
  let es = null, last = from || 0, attempt = 0, timer = null, stopped = false, types = [];
  const first = Number(localStorage.getItem("towow.sse.delay")) || SSE_RECONNECT.delay;
  const open = () => {
    if (stopped) return;
    es = new EventSource(url + (last ? (url.includes("?") ? "&" : "?") + "last_event_id=" + last : ""));
    // Every message carries its cursor as its id. A resumed stream never
    // repeats one; a repeat (or an older one) is dropped here anyway, so
    // the listeners see each cursor once.
    const listen = (type, fn) => es.addEventListener(type, (msg) => {
      const cursor = Number(msg.lastEventId) || 0;
      if (cursor <= last) return;
      last = cursor;
      fn(msg);
    });
    for (const t of types) listen(t, onEvent);
    for (const [t, fn] of Object.entries(extra || {})) listen(t, fn);
    // The end: the server closes the stream after this message, and a
    // browser left to itself would reconnect for ever. Its id may repeat
    // the last one (a stream resumed after the end sends only it).
    es.addEventListener(STREAM_END, (msg) => {
      stopped = true;
      clearTimeout(timer);
      es.close();
      showBanner("");
      last = Math.max(last, Number(msg.lastEventId) || 0);
      let end = {};
      try { end = JSON.parse(msg.data); } catch { /* the end all the same */ }
      if (onEnd) onEnd(end);
    });
    es.onopen = () => { attempt = 0; showBanner(""); };
    es.onerror = async () => {
      const refused = es.readyState === EventSource.CLOSED;
      es.close(); // the policy below retries, not the browser
      if (stopped || (refused && (!await stillSignedIn().catch(() => true) || (gone && await gone())))) return;
      if (attempt >= SSE_RECONNECT.attempts) {
        showLost("连接已断开：重连 " + SSE_RECONNECT.attempts + " 次都没有成功。", () => { attempt = 0; showBanner("连接中……", "info"); open(); });
        return;
      }
      const wait = first * Math.pow(SSE_RECONNECT.backoff, attempt);
      attempt++;
      showBanner("连接中断，" + (wait / 1000).toFixed(1) + " 秒后第 " + attempt + " / " + SSE_RECONNECT.attempts +
        " 次重连（从最后收到的事件继续）……", "info");
      timer = setTimeout(open, wait);
    };
  };
  const start = () => eventTypes().then((t) => { types = t; open(); }).catch(() => {
    showBanner("无法读取事件目录，2 秒后重试……", "info");
    timer = setTimeout(start, 2000);
  });
  start();
  return () => { stopped = true; clearTimeout(timer); if (es) es.close(); };
}
