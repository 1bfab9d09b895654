/* A visitor's practice hand (games/guest_practice.py): the server keeps the hand in its cache and
   answers each move with the seat's view after the bots' turns. Tiles are the table's own drawing
   (static/js/tiles.js). The rack is kept sorted by colour and number, okeys last. */
import { okeyTiles } from "./tiles.js";

(function () {
  const root = document.getElementById("guest");
  if (!root) return;
  const T = JSON.parse(document.getElementById("okey-strings").textContent);
  const { fmt, words, tile, standIns } = okeyTiles(T);
  const $ = (id) => document.getElementById(id);
  const csrf = root.querySelector("[name=csrfmiddlewaretoken]").value;
  const reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
  const ORDER = "KSMY";
  let state = JSON.parse($("guest-state").textContent);
  let selected = null;  // the selected tile's place in the sorted rack
  let busy = false;
  const feed = [];

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "X-CSRFToken": csrf, "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body || {}),
    });
    try { return await response.json(); } catch (e) { return { ok: false, error: { message: response.statusText } }; }
  }

  function sorted(tiles) {
    const okey = state.okey;
    const key = (t) => (t === okey ? [9, 0] : t === "J" ? [8, 0] : [ORDER.indexOf(t[0]), Number(t.slice(1))]);
    return [...(tiles || [])].sort((a, b) => { const x = key(a); const y = key(b); return x[0] - y[0] || x[1] - y[1]; });
  }
  const sortedRack = () => sorted(state.rack);

  const name = (seat) => (state.names || [])[seat] || "?";
  function describe(event) {
    const who = name(event.seat);
    switch (event.type) {
      case "draw": return event.source === "discard" ? fmt(T.feed_took, { name: who, tile: words(event.tile, state.okey) }) : fmt(T.feed_drew, { name: who });
      case "discard": return fmt(T.feed_threw, { name: who, tile: words(event.tile, state.okey) });
      case "finish": return fmt(T.feed_finished, { name: who, tile: words(event.tile, state.okey) });
      case "pile_out": return T.pile_out;
      default: return null;
    }
  }

  function render(previousRack) {
    const playing = !!state && state.phase !== "over";
    $("gtable").hidden = !state;
    $("guest-start").hidden = !!state;
    if (!state) return;
    const can = state.actions || [];
    const okey = state.okey;
    root.dataset.move = String(state.move);
    root.dataset.phase = state.phase;
    $("g-pile-count").textContent = String(state.pile_count);
    $("g-pile").disabled = !can.includes("draw_pile");
    $("g-pile").classList.toggle("available", can.includes("draw_pile"));
    $("g-indicator").replaceChildren(tile(state.indicator, null));
    $("g-okey").replaceChildren(tile(okey, okey));
    const take = $("g-take");
    take.replaceChildren(...(state.available_discard ? [tile(state.available_discard, okey)] : []));
    take.disabled = !can.includes("draw_discard");
    take.classList.toggle("available", can.includes("draw_discard"));
    for (const box of root.querySelectorAll(".gseat")) {
      const seat = Number(box.dataset.seat);
      const head = document.createElement("b");
      head.textContent = name(seat);
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = String(state.rack_counts[seat]);
      count.title = fmt(T.tiles_in_rack, { n: state.rack_counts[seat] });
      const top = state.discard_tops[seat];
      box.replaceChildren(head, count, ...(top ? [tile(top, okey, { mini: true })] : []));
      box.classList.toggle("on-turn", playing && state.turn === seat);
    }
    const mine = state.discard_tops[0];
    $("g-mine").replaceChildren(...(mine ? [tile(mine, okey, { mini: true })] : []));
    const rack = sortedRack();
    if (selected !== null && selected >= rack.length) selected = null;
    const before = {};
    for (const t of previousRack || rack) before[t] = (before[t] || 0) + 1;
    $("g-rack").replaceChildren(...rack.map((t, i) => {
      const el = tile(t, okey);
      el.setAttribute("role", "button");
      el.tabIndex = 0;
      el.setAttribute("aria-pressed", String(i === selected));
      if (i === selected) el.classList.add("selected");
      if (before[t]) before[t] -= 1;
      else if (!reducedMotion.matches) el.classList.add("arrive");
      const choose = () => { if (!busy) { selected = selected === i ? null : i; render(); } };
      el.addEventListener("click", choose);
      el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(); } });
      return el;
    }));
    root.querySelector(".gcontrols").hidden = !playing;
    $("g-discard").disabled = busy || selected === null || !can.includes("discard");
    $("g-finish").disabled = busy || selected === null || !can.includes("finish");
    $("g-status").textContent = !playing ? T.hand_over : can.includes("draw_pile") ? T.your_turn_draw
      : can.includes("discard") ? T.your_turn_discard : T.bots_playing;
    $("g-feed").replaceChildren(...feed.slice(-6).map((line) => { const li = document.createElement("li"); li.textContent = line; return li; }));
    renderEnd();
  }

  function renderEnd() {
    const over = state && state.phase === "over";
    $("g-end").hidden = !over;
    if (!over) return;
    const result = state.result || {};
    $("g-end-title").textContent = result.finisher === 0 ? T.you_won
      : result.finisher !== null && result.finisher !== undefined ? fmt(T.bot_won, { name: name(result.finisher) }) : T.pile_ran_out;
    $("g-end-racks").replaceChildren(...(state.racks || []).map((rack, seat) => {
      const row = document.createElement("div");
      row.className = "gend__rack";
      const who = document.createElement("b");
      who.textContent = name(seat);
      // The winner's hand in the groups it finished with, everyone else's sorted.
      const finish = result.finisher === seat && result.finish ? result.finish.groups : [sorted(rack)];
      row.append(who, ...finish.map((group) => {
        const tiles = document.createElement("span");
        tiles.className = "gend__tiles";
        const stands = standIns(group, state.okey);
        tiles.append(...group.map((t, i) => tile(t, state.okey, { mini: true, as: result.finish && result.finisher === seat ? stands[i] : null })));
        return tiles;
      }));
      if (result.finisher === seat) row.classList.add("winner");
      return row;
    }));
  }

  function take(data) {
    if (!data.ok) {
      $("g-error").textContent = (data.error && data.error.message) || "";
      if (data.error && data.error.state) { state = data.error.state; render(); }
      if (data.error && data.error.code === "guest_practice_gone") { state = null; render(); }
      return;
    }
    $("g-error").textContent = "";
    const previousRack = state ? sortedRack() : null;
    state = data.state;
    for (const event of state.events || []) { const line = describe(event); if (line) feed.push(line); }
    selected = null;
    render(previousRack);
    if (state.phase === "over") $("g-end").scrollIntoView({ block: "nearest", behavior: reducedMotion.matches ? "auto" : "smooth" });
  }

  async function act(type, extra) {
    if (busy || !state) return;
    busy = true;
    try { take(await post(root.dataset.moveUrl, Object.assign({ type, move: state.move }, extra || {}))); }
    finally { busy = false; render(); }
  }

  async function start() {
    if (busy) return;
    busy = true;
    feed.length = 0;
    try { state = null; take(await post(root.dataset.startUrl)); }
    finally { busy = false; render(); }
  }

  const selectedTile = () => (selected === null ? null : sortedRack()[selected]);
  $("guest-start").addEventListener("click", start);
  $("g-again").addEventListener("click", start);
  $("g-pile").addEventListener("click", () => act("draw", { source: "pile" }));
  $("g-take").addEventListener("click", () => act("draw", { source: "discard" }));
  $("g-discard").addEventListener("click", () => { const t = selectedTile(); if (t) act("discard", { tile: t }); });
  $("g-finish").addEventListener("click", () => { const t = selectedTile(); if (t) act("finish", { tile: t }); });
  render();
})();
