/* The tournament page: standings and rounds re-read when the socket says they changed; the
   player's own "your table is ready" push takes the page to the table. */
(function () {
  "use strict";
  var page = document.querySelector("[data-tournament]");
  if (!page || !window.Okey) { return; }
  var live = page.querySelector("[data-live]");
  var pending = null;

  function refresh() {
    if (pending) { return; }
    pending = setTimeout(function () {
      pending = null;
      fetch(page.dataset.standingsUrl, { credentials: "same-origin" }).then(function (response) {
        return response.ok ? response.text() : null;
      }).then(function (html) {
        if (html !== null) { live.innerHTML = html; }
      }).catch(function () {});
    }, 250);
  }

  window.Okey.connect(page.dataset.ws, {
    open: function () {
      refresh();
      // A table made ready while this page was connecting (the push went out before we listened).
      fetch("/tournaments/notice.json", { credentials: "same-origin" }).then(function (r) {
        return r.ok ? r.json() : { tournaments: [] };
      }).then(function (data) {
        (data.tournaments || []).forEach(function (t) {
          if (String(t.tournament) === page.dataset.tournament && t.table_url && window.OkeyTournamentSeen &&
              !window.OkeyTournamentSeen(t.table_url)) {
            window.OkeyTournamentGo({ url: t.table_url });
          }
        });
      }).catch(function () {});
    },
    changed: refresh,
    table: function (data) {
      if (window.OkeyTournamentGo) { window.OkeyTournamentGo(data); } else { location.assign(data.url); }
    }
  });
})();
