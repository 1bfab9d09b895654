/* The table page: renders the frames the server builds for this seat and sends the player's
   actions. The server is the only authority; this script keeps only the rack's on-screen layout
   (which slot each tile sits in, in localStorage per hand) and the player's own settings
   (sound, vibration, colour-blind marks, muted players).

   No tile notation ("K5") ever reaches visible text: tiles are drawn as tiles, and named in words
   ("kırmızı 5") for screen readers and messages.

   window.__okeyTest.log records what the page did for the player (turn sounds, ticks, vibration,
   title changes) so browser tests can check them; it is a short list and costs nothing.

   A native ES module (no build step): the tile drawing is shared with the replay (tiles.js), and
   the socket, the sounds, the standing (teams, score direction), the seats, the move feed, the chat
   (with the player card) and the result panel are modules of their own under table/, each a
   factory given what it reads of this script's state as functions (`currentFrame: () => frame`).
   The rack (its slots, layout, selection, drag and keys) stays here: its state (slots, selected,
   pendingFinish, drag, the row width) is read and written by the frame, the buttons, the error
   messages and the motion alike, and moving it out would need one large shared state object. */
import { okeyTiles } from "./tiles.js";
import { makeChat } from "./table/chat.js";
import { makeFeed } from "./table/feed.js";
import { makeFeedback } from "./table/feedback.js";
import { fmt, num } from "./table/format.js";
import { makeResultPanel } from "./table/result.js";
import { makeSeats } from "./table/seats.js";
import { tableSocket } from "./table/socket.js";
import { makeStanding } from "./table/standing.js";

(function () {
  const root = document.getElementById("okey-table");
  if (!root) return;
  const T = JSON.parse(document.getElementById("okey-strings").textContent);
  const tableId = root.dataset.tableId;
  const me = root.dataset.user;
  const SLOTS = 30;
  // Slots a rack row holds: 15 on a landscape screen, 10 (three rows) on a portrait phone — the
  // rack's columns in table.css (--cols). Sorting, the arrow keys and a turned phone follow it.
  function rackColumns() { return Number(getComputedStyle(root).getPropertyValue("--cols")) || 15; }
  let ROW = rackColumns();
  const NEXT_HAND_SECONDS = Number(root.dataset.nextHandSeconds || 6);
  const $ = (id) => document.getElementById(id);
  const reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };

  const testLog = [];
  window.__okeyTest = { log: testLog, frames: 0, renderMs: [] };
  const record = (kind, detail) => { testLog.push({ kind, detail, at: Date.now() }); if (testLog.length > 200) testLog.shift(); };

  // -- settings, remembered in this browser ---------------------------------------------------
  const settings = Object.assign({ sound: true, vibrate: true, colorblind: false },
    readJSON("okey-settings", {}));
  const muted = new Set(readJSON("okey-muted", []));
  function readJSON(key, fallback) {
    try { const value = JSON.parse(localStorage.getItem(key) || "null"); return value === null ? fallback : value; }
    catch (e) { return fallback; }
  }
  function saveSettings() { localStorage.setItem("okey-settings", JSON.stringify(settings)); applySettings(); }
  function applySettings() {
    $("btn-sound").setAttribute("aria-pressed", String(settings.sound));
    $("btn-vibrate").setAttribute("aria-pressed", String(settings.vibrate));
    $("btn-colorblind").setAttribute("aria-pressed", String(settings.colorblind));
    document.body.classList.toggle("cb", settings.colorblind);
  }
  $("btn-sound").addEventListener("click", () => { settings.sound = !settings.sound; saveSettings(); });
  $("btn-vibrate").addEventListener("click", () => { settings.vibrate = !settings.vibrate; saveSettings(); });
  $("btn-colorblind").addEventListener("click", () => { settings.colorblind = !settings.colorblind; saveSettings(); });
  applySettings();

  // -- sound, vibration and the title on your turn (table/feedback.js) -------------------------
  const { beep, vibrate, setTitle } = makeFeedback({ settings, record, yourTurnTitle: T.title_your_turn });

  // -- tiles in words and as tiles: one drawing shared with the replay (static/js/tiles.js) ----
  const tiles = okeyTiles(T);
  const tileWords = tiles.words;
  const tileElement = tiles.tile;
  const standIns = tiles.standIns;

  // -- socket (table/socket.js): every frame goes to handle() ------------------------------------
  const live = tableSocket({
    tableId, T, root,
    onMessage: (message) => handle(message),
    onOpen: () => { send("chat_history"); send("watchers"); },
    currentMove: () => (frame && frame.hand ? frame.hand.move : undefined),
  });
  const send = live.send;

  function handle(message) {
    if (message.type === "state") applyFrame(message);
    else if (message.type === "error" || message.type === "banned") showError(message);
    else if (message.type === "chat") addChat(message.message, true);
    else if (message.type === "chat_history") { $("chat-log").replaceChildren(); for (const line of message.messages || []) addChat(line, false); }
    else if (message.type === "arrangement") applyArrangement(message.order);
    else if (message.type === "player_card") showCard(message.card);
    else if (message.type === "watchers") { showWatchers(message.count); showOnline(message.online); }
    else if (message.type === "room.password_attack" && window.Okey) window.Okey.toast(message.message, "error");
  }

  // -- state ----------------------------------------------------------------------------------
  let frame = null;                          // the last state frame
  let slots = new Array(SLOTS).fill(null);   // notation per slot, null = gap
  let selected = null;                       // slot index of the selected tile
  let pendingFinish = null;                  // the tile we asked to finish with (kept selected if refused)
  let resultShownFor = null;                 // hand id whose result panel was opened
  let myTurnFor = null;                      // "hand:move" key of the turn we alerted for

  function applyFrame(next) {
    const started = performance.now();
    window.__okeyTest.lastFrame = next;
    const previous = frame;
    const previousHand = previous && previous.hand ? previous.hand.id : null;
    // Move frames carry no seat list (only full reads do): keep the last one known.
    if (!next.table && previous && previous.table) next.table = previous.table;
    frame = next;
    window.__okeyTest.frames += 1;
    const hand = next.hand;
    root.dataset.move = hand ? String(hand.move) : "";
    root.dataset.phase = hand ? hand.phase : "none";
    root.dataset.seat = hand && hand.seat !== null ? String(hand.seat) : "";
    const moved = !previous || !previous.hand || !hand || previous.hand.id !== hand.id || previous.hand.move !== hand.move;
    if (moved) clearMessage();
    if (hand && hand.id !== previousHand) { loadLayout(hand.id); feedHandStart(hand); }
    const newTiles = reconcileRack(hand && hand.rack ? hand.rack : []);
    render(previous);
    describeNewMoves(hand, next);
    describePlayerChanges(previous, next);
    animateMoves(next.events || [], newTiles);
    alertTurn();
    if (leaving && !isSeatedAtTable()) location.href = root.dataset.roomUrl;
    if (hand && hand.phase === "over" && resultShownFor !== hand.id) { resultShownFor = hand.id; showResult(); }
    if (hand && hand.phase !== "over" && $("result-dialog").open) $("result-dialog").close();
    const spent = performance.now() - started;
    window.__okeyTest.renderMs.push(spent);
    if (window.__okeyTest.renderMs.length > 50) window.__okeyTest.renderMs.shift();
  }

  function layoutKey(handId) { return `okey-layout-${tableId}-${handId}`; }

  function loadLayout(handId) {
    slots = new Array(SLOTS).fill(null);
    selected = null;
    try {
      const saved = JSON.parse(localStorage.getItem(layoutKey(handId)) || "null");
      // {cols, slots}: the row width it was laid out for (a bare list: two rows of 15).
      const kept = Array.isArray(saved) ? { cols: 15, slots: saved } : saved;
      if (kept && Array.isArray(kept.slots) && kept.slots.length === SLOTS) {
        slots = kept.slots;
        if (kept.cols !== ROW) reflow();
      }
    } catch (e) { /* a broken saved layout is simply ignored */ }
    // Old hands' layouts are of no use: keep the storage small.
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (key && key.startsWith(`okey-layout-${tableId}-`) && key !== layoutKey(handId)) localStorage.removeItem(key);
    }
  }

  function saveLayout() {
    if (frame && frame.hand) localStorage.setItem(layoutKey(frame.hand.id), JSON.stringify({ cols: ROW, slots }));
  }

  // The rack's rows changed width (a phone turned: 10 ↔ 15 a row): the groups are laid out again
  // in their order, a gap after each, each kept on one row where it fits.
  function reflow() {
    const groups = [];
    let run = [];
    for (const tile of slots) {
      if (tile === null) { if (run.length) groups.push(run); run = []; } else run.push(tile);
    }
    if (run.length) groups.push(run);
    slots = arrangeSlots([...groups, []]);
  }
  window.addEventListener("resize", () => {
    const cols = rackColumns();
    if (cols === ROW) return;
    ROW = cols;
    const tile = selected !== null ? slots[selected] : null;
    reflow();
    selected = tile ? slots.indexOf(tile) : null;
    if (selected === -1) selected = null;
    saveLayout();
    if (frame) { renderRack(); renderButtons(); }
  });

  /* Keep tiles where the player put them; a tile that left leaves a gap. A new tile (drawn or
     taken) goes to the first free slot after the last tile, never into a gap between groups;
     only when the rack is full to its end does it take the first gap. Returns the new slots. */
  function reconcileRack(rack) {
    const want = {};
    for (const tile of rack) want[tile] = (want[tile] || 0) + 1;
    const have = {};
    slots = slots.map((tile) => {
      if (tile === null) return null;
      have[tile] = (have[tile] || 0) + 1;
      return have[tile] > (want[tile] || 0) ? null : tile;
    });
    const added = [];
    for (const tile of Object.keys(want)) {
      let missing = want[tile] - (have[tile] ? Math.min(have[tile], want[tile]) : 0);
      while (missing-- > 0) {
        const index = freeSlotAfterLast();
        slots[index] = tile;
        added.push(index);
      }
    }
    if (selected !== null && slots[selected] === null) selected = null;
    saveLayout();
    return added;
  }

  function freeSlotAfterLast() {
    let last = -1;
    slots.forEach((tile, index) => { if (tile !== null) last = index; });
    if (last + 1 < SLOTS) return last + 1;
    const gap = slots.indexOf(null);
    return gap >= 0 ? gap : slots.push(null) - 1;
  }

  /* "Sort by sets / pairs": groups on the rows, a gap after each, never split across two rows
     (unless longer than a row); the loose tiles last. */
  function arrangeSlots(order) {
    const next = new Array(SLOTS).fill(null);
    const groups = order.slice(0, -1).filter((g) => g.length);
    const loose = order.length ? order[order.length - 1] : [];
    let row = 0;
    let col = 0;
    let fits = true;
    for (const group of groups) {
      if (col + group.length > ROW && col > 0) { row += 1; col = 0; }
      const start = row * ROW + col;
      if (start + group.length > SLOTS) { fits = false; break; }
      group.forEach((tile, i) => { next[start + i] = tile; });
      const end = start + group.length;
      const after = end % ROW === 0 ? end : end + 1;  // a gap after it, unless the row ended
      row = Math.floor(after / ROW);
      col = after % ROW;
    }
    if (fits) {
      let index = row * ROW + col;
      for (const tile of loose) {
        while (index < SLOTS && next[index] !== null) index++;
        if (index >= SLOTS) { fits = false; break; }
        next[index++] = tile;
      }
    }
    if (!fits) return order.flat().concat(new Array(SLOTS).fill(null)).slice(0, SLOTS);
    return next;
  }

  function applyArrangement(order) {
    const tile = selected !== null ? slots[selected] : null;
    slots = arrangeSlots(order);
    reconcileRack(frame && frame.hand && frame.hand.rack ? frame.hand.rack : []);
    selected = tile ? slots.indexOf(tile) : null;
    if (selected === -1) selected = null;
    renderRack();
    renderButtons();
  }

  // -- seats ------------------------------------------------------------------------------------
  function players() { return frame && frame.hand ? frame.hand.players : ((frame && frame.table && frame.table.seats) || []).length || 4; }
  function mySeat() { return frame && frame.hand && frame.hand.seat !== null && frame.hand.seat !== undefined ? frame.hand.seat : null; }
  function relSeat(seat) {
    const base = mySeat() !== null ? mySeat() : 0;
    const count = players();
    const rel = (seat - base + count) % count;
    return count === 2 && rel === 1 ? 2 : rel; // two players sit face to face
  }
  function seatBox(seat) { return root.querySelector(`.pbox[data-rel="${relSeat(seat)}"]`); }
  function discardBox(seat) { return root.querySelector(`.discard[data-rel="${relSeat(seat)}"]`); }
  function playerOf(seat) { return (frame.players || []).find((p) => p.seat === seat) || {}; }
  function playerName(seat) { return playerOf(seat).nickname || "?"; }
  // Eşli: the teams the engine names (seats that share one score), or null when all play alone.
  const standing = makeStanding(() => frame);
  const { teams, teamOf } = standing;
  function teamName(team) { return teams()[team].map(playerName).join(" & "); }
  function amLeft() { const s = mySeat(); return s !== null && !!playerOf(s).left && frame.match && frame.match.status === "running"; }
  // Away (three turns in a row ran out): the clock plays my turns after a second until I move or
  // press "Buradayım" (services.i_am_back).
  function amAway() { const s = mySeat(); return s !== null && !!playerOf(s).away && !playerOf(s).left && frame.match && frame.match.status === "running"; }

  function textSpan(className, text) { const el = document.createElement("span"); el.className = className; el.textContent = text; return el; }

  // -- the seat boxes (table/seats.js): faces, names, counts, markers, the seats before a match --
  // A face for every nickname (the seats and the player card) is cased in the page's language.
  const lang = document.documentElement.lang || "tr";
  const { renderPlayers, faceOf } = makeSeats({
    T, root, me, lang, currentFrame: () => frame, players, seatBox, playerOf, teamOf,
    isOffline: (player) => isOffline(player), openCard: (nickname, bot) => openCard(nickname, bot), send,
  });

  function render(previous) {
    const hand = frame.hand;
    // Before the first deal there is no pile, indicator or okey to show: only what the table waits for.
    $("centre").classList.toggle("centre--waiting", !hand);
    const okey = hand ? hand.okey : null;
    $("pile-count").textContent = hand ? String(hand.pile_count) : "–";
    $("pile").setAttribute("aria-label", hand ? fmt(T.pile_label, { n: hand.pile_count }) : T.pile_label_empty);
    const indicatorKey = hand ? `${hand.id}:${hand.indicator}` : "";
    if ($("indicator").dataset.key !== indicatorKey) {
      $("indicator").dataset.key = indicatorKey;
      const indicator = hand ? tileElement(hand.indicator, null) : null;
      if (indicator && !reducedMotion.matches) indicator.classList.add("flip");
      $("indicator").replaceChildren(...(indicator ? [indicator] : []));
      $("okey").replaceChildren(...(hand ? [tileElement(hand.okey, hand.okey)] : []));
    }
    // The hand's number; in eşli the two team scores, ours first (a watcher reads the teams by
    // name). On a phone the number gives way and the team scores stay (table.css).
    const info = $("hand-info");
    const parts = [];
    if (hand) parts.push(textSpan("hand-no", fmt(T.hand_number, { n: hand.number + 1 })));
    if (hand && teams()) {
      const scores = (frame.match.live_scores || frame.match.scores) || [];
      const mine = teamOf(hand.seat);
      const order = mine === 1 ? [1, 0] : [0, 1];
      const line = order.map((team) => {
        const label = mine < 0 ? teamName(team) : (team === mine ? T.team_us : T.team_them);
        return `${label} ${num(scores[teams()[team][0]])}`;
      }).join(" · ");
      parts.push(textSpan("team-scores", line));
    }
    info.replaceChildren(...parts.flatMap((part, i) => (i ? [textSpan("sep", " · "), part] : [part])));
    info.toggleAttribute("data-teams", !!(hand && teams()));
    $("hand-info").title = hand && hand.commitment ? `${T.commitment_title} ${hand.commitment}` : "";
    renderPlayers();
    renderDiscards(okey, hand);
    renderRack();
    renderButtons();
    renderHistory();
    startClock();
    $("left-banner").hidden = !amLeft();
    $("away-banner").hidden = !amAway();
    $("btn-show-result").hidden = !(hand && hand.phase === "over");
    $("btn-leave").hidden = !isSeated();
  }

  function isSeated() {
    if (mySeat() !== null && frame.match && frame.match.status === "running" && !playerOf(mySeat()).left) return true;
    return !!(frame.table && (frame.table.seats || []).some((s) => s.nickname === me));
  }

  function renderDiscards(okey, hand) {
    const key = hand ? `${hand.id}|${hand.seat}|${okey}|${hand.discard_tops.join(",")}|${(hand.actions || []).includes("draw_discard")}` : "";
    const board = $("felt");
    if (board.dataset.discards === key) return;
    board.dataset.discards = key;
    for (const pile of root.querySelectorAll(".discard")) { pile.replaceChildren(); pile.classList.remove("available"); }
    if (!hand) return;
    for (let seat = 0; seat < hand.players; seat++) {
      const pile = discardBox(seat);
      if (!pile) continue;
      pile.dataset.owner = String(seat);
      const top = hand.discard_tops[seat];
      if (top) pile.append(tileElement(top, okey));
      pile.setAttribute("aria-label", top ? fmt(T.discard_of, { name: playerName(seat), tile: tileWords(top, okey) })
        : fmt(T.discard_empty, { name: playerName(seat) }));
    }
    const take = $("take-discard");
    const canTake = (hand.actions || []).includes("draw_discard");
    // The pile you may take from: the previous player's (where it lies depends on the table size).
    const previous = hand.seat !== null ? (hand.seat - 1 + hand.players) % hand.players : null;
    const takeFrom = previous !== null ? discardBox(previous) : null;
    if (takeFrom) takeFrom.classList.toggle("available", canTake);
    take.classList.toggle("available", canTake && takeFrom === take);
  }

  function renderRack() {
    if (drag && drag.moved) return; // rebuilt when the tile is dropped
    const rack = $("rack");
    const okey = frame && frame.hand ? frame.hand.okey : null;
    // Most frames are other players' moves: the rack is rebuilt only when it changed.
    const key = `${okey}|${selected}|${slots.join(",")}`;
    if (rack.dataset.key === key && rack.childElementCount === slots.length) return;
    rack.dataset.key = key;
    const children = [];
    slots.forEach((tile, index) => {
      const slot = document.createElement("div");
      slot.className = "slot";
      slot.dataset.slot = String(index);
      slot.setAttribute("role", "gridcell");
      if (tile) {
        const el = tileElement(tile, okey);
        el.tabIndex = 0;
        el.setAttribute("role", "button");
        el.setAttribute("aria-pressed", String(index === selected));
        if (index === selected) el.classList.add("selected");
        el.addEventListener("pointerdown", (event) => startDrag(event, index));
        el.addEventListener("keydown", (event) => rackKey(event, index));
        slot.append(el);
      }
      children.push(slot);
    });
    rack.replaceChildren(...children);
    rack.hidden = !(frame && frame.hand && frame.hand.rack);
  }

  function actions() { return frame && frame.hand && frame.hand.actions && !amLeft() ? frame.hand.actions : []; }

  function renderButtons() {
    const hand = frame.hand;
    const can = actions();
    const running = frame.match && frame.match.status === "running";
    const playing = !!(hand && hand.rack) && !amLeft();
    // The actions a game offers beyond draw, discard and finish: a button marked with the action's
    // name shows exactly while the frame offers it (a game type's module adds its own buttons).
    for (const button of root.querySelectorAll("button[data-action]")) button.hidden = !can.includes(button.dataset.action);
    $("btn-discard").disabled = !can.includes("discard") || selected === null;
    $("btn-finish").disabled = !can.includes("finish") || selected === null;
    for (const id of ["btn-sort-sets", "btn-sort-pairs", "btn-discard", "btn-finish"]) $(id).hidden = !playing || hand.phase === "over";
    const seats = (frame.table && frame.table.seats) || [];
    const mine = seats.find((s) => s.nickname === me);
    const matchOver = !!(frame.match && frame.match.status !== "running");
    const lobby = !running && !matchOver;
    $("btn-ready").hidden = !lobby || !mine || mine.ready;
    // The owner starts a full table, or one with empty seats that bots then take ("Botlarla başlat").
    const seated = seats.filter((s) => s.nickname).length;
    const withBots = seated > 0 && seated < seats.length;
    $("btn-start").hidden = !lobby || !frame.table || !frame.table.is_owner || seated === 0;
    $("btn-start").textContent = withBots ? T.start_with_bots : T.start_match;
    $("btn-start").dataset.bots = String(withBots);
    // One clear primary button: the owner's start when it is offered (one tap, bots in the empty
    // seats), else "Hazırım".
    const startOffered = !$("btn-start").hidden;
    $("btn-start").classList.toggle("tbtn--primary", startOffered);
    $("btn-ready").classList.toggle("tbtn--primary", !startOffered);
    $("pile").disabled = !can.includes("draw_pile");
    $("pile").classList.toggle("available", can.includes("draw_pile"));
    $("finish-zone").classList.toggle("active", can.includes("finish"));
  }

  function renderHistory() {
    const hand = frame.hand;
    const box = $("history-box");
    box.hidden = !(hand && hand.discard_history);
    if (box.hidden) return;
    $("history").replaceChildren(...hand.discard_history.map((entry) => {
      const el = tileElement(entry.tile, hand.okey);
      el.title = `${playerName(entry.seat)}: ${tileWords(entry.tile, hand.okey)}`;
      return el;
    }));
  }

  // -- the clock: a ring around the turn seat (one paint-only animation), its seconds, the line -
  let clockTimer = null;
  let clock = null;  // the running turn: {deadline, total, mine, played, left}
  function startClock() {
    clearInterval(clockTimer);
    clock = null;
    const line = $("clock");
    const hand = frame.hand;
    line.classList.remove("urgent", "mine");
    if (!hand) return;
    if (hand.phase === "over") { line.textContent = T.hand_over; paintSeatClock(true); return; }
    const onTurn = playerOf(hand.turn);
    clock = {
      deadline: hand.deadline ? new Date(hand.deadline).getTime() : null,
      total: Math.max(1, (frame.match && frame.match.turn_seconds ? frame.match.turn_seconds : 20) * 1000),
      mine: hand.turn === hand.seat && !amLeft(),
      played: !!(onTurn.bot || onTurn.away || onTurn.left),  // the server moves for this seat
      left: null,
    };
    const tick = () => {
      const left = clock.deadline === null ? null : Math.max(0, Math.ceil((clock.deadline - Date.now()) / 1000));
      if (left === clock.left && left !== null) { if (reducedMotion.matches) paintSeatClock(false); return; }
      clock.left = left;
      const who = clock.mine ? T.your_turn : fmt(T.turn_of, { name: playerName(hand.turn) });
      if (clock.played && !clock.mine) line.textContent = fmt(T.plays_now, { name: playerName(hand.turn) });
      else if (left === null) line.textContent = who;
      else line.textContent = `${who} · ${left ? fmt(T.seconds, { n: left }) : T.time_up}`;
      line.classList.toggle("mine", clock.mine);
      // Red only for your own last seconds; other players' clocks never alarm you.
      line.classList.toggle("urgent", clockUrgent());
      paintSeatClock(false);
      if (clockUrgent() && left > 0) beep("tick");
    };
    paintSeatClock(true);
    tick();
    clockTimer = setInterval(tick, 250);
  }

  function clockUrgent() { return !!(clock && clock.mine && clock.left !== null && clock.left <= 5); }

  // The turn seat's ring and count, from the running turn; ``restart``: a new turn (the seat may
  // also have been drawn again since, e.g. by a presence update: its fresh ring picks up the drain).
  function paintSeatClock(restart) {
    const ring = root.querySelector(".pbox.on-turn .timer");
    const count = root.querySelector(".pbox.on-turn .turn-count");
    if (!ring || !count) return;
    const timed = !!(clock && !clock.played && clock.deadline !== null);
    const share = timed ? Math.max(0, Math.min(1, (clock.deadline - Date.now()) / clock.total)) : 1;
    ring.classList.toggle("played", !!(clock && clock.played));
    ring.classList.toggle("urgent", clockUrgent());
    count.hidden = !timed;
    count.classList.toggle("urgent", clockUrgent());
    const text = timed && clock.left !== null ? String(clock.left) : "";
    if (count.textContent !== text) count.textContent = text;
    if (!timed || reducedMotion.matches || !ring.animate) {
      // Still (a bot's seat), or stepped once a second for a reader who asked for less motion.
      for (const animation of ring.getAnimations ? ring.getAnimations() : []) animation.cancel();
      ring.style.setProperty("--left", String(Math.round(share * 100)));
      return;
    }
    const running = ring.getAnimations();
    if (running.length && !restart) return;
    for (const animation of running) animation.cancel();
    ring.animate([{ "--left": share * 100 }, { "--left": 0 }],
      { duration: Math.max(0, clock.deadline - Date.now()), fill: "forwards", easing: "linear" });
  }

  function alertTurn() {
    const hand = frame.hand;
    const mine = !!(hand && hand.seat !== null && hand.turn === hand.seat && hand.phase !== "over" && !amLeft());
    setTitle(mine);
    if (!mine) { myTurnFor = null; return; }
    // One alert per turn: the draw and the discard of a turn are the same turn.
    if (myTurnFor === hand.id) return;
    myTurnFor = hand.id;
    beep("turn");
    vibrate();
  }

  // -- the move feed (table/feed.js) ---------------------------------------------------------------
  const { textWithTile, feedHandStart, describeNewMoves, describePlayerChanges } = makeFeed({
    T, tiles, currentFrame: () => frame, mySeat, playerName, playerOf, beep,
  });

  // -- motion: a discard slides to its pile, a drawn tile comes from where it was taken ----------
  function centreOf(el) { const r = el.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }
  function slide(el, fromEl) {
    if (!el || !fromEl || reducedMotion.matches || !el.animate) return;
    const a = centreOf(fromEl);
    const b = centreOf(el);
    el.animate([{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px)` }, { transform: "none" }],
      { duration: 220, easing: "ease-out" });
  }
  // A tile crossing the felt for a move made elsewhere (another player's draw): a ghost that only
  // the compositor moves (transform, opacity) and that removes itself; the frame never waits for it.
  function fly(fromEl, toEl, face) {
    if (!fromEl || !toEl || !toEl.animate || toEl.hidden) return;
    const a = centreOf(fromEl);
    const b = centreOf(toEl);
    const ghost = face ? tileElement(face, frame.hand.okey) : document.createElement("span");
    if (!face) ghost.className = "tile back";
    ghost.classList.add("flying");
    ghost.setAttribute("aria-hidden", "true");
    ghost.removeAttribute("title");
    ghost.style.left = `${a.x}px`;
    ghost.style.top = `${a.y}px`;
    root.append(ghost);
    const move = ghost.animate([
      { transform: "translate(-50%, -50%)", opacity: 1 },
      { transform: `translate(calc(${b.x - a.x}px - 50%), calc(${b.y - a.y}px - 50%)) scale(.55)`, opacity: 0.2 },
    ], { duration: 360, easing: "ease-in-out" });
    move.onfinish = move.oncancel = () => ghost.remove();
    record("motion", face ? "take" : "draw");
  }

  // A new deal: the rack's tiles come in one after another (a CSS animation, static/css/motion.css).
  function dealRack() {
    const tiles = $("rack").querySelectorAll(".tile");
    tiles.forEach((tile, i) => { tile.style.setProperty("--deal", String(i)); tile.classList.add("dealt"); });
    if (tiles.length) record("motion", "deal");
  }

  let motionHand;  // the hand of the last frame (undefined before the first: opening a page deals nothing)
  function animateMoves(events, newSlots) {
    const hand = frame.hand;
    const dealt = motionHand !== undefined && !!hand && hand.id !== motionHand;
    motionHand = hand ? hand.id : null;
    if (reducedMotion.matches || !hand) return;
    if (dealt) dealRack();
    for (const event of events.slice(-4)) {
      if (event.type === "discard") {
        const pile = discardBox(event.seat);
        slide(pile && pile.querySelector(".tile"), event.seat === mySeat() ? $("rack") : seatBox(event.seat));
      }
      const previousSeat = (event.seat - 1 + hand.players) % hand.players;
      if (event.type === "draw" && event.seat === mySeat() && newSlots.length) {
        const tile = $("rack").querySelector(`.slot[data-slot="${newSlots[0]}"] .tile`);
        const from = event.source === "discard" ? discardBox(previousSeat) : $("pile");
        slide(tile, from);
      } else if (event.type === "draw" && event.seat !== mySeat()) {
        const taken = event.source === "discard";
        fly(taken ? discardBox(previousSeat) : $("pile"), seatBox(event.seat), taken ? event.tile : null);
      }
    }
  }

  // -- messages ---------------------------------------------------------------------------------
  function showMessage(text, kind) {
    const box = $("messages");
    box.textContent = text;
    box.dataset.kind = kind;
  }
  function clearMessage() { showMessage("", ""); }

  function showError(error) {
    if (error.code === "invalid_finish") {
      // Keep the rack and the selection as they were, and say why in words.
      const hand = frame && frame.hand;
      const pairs = hand && (hand.declared_pairs || []).includes(hand.seat);
      const tile = error.tile || pendingFinish;
      const why = fmt(pairs ? T.finish_not_pairs : T.finish_no_split, { tile: tileWords(tile, hand ? hand.okey : null) });
      if (pendingFinish) { const index = slots.indexOf(pendingFinish); if (index >= 0) selected = index; renderRack(); renderButtons(); }
      showMessage(`${error.message} ${why}`, "error");
      pendingFinish = null;
      return;
    }
    if (error.code === "stale") return; // a fresh state follows
    showMessage(error.message, "error");
  }

  // -- end of hand and match (table/result.js) ----------------------------------------------------
  const { showResult } = makeResultPanel({
    T, root, currentFrame: () => frame, mySeat, playerName, standing, tiles, textWithTile, isSeatedAtTable,
    nextHandSeconds: NEXT_HAND_SECONDS,
  });

  function isSeatedAtTable() { return !!(frame.table && (frame.table.seats || []).some((s) => s.nickname === me)); }

  $("result-close").addEventListener("click", () => $("result-dialog").close());
  $("btn-show-result").addEventListener("click", () => showResult());
  $("btn-rematch").addEventListener("click", () => { send("rematch"); $("btn-rematch").disabled = true; showMessage(T.rematch_waiting, "info"); });
  $("btn-result-leave").addEventListener("click", () => standUp());

  // -- leaving and coming back ------------------------------------------------------------------
  function standUp() {
    const running = frame && frame.match && frame.match.status === "running" && mySeat() !== null && !amLeft();
    if (running) { $("leave-dialog").showModal(); return; }
    // Go to the room once the server has stood us up (or after a moment if the socket is slow).
    if (send("leave")) { leaving = true; setTimeout(() => { location.href = root.dataset.roomUrl; }, 1500); }
    else location.href = root.dataset.roomUrl;
  }
  let leaving = false;
  $("btn-leave").addEventListener("click", standUp);
  $("leave-cancel").addEventListener("click", () => $("leave-dialog").close());
  $("leave-confirm").addEventListener("click", () => { send("leave_match"); $("leave-dialog").close(); });
  $("btn-return").addEventListener("click", () => send("return_to_match"));
  $("btn-back").addEventListener("click", () => send("i_am_back"));

  // -- interaction: select, drag, keyboard -------------------------------------------------------
  function select(index) {
    selected = selected === index ? null : index;
    renderRack();
    renderButtons();
    const tile = $("rack").querySelector(`.slot[data-slot="${index}"] .tile`);
    if (tile) tile.focus({ preventScroll: true });
  }

  function moveTile(from, to) {
    if (to < 0 || to >= SLOTS || from === to) return;
    [slots[to], slots[from]] = [slots[from], slots[to]];
    if (selected === from) selected = to; else if (selected === to) selected = from;
    saveLayout();
    renderRack();
    renderButtons();
  }

  function rackKey(event, index) {
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -ROW, ArrowDown: ROW };
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); select(index); return; }
    if (moves[event.key] !== undefined) {
      event.preventDefault();
      const to = index + moves[event.key];
      if (to < 0 || to >= SLOTS) return;
      moveTile(index, to);
      const tile = $("rack").querySelector(`.slot[data-slot="${to}"] .tile`);
      if (tile) tile.focus({ preventScroll: true });
    }
    if (event.key === "Delete" || event.key === "d") { if (actions().includes("discard")) discard(slots[index]); }
  }

  // Throwing the okey away hands the wild tile to the next player: almost always a slip. The first
  // try says so and keeps the tile; throwing it again on the same move throws it.
  let okeyWarnedAt = null;
  function discard(tile) {
    if (!tile) return;
    const hand = frame && frame.hand;
    const move = hand ? `${hand.id}:${hand.move}` : null;
    if (hand && tile === hand.okey && okeyWarnedAt !== move) {
      okeyWarnedAt = move;
      showMessage(T.okey_discard_warning, "warning");
      return;
    }
    okeyWarnedAt = null;
    selected = null;
    send("discard", { tile });
  }
  function finish(tile) { if (tile) { pendingFinish = tile; selected = null; send("finish", { tile }); } }

  let drag = null;
  function startDrag(event, index) {
    if (event.button !== undefined && event.button !== 0) return;
    event.preventDefault();
    const source = event.currentTarget;
    drag = { index, tile: slots[index], startX: event.clientX, startY: event.clientY, ghost: null, moved: false, over: null };
    // Listen on the document: a frame arriving mid-drag re-renders the rack (and drops the
    // source element, with any pointer capture on it); the drag must go on regardless.
    const onMove = (move) => {
      if (!drag) return;
      if (!drag.moved && Math.hypot(move.clientX - drag.startX, move.clientY - drag.startY) < 6) return;
      if (!drag.ghost) {
        drag.moved = true;
        drag.ghost = source.cloneNode(true);
        drag.ghost.classList.add("ghost");
        drag.ghost.classList.remove("selected");
        const box = source.getBoundingClientRect();
        drag.dx = box.width / 2;
        drag.dy = box.height / 2;
        document.body.append(drag.ghost);
        source.classList.add("dragging");
      }
      drag.ghost.style.transform = `translate(${move.clientX - drag.dx}px, ${move.clientY - drag.dy}px) scale(1.08)`;
      const target = dropTarget(move.clientX, move.clientY);
      if (target !== drag.over) {
        if (drag.over) drag.over.classList.remove("drop-target", "drop-ok");
        drag.over = target;
        if (target) target.classList.add(target.classList.contains("slot") ? "drop-target" : "drop-ok");
      }
    };
    const onUp = (up) => {
      document.removeEventListener("pointermove", onMove);
      document.removeEventListener("pointerup", onUp);
      document.removeEventListener("pointercancel", onUp);
      const current = drag;
      drag = null;
      if (!current) return;
      if (current.over) current.over.classList.remove("drop-target", "drop-ok");
      if (current.ghost) current.ghost.remove();
      source.classList.remove("dragging");
      if (!current.moved) { select(current.index); return; }
      if (up.type !== "pointercancel") drop(current.index, current.over, current.tile);
      renderRack();
    };
    document.addEventListener("pointermove", onMove);
    document.addEventListener("pointerup", onUp);
    document.addEventListener("pointercancel", onUp);
  }

  function dropTarget(x, y) {
    const target = document.elementFromPoint(x, y);
    if (!target) return null;
    return target.closest(".slot") || target.closest("#give-discard") || target.closest("#finish-zone");
  }

  function drop(index, target, tile) {
    // The rack may have changed under the drag: follow the tile, not the slot it started in.
    if (slots[index] !== tile) index = slots.indexOf(tile);
    if (!target || index < 0) return;
    if (target.id === "give-discard") { discard(tile); return; }
    if (target.id === "finish-zone") { finish(tile); return; }
    if (target.classList.contains("slot")) moveTile(index, Number(target.dataset.slot));
  }

  function selectedTile() {
    if (selected === null || !slots[selected]) { showMessage(T.select_tile, "error"); return null; }
    return slots[selected];
  }

  $("pile").addEventListener("click", () => send("draw", { source: "pile" }));
  const takeDiscard = () => { if (actions().includes("draw_discard")) send("draw", { source: "discard" }); };
  for (const pile of root.querySelectorAll(".discard")) {
    pile.addEventListener("click", () => { if (pile.classList.contains("available")) takeDiscard(); });
  }
  $("take-discard").addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") takeDiscard(); });
  $("btn-discard").addEventListener("click", () => discard(selectedTile()));
  $("btn-finish").addEventListener("click", () => finish(selectedTile()));
  $("finish-zone").addEventListener("click", () => { if (selected !== null && actions().includes("finish")) finish(slots[selected]); });
  $("btn-show-indicator").addEventListener("click", () => send("show_indicator"));
  $("btn-declare-pairs").addEventListener("click", () => send("declare_pairs"));
  $("btn-take-indicator").addEventListener("click", () => send("take_indicator"));
  $("btn-lay-okey").addEventListener("click", () => send("lay_first_okey"));
  $("btn-sort-sets").addEventListener("click", () => send("arrange", { by: "sets" }));
  $("btn-sort-pairs").addEventListener("click", () => send("arrange", { by: "pairs" }));
  $("btn-ready").addEventListener("click", () => send("ready"));
  $("btn-start").addEventListener("click", () => send("start", { bots: $("btn-start").dataset.bots === "true" }));

  // -- side drawer (phones), chat and its bubbles, mutes, who is online, the player card (table/chat.js)
  const { addChat, showCard, showWatchers, showOnline, isOffline, openCard } = makeChat({
    T, root, me, lang, muted, send, currentFrame: () => frame, renderPlayers, paintSeatClock, faceOf, showMessage,
  });

  window.__okeyTest.applyFrame = (next) => applyFrame(next); // bench/table_render.py replays frames
  // Watchers say they are still there (the count shown to everyone); players ask for the figure.
  setInterval(() => send("watchers"), 30000);
  live.connect();
})();
