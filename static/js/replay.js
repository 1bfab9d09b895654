/* Hand replay on a table: the four racks (all open: the hand is over and its deck revealed),
   every discard pile, the centre (101: the melds on the table), step by step from the views the server rebuilt from the deck and
   the move log. Tiles are drawn by static/js/tiles.js, the table's own drawing; a Kart Okey hand
   (cards, one discard pile, the melds on the table) by static/js/replaykart.js. */
import { okeyTiles } from "./tiles.js";
import { kartReplay } from "./replaykart.js";

(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const T = JSON.parse(document.getElementById("okey-strings").textContent);
  const { fmt, words, tile, standIns } = okeyTiles(T);
  const $ = (id) => document.getElementById(id);
  const root = $("replay");
  const last = data.steps.length - 1;
  const PLAY_MS = 900;
  const reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
  let index = 0;
  let playing = null;

  const count = data.steps.length ? data.steps[0].players : 4;
  // The viewer's own seat (a player of the hand) sits at the bottom, as at the table.
  const base = data.seat !== null && data.seat !== undefined ? data.seat : 0;
  function rel(seat) {
    const r = (seat - base + count) % count;
    return count === 2 && r === 1 ? 2 : r;  // two players sit face to face
  }
  const seatBox = (seat) => root.querySelector(`.rseat[data-rel="${rel(seat)}"]`);

  function name(seat) {
    const player = data.players.find((p) => p.seat === seat);
    return player ? player.nickname : "?";
  }
  const kart = data.steps.length && data.steps[0].game === "kart" ? kartReplay(T, name) : null;

  // A 101 turn: what it took, opened, laid off and discarded, and any penalty, in one line.
  function describeTurn(event, who) {
    const parts = [];
    if (event.took) parts.push(fmt(T.r101_took, { name: who, tile: words(event.took) }));
    for (const action of event.actions || []) {
      if (action.type === "open") {
        parts.push(fmt(action.kind === "pairs" ? T.r101_opened_pairs : T.r101_opened_melds, { name: who, total: action.total }));
      } else if (action.type === "lay_down") parts.push(fmt(T.r101_laid_down, { name: who }));
      else if (action.type === "lay_off") parts.push(fmt(T.r101_laid_off, { name: who, tile: words(action.tile) }));
      else if (action.type === "swap") parts.push(fmt(T.r101_swapped, { name: who, tile: words(action.tile) }));
    }
    parts.push(fmt(T.r101_discarded, { name: who, tile: words(event.discard) }));
    for (const penalty of event.penalties || []) parts.push(fmt(T["r101_penalty_" + penalty.reason], { name: who }));
    return parts.join(" · ");
  }

  function describe(event) {
    const who = event.seat !== undefined && event.seat !== null ? name(event.seat) : "";
    if (event.type === "turn") return describeTurn(event, who);
    if (event.type === "hand_end") {
      if (event.reason === "finished") return fmt(T.r101_finished, { name: name(event.finisher) });
      return event.reason === "cancelled" ? T.r101_cancelled : T.r101_pile_out;
    }
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

  function group(tiles, okey, stands) {
    const el = document.createElement("span");
    el.className = "rgroup";
    tiles.forEach((t, i) => el.append(tile(t, okey, stands && stands[i] ? { as: stands[i] } : null)));
    return el;
  }

  // A rack: sorted by colour and number while the hand is played; at its end the finisher's
  // groups (an okey drawn as the tile it stands for) and everyone else's best sets, a gap between.
  function rackOf(step, seat) {
    const okey = step.okey;
    const finish = step.result && step.result.finish;
    if (finish && step.result.finisher === seat) return finish.groups.map((g) => group(g, okey, standIns(g, okey)));
    if (step.groups && step.groups[seat]) return step.groups[seat].map((g) => group(g, okey));
    return [group(step.racks[seat], okey)];
  }

  // 101: every meld on the table, grouped by its owner, with the owner's opening total.
  function renderMelds(step) {
    const box = $("replay-melds");
    if (!box) return;
    box.hidden = !step.melds;
    if (!step.melds) return;
    const groups = [];
    for (let seat = 0; seat < step.players; seat++) {
      const melds = step.melds.filter((meld) => meld.owner === seat);
      if (!melds.length) continue;
      const row = document.createElement("div");
      row.className = "replay-melds__owner";
      row.dataset.seat = String(seat);
      const head = document.createElement("p");
      head.className = "replay-melds__head";
      head.textContent = fmt(step.opened[seat] === "pairs" ? T.r101_pairs_of : T.r101_melds_of,
        { name: name(seat), total: step.opening_totals[seat] });
      row.append(head, ...melds.map((meld) => group(meld.tiles, step.okey)));
      groups.push(row);
    }
    box.replaceChildren(...groups);
  }

  function render(animate) {
    const step = data.steps[index];
    const previous = index > 0 ? data.steps[index - 1] : null;
    root.dataset.step = String(index);
    $("replay-position").textContent = `${index} / ${last}`;
    $("replay-seek").value = String(index);
    if (kart) kart.render(step, previous, animate, seatBox);
    else renderTiles(step, previous, animate);
    for (const box of root.querySelectorAll(".rseat")) if (!box.dataset.seat) box.hidden = true;
    const playButton = $("replay-play");
    playButton.textContent = playing ? "❚❚" : "▶";
    playButton.setAttribute("aria-label", playing ? playButton.dataset.pause : playButton.dataset.play);
    playButton.setAttribute("aria-pressed", String(!!playing));
  }

  function renderTiles(step, previous, animate) {
    renderMelds(step);
    root.dataset.phase = step.phase;
    $("replay-event").textContent = describe(step.event);
    $("replay-indicator").replaceChildren(tile(step.indicator, null));
    $("replay-okey").replaceChildren(tile(step.okey, step.okey));
    $("replay-pile").textContent = String(step.pile_count);
    $("replay-centre-tiles").replaceChildren(...(step.centre || []).map((t) => tile(t, step.okey)));
    const over = step.phase === "over";
    for (let seat = 0; seat < step.players; seat++) {
      const box = seatBox(seat);
      if (!box) continue;
      box.hidden = false;
      box.dataset.seat = String(seat);
      box.classList.toggle("on-turn", step.turn === seat && !over);
      box.classList.toggle("winner", !!(step.result && step.result.finisher === seat));
      const head = box.querySelector(".rseat__head");
      const nick = document.createElement("b");
      nick.textContent = name(seat);
      const tiles = document.createElement("span");
      tiles.className = "count";
      tiles.textContent = String(step.rack_counts[seat]);
      tiles.title = fmt(T.tiles_in_rack, { n: step.rack_counts[seat] });
      head.replaceChildren(nick, tiles);
      if (step.starting_seat === seat) head.append(badge(T.starter));
      if ((step.declared_pairs || []).includes(seat)) head.append(badge(T.going_pairs));
      if ((step.shown_indicators || []).includes(seat)) head.append(badge(T.showed_indicator));
      box.querySelector(".rrack").replaceChildren(...rackOf(step, seat));
      const pile = step.discards[seat];
      const discards = box.querySelector(".rdiscards");
      discards.replaceChildren(...pile.map((t) => tile(t, step.okey, { mini: true })));
      discards.setAttribute("aria-label", pile.length ? fmt(T.discard_of, { name: name(seat), tile: words(pile[pile.length - 1], step.okey) })
        : fmt(T.discard_empty, { name: name(seat) }));
      if (!animate || !previous) continue;
      // Motion on what changed: the thrown tile lands on its pile, a drawn one in its rack, and the
      // winner's hand opens group by group (CSS animations, none with prefers-reduced-motion).
      if (pile.length > previous.discards[seat].length) discards.lastElementChild.classList.add("arrive");
      const before = {};
      for (const t of previous.racks[seat]) before[t] = (before[t] || 0) + 1;
      for (const el of box.querySelectorAll(".rrack .tile")) {
        if (before[el.dataset.tile]) before[el.dataset.tile] -= 1;
        else if (!over) el.classList.add("arrive");
      }
      if (over && step.result && step.result.finisher === seat) {
        box.querySelectorAll(".rgroup").forEach((g, i) => { g.classList.add("reveal"); g.style.animationDelay = `${i * 90}ms`; });
      }
    }
  }

  function badge(text) {
    const el = document.createElement("span");
    el.className = "tag";
    el.textContent = text;
    return el;
  }

  function stop() { clearInterval(playing); playing = null; }
  const go = (next, animate) => {
    index = Math.max(0, Math.min(last, next));
    if (index === last) stop();
    render(animate && !reducedMotion.matches);
  };
  function play() {
    if (playing) { stop(); render(false); return; }
    if (index === last) index = 0;
    playing = setInterval(() => go(index + 1, true), PLAY_MS);
    render(false);
  }
  $("replay-first").addEventListener("click", () => { stop(); go(0); });
  $("replay-prev").addEventListener("click", () => { stop(); go(index - 1); });
  $("replay-play").addEventListener("click", play);
  $("replay-next").addEventListener("click", () => { stop(); go(index + 1, true); });
  $("replay-last").addEventListener("click", () => { stop(); go(last, true); });
  const seek = $("replay-seek");
  seek.max = String(last);
  seek.addEventListener("input", () => { stop(); go(Number(seek.value)); });
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.closest && e.target.closest("input, textarea, select")) return;
    if (e.key === "ArrowRight") { stop(); go(index + 1, true); }
    if (e.key === "ArrowLeft") { stop(); go(index - 1); }
    if (e.key === " " && e.target === document.body) { e.preventDefault(); play(); }
  });
  window.__okeyReplay = { go: (n) => { stop(); go(n); }, steps: data.steps.length };
  render(false);
})();
