/* Hand replay: steps through the views the server rebuilt from the deck and the move log. */
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const T = JSON.parse(document.getElementById("okey-strings").textContent);
  const COLORS = { K: "red", S: "black", M: "blue", Y: "green" };
  const $ = (id) => document.getElementById(id);
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => (values[key] ?? ""));
  let index = 0;

  function tile(notation, okey) {
    const el = document.createElement("span");
    el.className = "tile";
    el.dataset.tile = notation;
    const face = notation === "J" && okey ? okey : notation;
    if (notation === "J") el.classList.add("joker");
    if (face === "J") { el.classList.add("black"); el.textContent = "★"; }
    else { el.classList.add(COLORS[face[0]] || "black"); el.textContent = face.slice(1); }
    if (okey && notation === okey) el.classList.add("okey");
    el.setAttribute("aria-label", words(notation));
    return el;
  }

  // Tiles in words ("kırmızı 7"), never in notation.
  function words(notation) {
    if (!notation) return "";
    if (notation === "J") return T.false_joker;
    return `${T["color_" + COLORS[notation[0]]] || ""} ${notation.slice(1)}`;
  }

  function name(seat) {
    const player = data.players.find((p) => p.seat === seat);
    return player ? player.nickname : "?";
  }

  function describe(event) {
    const who = event.seat !== undefined ? name(event.seat) : "";
    switch (event.type) {
      case "deal": return fmt(T.turn_of, { name: name(event.starting_seat) });
      case "draw": return event.source === "discard" ? fmt(T.drew_discard, { name: who, tile: words(event.tile) }) : fmt(T.drew_pile, { name: who });
      case "discard": return fmt(T.discarded, { name: who, tile: words(event.tile) });
      case "finish": return fmt(T.finished_by, { name: who });
      case "show_indicator": return fmt(T.indicator_shown, { name: who });
      case "declare_pairs": return fmt(T.declared_pairs, { name: who });
      case "pile_out": return T.pile_out;
      case "match_over": return T.zero_by_indicator;
      case "take_indicator": return fmt(T.feed_take_indicator, { name: who, tile: words(event.tile) });
      case "lay_first_okey": return fmt(T.feed_lay_okey, { name: who, tile: words(event.tile) });
      default: return who;
    }
  }

  function render() {
    const step = data.steps[index];
    $("replay-position").textContent = `${index} / ${data.steps.length - 1}`;
    $("replay-event").textContent = describe(step.event);
    $("replay-indicator").replaceChildren(tile(step.indicator, null));
    $("replay-pile").textContent = step.pile_count;
    const players = $("replay-players");
    players.replaceChildren();
    for (let seat = 0; seat < step.players; seat++) {
      const item = document.createElement("li");
      item.textContent = `${name(seat)} (${step.rack_counts[seat]}) `;
      if (step.discard_tops[seat]) item.append(tile(step.discard_tops[seat], step.okey));
      if (step.turn === seat && step.phase !== "over") item.classList.add("on-turn");
      players.append(item);
    }
    const rack = $("replay-rack");
    rack.replaceChildren();
    for (const t of step.rack || []) rack.append(tile(t, step.okey));
    const result = $("replay-result");
    result.replaceChildren();
    if (step.result && step.result.finish) {
      for (const group of step.result.finish.groups) {
        const row = document.createElement("div");
        row.className = "group";
        for (const t of group) row.append(tile(t, step.okey));
        result.append(row);
      }
    }
  }

  const go = (next) => { index = Math.max(0, Math.min(data.steps.length - 1, next)); render(); };
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-prev").addEventListener("click", () => go(index - 1));
  $("replay-next").addEventListener("click", () => go(index + 1));
  $("replay-last").addEventListener("click", () => go(data.steps.length - 1));
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight") go(index + 1); if (e.key === "ArrowLeft") go(index - 1); });
  render();
})();
