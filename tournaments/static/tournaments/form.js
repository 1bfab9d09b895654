/* Tournament form: the arena's length matters only to an arena, who goes on from a table only to a
   knockout, and the number of hands only to penalty scoring; the others are hidden (the server
   ignores them). */
(function () {
  "use strict";
  var form = document.querySelector("[data-tournament-form]");
  if (!form) { return; }
  var format = form.querySelector('[name="format"]');
  var scoring = form.querySelector('[name="scoring"]');

  function show(name, visible) {
    var input = form.querySelector('[name="' + name + '"]');
    if (input) { input.closest(".field").hidden = !visible; }
  }
  function update() {
    var arena = format && format.value === "arena";
    show("duration_minutes", arena);
    show("go_on", !arena);
    show("hands_per_match", !scoring || scoring.value === "penalty");
  }
  form.addEventListener("change", update);
  update();
})();
