/* The table's socket (docs/protocol.md): connects, reconnects with a growing pause, and stops for
   good on a 44xx close, saying why in words. Just before such a close the server sends an `error`
   frame (or, for a site ban, `banned`) whose `close` is that code and whose `message` is in the
   player's language; it is kept to even when the close itself comes without its code (1006: the
   connection dropped before the close frame arrived). */

import { $ } from "./format.js";

export function tableSocket({ tableId, T, root, onMessage, onOpen, currentMove }) {
  let socket = null;
  let retry = 0;
  let lastError = null;

  function setStatus(text, state) {
    const status = $("conn-status");
    status.textContent = text;
    status.dataset.state = state;
  }

  function closedForGood(event) {
    const final = (code) => code >= 4400 && code <= 4499;
    const code = final(event.code) ? event.code : (lastError && final(lastError.close) ? lastError.close : null);
    if (code === null) return false;
    const why = lastError && lastError.close === code ? lastError.message : T.closed;
    setStatus(why, "down");
    root.dataset.closed = String(code);
    root.dataset.closedReason = lastError && lastError.close === code ? lastError.code : "";
    // Sent out (a ban, a removal, a private room): the words stay on screen until the player goes on.
    if (code === 4403 && window.Okey) window.Okey.closedNotice(why, "/");
    return true;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}/`);
    setStatus(T.connecting, "connecting");
    socket.onopen = () => { retry = 0; lastError = null; setStatus(T.connected, "ok"); onOpen(); };
    socket.onclose = (event) => {
      setStatus(T.disconnected, "down");
      if (closedForGood(event)) return;
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 300 * 2 ** retry);
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "error" || message.type === "banned") lastError = message;
      onMessage(message);
    };
  }

  // Every action carries the move it was made on: the server refuses one made on a stale view.
  function send(type, extra) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    const message = Object.assign({ type }, extra || {});
    const move = currentMove();
    if (move !== null && move !== undefined) message.move = move;
    socket.send(JSON.stringify(message));
    return true;
  }

  return { connect, send };
}
