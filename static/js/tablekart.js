/* The Kart Okey table page (RULES.md "Kart Okey (source 004: a 52-card rummy)"; docs/protocol.md,
   "101 Okey tables": Kart follows the same two-message turn): renders the frames the server builds
   for this seat (`hand` is games/engine/kart/hand.py `view_for`) and sends the player's turn. The
   server is the only authority. A turn is a stock draw (a message of its own: the card must be
   seen), then everything else staged on this page — taking the discard pile's top, melds ("Per
   aç" on the picked cards), lay-offs onto any meld on the table (a tap on a meld with a picked
   card, or dragging the card onto it) — drawn dashed and sent whole, once, with the discard (the
   "At" button, or a card dropped on the discard pile). A refused turn is said in the server's words
   and every staged card comes back to the hand, in the player's order.

   Shared with the other tables: the socket, the seats, the move feed, the chat and the player
   card, the sounds (static/js/table/*.js), and 101's melds area (table/okey101/meldsarea.js, with
   the cards' look). Its own modules are under table/kart/: cards.js (cards drawn as cards, named
   in words), melds.js (the engine's meld reading mirrored), stage.js (the staged turn), hand.js
   (the row of cards, reordered by dragging, sorted by suit or rank) and scoresheet.js (the round's
   cards left and scores, the table's totals and prizes).

   No card notation ever reaches visible text: cards are drawn as cards and named in words. */
import { makeChat } from "./table/chat.js";
import { makeFeed } from "./table/feed.js";
import { makeFeedback } from "./table/feedback.js";
import { fmt, num } from "./table/format.js";
import { handValue, kartCards } from "./table/kart/cards.js";
import { makeHand } from "./table/kart/hand.js";
import { makeScoreSheet } from "./table/kart/scoresheet.js";
import * as staging from "./table/kart/stage.js";
import { makeMeldsArea } from "./table/okey101/meldsarea.js";
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
  // The round's end is announced on the felt first; the result panel opens after it.
  const ANNOUNCE_MS = 1600;

  const testLog = [];
  window.__okeyTest = { log: testLog, frames: 0, renderMs: [], sent: [] };
  const record = (kind, detail) => { testLog.push({ kind, detail, at: Date.now() }); if (testLog.length > 200) testLog.shift(); };

  // -- settings, remembered in this browser (as the other tables') --------------------------------
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
  const cards = kartCards(T);

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
  let pending = false;                 // a turn or a draw is on its way: no second one
  let resultShownFor = null;
  let myTurnFor = null;
  let announceTimer = null;
  let resultTimer = null;

  function applyFrame(next) {
    const started = performance.now();
    window.__okeyTest.lastFrame = next;
    const previous = frame;
    if (!next.table && previous && previous.table) next.table = previous.table;
    const hand = next.hand;
    if (hand) {
      // What the shared seat boxes read: a phase, and each seat's count of pieces.
      hand.phase = hand.result ? "over" : "play";
      hand.rack_counts = hand.card_counts || [];
    }
    frame = next;
    window.__okeyTest.frames += 1;
    root.dataset.move = hand ? String(hand.move) : "";
    root.dataset.phase = hand ? hand.phase : "none";
    root.dataset.seat = hand && hand.seat !== null ? String(hand.seat) : "";
    root.dataset.players = String(players());
    const newHand = hand && (!previous || !previous.hand || previous.hand.id !== hand.id);
    const moved = !previous || !previous.hand || !hand || previous.hand.id !== hand.id || previous.hand.move !== hand.move;
    if (moved) { clearMessage(); pending = false; }
    const drewNow = hand && previous && previous.hand && previous.hand.id === hand.id && !previous.hand.drawn && hand.drawn;
    if (newHand) { handRow.load(hand.id); feedHandStart(hand); stage = staging.emptyStage(); hideAnnounce(); }
    restage();
    render();
    describeNewMoves(hand, next);
    describePlayerChanges(previous, next);
    alertTurn();
    if (drewNow && myTurn() && staging.isEmpty(stage)) showMessage(T.k_hint_select, "info");
    if (drewNow && myTurn()) tutorial("drew");
    if (leaving && !isSeatedAtTable()) location.href = root.dataset.roomUrl;
    if (hand && hand.result && resultShownFor !== hand.id) {
      resultShownFor = hand.id;
      if (hand.result.winner === mySeat() && mySeat() !== null) tutorial(hand.result.rummy ? "went_rummy" : "went_out");
      announce(!!previous && !newHand);
    }
    if (hand && !hand.result && $("result-dialog").open) $("result-dialog").close();
    window.__okeyTest.renderMs.push(performance.now() - started);
    if (window.__okeyTest.renderMs.length > 50) window.__okeyTest.renderMs.shift();
  }

  function restage() {
    const hand = frame && frame.hand;
    if (!hand || !myTurn()) stage = staging.emptyStage();
    else stage = staging.normalize(hand, stage);
    view = hand ? project(hand) : null;
    if (hand && hand.hand) handRow.reconcile([...view.hand, ...view.placed]);
    window.__okeyTest.stage = stage;
  }
  function project(hand) {
    try { return staging.project(hand, stage); } catch (error) { stage = staging.emptyStage(); return staging.project(hand, stage); }
  }
  function setStage(next) { stage = next; restage(); render(); }

  // -- seats: 2, 3 or 4 players; the others along the top in play order ---------------------------
  function players() {
    if (frame && frame.hand && frame.hand.players) return frame.hand.players;
    const rules = frame && frame.match && frame.match.rules;
    if (rules && rules.players) return rules.players;
    return (frame && frame.table && (frame.table.seats || []).length) || 4;
  }
  function mySeat() { return frame && frame.hand && frame.hand.seat !== null && frame.hand.seat !== undefined ? frame.hand.seat : null; }
  // The next player is at your right (rel 1), then across (2), then at your left (3); a table of
  // two puts the other player across, a table of three at your right and left.
  const REL = { 2: [0, 2], 3: [0, 1, 3], 4: [0, 1, 2, 3] };
  function relSeat(seat) {
    const count = players();
    const base = mySeat() !== null ? mySeat() : 0;
    return (REL[count] || REL[4])[(seat - base + count) % count];
  }
  function seatBox(seat) { return root.querySelector(`.pbox[data-rel="${relSeat(seat)}"]`); }
  function playerOf(seat) { return (frame.players || []).find((p) => p.seat === seat) || {}; }
  function playerName(seat) { return playerOf(seat).nickname || "?"; }
  const standing = makeStanding(() => frame);
  const { teamOf } = standing;
  function amLeft() { const s = mySeat(); return s !== null && !!playerOf(s).left && frame.match && frame.match.status === "running"; }
  function amAway() { const s = mySeat(); return s !== null && !!playerOf(s).away && !playerOf(s).left && frame.match && frame.match.status === "running"; }
  function myTurn() { const hand = frame && frame.hand; return !!(hand && hand.hand && !hand.result && hand.turn === hand.seat && !amLeft()); }
  function isSeatedAtTable() { return !!(frame.table && (frame.table.seats || []).some((s) => s.nickname === me)); }
  function isSeated() {
    if (mySeat() !== null && frame.match && frame.match.status === "running" && !playerOf(mySeat()).left) return true;
    return isSeatedAtTable();
  }

  const lang = document.documentElement.lang || "tr";
  function extraBadges(seat, hand) {
    return hand.melded && hand.melded[seat] ? [[T.k_melded_badge, "opened"]] : [];
  }
  const { renderPlayers, faceOf } = makeSeats({
    T, root, me, lang, currentFrame: () => frame, players, seatBox, playerOf, teamOf,
    isOffline: (player) => isOffline(player), openCard: (nickname, bot) => openCard(nickname, bot), send, extraBadges,
  });

  // -- the move feed --------------------------------------------------------------------------------
  function describeKart(event, { line, feedLine, textWithTile, name, mine, auto }) {
    const say = (theirs, yours) => (mine ? T[yours] : T[theirs]);
    const cardsLine = (template, list) => {
      const [before, after] = template.split("%(cards)s");
      const parts = [document.createTextNode(fmt(before, { name }))];
      for (const card of list) parts.push(cards.tile(card));
      if (after !== undefined) parts.push(document.createTextNode(fmt(after, { name })));
      return parts;
    };
    if (event.type === "turn") {
      if (event.took) line(textWithTile(say("k_feed_took", "k_my_took"), { name }, event.took));
      else if (event.draw === "stock") line([document.createTextNode(fmt(say("feed_drew", "my_drew"), { name }))]);
      for (const action of event.actions || []) {
        if (action.type === "meld") line(cardsLine(action.kind === "set" ? say("k_feed_set", "k_my_set") : say("k_feed_run", "k_my_run"), action.cards));
        else if (action.type === "lay_off") line(textWithTile(say("k_feed_laid_off", "k_my_laid_off"), { name }, action.card));
      }
      const result = frame.hand && frame.hand.result;
      const out = result && result.winner === event.seat && frame.hand.move === event.move + 1;
      line(textWithTile((out ? say("k_feed_out", "k_my_out") : say("k_feed_threw", "k_my_threw")) + auto, { name }, event.discard));
    } else if (event.type === "reshuffle") {
      feedLine([document.createTextNode(T.k_feed_reshuffle)]);
    } else if (event.type === "hand_end") {
      const text = event.winner === null || event.winner === undefined ? T.k_stock_out_end
        : event.winner === mySeat() ? (event.rummy ? T.k_you_rummy : T.k_you_went_out)
        : fmt(event.rummy ? T.k_rummy_by : T.k_went_out_by, { name: playerName(event.winner) });
      feedLine([document.createTextNode(text)]);
      $("feed").lastElementChild.classList.add(event.rummy ? "rummy" : "out");
    }
  }
  const soundOf = (event) => ({ turn: (event.actions || []).length ? "take" : "discard", hand_end: "finish", reshuffle: "draw" }[event.type]);
  const { feedHandStart, describeNewMoves, describePlayerChanges } = makeFeed({
    T, tiles: cards, currentFrame: () => frame, mySeat, playerName, playerOf, beep, describeOther: describeKart, soundOf,
  });

  // -- the hand and the melds ---------------------------------------------------------------------
  const handRow = makeHand({
    cards, tableId,
    dropTargets: "#discard-pile, .meld[data-meld]",
    onDrop: (card, over) => {
      if (over.id === "discard-pile") discard(card);
      else if (over.dataset.meld) layOff(Number(over.dataset.meld), [card]);
    },
    onChange: () => { renderControls(); },
    onKey: (event, card) => {
      if (event.key === "Delete" || event.key === "d" || event.key === "D") { event.preventDefault(); discard(card); }
      else if (event.key === "p" || event.key === "P") { event.preventDefault(); makeMeld(); }
    },
  });
  const lookKart = {
    you: T.k_you,
    staged: T.k_staged,
    meldStaged: T.k_meld_staged,
    removeDraft: "",
    pieces: (meld) => meld.cards.map((card) => ({ key: card, face: cards.card(card) })),
    label: (owner, meld) => fmt(meld.kind === "set" ? T.k_set_label : T.k_run_label, { name: owner, cards: meld.cards.map(cards.words).join(", "), value: meld.value }),
    headTotal: (seat, { melds }) => ({ text: fmt(T.k_melds_value, { n: melds.reduce((sum, meld) => sum + meld.value, 0) }), staged: melds.some((m) => m.staged) }),
    showValue: () => true,
    draftValue: () => false,
    empty: () => [T.k_no_melds, T.k_how_to_meld],
  };
  const meldsArea = makeMeldsArea({
    T, tiles: cards, look: lookKart,
    onMeldTap: (id) => meldTapped(id),
    onMeldKey: (event, id) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); meldTapped(id); } },
    onDraftRemove: () => {},
  });

  // -- rendering -----------------------------------------------------------------------------------
  function render() {
    const hand = frame.hand;
    $("centre").classList.toggle("centre--waiting", !hand);
    renderInfo();
    renderPlayers();
    renderPiles();
    renderMelds();
    renderHand();
    renderControls();
    startClock();
    $("left-banner").hidden = !amLeft();
    $("away-banner").hidden = !amAway();
    $("btn-show-result").hidden = !(hand && hand.result);
    $("btn-leave").hidden = !isSeated();
    root.classList.toggle("my-turn", myTurn());
  }

  function textSpan(className, text) { const node = document.createElement("span"); node.className = className; node.textContent = text; return node; }
  function roundText() {
    const hand = frame.hand;
    if (!hand || !frame.match) return "";
    return fmt(T.k_round_of, { n: hand.number + 1, total: frame.match.rounds || "?" });
  }
  function renderInfo() {
    const hand = frame.hand;
    const info = $("hand-info");
    info.replaceChildren(...(hand && frame.match ? [textSpan("hand-no", roundText())] : []));
    info.title = hand && hand.commitment ? `${T.commitment_title} ${hand.commitment}` : "";
    $("round-info").textContent = roundText();
    $("round-info").hidden = !hand;
  }

  function canDraw() { const hand = frame.hand; return myTurn() && !pending && (hand.actions || []).includes("draw") && !hand.drawn && !stage.took; }
  function canTake() { const hand = frame.hand; return myTurn() && !pending && !hand.drawn && !!hand.discard_top && !stage.took; }
  function hasDrawn() { const hand = frame.hand; return myTurn() && (hand.drawn || !!stage.took); }

  function renderPiles() {
    const hand = frame.hand;
    const stock = $("stock");
    const count = hand ? hand.stock_count : null;
    $("stock-count").textContent = hand ? String(count) : "–";
    stock.setAttribute("aria-label", hand ? fmt(T.k_stock_label, { n: count }) : T.k_stock);
    stock.disabled = !canDraw();
    stock.classList.toggle("available", canDraw());
    stock.classList.toggle("empty", !!hand && !count);
    stock.dataset.outs = hand ? String(hand.stock_outs || 0) : "0";
    const pile = $("discard-pile");
    const top = hand ? hand.discard_top : null;
    const key = `${top}|${hand ? hand.discard_count : ""}`;
    if (pile.dataset.key !== key) {
      pile.dataset.key = key;
      $("discard-top").replaceChildren(...(top ? [cards.card(top)] : []));
    }
    $("discard-count").textContent = hand && hand.discard_count > 1 ? fmt(T.k_discard_count, { n: hand.discard_count }) : "";
    pile.classList.toggle("available", !!hand && canTake());
    pile.classList.toggle("taken", !!stage.took);
    const discarding = !!hand && hasDrawn();
    pile.classList.toggle("drop-zone", discarding);
    const last = view && view.hand.length === 1;
    if (discarding) pile.dataset.label = last ? T.k_go_out : T.k_discard;
    else delete pile.dataset.label;
    let label = top ? fmt(T.k_discard_top, { card: cards.words(top) }) : T.k_discard_empty;
    if (canTake()) label = fmt(T.k_take_label, { card: cards.words(top) });
    else if (discarding) label = last ? T.k_go_out_label : T.k_discard_label;
    pile.setAttribute("aria-label", label);
    pile.tabIndex = canTake() || discarding || stage.took ? 0 : -1;
  }

  function seatOrder() {
    const base = mySeat() !== null ? mySeat() : 0;
    return Array.from({ length: players() }, (_, i) => (base + i) % players());
  }
  function renderMelds() {
    const hand = frame.hand;
    if (!hand) { $("melds").replaceChildren(); return; }
    meldsArea.render({ hand, view, drafts: [], order: seatOrder(), playerName, target: null, mine: hand.hand ? hand.seat : null });
    root.dataset.melds = String(view.melds.length);
  }

  function renderHand() {
    const hand = frame.hand;
    const has = !!(hand && hand.hand);
    $("rack").hidden = !has;
    if (!has) return;
    handRow.render({ staged: view.fresh, hidden: view.placed, drawn: myTurn() ? hand.drawn_card : null });
  }

  function show(id, visible, enabled) {
    const button = $(id);
    button.hidden = !visible;
    if (enabled !== undefined) button.disabled = !enabled;
  }

  function renderControls() {
    const hand = frame && frame.hand;
    const playing = !!(hand && hand.hand && !hand.result) && !amLeft();
    const mine = playing && myTurn() && !pending;
    const picked = handRow.pickedCards();
    show("btn-meld", mine, picked.length >= 3 && hasDrawn());
    show("btn-undo", mine && !staging.isEmpty(stage), true);
    show("btn-discard", playing, mine && hasDrawn() && picked.length === 1);
    $("btn-discard").textContent = view && view.hand.length === 1 && mine ? T.k_go_out : T.k_discard;
    show("btn-sort-suit", playing);
    show("btn-sort-rank", playing);
    const counter = $("counterk");
    counter.hidden = !playing;
    if (playing) {
      const value = handValue(view.hand);
      counter.textContent = fmt(T.k_hand_value, { n: value });
      counter.title = T.k_hand_value_title;
    }
    renderLobbyButtons();
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
    const key = `${hand.id}:${hand.turn}:${hand.move}`;
    if (myTurnFor && myTurnFor.startsWith(`${hand.id}:`) && hand.drawn) return;
    if (myTurnFor === key) return;
    myTurnFor = key;
    if (hand.drawn) return;
    beep("turn");
    vibrate();
    showMessage(T.k_hint_draw, "info");
  }

  /* The practice table's guided hand moves on when the player does what a step teaches
     (games/templates/games/_practice_bar.html, static/js/practice.js: the okey:tutorial event). */
  function tutorial(moment) {
    document.dispatchEvent(new CustomEvent("okey:tutorial", { detail: { moment } }));
  }

  // -- going out, going rummy: a banner on the felt, then the result panel ------------------------
  function announce(live) {
    const hand = frame.hand;
    const result = hand.result;
    const banner = $("announce");
    banner.textContent = headline(result, mySeat());
    banner.dataset.kind = result.winner === null || result.winner === undefined ? "stock_out" : result.rummy ? "rummy" : "out";
    banner.hidden = false;
    clearTimeout(announceTimer);
    clearTimeout(resultTimer);
    const wait = live ? ANNOUNCE_MS : 0;
    if (live && result.winner === mySeat()) vibrate();
    resultTimer = setTimeout(() => { if (frame.hand && frame.hand.id === hand.id && frame.hand.result) showResult(); }, wait);
    announceTimer = setTimeout(hideAnnounce, wait + 4000);
  }
  function hideAnnounce() { $("announce").hidden = true; }

  // -- messages --------------------------------------------------------------------------------------
  function showMessage(text, kind) { const box = $("messages"); box.textContent = text; box.dataset.kind = kind; }
  function clearMessage() { showMessage("", ""); }
  function reason(error) {
    if (error && error.reason && T[error.reason]) return fmt(T[error.reason], error.values || {});
    throw error;
  }
  /* The server refused: its words, and every staged card back in the hand (the order kept). */
  function showError(error) {
    pending = false;
    if (error.code === "stale") return;  // a fresh state follows
    stage = staging.emptyStage();
    if (frame && frame.hand) { restage(); render(); }
    showMessage(error.message, "error");
    record("error", error.code);
  }

  // -- the player's turn -------------------------------------------------------------------------------
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

  function drawFromStock() {
    if (!myTurn() || pending) return;
    if (stage.took) { showMessage(T.k_give_back_first, "error"); return; }
    if (!canDraw()) return;
    pending = true;
    send("draw", { source: "stock" });
    renderControls();
    renderPiles();
  }
  function takeDiscard() {
    if (!canTake()) return;
    if (act(() => staging.takeDiscard(frame.hand, stage))) {
      beep("take");
      showMessage(fmt(T.k_took, { card: cards.words(stage.took) }), "info");
      tutorial("took");
    }
  }
  function makeMeld() {
    const picked = handRow.pickedCards();
    if (!hasDrawn()) { showMessage(T.k_draw_first, "error"); return; }
    if (picked.length < 3) { showMessage(T.k_select_meld, "error"); return; }
    if (act(() => staging.meld(frame.hand, stage, picked))) { handRow.clearPicked(); tutorial("melded"); }
    renderControls();
  }
  function layOff(meldId, list) {
    if (!hasDrawn()) { showMessage(T.k_draw_first, "error"); return; }
    if (!list.length) { showMessage(T.k_select_layoff, "info"); return; }
    if (act(() => list.reduce((next, card) => staging.layOff(frame.hand, next, meldId, card), stage))) {
      handRow.clearPicked();
      tutorial("laid_off");
    }
  }
  function meldTapped(id) {
    if (!myTurn()) return;
    layOff(id, handRow.pickedCards());
  }

  /* The discard sends the whole turn. */
  function discard(card) {
    const hand = frame && frame.hand;
    if (!card || !hand || !myTurn() || pending) return;
    if (!hasDrawn()) { showMessage(T.k_draw_first, "error"); return; }
    if (!view.hand.includes(card)) { showMessage(T.k_not_in_hand, "error"); return; }
    if (stage.took && card === stage.took) { showMessage(fmt(T.k_discard_taken, { card: cards.words(card) }), "error"); return; }
    pending = true;
    send("turn", staging.turnFrame(stage, card));
    tutorial("discarded");
    handRow.clearPicked();
    beep("discard");
    renderControls();
    renderPiles();
  }

  // -- buttons and taps ---------------------------------------------------------------------------------
  $("stock").addEventListener("click", drawFromStock);
  function pileTapped() {
    if (canTake()) { takeDiscard(); return; }
    const picked = handRow.pickedCards();
    if (hasDrawn() && picked.length === 1) { discard(picked[0]); return; }
    if (stage.took && !picked.length) { act(() => staging.giveBack(frame.hand, stage)); return; }
    if (hasDrawn()) showMessage(T.k_select_discard, "info");
  }
  $("discard-pile").addEventListener("click", pileTapped);
  $("discard-pile").addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pileTapped(); } });
  $("btn-meld").addEventListener("click", makeMeld);
  $("btn-undo").addEventListener("click", () => act(() => staging.undo(frame.hand, stage)));
  $("btn-discard").addEventListener("click", () => {
    const picked = handRow.pickedCards();
    if (picked.length !== 1) { showMessage(T.k_select_discard, "error"); return; }
    discard(picked[0]);
  });
  $("btn-sort-suit").addEventListener("click", () => handRow.sortBy("suit"));
  $("btn-sort-rank").addEventListener("click", () => handRow.sortBy("rank"));
  $("btn-ready").addEventListener("click", () => send("ready"));
  $("btn-start").addEventListener("click", () => send("start", { bots: $("btn-start").dataset.bots === "true" }));

  // -- end of round and table ---------------------------------------------------------------------
  const { showResult, headline } = makeScoreSheet({
    T, root, cards, currentFrame: () => frame, mySeat, playerName, isSeatedAtTable, nextHandSeconds: NEXT_HAND_SECONDS,
  });
  $("result-close").addEventListener("click", () => $("result-dialog").close());
  $("btn-show-result").addEventListener("click", () => showResult());
  $("btn-rematch").addEventListener("click", () => { send("rematch"); $("btn-rematch").disabled = true; showMessage(T.rematch_waiting || "", "info"); });
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
