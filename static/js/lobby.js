/* Lobby: live people and room counts per salon. */
(function () {
  "use strict";
  var grid = document.querySelector("[data-lobby]");
  if (!grid || !window.Okey) { return; }
  window.Okey.connect(grid.dataset.ws, {
    "lobby.counts": function (data) {
      data.salons.forEach(function (salon) {
        var card = grid.querySelector('[data-salon-id="' + salon.id + '"]');
        if (!card) { return; }
        card.querySelector('[data-count="people"]').textContent = salon.people;
        card.querySelector('[data-count="rooms"]').textContent = salon.rooms;
      });
    }
  });
})();
