/* Hand replay: steps through the views the server rebuilt from the deck and the move log. */
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const T = JSON.parse(document.getElementById("okey-strings").textContent);
  const COLORS = { K: "red", S: "black", M: "blue", Y: "green" };
  const $ = (id) => document.getElementById(id);
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => (values[key] ?? ""));
  let index = 0;

  // Tiles drawn as on the table (static/js/table.js tileElement): a gold okey with a star badge, a
  // false joker's clover with the okey's value small in its corner; ``as``: what an okey stands for
  // inside a meld, drawn as that face.
  function tile(notation, okey, as) {
    const el = document.createElement("span");
    el.className = "tile";
    el.dataset.tile = notation;
    const part = (className, text) => {
      const node = document.createElement("span");
      node.className = className;
      node.textContent = text;
      return node;
    };
    if (notation === "J") {
      el.classList.add("joker");
      el.append(part("n jsym", "♣"));
      if (okey) { el.classList.add(`as-${COLORS[okey[0]] || "black"}`); el.append(part("as-value", okey.slice(1))); }
    } else {
      const face = as || notation;
      el.classList.add(COLORS[face[0]] || "black");
      el.append(part("n", face.slice(1)), part("mark", ""));
    }
    const isOkey = okey && notation === okey;
    if (isOkey) { el.classList.add("okey"); el.append(part("okey-badge", "★")); }
    if (isOkey && as) el.classList.add("stands-for");
    for (const node of el.querySelectorAll(".jsym, .as-value, .mark, .okey-badge")) node.setAttribute("aria-hidden", "true");
    const label = isOkey ? (as ? fmt(T.okey_as, { tile: words(as) }) : `${words(notation)} (${T.okey_word})`) : words(notation, okey);
    el.setAttribute("aria-label", label);
    el.title = label;
    return el;
  }

  // What each okey of a meld stands for (as in table.js standIns): a run is low to high, a set has
  // one number, a pair two equal tiles.
  function standIns(group, okey) {
    const face = (t) => (t === "J" ? okey : t);
    const real = group.map((t, i) => [i, t]).filter(([, t]) => t !== okey).map(([i, t]) => [i, face(t)]);
    if (!okey || real.length === group.length || !real.length) return group.map(() => null);
    const colours = new Set(real.map(([, t]) => t[0]));
    const numbers = new Set(real.map(([, t]) => t.slice(1)));
    if (group.length === 2) return group.map((t) => (t === okey ? real[0][1] : null));
    if (colours.size === 1 && numbers.size === real.length && !(real.length === 1 && group.length === 4)) {
      const [at, first] = real[0];
      const base = Number(first.slice(1));
      return group.map((t, i) => (t === okey ? `${first[0]}${((base - 1 + i - at) % 13 + 13) % 13 + 1}` : null));
    }
    const missing = Object.keys(COLORS).filter((c) => !colours.has(c));
    const number = real[0][1].slice(1);
    return group.map((t) => (t === okey ? `${missing.shift() || real[0][1][0]}${number}` : null));
  }

  // Tiles in words ("kırmızı 7"), never in notation.
  function words(notation, okey) {
    if (!notation) return "";
    if (notation === "J") return okey ? fmt(T.false_joker_as, { tile: words(okey) }) : T.false_joker;
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
        const stands = standIns(group, step.okey);
        group.forEach((t, i) => row.append(tile(t, step.okey, stands[i])));
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
