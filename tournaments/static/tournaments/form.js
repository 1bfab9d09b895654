/* Tournament form: the arena's length matters only to an arena, who goes on from a table only to a
   knockout, the number of hands only to penalty scoring, 101's hands only to 101; the others are hidden (the server
   ignores them). */
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
    // 101 has its own hand count and always seats four; scoring presets are classic Okey's.
    show("scoring", !okey101);
    show("players", !okey101);
    show("hands_per_match", !okey101 && (!scoring || scoring.value === "penalty"));
    show("hands_101", okey101);
  }
  form.addEventListener("change", update);
  update();
})();
