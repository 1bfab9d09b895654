/* Room page: tables and seats, room chat and who is here, kept live through /ws/rooms/<id>/.
   Forms work without JavaScript; with it, sit/leave/chat go through the socket instead. */
(function () {
  "use strict";
  var Okey = window.Okey;
  var configNode = document.getElementById("room-config");
  if (!Okey || !configNode) { return; }
  var config = JSON.parse(configNode.textContent);
  var me = JSON.parse(document.getElementById("room-me").textContent);
  var i18n = document.getElementById("room-i18n").dataset;
  var tablesBox = document.querySelector("[data-tables]");
  var chatList = document.querySelector("[data-chat-list]");
  var chatForm = document.querySelector("[data-chat-form]");
  var peopleList = document.querySelector("[data-people-list]");
  var removeSelect = document.querySelector("[data-remove-select]");
  var conn = document.querySelector("[data-conn]");
  var csrf = (document.querySelector("[name=csrfmiddlewaretoken]") || {}).value || "";
  var tables = {};
  var present = [];

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") { node.textContent = attrs[key]; } else { node.setAttribute(key, attrs[key]); }
    });
    (children || []).forEach(function (child) { if (child) { node.appendChild(child); } });
    return node;
  }

  function postForm(action, dataset) {
    var form = el("form", { method: "post", action: action });
    Object.keys(dataset).forEach(function (key) { form.dataset[key] = dataset[key]; });
    form.appendChild(el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrf }));
    return form;
  }

  function profileUrl(nickname) { return "/players/" + encodeURIComponent(nickname) + "/"; }

  function renderTable(table) {
    var base = "/rooms/" + config.room + "/tables/" + table.id + "/";
    var felt = el("div", { "class": "felt felt--" + table.players });
    table.seats.forEach(function (seat) {
      var mine = seat.user && seat.user.id === me.id;
      var cls = "seat seat--p" + seat.position + (seat.user ? " seat--taken" : "") + (mine ? " seat--me" : "");
      var box = el("div", { "class": cls, "data-position": seat.position });
      if (seat.user) {
        box.appendChild(el("a", { "class": "seat__player", href: profileUrl(seat.user.nickname), text: seat.user.nickname }));
        if (mine && table.status === "waiting") {
          var leave = postForm(base + "leave/", { action: "leave", table: table.id });
          leave.appendChild(el("button", { type: "submit", "class": "btn btn--small btn--ghost", text: i18n.leave }));
          box.appendChild(leave);
        }
      } else if (table.status === "waiting") {
        var sit = postForm(base + "sit/" + seat.position + "/", { action: "sit", table: table.id, position: seat.position });
        sit.appendChild(el("button", {
          type: "submit", "class": "seat__sit", text: i18n.sit,
          "aria-label": Okey.format(i18n.seatLabel, { n: table.number, p: seat.position + 1 })
        }));
        box.appendChild(sit);
      } else {
        box.appendChild(el("span", { "class": "seat__empty", text: i18n.empty }));
      }
      felt.appendChild(box);
    });
    felt.appendChild(el("a", { "class": "felt__center", href: table.url, text: i18n.go }));
    var titleId = "table-title-" + table.id;
    return el("section", { "class": "table-card", "data-table-id": table.id, "data-status": table.status, "aria-labelledby": titleId }, [
      el("header", { "class": "table-card__head" }, [
        el("h3", { id: titleId, text: Okey.format(i18n.table, { n: table.number }) }),
        el("span", { "class": "badge status status--" + table.status, text: table.status === "playing" ? i18n.playing : i18n.waiting })
      ]),
      felt
    ]);
  }

  function putTable(table) {
    tables[table.id] = table;
    var fresh = renderTable(table);
    var old = tablesBox.querySelector('[data-table-id="' + table.id + '"]');
    if (old) { old.replaceWith(fresh); return; }
    var after = null;
    tablesBox.querySelectorAll("[data-table-id]").forEach(function (node) {
      var other = tables[node.dataset.tableId];
      if (other && other.number < table.number) { after = node; }
    });
    if (after) { after.after(fresh); } else { tablesBox.prepend(fresh); }
  }

  function addChat(message) {
    if (chatList.querySelector('[data-id="' + message.id + '"]')) { return; }
    var empty = chatList.querySelector(".chat__empty");
    if (empty) { empty.remove(); }
    var time = new Date(message.created_at);
    chatList.appendChild(el("li", { "class": "chat__msg", "data-id": message.id }, [
      el("time", { "class": "chat__time", datetime: message.created_at,
        text: time.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) }),
      document.createTextNode(" "),
      el("span", { "class": "chat__author", text: message.author.nickname }),
      document.createTextNode(" "),
      el("span", { "class": "chat__text", text: message.text })
    ]));
    while (chatList.children.length > 200) { chatList.firstElementChild.remove(); }
    chatList.scrollTop = chatList.scrollHeight;
  }

  function setCounts(data) {
    ["people", "watchers"].forEach(function (key) {
      var node = document.querySelector('[data-count="' + key + '"]');
      if (node && typeof data[key] === "number") { node.textContent = data[key]; }
    });
  }

  function setPresent(list) {
    present = list || [];
    peopleList.replaceChildren.apply(peopleList, present.map(function (person) {
      var report = person.id === me.id ? null : el("a", {
        "class": "report-link", text: i18n.report,
        href: "/moderation/report/" + encodeURIComponent(person.nickname) + "/?room=" + config.room
      });
      return el("li", {}, [el("a", { href: profileUrl(person.nickname), text: person.nickname }), report ? document.createTextNode(" ") : null, report]);
    }));
    if (!removeSelect) { return; }
    var people = {};
    present.forEach(function (p) { people[p.id] = p; });
    Object.keys(tables).forEach(function (id) {
      tables[id].seats.forEach(function (seat) { if (seat.user) { people[seat.user.id] = seat.user; } });
    });
    delete people[me.id];
    var chosen = removeSelect.value;
    var options = Object.keys(people).map(function (id) { return people[id]; })
      .sort(function (a, b) { return a.nickname.localeCompare(b.nickname); })
      .map(function (p) { return el("option", { value: p.id, text: p.nickname }); });
    removeSelect.replaceChildren.apply(removeSelect, options);
    if (chosen) { removeSelect.value = chosen; }
  }

  function leavePage(message, url) {
    socket.stop();
    document.body.classList.add("is-leaving");
    Okey.closedNotice(message, url);
  }

  /* A 44xx close is final (site.js does not reconnect): say why in words, from the error frame the
     server sent just before closing (its `close` is that code; its message in the user's language). */
  var lastError = null;
  function closedForGood(event) {
    if (event.code < 4400 || event.code > 4499) { return false; }
    var why = lastError && lastError.close === event.code ? lastError.message : i18n.closed;
    conn.textContent = why;
    conn.className = "conn conn--down";
    conn.dataset.closed = String(event.code);
    return true;
  }

  var sittingAt = null;  // the table this page asked to sit at (its seat.changed takes us there)
  var socket = Okey.connect(config.ws, {
    open: function () { conn.textContent = i18n.connected; conn.className = "conn conn--ok"; },
    close: function (event) {
      if (closedForGood(event)) { return; }
      conn.textContent = i18n.reconnecting; conn.className = "conn conn--down";
    },
    state: function (data) {
      data.tables.forEach(putTable);
      chatList.replaceChildren();
      if (!data.chat.length) { chatList.appendChild(el("li", { "class": "chat__empty muted", text: i18n.noMessages })); }
      data.chat.forEach(addChat);
      setCounts(data);
      setPresent(data.present);
    },
    "seat.changed": function (data) {
      putTable(data.table);
      setPresent(present);
      // Taking a seat takes you to the table, as at every Okey site: that is where the game starts.
      if (sittingAt === data.table.id && data.table.seats.some(function (s) { return s.user && s.user.id === me.id; })) {
        sittingAt = null;
        location.assign(data.table.url);
      }
    },
    "table.added": function (data) { putTable(data.table); },
    "table.status": function (data) { putTable(data.table); },
    "chat.message": addChat,
    "presence.changed": function (data) { setCounts(data); setPresent(data.present); },
    "room.updated": function () { location.reload(); },
    "room.closed": function (data) { leavePage(data.message, data.salon_url || "/"); },
    "room.password_attack": function (data) { Okey.toast(data.message, "error"); },
    removed: function (data) { leavePage(data.message, "/"); },
    banned: function (data) { leavePage(data.message, "/"); },
    error: function (data) { lastError = data; sittingAt = null; Okey.toast(data.message, "error"); }
  }, { ping: 30000 });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!socket.isOpen()) { return; }
    var action = form.dataset.action;
    if (action === "sit") {
      event.preventDefault();
      sittingAt = Number(form.dataset.table);
      socket.send({ type: "sit", table: Number(form.dataset.table), position: Number(form.dataset.position) });
    } else if (action === "leave") {
      event.preventDefault();
      socket.send({ type: "leave", table: Number(form.dataset.table) });
    } else if (form === chatForm) {
      event.preventDefault();
      var input = chatForm.querySelector("[name=text]");
      if (socket.send({ type: "chat", text: input.value })) { input.value = ""; }
    }
  });

  JSON.parse(document.getElementById("room-tables").textContent).forEach(function (t) { tables[t.id] = t; });
})();
