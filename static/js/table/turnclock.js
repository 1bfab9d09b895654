/* The turn clock of the tables that compose a turn (101 Okey, Kart Okey), as the classic table's:
   a ring around the turn seat, its seconds, and the turn line; a tick in the last five seconds of
   the player's own turn. The table passes what the clock reads (getters: they are read at each
   start, so the table may define them after making the clock). */
export function makeTurnClock({ root, line, T, fmt, currentFrame, playerOf, playerName, amLeft, beep, reducedMotion }) {
  let clockTimer = null;
  let clock = null;
  function startClock() {
    clearInterval(clockTimer);
    clock = null;
    const lineEl = line();
    const frame = currentFrame();
    const hand = frame.hand;
    lineEl.classList.remove("urgent", "mine");
    if (!hand) return;
    if (hand.result) { lineEl.textContent = T.hand_over; paintSeatClock(true); return; }
    const onTurn = playerOf(hand.turn);
    clock = {
      deadline: hand.deadline ? new Date(hand.deadline).getTime() : null,
      total: Math.max(1, (frame.match && frame.match.turn_seconds ? frame.match.turn_seconds : 20) * 1000),
      mine: hand.turn === hand.seat && !amLeft(),
      played: !!(onTurn.bot || onTurn.away || onTurn.left),
      left: null,
    };
    const tick = () => {
      const left = clock.deadline === null ? null : Math.max(0, Math.ceil((clock.deadline - Date.now()) / 1000));
      if (left === clock.left && left !== null) { if (reducedMotion().matches) paintSeatClock(false); return; }
      clock.left = left;
      const who = clock.mine ? T.your_turn : fmt(T.turn_of, { name: playerName(hand.turn) });
      if (clock.played && !clock.mine) lineEl.textContent = fmt(T.plays_now, { name: playerName(hand.turn) });
      else if (left === null) lineEl.textContent = who;
      else lineEl.textContent = `${who} · ${left ? fmt(T.seconds, { n: left }) : T.time_up}`;
      lineEl.classList.toggle("mine", clock.mine);
      lineEl.classList.toggle("urgent", clockUrgent());
      paintSeatClock(false);
      if (clockUrgent() && left > 0) beep("tick");
    };
    paintSeatClock(true);
    tick();
    clockTimer = setInterval(tick, 250);
  }
  function clockUrgent() { return !!(clock && clock.mine && clock.left !== null && clock.left <= 5); }
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
    if (!timed || reducedMotion().matches || !ring.animate) {
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

  return { start: startClock, urgent: clockUrgent, paint: paintSeatClock };
}
