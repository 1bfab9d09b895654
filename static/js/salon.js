/* Salon page: the room list follows the salon socket. On "salon.changed" the page fetches the
   list again with the current filter (one server-side template, no copy of it here). */
(function () {
  "use strict";
  var list = document.querySelector("[data-salon-rooms]");
  if (!list || !window.Okey) { return; }
  var people = document.querySelector("[data-salon-people]");
  var timer = null;
  var inFlight = false;
  var again = false;

  function refresh() {
    if (inFlight) { again = true; return; }
    inFlight = true;
    fetch(list.dataset.url + location.search, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html !== null) { list.innerHTML = html; } })
      .catch(function () {})
      .then(function () {
        inFlight = false;
        if (again) { again = false; schedule(); }
      });
  }
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 300);
  }

  window.Okey.connect(list.dataset.ws, {
    "salon.changed": schedule,
    "lobby.counts": function (data) {
      if (!people) { return; }
      data.salons.forEach(function (salon) {
        if (String(salon.id) === people.dataset.salonId) {
          var count = people.querySelector('[data-count="people"]');
          var form = salon.people === 1 ? count.dataset.one : count.dataset.other;
          count.textContent = form ? form.replace(/\d+/, String(salon.people)) : String(salon.people);
        }
      });
    },
    open: schedule
  });
})();
