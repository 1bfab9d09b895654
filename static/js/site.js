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
      socket = new WebSocket(scheme + location.host + path);
      socket.addEventListener("open", function () {
        delay = 1000;
        if (handlers.open) { handlers.open(); }
        if (options.ping) {
          clearInterval(pingTimer);
          pingTimer = setInterval(function () { api.send({ type: "ping" }); }, options.ping);
        }
      });
      socket.addEventListener("message", function (event) {
        var data;
        try { data = JSON.parse(event.data); } catch (e) { return; }
        var handler = handlers[data.type];
        if (handler) { handler(data); }
      });
      socket.addEventListener("close", function (event) {
        clearInterval(pingTimer);
        if (handlers.close) { handlers.close(event); }
        // 44xx: the server refused us for good (removed, closed room, no access).
        if (closedForGood || (event.code >= 4400 && event.code < 4500)) { return; }
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

  window.Okey = { connect: connect, toast: toast, format: format };
})();
