/* On every page of a signed-in player: a reminder shortly before their tournament starts, and
   "your table is ready" pushes that take every open page of theirs to the table. */
(function () {
  "use strict";
  var script = document.currentScript;
  var url = script && script.dataset.noticeUrl;
  if (!url || !window.Okey) { return; }
  var strings = {};
  var box = null;

  function format(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_m, key) { return values[key]; });
  }

  function show(items) {
    if (!box) {
      box = document.createElement("div");
      box.className = "flash-list tournament-notice";
      box.setAttribute("role", "status");
      box.setAttribute("aria-live", "polite");
      box.dataset.testid = "tournament-notice";
      var main = document.getElementById("main");
      main.parentNode.insertBefore(box, main);
    }
    box.textContent = "";
    items.forEach(function (t) {
      var line = document.createElement("p");
      line.className = "flash flash--info";
      var text;
      if (t.status === "running") { text = format(strings.running, { name: t.name }); }
      else if (t.seconds_to_start > 60) { text = format(strings.starts_in, { name: t.name, minutes: Math.ceil(t.seconds_to_start / 60) }); }
      else { text = format(strings.starting, { name: t.name }); }
      line.appendChild(document.createTextNode(text + " "));
      var link = document.createElement("a");
      var onTable = t.table_url && location.pathname === t.table_url;
      link.href = t.table_url && !onTable ? t.table_url : t.url;
      link.textContent = t.table_url && !onTable ? strings.to_table : strings.open;
      line.appendChild(link);
      if (!(onTable || location.pathname === t.url)) { box.appendChild(line); }
    });
  }

  function remember(tableUrl) {
    try { localStorage.setItem("okey-tournament-table:" + tableUrl, "1"); } catch (e) { /* private mode */ }
  }
  function seen(tableUrl) {
    try { return !!localStorage.getItem("okey-tournament-table:" + tableUrl); } catch (e) { return true; }
  }

  function go(data) {
    remember(data.url);
    if (location.pathname === data.url) { return; }
    if (window.Okey.toast && strings.table_ready) { window.Okey.toast(strings.table_ready); }
    location.assign(data.url);
  }

  var socket = null;

  function load(catchUp) {
    fetch(url, { credentials: "same-origin" }).then(function (response) {
      return response.ok ? response.json() : { tournaments: [] };
    }).then(function (data) {
      strings = data.strings || {};
      var items = data.tournaments || [];
      if (items.length) { show(items); }
      items.forEach(function (t) {
        if (!t.table_url) { return; }
        if (location.pathname === t.table_url) { remember(t.table_url); }
        // A push sent while this page was still connecting: a table never shown yet is ready.
        else if (catchUp && !seen(t.table_url)) { go({ url: t.table_url }); }
      });
      // Registered somewhere: listen for "your table is ready" (the tournament page has its own socket).
      if (data.listen && !socket && !document.querySelector("[data-tournament]")) {
        socket = window.Okey.connect("/ws/tournaments/me/", { table: go, open: function () { load(true); } });
      }
      // A tournament further ahead: look again when its reminder is due (timers cap at ~24 days).
      if (!catchUp && data.recheck && data.recheck < 86400) { setTimeout(load, data.recheck * 1000); }
    }).catch(function () { /* the reminder is a convenience; the page works without it */ });
  }
  load();

  window.OkeyTournamentGo = go;
  window.OkeyTournamentSeen = seen;
})();
