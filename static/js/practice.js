/* Practice table: a short guided first hand, shown once (remembered in this browser), skippable,
   and open again from the "how to play" button. Steps are templates in the page; each may point
   at a part of the table, which is highlighted while the step shows.

   A step may also move on by itself when the player does what it teaches (Kart Okey's steps):
   its ``data-advance-on`` lists moments, and the table script reports each moment of the player's
   own turn with

       document.dispatchEvent(new CustomEvent("okey:tutorial", { detail: { moment: "drew" } }));

   (or ``window.okeyTutorial.moment("drew")``). Moments: drew (a stock draw the server confirmed),
   took (the discard pile's top taken into the turn), melded (a run or set staged), laid_off (a card
   staged onto a meld), discarded (the turn sent with its discard), went_out and went_rummy (the
   player's own going out, once the frame with the result arrives). A moment the shown step does not
   wait for changes nothing; "İleri" always moves on. */
(function () {
  "use strict";
  var box = document.getElementById("tutorial");
  if (!box) { return; }
  // Each game has its own first hand to guide (101 Okey: data-key), remembered apart.
  var KEY = box.dataset.key || "okey.tutorial.seen";
  var steps = Array.prototype.slice.call(box.querySelectorAll("template[data-tutorial-step]"));
  var title = box.querySelector("[data-tutorial-title]");
  var text = box.querySelector("[data-tutorial-text]");
  var number = box.querySelector("[data-tutorial-step-number]");
  var next = box.querySelector("[data-tutorial-next]");
  var current = 0;
  var lit = null;
  box.querySelector("[data-tutorial-steps]").textContent = steps.length;

  function remembered() {
    try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }
  function remember() {
    try { window.localStorage.setItem(KEY, "1"); } catch (e) { /* private mode: shown again next time */ }
  }
  function unlight() {
    if (lit) { lit.classList.remove("tutorial-target"); lit = null; }
  }
  function show(index) {
    current = index;
    var content = steps[index].content;
    title.textContent = content.querySelector("h2").textContent;
    text.textContent = content.querySelector("p").textContent;
    number.textContent = index + 1;
    next.textContent = index === steps.length - 1 ? next.dataset.done : next.dataset.next;
    unlight();
    var target = steps[index].dataset.target && document.querySelector(steps[index].dataset.target);
    if (target) { lit = target; target.classList.add("tutorial-target"); }
    box.hidden = false;
  }
  function close() {
    box.hidden = true;
    unlight();
    remember();
  }
  next.dataset.next = next.textContent;
  next.dataset.done = box.dataset.done || next.textContent;
  next.addEventListener("click", function () {
    if (current + 1 < steps.length) { show(current + 1); } else { close(); }
  });
  box.querySelector("[data-tutorial-skip]").addEventListener("click", close);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !box.hidden) { close(); }
  });
  function moment(name) {
    if (box.hidden || !steps[current]) { return false; }
    var waits = (steps[current].dataset.advanceOn || "").split(/\s+/);
    if (!name || waits.indexOf(name) < 0) { return false; }
    if (current + 1 < steps.length) { show(current + 1); } else { close(); }
    return true;
  }
  document.addEventListener("okey:tutorial", function (event) {
    moment(event.detail && event.detail.moment);
  });
  window.okeyTutorial = {
    moment: moment,
    step: function () { return box.hidden ? null : (steps[current].dataset.step || String(current)); },
  };
  var again = document.querySelector("[data-tutorial-open]");
  if (again) { again.addEventListener("click", function () { show(0); }); }
  if (!remembered()) { show(0); }
})();
