/* The table page: renders the frames the server builds for this seat and sends the player's
   actions. The server is the only authority; this script keeps only the rack's on-screen layout
   (which slot each tile sits in), in localStorage per hand. */
(function () {
  "use strict";
  const root = document.getElementById("okey-table");
  if (!root) return;
  const T = JSON.parse(document.getElementById("okey-strings").textContent);
  const tableId = root.dataset.tableId;
  const me = root.dataset.user;
  const SLOTS = 30; // two rows of 15
  const COLORS = { K: "red", S: "black", M: "blue", Y: "green" };
  const $ = (id) => document.getElementById(id);
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => (values[key] ?? ""));

  let socket = null;
  let frame = null;          // the last state frame
  let slots = new Array(SLOTS).fill(null); // notation per slot, null = gap
  let selected = null;       // slot index of the selected tile
  let retry = 0;
  let clockTimer = null;

  // -- socket ---------------------------------------------------------------------------------
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}/`);
    setStatus(T.connecting, "connecting");
    socket.onopen = () => { retry = 0; setStatus(T.connected, "ok"); };
    socket.onclose = (event) => {
      setStatus(T.disconnected, "down");
      if (event.code === 4401 || event.code === 4403 || event.code === 4404) {
        setStatus(`${T.disconnected} (${event.code})`, "down");
        root.dataset.closed = String(event.code);
        return;
      }
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 300 * 2 ** retry);
    };
    socket.onmessage = (event) => handle(JSON.parse(event.data));
  }

  function send(type, extra) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    const message = Object.assign({ type }, extra || {});
    if (frame && frame.hand) message.move = frame.hand.move;
    socket.send(JSON.stringify(message));
  }

  function setStatus(text, state) {
    const el = $("conn-status");
    el.textContent = text;
    el.dataset.state = state;
  }

  function handle(message) {
    if (message.type === "state") { applyFrame(message); }
    else if (message.type === "error") { showMessage(message.message, "error"); }
    else if (message.type === "chat") { addChat(message); }
    else if (message.type === "arrangement") { applyArrangement(message.order); }
  }

  // -- state ----------------------------------------------------------------------------------
  function applyFrame(next) {
    const previousHand = frame && frame.hand ? frame.hand.id : null;
    const wasOver = frame && frame.hand && frame.hand.phase === "over";
    frame = next;
    root.dataset.move = next.hand ? String(next.hand.move) : "";
    root.dataset.phase = next.hand ? next.hand.phase : "none";
    if (next.hand && next.hand.id !== previousHand) loadLayout(next.hand.id);
    reconcileRack(next.hand && next.hand.rack ? next.hand.rack : []);
    render();
    for (const event of next.events || []) describeEvent(event);
    if (next.hand && next.hand.phase === "over" && !wasOver) showResult();
  }

  function layoutKey(handId) { return `okey-layout-${tableId}-${handId}`; }

  function loadLayout(handId) {
    slots = new Array(SLOTS).fill(null);
    try {
      const saved = JSON.parse(localStorage.getItem(layoutKey(handId)) || "null");
      if (Array.isArray(saved) && saved.length === SLOTS) slots = saved;
    } catch (e) { /* a broken saved layout is simply ignored */ }
  }

  function saveLayout() {
    if (frame && frame.hand) localStorage.setItem(layoutKey(frame.hand.id), JSON.stringify(slots));
  }

  // Keep tiles where the player put them; new tiles go to the first gap, gone tiles leave a gap.
  function reconcileRack(rack) {
    const want = {};
    for (const tile of rack) want[tile] = (want[tile] || 0) + 1;
    const have = {};
    slots = slots.map((tile) => {
      if (tile === null) return null;
      have[tile] = (have[tile] || 0) + 1;
      if (have[tile] > (want[tile] || 0)) return null;
      return tile;
    });
    for (const tile of rack) {
      const placed = slots.filter((t) => t === tile).length;
      const needed = rack.filter((t) => t === tile).length;
      if (placed < needed) {
        const gap = slots.indexOf(null);
        if (gap >= 0) slots[gap] = tile; else slots.push(tile);
        if (slots.filter((t) => t === tile).length >= needed) continue;
      }
    }
    if (selected !== null && slots[selected] === null) selected = null;
    saveLayout();
  }

  function applyArrangement(order) {
    slots = new Array(SLOTS).fill(null);
    let index = 0;
    for (const group of order) {
      for (const tile of group) { if (index < SLOTS) slots[index++] = tile; }
      if (index < SLOTS && group.length > 1) index++; // a gap between sets
    }
    reconcileRack(frame && frame.hand && frame.hand.rack ? frame.hand.rack : []);
    renderRack();
  }

  // -- rendering ------------------------------------------------------------------------------
  function tileElement(notation, okey) {
    const el = document.createElement("span");
    el.className = "tile";
    el.dataset.tile = notation;
    if (notation === "J") {
      el.classList.add("joker");
      el.textContent = "★";
      el.title = "Sahte okey";
    } else {
      el.classList.add(COLORS[notation[0]] || "black");
      el.textContent = notation.slice(1);
    }
    if (okey && notation === okey) { el.classList.add("okey"); el.title = "Okey"; }
    el.setAttribute("aria-label", notation);
    return el;
  }

  function relSeat(seat) {
    const mySeat = frame && frame.hand && frame.hand.seat !== null && frame.hand.seat !== undefined ? frame.hand.seat : 0;
    const players = frame && frame.hand ? frame.hand.players : 4;
    const rel = (seat - mySeat + players) % players;
    return players === 2 && rel === 1 ? 2 : rel; // two players sit face to face
  }

  function playerName(seat) {
    const player = (frame.players || []).find((p) => p.seat === seat);
    return player ? player.nickname : "?";
  }

  function render() {
    const hand = frame.hand;
    const okey = hand ? hand.okey : null;
    $("pile-count").textContent = hand ? hand.pile_count : "–";
    const indicator = $("indicator");
    indicator.replaceChildren(hand ? tileElement(hand.indicator, null) : "");
    $("okey").textContent = hand ? hand.okey : "";
    $("commitment").textContent = hand && hand.commitment ? `#${hand.commitment.slice(0, 12)}` : "";
    $("commitment").dataset.full = hand && hand.commitment ? hand.commitment : "";
    renderPlayers();
    renderDiscards(okey);
    renderRack();
    renderButtons();
    renderScores();
    renderHistory();
    startClock();
  }

  function renderPlayers() {
    for (const box of root.querySelectorAll(".player")) box.replaceChildren();
    const hand = frame.hand;
    if (!hand) {
      const seats = (frame.table && frame.table.seats) || [];
      const running = frame.table && frame.table.status === "playing";
      const mine = seats.find((s) => s.nickname === me);
      for (const seat of seats) {
        const box = root.querySelector(`.player[data-rel="${seat.position}"]`);
        if (!box) continue;
        box.dataset.position = String(seat.position);
        if (seat.nickname) {
          const name = document.createElement("span");
          name.className = "name";
          name.textContent = seat.nickname;
          box.append(name);
          if (seat.bot) { const bot = document.createElement("span"); bot.className = "bot-badge"; bot.textContent = T.bot; box.append(bot); }
          if (seat.ready) { const ok = document.createElement("span"); ok.className = "ready"; ok.textContent = `✓ ${T.ready}`; box.append(ok); }
          if (seat.nickname !== me && !seat.bot) box.append(reportButton(seat.nickname));
          if (seat.nickname === me && !running) {
            const leave = document.createElement("button");
            leave.type = "button";
            leave.className = "leave-seat";
            leave.textContent = T.leave;
            leave.addEventListener("click", () => send("leave"));
            box.append(leave);
          }
        } else if (!mine && !running) {
          const sit = document.createElement("button");
          sit.type = "button";
          sit.className = "sit";
          sit.textContent = T.sit;
          sit.setAttribute("aria-label", `${T.sit} ${seat.position + 1}`);
          sit.addEventListener("click", () => send("sit", { position: seat.position }));
          box.append(sit);
        } else {
          box.textContent = T.empty_seat;
        }
      }
      return;
    }
    for (let seat = 0; seat < hand.players; seat++) {
      const box = root.querySelector(`.player[data-rel="${relSeat(seat)}"]`);
      if (!box) continue;
      const player = (frame.players || []).find((p) => p.seat === seat) || {};
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = player.nickname || "?";
      if (player.bot) { const bot = document.createElement("span"); bot.className = "bot-badge"; bot.textContent = T.bot; name.append(" ", bot); }
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = `${hand.rack_counts[seat]}`;
      box.append(name, count);
      if (player.away) { const away = document.createElement("span"); away.className = "away"; away.textContent = T.away; box.append(away); }
      if (player.nickname && player.nickname !== me && !player.bot) box.append(reportButton(player.nickname));
      box.classList.toggle("on-turn", hand.turn === seat && hand.phase !== "over");
      box.dataset.seat = String(seat);
    }
  }

  function renderDiscards(okey) {
    const hand = frame.hand;
    const take = $("take-discard");
    const give = $("give-discard");
    take.replaceChildren();
    give.replaceChildren();
    if (!hand || hand.seat === null) return;
    const players = hand.players;
    const previous = (hand.seat - 1 + players) % players;
    const top = hand.discard_tops[previous];
    if (top) take.append(tileElement(top, okey));
    take.classList.toggle("available", hand.available_discard !== null && hand.turn === hand.seat);
    const mine = hand.discard_tops[hand.seat];
    if (mine) give.append(tileElement(mine, okey));
  }

  function renderRack() {
    const rack = $("rack");
    rack.replaceChildren();
    const okey = frame && frame.hand ? frame.hand.okey : null;
    slots.forEach((tile, index) => {
      const slot = document.createElement("div");
      slot.className = "slot";
      slot.dataset.slot = String(index);
      if (tile) {
        const el = tileElement(tile, okey);
        el.tabIndex = 0;
        el.setAttribute("role", "button");
        if (index === selected) el.classList.add("selected");
        el.addEventListener("pointerdown", (event) => startDrag(event, index));
        el.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") select(index); });
        slot.append(el);
      }
      rack.append(slot);
    });
  }

  function renderButtons() {
    const hand = frame.hand;
    const actions = hand && hand.actions ? hand.actions : [];
    const running = frame.match && frame.match.status === "running";
    $("btn-show-indicator").hidden = !actions.includes("show_indicator");
    $("btn-declare-pairs").hidden = !actions.includes("declare_pairs");
    $("btn-take-indicator").hidden = !actions.includes("take_indicator");
    $("btn-lay-okey").hidden = !actions.includes("lay_first_okey");
    $("btn-discard").disabled = !actions.includes("discard") || selected === null;
    $("btn-finish").disabled = !actions.includes("finish") || selected === null;
    const seated = frame.table && (frame.table.seats || []).some((s) => s.nickname === me);
    const mySeat = frame.table && (frame.table.seats || []).find((s) => s.nickname === me);
    $("btn-ready").hidden = running || !seated || (mySeat && mySeat.ready);
    $("btn-start").hidden = running || !frame.table || !frame.table.is_owner;
    $("pile").disabled = !actions.includes("draw_pile");
  }

  function renderScores() {
    const list = $("scores");
    list.replaceChildren();
    if (!frame.match) return;
    const scores = frame.match.live_scores || frame.match.scores || [];
    scores.forEach((score, seat) => {
      const item = document.createElement("li");
      item.textContent = `${playerName(seat)}: ${score}`;
      list.append(item);
    });
  }

  function renderHistory() {
    const hand = frame.hand;
    const box = $("history-box");
    box.hidden = !(hand && hand.discard_history);
    if (box.hidden) return;
    const history = $("history");
    history.replaceChildren();
    for (const entry of hand.discard_history) {
      const el = tileElement(entry.tile, hand.okey);
      el.title = playerName(entry.seat);
      history.append(el);
    }
  }

  function startClock() {
    clearInterval(clockTimer);
    const clock = $("clock");
    const hand = frame.hand;
    if (!hand || !hand.deadline || hand.phase === "over") {
      clock.textContent = hand ? "" : T.waiting;
      return;
    }
    const deadline = new Date(hand.deadline).getTime();
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      const who = hand.turn === hand.seat ? T.your_turn : fmt(T.turn_of, { name: playerName(hand.turn) });
      clock.textContent = `${who} · ${fmt(T.seconds, { n: left })}`;
      clock.classList.toggle("urgent", left <= 5);
    };
    tick();
    clockTimer = setInterval(tick, 250);
  }

  function describeEvent(event) {
    const name = event.seat !== undefined && event.seat !== null ? playerName(event.seat) : "";
    if (event.type === "show_indicator") showMessage(fmt(T.indicator_shown, { name }), "info");
    if (event.type === "declare_pairs") showMessage(fmt(T.declared_pairs, { name }), "info");
  }

  function showMessage(text, kind) {
    const box = $("messages");
    box.textContent = text;
    box.dataset.kind = kind;
  }

  function showResult() {
    const hand = frame.hand;
    const result = hand.result;
    const dialog = $("result-dialog");
    const body = $("result-body");
    body.replaceChildren();
    if (result.reason === "pile_out") {
      $("result-title").textContent = T.hand_over;
      body.textContent = T.pile_out;
    } else {
      $("result-title").textContent = fmt(T.finished_by, { name: playerName(result.finisher) });
      const finish = result.finish;
      const line = document.createElement("p");
      line.textContent = `${finish.kind === "pairs" ? T.pairs : T.sets}${finish.okey_finish ? " · " + T.okey_finish : ""}`;
      body.append(line);
      for (const group of finish.groups) {
        const row = document.createElement("div");
        row.className = "group";
        for (const tile of group) row.append(tileElement(tile, hand.okey));
        body.append(row);
      }
    }
    if (frame.match && frame.match.over) {
      const names = (frame.match.winners || []).map(playerName).join(", ");
      const line = document.createElement("p");
      line.className = "match-over";
      line.textContent = `${T.match_over}. ${fmt(T.winner, { names })}`;
      body.append(line);
    }
    if (typeof dialog.showModal === "function" && !dialog.open) dialog.showModal();
  }

  // -- interaction ----------------------------------------------------------------------------
  function select(index) {
    selected = selected === index ? null : index;
    renderRack();
    renderButtons();
  }

  let drag = null;
  function startDrag(event, index) {
    event.preventDefault();
    const source = event.currentTarget;
    drag = { index, startX: event.clientX, startY: event.clientY, ghost: null, moved: false };
    const onMove = (move) => {
      if (!drag) return;
      if (!drag.moved && Math.hypot(move.clientX - drag.startX, move.clientY - drag.startY) < 6) return;
      if (!drag.ghost) {
        drag.moved = true;
        drag.ghost = source.cloneNode(true);
        drag.ghost.classList.add("ghost");
        document.body.append(drag.ghost);
      }
      drag.ghost.style.left = `${move.clientX - 20}px`;
      drag.ghost.style.top = `${move.clientY - 28}px`;
    };
    const onUp = (up) => {
      document.removeEventListener("pointermove", onMove);
      document.removeEventListener("pointerup", onUp);
      const current = drag;
      drag = null;
      if (current.ghost) current.ghost.remove();
      if (!current.moved) { select(index); return; }
      drop(index, up.clientX, up.clientY);
    };
    document.addEventListener("pointermove", onMove);
    document.addEventListener("pointerup", onUp);
  }

  function drop(index, x, y) {
    const target = document.elementFromPoint(x, y);
    if (!target) return;
    const tile = slots[index];
    if (target.closest("#give-discard")) { send("discard", { tile }); return; }
    if (target.closest("#finish-zone")) { send("finish", { tile }); return; }
    const slot = target.closest(".slot");
    if (slot) {
      const to = Number(slot.dataset.slot);
      [slots[to], slots[index]] = [slots[index], slots[to]];
      if (selected === index) selected = to;
      saveLayout();
      renderRack();
    }
  }

  function selectedTile() {
    if (selected === null || !slots[selected]) { showMessage(T.select_tile, "error"); return null; }
    return slots[selected];
  }

  $("pile").addEventListener("click", () => send("draw", { source: "pile" }));
  const takeDiscard = () => send("draw", { source: "discard" });
  $("take-discard").addEventListener("click", takeDiscard);
  $("take-discard").addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") takeDiscard(); });
  $("btn-discard").addEventListener("click", () => { const tile = selectedTile(); if (tile) { selected = null; send("discard", { tile }); } });
  $("btn-finish").addEventListener("click", () => { const tile = selectedTile(); if (tile) { selected = null; send("finish", { tile }); } });
  $("btn-show-indicator").addEventListener("click", () => send("show_indicator"));
  $("btn-declare-pairs").addEventListener("click", () => send("declare_pairs"));
  $("btn-take-indicator").addEventListener("click", () => send("take_indicator"));
  $("btn-lay-okey").addEventListener("click", () => send("lay_first_okey"));
  $("btn-sort-sets").addEventListener("click", () => send("arrange", { by: "sets" }));
  $("btn-sort-pairs").addEventListener("click", () => send("arrange", { by: "pairs" }));
  $("btn-ready").addEventListener("click", () => send("ready"));
  $("btn-start").addEventListener("click", () => send("start"));
  $("result-close").addEventListener("click", () => $("result-dialog").close());
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (text) { send("chat", { text }); input.value = ""; }
  });

  // -- reporting a player (moderation): a small form in a dialog, posted with the page's CSRF token
  const reportDialog = $("report-dialog");

  function reportButton(nickname) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "report-player";
    button.textContent = reportDialog ? reportDialog.dataset.label : "!";
    button.setAttribute("aria-label", `${button.textContent}: ${nickname}`);
    button.addEventListener("click", () => {
      reportDialog.querySelector("[name=reported]").value = nickname;
      reportDialog.querySelector("[data-report-name]").textContent = nickname;
      reportDialog.showModal();
    });
    return button;
  }

  if (reportDialog) {
    const form = reportDialog.querySelector("form");
    reportDialog.querySelector("[data-report-cancel]").addEventListener("click", () => reportDialog.close());
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const response = await fetch(form.action, {
        method: "POST", body: new FormData(form), headers: { Accept: "application/json" }, credentials: "same-origin",
      });
      const answer = await response.json().catch(() => ({ ok: false, error: { message: response.statusText } }));
      reportDialog.close();
      form.reset();
      showMessage(answer.ok ? answer.message : answer.error.message, answer.ok ? "info" : "error");
    });
  }

  function addChat(frame) {
    const message = frame.message || {};
    const item = document.createElement("li");
    const who = document.createElement("b");
    const author = message.author && typeof message.author === "object" ? message.author.nickname : message.author;
    who.textContent = `${author || ""}: `;
    item.append(who, document.createTextNode(message.text || ""));
    const log = $("chat-log");
    log.append(item);
    while (log.children.length > 100) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  connect();
})();
