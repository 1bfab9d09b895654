/* Lobby: live counts per salon (people, tables, free seats, rooms), each with its plural form:
   the page carries the one and the other form of every label, already translated. */
(function () {
  "use strict";
  var grid = document.querySelector("[data-lobby]");
  if (!grid || !window.Okey) { return; }
  function label(element, n) {
    var form = n === 1 ? element.dataset.one : element.dataset.other;
    return form ? form.replace(/\d+/, String(n)) : String(n);
  }
  window.Okey.connect(grid.dataset.ws, {
    "lobby.counts": function (data) {
      data.salons.forEach(function (salon) {
        var card = grid.querySelector('[data-salon-id="' + salon.id + '"]');
        if (!card) { return; }
        ["people", "tables", "free_seats", "rooms"].forEach(function (name) {
          var element = card.querySelector('[data-count="' + name + '"]');
          if (element && typeof salon[name] === "number") { element.textContent = label(element, salon[name]); }
        });
      });
    }
  });
})();
