/* Site-wide helpers: language switch, confirmations, copy buttons, toasts and a reconnecting
   WebSocket used by the lobby, salon and room pages. No framework, no build step. */
(function () {
  "use strict";

  function toast(text, kind) {
    var box = document.querySelector(".toasts");
    if (!box) {
      box = document.createElement("div");
      box.className = "toasts";
      box.setAttribute("role", "status");
      box.setAttribute("aria-live", "polite");
      document.body.appendChild(box);
    }
    var item = document.createElement("p");
    item.className = "toast toast--" + (kind || "info");
    item.textContent = text;
    box.appendChild(item);
    setTimeout(function () { item.remove(); }, 5000);
  }

  /* What staff or a room owner did, why and until when, kept on screen until the player moves on
     (a toast would be gone before it was read; the page behind no longer works). */
  function closedNotice(text, href) {
    var dialog = document.getElementById("closed-notice");
    if (!dialog || typeof dialog.showModal !== "function") { toast(text, "error"); return; }
    dialog.querySelector("[data-closed-notice-text]").textContent = text;
    dialog.querySelector("[data-closed-notice-go]").setAttribute("href", href || "/");
    if (!dialog.open) { dialog.showModal(); }
  }

  // How many of this page's sockets are open now (the browser tests wait for it before acting).
  var openSockets = 0;

  /* A socket that reconnects with back-off and sends a keep-alive ping (presence expires without it). */
  function connect(path, handlers, options) {
    options = options || {};
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = null;
    var delay = 1000;
    var pingTimer = null;
    var closedForGood = false;
    var api = {
      send: function (message) {
        if (socket && socket.readyState === WebSocket.OPEN) {
          socket.send(JSON.stringify(message));
          return true;
        }
        return false;
      },
      isOpen: function () { return !!socket && socket.readyState === WebSocket.OPEN; },
      stop: function () { closedForGood = true; if (socket) { socket.close(); } }
    };
    function open() {
      var wasOpen = false;
      var announced = null;  // a final close (44xx) the server announced in an error frame
      socket = new WebSocket(scheme + location.host + path);
      socket.addEventListener("open", function () {
        delay = 1000;
        wasOpen = true;
        openSockets += 1;
        if (handlers.open) { handlers.open(); }
        if (options.ping) {
          clearInterval(pingTimer);
          pingTimer = setInterval(function () { api.send({ type: "ping" }); }, options.ping);
        }
      });
      socket.addEventListener("message", function (event) {
        var data;
        try { data = JSON.parse(event.data); } catch (e) { return; }
        if ((data.type === "error" || data.type === "banned") && data.close >= 4400 && data.close < 4500) { announced = data.close; }
        var handler = handlers[data.type];
        if (handler) { handler(data); }
        // A site ban closes every socket of the player: every page says why, whatever it shows.
        else if (data.type === "banned") { closedForGood = true; closedNotice(data.message, "/"); }
        // The owner of a room under a password attack hears it on whatever page is open.
        else if (data.type === "room.password_attack") { toast(data.message, "error"); }
      });
      socket.addEventListener("close", function (event) {
        clearInterval(pingTimer);
        if (wasOpen) { wasOpen = false; openSockets -= 1; }
        // 44xx: the server refused us for good (removed, closed room, no access). An announced one
        // holds even when the close comes without its code (1006: dropped before the close frame).
        var code = event.code >= 4400 && event.code < 4500 ? event.code : (announced || event.code);
        if (handlers.close) { handlers.close({ code: code, reason: event.reason, wasClean: event.wasClean }); }
        if (closedForGood || (code >= 4400 && code < 4500)) { return; }
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 15000);
      });
    }
    open();
    return api;
  }

  function format(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_m, key) { return values[key]; });
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches("[data-autosubmit]")) { event.target.form.submit(); }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) { event.preventDefault(); }
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) { return; }
    var input = document.querySelector(button.dataset.copy);
    input.select();
    if (navigator.clipboard) { navigator.clipboard.writeText(input.value).catch(function () {}); }
  });

  window.Okey = { connect: connect, toast: toast, format: format, closedNotice: closedNotice,
                  openSockets: function () { return openSockets; } };
})();
