/* The seat boxes: each player's face (initials on a colour drawn from the nickname), name (a button
   that opens the player card), tile count and score, the lasting markers (bot, away, left, going for
   pairs, indicator shown, starter, partner, and a game's own: `extraBadges(seat, hand)`) and the turn seat's ring; before the first deal, the
   seats to sit in and what the table waits for (people, "Hazırım", the bots' countdown). */

import { $, fmt, num } from "./format.js";

export function makeSeats({ T, root, me, lang, currentFrame, players, seatBox, playerOf, teamOf, isOffline,
                            openCard, send, extraBadges }) {
  function badge(text, kind) {
    const el = document.createElement("span");
    el.className = `tag tag--${kind}`;
    el.textContent = text;
    return el;
  }

  function nameButton(nickname, bot) {
    const name = document.createElement("button");
    name.type = "button";
    name.className = "name";
    name.textContent = nickname;
    name.title = nickname;  // a narrow seat cuts a long name short
    name.dataset.nickname = nickname;
    name.addEventListener("click", () => openCard(nickname, bot));
    return name;
  }

  // A face for every nickname, with nothing to upload: its initials on a colour drawn from a hash
  // of the nickname (case-blind, as nicknames are), the same for everyone on every page.
  function avatarHue(nickname) {
    let hash = 0x811c9dc5;  // FNV-1a
    for (const char of nickname.toLocaleLowerCase(lang)) {
      hash ^= char.codePointAt(0);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return hash % 360;
  }
  function initials(nickname) {
    // "Deniz Yıldız", "deniz_yildiz", "DenizYıldız" → "DY"; "Ayşe" → "AY".
    const words = nickname.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").split(/[\s._-]+/).filter(Boolean);
    const letters = words.length > 1 ? [Array.from(words[0])[0], Array.from(words[1])[0]] : Array.from(words[0] || "?").slice(0, 2);
    return letters.join("").toLocaleUpperCase(lang);
  }
  // Worked out once per nickname: the seats are drawn again on every frame, and locale-aware case
  // mapping is slow enough to show in bench/table_render.py.
  const faces = new Map();
  function faceOf(nickname) {
    let face = faces.get(nickname);
    if (!face) { face = { hue: String(avatarHue(nickname)), initials: initials(nickname) }; faces.set(nickname, face); }
    return face;
  }
  function avatar(nickname, bot) {
    const face = document.createElement("span");
    face.className = "avatar";
    face.setAttribute("aria-hidden", "true");  // the name beside it says who
    const { hue, initials: letters } = faceOf(nickname);
    face.style.setProperty("--hue", hue);
    face.textContent = letters;
    face.addEventListener("click", () => openCard(nickname, bot));
    return face;
  }

  // A seat's tile count and score: an icon and the number, named in words for screen readers
  // ("Istakada 14 taş", "Puan: 20") and in the tooltip.
  function seatNumber(kind, value, label) {
    const el = document.createElement("span");
    el.className = kind;
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
    el.title = label;
    const icon = document.createElement("i");
    icon.className = "icon";
    const number = document.createElement("span");
    number.className = "v";
    number.textContent = String(value);
    el.append(icon, number);
    return el;
  }

  function renderPlayers() {
    const frame = currentFrame();
    for (const box of root.querySelectorAll(".pbox")) { box.replaceChildren(); box.classList.remove("on-turn"); delete box.dataset.seat; }
    const hand = frame.hand;
    const count = players();
    for (const box of root.querySelectorAll(".pbox")) box.hidden = count === 2 && (box.dataset.rel === "1" || box.dataset.rel === "3");
    for (const pile of root.querySelectorAll(".discard")) pile.hidden = count === 2 && (pile.dataset.rel === "1" || pile.dataset.rel === "3");
    if (!hand) { renderSeatsBeforeMatch(); return; }
    clearInterval(botsTimer);
    const seats = (frame.table && frame.table.seats) || [];
    const matchOver = frame.match && frame.match.status !== "running";
    for (let seat = 0; seat < hand.players; seat++) {
      const box = seatBox(seat);
      if (!box) continue;
      const player = playerOf(seat);
      box.dataset.seat = String(seat);
      box.dataset.position = String(seat);
      box.append(avatar(player.nickname || "?", !!player.bot), nameButton(player.nickname || "?", !!player.bot));
      const badges = document.createElement("span");
      badges.className = "badges";
      const team = teamOf(seat);
      box.classList.toggle("team-a", team === 0);
      box.classList.toggle("team-b", team === 1);
      if (team >= 0 && hand.seat !== null && hand.seat !== undefined && seat !== hand.seat && team === teamOf(hand.seat)) {
        badges.append(badge(T.partner, "partner"));
      }
      if (player.bot) badges.append(badge(T.bot, "bot"));
      if (player.left) badges.append(badge(T.left_bot, "left"));
      else if (player.away) badges.append(badge(T.away, "away"));
      if (isOffline(player)) badges.append(badge(T.offline, "offline"));
      if ((hand.declared_pairs || []).includes(seat)) badges.append(badge(T.going_pairs, "pairs"));
      if ((hand.shown_indicators || []).includes(seat)) badges.append(badge(T.showed_indicator, "indicator"));
      if (hand.starting_seat === seat) badges.append(badge(T.starter, "starter"));
      // A game's own lasting markers (101: opened and with what, penalties): [text, kind] pairs.
      if (extraBadges) for (const [text, kind] of extraBadges(seat, hand)) badges.append(badge(text, kind));
      if (matchOver) {
        const mark = seats.find((s) => s.nickname === player.nickname);
        if (mark && (mark.ready || mark.bot)) badges.append(badge(T.rematch_yes, "ready"));
      }
      const numbers = document.createElement("span");
      numbers.className = "nums";
      numbers.append(seatNumber("count", hand.rack_counts[seat], fmt(T.tiles_in_rack, { n: hand.rack_counts[seat] })));
      const scores = (frame.match && (frame.match.live_scores || frame.match.scores)) || [];
      // A real minus sign (U+2212) for a score below zero, as in the result panel.
      if (scores[seat] !== undefined) numbers.append(seatNumber("score", num(scores[seat]), fmt(T.score_of, { n: num(scores[seat]) })));
      box.append(numbers, badges);
      if (hand.turn === seat && hand.phase !== "over") {
        // The player to move: a ring drains around their seat and the seconds left are written
        // big beside their name (table.js's startClock runs both). A seat the server plays (a bot,
        // an away or gone player) gets a still ring and no count: nobody is timed there.
        box.classList.add("on-turn");
        const timer = document.createElement("span");
        timer.className = "timer";
        timer.setAttribute("aria-hidden", "true");
        if (seat === hand.seat) timer.classList.add("mine");
        const count = document.createElement("b");
        count.className = "turn-count";
        count.setAttribute("aria-hidden", "true");
        if (seat === hand.seat) count.classList.add("mine");
        box.append(timer, count);
      }
    }
  }

  let botsTimer = null;  // the countdown to the bots of a waiting table (renderSeatsBeforeMatch)
  function renderSeatsBeforeMatch() {
    const frame = currentFrame();
    const seats = (frame.table && frame.table.seats) || [];
    const running = frame.table && frame.table.status === "playing";
    const mine = seats.find((s) => s.nickname === me);
    const base = mine ? mine.position : 0;
    for (const seat of seats) {
      const rel = (seat.position - base + seats.length) % seats.length;
      const box = root.querySelector(`.pbox[data-rel="${seats.length === 2 && rel === 1 ? 2 : rel}"]`);
      if (!box) continue;
      box.dataset.position = String(seat.position);
      if (seat.nickname) {
        box.append(avatar(seat.nickname, seat.bot), nameButton(seat.nickname, seat.bot));
        if (seat.bot) box.append(badge(T.bot, "bot"));
        if (seat.ready) box.append(badge(`✓ ${T.ready}`, "ready"));
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
    // What the table waits for, in numbers: people to sit, then everyone's "Hazırım".
    const seated = seats.filter((s) => s.nickname);
    const ready = seated.filter((s) => s.ready || s.bot).length;
    const waiting = seated.length < seats.length
      ? fmt(T.waiting_seats, { n: seated.length, total: seats.length })
      : fmt(T.waiting_ready, { n: ready, total: seats.length });
    // A room that fills empty seats with bots: count down to them, as the server will.
    clearInterval(botsTimer);
    const botsIn = frame.table ? frame.table.bots_in : null;
    if (typeof botsIn !== "number") { $("clock").textContent = waiting; return; }
    const due = performance.now() + botsIn * 1000;
    const show = () => {
      const left = Math.max(0, Math.ceil((due - performance.now()) / 1000));
      $("clock").textContent = `${waiting} · ${fmt(T.bots_in, { n: left })}`;
      if (!left) clearInterval(botsTimer);
    };
    show();
    botsTimer = setInterval(show, 250);  // a quarter second: the number never lags a whole second
  }

  return { renderPlayers, faceOf };
}
