/* The 101 Okey table page (RULES.md "101 Okey"; docs/protocol.md "101 Okey tables"): renders the
   101 frames the server builds for this seat and sends the player's turn. The server is the only
   authority. A turn is a pile draw (a message of its own: the tile must be seen before composing),
   then everything else staged on this page — taking the previous discard, composing the opening
   with a live counter, "El aç", laying down, laying off onto any meld ("İşle", by dragging a tile
   onto it, or a tap on the tile then on the meld, or Enter on a meld), the okey swap — drawn dashed
   and sent whole, once, with the discard. A refused turn keeps its stage to be fixed.

   Shared with the classic table (static/js/table.js): the socket, the seats, the move feed, the
   chat and the player card, the sounds and the tile drawing, each imported. Its own modules are
   under table/okey101/: melds.js (the engine's meld reading mirrored, for the counter and the
   warnings), stage.js (the staged turn), rack.js (22 tiles, several picked at once), meldsarea.js
   (the table's melds by owner) and scoresheet.js (the hand's sheet and the match's totals).

   No tile notation ever reaches visible text: tiles are drawn as tiles and named in words. */
import { okeyTiles } from "./tiles.js";
import { makeChat } from "./table/chat.js";
import { makeFeed } from "./table/feed.js";
import { makeFeedback } from "./table/feedback.js";
import { fmt, num } from "./table/format.js";
import { isIslek, readMeld } from "./table/okey101/melds.js";
import { makeMeldsArea } from "./table/okey101/meldsarea.js";
import { makeRack } from "./table/okey101/rack.js";
import { makeScoreSheet } from "./table/okey101/scoresheet.js";
import * as staging from "./table/okey101/stage.js";
import { makeSeats } from "./table/seats.js";
import { tableSocket } from "./table/socket.js";
import { makeStanding } from "./table/standing.js";
import { makeTurnClock } from "./table/turnclock.js";

(function () {
  const root = document.getElementById("okey-table");
  if (!root) return;
  const T = JSON.parse(document.getElementById("okey-strings").textContent);
  const tableId = root.dataset.tableId;
  const me = root.dataset.user;
  const NEXT_HAND_SECONDS = Number(root.dataset.nextHandSeconds || 6);
  const $ = (id) => document.getElementById(id);
  const reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };

  const testLog = [];
  window.__okeyTest = { log: testLog, frames: 0, renderMs: [], sent: [] };
  const record = (kind, detail) => { testLog.push({ kind, detail, at: Date.now() }); if (testLog.length > 200) testLog.shift(); };

  // -- settings, remembered in this browser (as the classic table's) ----------------------------
  const readJSON = (key, fallback) => {
    try { const value = JSON.parse(localStorage.getItem(key) || "null"); return value === null ? fallback : value; } catch (e) { return fallback; }
  };
  const settings = Object.assign({ sound: true, vibrate: true, colorblind: false }, readJSON("okey-settings", {}));
  const muted = new Set(readJSON("okey-muted", []));
  function applySettings() {
    $("btn-sound").setAttribute("aria-pressed", String(settings.sound));
    $("btn-vibrate").setAttribute("aria-pressed", String(settings.vibrate));
    $("btn-colorblind").setAttribute("aria-pressed", String(settings.colorblind));
    document.body.classList.toggle("cb", settings.colorblind);
  }
  const saveSettings = () => { localStorage.setItem("okey-settings", JSON.stringify(settings)); applySettings(); };
  for (const [id, key] of [["btn-sound", "sound"], ["btn-vibrate", "vibrate"], ["btn-colorblind", "colorblind"]]) {
    $(id).addEventListener("click", () => { settings[key] = !settings[key]; saveSettings(); });
  }
  applySettings();

  const { beep, vibrate, setTitle } = makeFeedback({ settings, record, yourTurnTitle: T.title_your_turn });
  const tiles = okeyTiles(T);

  // -- socket --------------------------------------------------------------------------------------
  const live = tableSocket({
    tableId, T, root,
    onMessage: (message) => handle(message),
    onOpen: () => { send("chat_history"); send("watchers"); },
    currentMove: () => (frame && frame.hand ? frame.hand.move : undefined),
  });
  function send(type, extra) {
    const sent = live.send(type, extra);
    if (sent && (type === "turn" || type === "draw")) window.__okeyTest.sent.push({ type, ...(extra || {}) });
    return sent;
  }

  function handle(message) {
    if (message.type === "state") applyFrame(message);
    else if (message.type === "error" || message.type === "banned") showError(message);
    else if (message.type === "chat") addChat(message.message, true);
    else if (message.type === "chat_history") { $("chat-log").replaceChildren(); for (const line of message.messages || []) addChat(line, false); }
    else if (message.type === "player_card") showCard(message.card);
    else if (message.type === "watchers") { showWatchers(message.count); showOnline(message.online); }
    else if (message.type === "room.password_attack" && window.Okey) window.Okey.toast(message.message, "error");
  }

  // -- state ---------------------------------------------------------------------------------------
  let frame = null;
  let stage = staging.emptyStage();   // the staged part of this turn (never sent before the discard)
  let view = null;                     // the table as the stage leaves it (stage.js project)
  let target = null;                   // the meld picked to lay off onto (tap a meld, then a tile or "İşle")
  let pending = false;                 // a turn or a draw is on its way: no second one
  let resultShownFor = null;
  let myTurnFor = null;
  let warnedFor = null;                // "move:tile" of the penalty warning already given

  function applyFrame(next) {
    const started = performance.now();
    window.__okeyTest.lastFrame = next;
    const previous = frame;
    if (!next.table && previous && previous.table) next.table = previous.table;
    const hand = next.hand;
    // The shared seat boxes read a phase: a 101 hand is over once it has a result.
    if (hand) hand.phase = hand.result ? "over" : "play";
    frame = next;
    window.__okeyTest.frames += 1;
    root.dataset.move = hand ? String(hand.move) : "";
    root.dataset.phase = hand ? hand.phase : "none";
    root.dataset.seat = hand && hand.seat !== null ? String(hand.seat) : "";
    const newHand = hand && (!previous || !previous.hand || previous.hand.id !== hand.id);
    const moved = !previous || !previous.hand || !hand || previous.hand.id !== hand.id || previous.hand.move !== hand.move;
    if (moved) { clearMessage(); pending = false; }
    // Just drew: how a meld is made, once (the stage is empty, nothing is picked).
    const drewNow = hand && previous && previous.hand && previous.hand.id === hand.id && !previous.hand.drawn && hand.drawn;
    if (newHand) { rack.load(hand.id); feedHandStart(hand); stage = staging.emptyStage(); target = null; }
    restage();
    render();
    describeNewMoves(hand, next);
    describePlayerChanges(previous, next);
    alertTurn();
    if (drewNow && myTurn() && staging.isEmpty(stage)) showMessage(T.m101_hint_select, "info");
    if (leaving && !isSeatedAtTable()) location.href = root.dataset.roomUrl;
    if (hand && hand.result && resultShownFor !== hand.id) { resultShownFor = hand.id; showResult(); }
    if (hand && !hand.result && $("result-dialog").open) $("result-dialog").close();
    window.__okeyTest.renderMs.push(performance.now() - started);
    if (window.__okeyTest.renderMs.length > 50) window.__okeyTest.renderMs.shift();
  }

  /* The stage kept for this turn only, and only what still fits the frame. */
  function restage() {
    const hand = frame && frame.hand;
    if (!hand || !myTurn()) { stage = staging.emptyStage(); target = null; }
    else stage = staging.normalize(hand, stage);
    if (target !== null && hand && !(hand.melds || []).some((m) => m.id === target) && !stagedMeld(target)) target = null;
    view = hand ? project(hand) : null;
    if (hand && hand.rack) rack.reconcile(view.rack);
    window.__okeyTest.stage = stage;
  }
  function project(hand) {
    try { return staging.project(hand, stage); } catch (error) { stage = staging.emptyStage(); return staging.project(hand, stage); }
  }
  function stagedMeld(id) { return view && view.melds.some((m) => m.id === id && m.staged); }
  function setStage(next) {
    stage = next;
    restage();
    render();
  }

  // -- seats ---------------------------------------------------------------------------------------
  const PLAYERS = 4;
  function mySeat() { return frame && frame.hand && frame.hand.seat !== null && frame.hand.seat !== undefined ? frame.hand.seat : null; }
  function relSeat(seat) { const base = mySeat() !== null ? mySeat() : 0; return (seat - base + PLAYERS) % PLAYERS; }
  function seatBox(seat) { return root.querySelector(`.pbox[data-rel="${relSeat(seat)}"]`); }
  function discardBox(seat) { return root.querySelector(`.discard[data-rel="${relSeat(seat)}"]`); }
  function playerOf(seat) { return (frame.players || []).find((p) => p.seat === seat) || {}; }
  function playerName(seat) { return playerOf(seat).nickname || "?"; }
  const standing = makeStanding(() => frame);
  const { teams, teamOf } = standing;
  function amLeft() { const s = mySeat(); return s !== null && !!playerOf(s).left && frame.match && frame.match.status === "running"; }
  function amAway() { const s = mySeat(); return s !== null && !!playerOf(s).away && !playerOf(s).left && frame.match && frame.match.status === "running"; }
  function myTurn() { const hand = frame && frame.hand; return !!(hand && hand.rack && !hand.result && hand.turn === hand.seat && !amLeft()); }
  function isSeatedAtTable() { return !!(frame.table && (frame.table.seats || []).some((s) => s.nickname === me)); }
  function isSeated() {
    if (mySeat() !== null && frame.match && frame.match.status === "running" && !playerOf(mySeat()).left) return true;
    return isSeatedAtTable();
  }

  const lang = document.documentElement.lang || "tr";
  function extraBadges(seat, hand) {
    const marks = [];
    if (hand.opened && hand.opened[seat]) {
      marks.push([fmt(hand.opened[seat] === "pairs" ? T.m101_pairs_badge : T.m101_opened_badge, { total: hand.opening_totals[seat] }), "opened"]);
    }
    const paid = (hand.penalties || []).filter((p) => p.seat === seat).reduce((sum, p) => sum + p.points, 0);
    if (paid) marks.push([fmt(T.m101_penalty_badge, { n: paid }), "penalty"]);
    return marks;
  }
  const { renderPlayers, faceOf } = makeSeats({
    T, root, me, lang, currentFrame: () => frame, players: () => PLAYERS, seatBox, playerOf, teamOf,
    isOffline: (player) => isOffline(player), openCard: (nickname, bot) => openCard(nickname, bot), send, extraBadges,
  });

  // -- the move feed: the classic lines, and 101's turns told in words ----------------------------
  function describe101(event, { line, feedLine, textWithTile, name, mine, auto, okey }) {
    const say = (theirs, yours) => (mine ? T[yours] : T[theirs]);
    if (event.type === "turn") {
      if (event.took) line(textWithTile(say("feed_took", "my_took"), { name }, event.took, okey));
      else if (event.draw === "pile") line([document.createTextNode(fmt(say("feed_drew", "my_drew"), { name }))]);
      for (const action of event.actions || []) {
        if (action.type === "open") {
          const pairs = action.kind === "pairs";
          line([document.createTextNode(fmt(pairs ? say("f101_opened_pairs", "f101_my_opened_pairs") : say("f101_opened_melds", "f101_my_opened_melds"), { name, total: action.total }))]);
        } else if (action.type === "lay_down") line([document.createTextNode(fmt(say("f101_laid_down", "f101_my_laid_down"), { name }))]);
        else if (action.type === "lay_off") line(textWithTile(say("f101_laid_off", "f101_my_laid_off"), { name }, action.tile, okey));
        else if (action.type === "swap") line(textWithTile(say("f101_swapped", "f101_my_swapped"), { name }, action.tile, okey));
      }
      const finished = frame.hand && frame.hand.result && frame.hand.result.finisher === event.seat && frame.hand.move === event.move + 1;
      line(textWithTile((finished ? say("feed_finished", "my_finished") : say("feed_threw", "my_threw")) + auto, { name }, event.discard, okey));
      for (const penalty of event.penalties || []) {
        const key = penalty.reason === "okey_discard" ? "okey_discard" : "islek";
        const text = fmt(say(`f101_penalty_${key}`, `f101_my_penalty_${key}`), { name });
        feedLine([document.createTextNode(text)], { mine });
        $("feed").lastElementChild.classList.add("penalty");
        $("ticker").classList.add("penalty");
        if (mine) showMessage(text, "warning");
      }
    } else if (event.type === "hand_end") {
      const text = event.reason === "finished" ? fmt(T.f101_finished, { name: playerName(event.finisher) })
        : event.reason === "cancelled" ? T.f101_cancelled : T.f101_pile_out;
      feedLine([document.createTextNode(text)]);
    }
  }
  const soundOf = (event) => ({ turn: (event.penalties || []).length ? "indicator" : (event.actions || []).length ? "take" : "discard", hand_end: "finish" }[event.type]);
  const { feedHandStart, describeNewMoves, describePlayerChanges } = makeFeed({
    T, tiles, currentFrame: () => frame, mySeat, playerName, playerOf, beep, describeOther: describe101, soundOf,
  });
  // The ticker is red only while a penalty is its last line.
  new MutationObserver(() => {
    const last = $("feed").lastElementChild;
    $("ticker").classList.toggle("penalty", !!(last && last.classList.contains("penalty")));
  }).observe($("feed"), { childList: true });

  // -- the rack and the melds ------------------------------------------------------------------------
  const rack = makeRack({
    root, tiles, tableId,
    dropTargets: "#give-discard, .meld[data-meld]",
    onDrop: (tile, over) => {
      if (over.id === "give-discard") discard(tile);
      else if (over.dataset.meld) layOffTiles(Number(over.dataset.meld), [tile]);
    },
    onChange: () => { renderControls(); },
    onKey: (event, tile) => {
      if (event.key === "Delete" || event.key === "d" || event.key === "D") { event.preventDefault(); discard(tile); }
      else if (event.key === "p" || event.key === "P") { event.preventDefault(); makeMeld(); }
    },
  });
  const meldsArea = makeMeldsArea({
    T, tiles,
    onMeldTap: (id) => meldTapped(id),
    onMeldKey: (event, id) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); meldTapped(id); } },
    onDraftRemove: (index) => act(() => staging.removeDraft(frame.hand, stage, index)),
  });

  // -- rendering -----------------------------------------------------------------------------------
  function render() {
    const hand = frame.hand;
    $("centre").classList.toggle("centre--waiting", !hand);
    $("pile-count").textContent = hand ? String(hand.pile_count) : "–";
    $("pile").setAttribute("aria-label", hand ? fmt(T.pile_label, { n: hand.pile_count }) : T.pile_label_empty);
    const okeyKey = hand ? `${hand.id}:${hand.okey}` : "";
    if ($("okey").dataset.key !== okeyKey) {
      $("okey").dataset.key = okeyKey;
      $("okey").replaceChildren(...(hand ? [tiles.tile(hand.okey, hand.okey)] : []));
    }
    renderInfo();
    renderPlayers();
    renderDiscards();
    renderMelds();
    renderRack();
    renderControls();
    renderHistory();
    startClock();
    $("left-banner").hidden = !amLeft();
    $("away-banner").hidden = !amAway();
    $("btn-show-result").hidden = !(hand && hand.result);
    $("btn-leave").hidden = !isSeated();
    root.classList.toggle("my-turn", myTurn());
  }

  function textSpan(className, text) { const node = document.createElement("span"); node.className = className; node.textContent = text; return node; }
  function renderInfo() {
    const hand = frame.hand;
    const info = $("hand-info");
    const parts = [];
    if (hand && frame.match) parts.push(textSpan("hand-no", fmt(T.m101_hand_of, { n: hand.number + 1, total: frame.match.hands || "?" })));
    if (hand && teams()) {
      const scores = (frame.match.live_scores || frame.match.scores) || [];
      const mine = teamOf(hand.seat);
      const order = mine === 1 ? [1, 0] : [0, 1];
      const teamName = (team) => teams()[team].map(playerName).join(" & ");
      const sum = (team) => teams()[team].reduce((total, seat) => total + (scores[seat] || 0), 0);
      parts.push(textSpan("team-scores", order.map((team) => `${mine < 0 ? teamName(team) : (team === mine ? T.team_us : T.team_them)} ${num(sum(team))}`).join(" · ")));
    }
    info.replaceChildren(...parts.flatMap((part, i) => (i ? [textSpan("sep", " · "), part] : [part])));
    info.toggleAttribute("data-teams", !!(hand && teams()));
    info.title = hand && hand.commitment ? `${T.commitment_title} ${hand.commitment}` : "";
  }

  function canDraw() { const hand = frame.hand; return myTurn() && !pending && (hand.actions || []).includes("draw") && !stage.took; }
  function canTake() { const hand = frame.hand; return myTurn() && !pending && !hand.drawn && !hand.first_turn && !!hand.available_discard && !stage.took; }
  function hasDrawn() { const hand = frame.hand; return myTurn() && (hand.drawn || hand.first_turn || !!stage.took); }

  function renderDiscards() {
    const hand = frame.hand;
    for (const pile of root.querySelectorAll(".discard")) { pile.replaceChildren(); pile.classList.remove("available", "taken", "drop-zone"); }
    if (!hand) return;
    const okey = hand.okey;
    const previous = hand.seat !== null ? (hand.seat + PLAYERS - 1) % PLAYERS : null;
    for (let seat = 0; seat < PLAYERS; seat++) {
      const pile = discardBox(seat);
      pile.dataset.owner = String(seat);
      const top = hand.discard_tops[seat];
      if (top) pile.append(tiles.tile(top, okey));
      pile.setAttribute("aria-label", top ? fmt(T.discard_of, { name: playerName(seat), tile: tiles.words(top, okey) }) : fmt(T.discard_empty, { name: playerName(seat) }));
      if (seat === previous && stage.took) pile.classList.add("taken");
    }
    if (previous !== null && canTake()) discardBox(previous).classList.add("available");
    const give = $("give-discard");
    if (hand.seat !== null && hasDrawn()) {
      give.classList.add("drop-zone");
      const last = view && view.rack.length === 1;
      give.dataset.label = last ? T.b101_finish : T.b101_discard;
      give.setAttribute("aria-label", last ? T.m101_finish_label : T.m101_discard_label);
    } else delete give.dataset.label;
  }

  function seatOrder() {
    const base = mySeat() !== null ? mySeat() : 0;
    return [0, 1, 2, 3].map((i) => (base + i) % PLAYERS);
  }

  function renderMelds() {
    const hand = frame.hand;
    if (!hand) { $("melds").replaceChildren(); return; }
    const okey = hand.okey;
    const drafts = stage.drafts.map((draft) => ({ ...draft, value: readMeld(draft.tiles, okey, draft.kind).value }));
    meldsArea.render({ hand, view, drafts, order: seatOrder(), playerName, target, mine: hand.rack ? hand.seat : null });
    if (okey) root.dataset.melds = String(view.melds.length);
  }

  function renderRack() {
    const hand = frame.hand;
    $("rack").hidden = !(hand && hand.rack);
    if (!hand || !hand.rack) return;
    rack.render({ okey: hand.okey, staged: view.fresh, drawn: myTurn() ? hand.drawn_tile : null });
  }

  function show(id, visible, enabled) {
    const button = $(id);
    button.hidden = !visible;
    if (enabled !== undefined) button.disabled = !enabled;
  }

  function renderControls() {
    const hand = frame && frame.hand;
    const playing = !!(hand && hand.rack && !hand.result) && !amLeft();
    const mine = playing && myTurn() && !pending;
    const picked = rack.pickedTiles();
    const opened = view ? view.opened : null;
    show("btn-take", mine && canTake(), true);
    show("btn-give-back", mine && !!stage.took, true);
    show("btn-meld", mine, picked.length >= 2);
    show("btn-open", mine && !opened, stage.drafts.length > 0);
    show("btn-lay-off", mine && !!opened, picked.length >= 1 && target !== null);
    const swap = mine && !!opened && picked.length === 1 && target !== null && staging.canSwap(hand, stage, target, picked[0]);
    show("btn-swap", swap, true);
    show("btn-undo", mine && !staging.isEmpty(stage), true);
    show("btn-discard", playing, mine && hasDrawn() && picked.length === 1);
    $("btn-discard").textContent = view && view.rack.length === 1 && mine ? T.b101_finish : T.b101_discard;
    show("btn-sort-runs", playing);
    show("btn-sort-pairs", playing);
    $("pile").disabled = !canDraw();
    $("pile").classList.toggle("available", canDraw());
    renderCounter(mine, picked);
    renderLobbyButtons();
  }

  /* "Açış: 87 / 101" while the opening is composed; the picked tiles' meld counted in as "+36". */
  function renderCounter(mine, picked) {
    const counter = $("counter101");
    const hand = frame.hand;
    if (!mine || !view || view.opened) { counter.hidden = true; return; }
    let preview = null;
    if (picked.length >= 2) {
      try { preview = staging.makeMeld(hand, stage, picked); } catch (e) { preview = null; }
    }
    const shown = preview && preview.drafts.length ? preview : stage;
    if (!shown.drafts.length) { counter.hidden = true; return; }
    const summary = staging.draftSummary(hand, shown);
    const base = stage.drafts.length ? staging.draftSummary(hand, stage) : { total: 0 };
    const extra = shown === preview ? summary.total - (base.kind === summary.kind ? base.total : 0) : 0;
    const text = fmt(summary.kind === "pairs" ? T.m101_counter_pairs : T.m101_counter_melds, { total: summary.total, needed: summary.needed });
    counter.textContent = extra > 0 && shown === preview && stage.drafts.length ? `${text} (+${extra})` : text;
    counter.hidden = false;
    counter.classList.toggle("enough", summary.total >= summary.needed && shown === stage);
    counter.classList.toggle("preview", shown === preview);
    counter.classList.toggle("mixed", summary.kind === "mixed");
  }

  function renderLobbyButtons() {
    const seats = (frame.table && frame.table.seats) || [];
    const mine = seats.find((s) => s.nickname === me);
    const running = frame.match && frame.match.status === "running";
    const matchOver = !!(frame.match && frame.match.status !== "running");
    const lobby = !running && !matchOver;
    $("btn-ready").hidden = !lobby || !mine || mine.ready;
    const seated = seats.filter((s) => s.nickname).length;
    const withBots = seated > 0 && seated < seats.length;
    $("btn-start").hidden = !lobby || !frame.table || !frame.table.is_owner || seated === 0;
    $("btn-start").textContent = withBots ? T.start_with_bots : T.start_match;
    $("btn-start").dataset.bots = String(withBots);
  }

  function renderHistory() {
    const hand = frame.hand;
    const box = $("history-box");
    box.hidden = !(hand && hand.discard_history);
    if (box.hidden) return;
    $("history").replaceChildren(...hand.discard_history.map((entry) => {
      const tile = tiles.tile(entry.tile, hand.okey);
      tile.title = `${playerName(entry.seat)}: ${tiles.words(entry.tile, hand.okey)}`;
      return tile;
    }));
  }

  // -- the clock (static/js/table/turnclock.js, shared with the other table that composes a turn) ---
  const turnClock = makeTurnClock({
    root, line: () => $("clock"), T, fmt, currentFrame: () => frame, playerOf: (seat) => playerOf(seat),
    playerName: (seat) => playerName(seat), amLeft: () => amLeft(), beep: (kind) => beep(kind),
    reducedMotion: () => reducedMotion,
  });
  const startClock = turnClock.start;
  const paintSeatClock = turnClock.paint;

  function alertTurn() {
    const hand = frame.hand;
    const mine = myTurn();
    setTitle(mine);
    if (!mine) { myTurnFor = null; return; }
    if (myTurnFor === hand.id) return;
    myTurnFor = hand.id;
    beep("turn");
    vibrate();
    if (!hand.drawn && !hand.first_turn) showMessage(T.m101_hint_draw, "info");
  }

  // -- messages --------------------------------------------------------------------------------------
  function showMessage(text, kind) { const box = $("messages"); box.textContent = text; box.dataset.kind = kind; }
  function clearMessage() { showMessage("", ""); }
  function reason(error) {
    if (error && error.reason && T[error.reason]) return fmt(T[error.reason], error.values || {});
    throw error;
  }
  function showError(error) {
    pending = false;
    if (error.code === "stale") return;  // a fresh state follows; the stage is kept for it
    showMessage(error.message, "error");
    if (frame) renderControls();
  }

  // -- the player's turn -------------------------------------------------------------------------------
  /* One staged step: the stage changes, or the reason it cannot is said in words (nothing sent). */
  function act(step) {
    if (!frame || !frame.hand || !myTurn() || pending) return false;
    try {
      setStage(step());
      clearMessage();
      return true;
    } catch (error) {
      showMessage(reason(error), "error");
      return false;
    }
  }

  function drawFromPile() {
    if (stage.took && myTurn()) { showMessage(T.give_back_first, "error"); return; }
    if (!canDraw()) return;
    pending = true;
    send("draw", { source: "pile" });
    renderControls();
  }
  function takeDiscard() {
    if (!canTake()) return;
    if (act(() => staging.takeDiscard(frame.hand, stage))) {
      beep("take");
      showMessage(fmt(T.m101_took, { tile: tiles.words(stage.took, frame.hand.okey) }), "info");
    }
  }
  function makeMeld() {
    const picked = rack.pickedTiles();
    if (picked.length < 2) { showMessage(T.select_tiles, "error"); return; }
    if (act(() => staging.makeMeld(frame.hand, stage, picked))) rack.clearPicked();
    renderControls();
  }
  function layOffTiles(meldId, list) {
    if (!list.length) { showMessage(T.select_meld, "info"); return; }
    const done = act(() => list.reduce((next, tile) => staging.layOff(frame.hand, next, meldId, tile), stage));
    if (done) { rack.clearPicked(); target = null; render(); }
  }
  function meldTapped(id) {
    if (!myTurn()) return;
    const picked = rack.pickedTiles();
    if (picked.length) { layOffTiles(id, picked); return; }
    target = target === id ? null : id;
    render();
    if (target !== null) showMessage(T.select_meld, "info");
  }
  function swap() {
    const picked = rack.pickedTiles();
    if (picked.length !== 1 || target === null) { showMessage(T.select_one, "error"); return; }
    if (act(() => staging.layOff(frame.hand, stage, target, picked[0], "swap"))) { rack.clearPicked(); target = null; render(); }
  }

  /* The discard sends the whole turn; before it, what would cost 101 is said once. */
  function discard(tile) {
    const hand = frame && frame.hand;
    if (!tile || !hand || !myTurn() || pending) return;
    if (!hasDrawn()) { showMessage(T.must_draw_first, "error"); return; }
    if (stage.drafts.length) { showMessage(T.drafts_unopened, "error"); return; }
    if (stage.took && !view.placed.includes(stage.took)) {
      showMessage(fmt(T.took_unused, { tile: tiles.words(stage.took, hand.okey) }), "error");
      return;
    }
    if (!view.rack.includes(tile)) { showMessage(T.stage_not_in_rack, "error"); return; }
    const finishing = view.rack.length === 1;
    const rules = hand.rules || {};
    const key = `${hand.id}:${hand.move}:${tile}:${stage.actions.length}`;
    let warning = null;
    if (!finishing && tile === hand.okey && rules.okey_discard_penalty !== false) warning = T.okey_warning_101;
    else if (!finishing && rules.islek_penalty !== false && isIslek(tile, view.melds.filter((m) => m.kind !== "pair"), hand.okey)) warning = T.islek_warning;
    if (warning && warnedFor !== key) { warnedFor = key; showMessage(warning, "warning"); return; }
    warnedFor = null;
    pending = true;
    send("turn", staging.turnFrame(stage, tile));
    rack.clearPicked();
    beep("discard");
    renderControls();
  }

  // -- buttons and taps ---------------------------------------------------------------------------------
  $("pile").addEventListener("click", drawFromPile);
  $("btn-take").addEventListener("click", takeDiscard);
  $("take-discard").addEventListener("click", () => { if (canTake()) takeDiscard(); });
  $("take-discard").addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); takeDiscard(); } });
  $("btn-give-back").addEventListener("click", () => act(() => staging.giveBack(frame.hand, stage)));
  $("btn-meld").addEventListener("click", makeMeld);
  $("btn-open").addEventListener("click", () => act(() => staging.openHand(frame.hand, stage)));
  $("btn-lay-off").addEventListener("click", () => { if (target === null) showMessage(T.select_meld, "error"); else layOffTiles(target, rack.pickedTiles()); });
  $("btn-swap").addEventListener("click", swap);
  $("btn-undo").addEventListener("click", () => act(() => staging.undo(frame.hand, stage)));
  $("btn-discard").addEventListener("click", () => {
    const picked = rack.pickedTiles();
    if (picked.length !== 1) { showMessage(T.select_one, "error"); return; }
    discard(picked[0]);
  });
  $("give-discard").addEventListener("click", () => { const picked = rack.pickedTiles(); if (picked.length === 1) discard(picked[0]); });
  $("btn-sort-runs").addEventListener("click", () => { rack.sortBy("runs"); renderRack(); });
  $("btn-sort-pairs").addEventListener("click", () => { rack.sortBy("pairs"); renderRack(); });
  $("btn-ready").addEventListener("click", () => send("ready"));
  $("btn-start").addEventListener("click", () => send("start", { bots: $("btn-start").dataset.bots === "true" }));

  // -- end of hand and match ----------------------------------------------------------------------
  const { showResult } = makeScoreSheet({
    T, root, currentFrame: () => frame, mySeat, playerName, standing, isSeatedAtTable, nextHandSeconds: NEXT_HAND_SECONDS,
  });
  $("result-close").addEventListener("click", () => $("result-dialog").close());
  $("btn-show-result").addEventListener("click", () => showResult());
  $("btn-rematch").addEventListener("click", () => { send("rematch"); $("btn-rematch").disabled = true; showMessage(T.rematch_waiting, "info"); });
  $("btn-result-leave").addEventListener("click", () => standUp());

  // -- leaving and coming back ------------------------------------------------------------------------
  let leaving = false;
  function standUp() {
    const running = frame && frame.match && frame.match.status === "running" && mySeat() !== null && !amLeft();
    if (running) { $("leave-dialog").showModal(); return; }
    if (send("leave")) { leaving = true; setTimeout(() => { location.href = root.dataset.roomUrl; }, 1500); }
    else location.href = root.dataset.roomUrl;
  }
  $("btn-leave").addEventListener("click", standUp);
  $("leave-cancel").addEventListener("click", () => $("leave-dialog").close());
  $("leave-confirm").addEventListener("click", () => { send("leave_match"); $("leave-dialog").close(); });
  $("btn-return").addEventListener("click", () => send("return_to_match"));
  $("btn-back").addEventListener("click", () => send("i_am_back"));

  // -- the drawer, chat, mutes, who is online, the player card (shared) -----------------------------
  const { addChat, showCard, showWatchers, showOnline, isOffline, openCard } = makeChat({
    T, root, me, lang, muted, send, currentFrame: () => frame, renderPlayers, paintSeatClock, faceOf, showMessage,
  });

  window.__okeyTest.applyFrame = (next) => applyFrame(next);
  setInterval(() => send("watchers"), 30000);
  live.connect();
})();
