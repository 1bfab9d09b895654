/* Room form: show only the rule options that matter for the chosen scoring preset. Which preset an
   option belongs to comes from the server (data-presets / data-fixed-by, from the rule catalogue). */
(function () {
  "use strict";
  var form = document.querySelector("[data-room-form]");
  if (!form) { return; }
  var scoring = form.querySelector('[name="rule_scoring"]');
  var privateBox = form.querySelector('[name="is_private"]');
  var password = form.querySelector('[name="password"]');

  function update() {
    var preset = scoring ? scoring.value : "";
    form.querySelectorAll("[data-presets], [data-fixed-by]").forEach(function (input) {
      var wanted = (input.dataset.presets || "").split(" ").filter(Boolean);
      var fixed = (input.dataset.fixedBy || "").split(" ").filter(Boolean);
      var hide = (wanted.length && wanted.indexOf(preset) === -1) || fixed.indexOf(preset) !== -1;
      input.closest(".field").hidden = !!hide;
    });
    if (privateBox && password) {
      password.closest(".field").hidden = !privateBox.checked;
    }
  }
  form.addEventListener("change", update);
  update();
})();
