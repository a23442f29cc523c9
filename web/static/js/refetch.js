// Reading a server's read model again as a stream moves on: the pages keep
// no fold of their own, they read the server's (a negotiation's view, a
// workflow's canvas) after every event, and again while it is behind.

// RETRIES bounds the reads again of an answer behind the stream (or of a
// failed read, when errors are retried), each 100 ms later than the last
// (or after the server's Retry-After, when it asked for a pause).
const RETRIES = 20;
// DEBOUNCE is how long after the first event of a burst its one read
// starts: later events of the burst share it and cannot postpone it. A
// negotiation streams dozens of events a second; a read every 250 ms at
// most keeps the page live and well under the server's per-person request
// limit (TOWOW_USER_RPS).
const DEBOUNCE = 250;

// refetcher reads a read model for a page. read() resolves to an answer
// with a cursor, apply(answer) shows it, wantedCursor() is the stream's
// cursor an answer must have reached (an older one is read again),
// onError(e) shows a failed read and retryErrors(e) says whether to read
// again after it (false: the failure ends the retries). It returns
// refresh (read soon: a burst of events is one read), reload (read now,
// one read at a time: a call during a read asks for another after it; it
// resolves after its read) and cancel (no read, timer or retry after it).
export function refetcher({ read, apply, wantedCursor, onError, retryErrors }) {
  let reading = false, again = false, retries = 0, cancelled = false;
  let soon = 0; // the timer of refresh's read
  let retry = 0; // the timer of the next read again
  let pause = 0; // ms the server asked to wait before the next read (Retry-After)
  const reload = async () => {
    if (cancelled) return;
    if (reading) { again = true; return; }
    reading = true;
    clearTimeout(retry); // this read is the one it waited for
    retry = 0;
    try {
      const answer = await read();
      if (cancelled) return;
      apply(answer);
      retries = answer.cursor < wantedCursor() && retries < RETRIES ? retries + 1 : 0;
    } catch (e) {
      if (cancelled) return;
      if (onError) onError(e);
      retries = retryErrors && retryErrors(e) && retries < RETRIES ? retries + 1 : 0;
      pause = (e.retryAfter || 0) * 1000;
    } finally {
      reading = false;
    }
    if (again || retries) { again = false; retry = setTimeout(reload, Math.max(100 * retries, pause)); }
    pause = 0;
  };
  const refresh = () => {
    if (!cancelled && !soon) soon = setTimeout(() => { soon = 0; reload(); }, DEBOUNCE);
  };
  const cancel = () => {
    cancelled = true;
    clearTimeout(soon);
    clearTimeout(retry);
  };
  return { refresh, reload, cancel };
}
