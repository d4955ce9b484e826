// A game's WebSocket (docs/api.md, crates/server/src/http/ws.rs): the server pushes a view after
// every change and a heartbeat carrying the game's version. This end asks for a heartbeat every
// 20 s, closes a socket that has been silent for 45 s, and reconnects after any close, waiting
// longer each time (0.5 s doubling up to 8 s). What a message means is the caller's business.
// The lobby's socket (challenges.js) is kept the same way: its messages go to onMessage. The
// analysis board's engine socket (analysis-board.js) is kept open and reconnected the same way
// without the heartbeat (`{heartbeat: false}`): its server pings at the WebSocket level, which
// the browser answers by itself, and would take a `ping` text for a malformed request.

/** How often an open socket asks for a heartbeat, and how long a silent one is trusted. */
export const HEARTBEAT_EVERY_MS = 20000;
export const HEARTBEAT_SILENCE_MS = 45000;
const FIRST_DELAY_MS = 500;
const LONGEST_DELAY_MS = 8000;

export class GameSocket {
  /**
   * url: () => the socket's URL, asked again at every connection.
   * handlers: {onView(view), onHeartbeat(version), onMessage(message), onOpen(), onClose()}:
   * onMessage has every message that is neither a view nor a heartbeat.
   * options: {heartbeat: false} leaves out the heartbeat and the watchdog of silence.
   */
  constructor(url, handlers, { heartbeat = true } = {}) {
    this.url = url;
    this.handlers = handlers;
    this.heartbeat = heartbeat;
    this.ws = null;
    this.delay = FIRST_DELAY_MS;
    this.heard = 0;
    this.timers = new Set();
    this.closed = false;
  }

  /** Connects, and keeps reconnecting until close(). */
  open() {
    // Already open, connecting, or about to reconnect: one socket at a time.
    if (!this.closed && (this.ws || this.timers.size > 0)) return;
    this.closed = false;
    this.connect();
  }

  isOpen() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  close() {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
      this.ws = null;
    }
  }

  later(fn, ms) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.closed) fn();
    }, ms);
    this.timers.add(t);
  }

  connect() {
    if (this.closed) return;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.later(() => this.connect(), this.delay);
      return;
    }
    this.ws = ws;
    this.heard = Date.now();
    ws.onopen = () => {
      this.delay = FIRST_DELAY_MS;
      this.heard = Date.now();
      this.handlers.onOpen?.();
      if (this.heartbeat) this.watchdog(ws);
    };
    ws.onmessage = (event) => {
      this.heard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // not JSON: ignore it
      }
      if (message.type === 'view') {
        this.handlers.onView?.(message.view);
      } else if (message.type === 'heartbeat' && typeof message.version === 'number') {
        this.handlers.onHeartbeat?.(message.version);
      } else if (message && typeof message === 'object') {
        this.handlers.onMessage?.(message);
      }
    };
    ws.onclose = () => {
      if (this.ws === ws) this.ws = null;
      if (this.closed) return;
      this.later(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, LONGEST_DELAY_MS);
      this.handlers.onClose?.();
    };
  }

  /**
   * Keeps an open socket honest: asks for a heartbeat every 20 s (the answer carries the game's
   * version), and closes a socket silent for 45 s, which reconnects.
   */
  watchdog(ws) {
    const check = () => {
      if (this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
      if (Date.now() - this.heard > HEARTBEAT_SILENCE_MS) {
        ws.close();
        return;
      }
      try {
        ws.send('ping');
      } catch {
        // closing: onclose reconnects
      }
      this.later(check, HEARTBEAT_EVERY_MS);
    };
    this.later(check, HEARTBEAT_EVERY_MS);
  }
}
