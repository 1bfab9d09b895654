/* Tournament form: the arena's length matters only to an arena, who goes on from a table only to a
   knockout, the number of hands only to penalty scoring, 101's hands only to 101, Kart Okey's table size only to
   Kart Okey; the others are hidden (the server ignores them). */
(function () {
  "use strict";
  var form = document.querySelector("[data-tournament-form]");
  if (!form) { return; }
  var format = form.querySelector('[name="format"]');
  var scoring = form.querySelector('[name="scoring"]');
  var game = form.querySelector('[name="game"]');

  function show(name, visible) {
    var input = form.querySelector('[name="' + name + '"]');
    if (input) { input.closest(".field").hidden = !visible; }
  }
  function update() {
    var arena = format && format.value === "arena";
    show("duration_minutes", arena);
    show("go_on", !arena);
    var okey101 = game && game.value === "okey101";
    var kart = game && game.value === "kart";
    var classic = !okey101 && !kart;
    // 101 has its own hand count and always seats four; Kart Okey its own table size (one hand a
    // table); scoring presets are classic Okey's.
    show("scoring", classic);
    show("players", classic);
    show("hands_per_match", classic && (!scoring || scoring.value === "penalty"));
    show("hands_101", okey101);
    show("players_kart", kart);
  }
  form.addEventListener("change", update);
  update();
})();
