/* Room form: the game is chosen first; only the chosen game's rules show, and of classic Okey's
   only the options that matter for the chosen scoring preset and table size.
   Which game a fieldset belongs to (data-game) and which preset and size an option belongs to
   (data-presets / data-fixed-by / data-players) come from the server (the rule catalogues).
   The other game's fieldset is disabled as well as hidden, so the browser sends none of it.
   A choice offered only at some table sizes (Kart Okey's two decks: a table of four) names them
   (data-option-players="value:size,size …", from the server) and is disabled at the others. */
(function () {
  "use strict";
  var form = document.querySelector("[data-room-form]");
  if (!form) { return; }
  var game = form.querySelector('[name="game"]');
  var scoring = form.querySelector('[name="rule_scoring"]');
  var players = form.querySelector('[name="rule_players"]');
  var kartPlayers = form.querySelector('[name="rulekart_players"]');
  var privateBox = form.querySelector('[name="is_private"]');
  var password = form.querySelector('[name="password"]');

  function update() {
    var chosen = game && game.value ? game.value : "okey";
    form.querySelectorAll("fieldset[data-game]").forEach(function (fieldset) {
      var other = fieldset.dataset.game !== chosen;
      fieldset.hidden = other;
      fieldset.disabled = other;
    });
    var preset = scoring ? scoring.value : "";
    var size = players ? players.value : "";
    form.querySelectorAll("[data-presets], [data-fixed-by], [data-players]").forEach(function (input) {
      var wanted = (input.dataset.presets || "").split(" ").filter(Boolean);
      var fixed = (input.dataset.fixedBy || "").split(" ").filter(Boolean);
      var sizes = (input.dataset.players || "").split(" ").filter(Boolean);
      var hide = (wanted.length && wanted.indexOf(preset) === -1) || fixed.indexOf(preset) !== -1 ||
        (sizes.length && size && sizes.indexOf(size) === -1);
      input.closest(".field").hidden = !!hide;
      // An option of another preset is refused by the server: a hidden box must not stay ticked.
      if (hide && input.type === "checkbox") { input.checked = false; }
    });
    form.querySelectorAll("select[data-option-players]").forEach(function (select) {
      var size = kartPlayers ? kartPlayers.value : "";
      select.dataset.optionPlayers.split(" ").filter(Boolean).forEach(function (pair) {
        var parts = pair.split(":");
        var option = select.querySelector('option[value="' + parts[0] + '"]');
        if (!option) { return; }
        var off = !!size && parts[1].split(",").indexOf(size) === -1;
        option.disabled = off;
        // A choice the table size does not allow falls back to the size's own default.
        if (off && option.selected) { select.value = select.options[0].value; }
      });
    });
    if (privateBox && password) {
      password.closest(".field").hidden = !privateBox.checked;
    }
  }
  // The rules preview: the server writes the chosen rules in plain words (fetched on each change).
  var preview = form.querySelector("[data-rules-preview]");
  var asked = 0;
  function refreshPreview() {
    if (!preview) { return; }
    var data = new URLSearchParams(new FormData(form));
    data.delete("csrfmiddlewaretoken");
    data.delete("password");
    var mine = ++asked;
    fetch(preview.dataset.url + "?" + data.toString(), { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html !== null && mine === asked) { preview.innerHTML = html; } })
      .catch(function () {});
  }
  form.addEventListener("change", function () { update(); refreshPreview(); });
  update();
})();
