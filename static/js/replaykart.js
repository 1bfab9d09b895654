/* The replay of a Kart Okey hand (RULES.md "Kart Okey"), used by static/js/replay.js: every hand
   open around the stock and the discard pile, the melds on the table by the player who melded
   them, and each step told in words. Steps are games/engine/kart/game.py ``replay_steps``: the
   seat's view plus ``hands`` (every hand, sorted), ``hand_values`` and the whole ``discards`` pile.

   A card is drawn as a card: its rank and suit symbol (♠ maça, ♥ kupa, ♦ karo, ♣ sinek), red for
   ♥ ♦ and black for ♠ ♣; the symbol's shape is the cue that does not rest on colour, and a red
   card's face is warmer. Its words ("kupa 7") are its label for screen readers; the notation
   ("K7") never reaches visible text. */

const SUIT_SYMBOLS = { M: "♠", K: "♥", R: "♦", S: "♣" };
const RED = new Set(["K", "R"]);

export function kartReplay(T, name) {
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => (values[key] ?? ""));
  const $ = (id) => document.getElementById(id);
  const root = $("replay");

  function words(card) {
    if (!card) return "";
    const suit = card[0];
    const rank = card.slice(1);
    return fmt(T.rk_card_words, { suit: T["rk_suit_" + suit] || suit, rank: T["rk_rank_" + rank] || rank });
  }

  // A card; ``options.mini``: the small size of the discard pile; ``options.inline``: inside a line of text.
  function card(notation, options) {
    const el = document.createElement("span");
    const suit = notation[0];
    el.className = `rcard ${RED.has(suit) ? "red" : "black"} suit-${suit}`;
    if (options && options.mini) el.classList.add("mini");
    if (options && options.inline) el.classList.add("inline");
    el.dataset.card = notation;
    const rank = document.createElement("span");
    rank.className = "rcard__rank";
    rank.textContent = notation.slice(1);
    const symbol = document.createElement("span");
    symbol.className = "rcard__suit";
    symbol.textContent = SUIT_SYMBOLS[suit] || "?";
    el.append(rank, symbol);
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", words(notation));
    el.title = words(notation);
    return el;
  }

  function cards(list, options) {
    const el = document.createElement("span");
    el.className = "rcards";
    // Inside a line, a space between the cards: copied or read as text, "5♥ 6♥ 7♥".
    list.forEach((c, i) => {
      if (i && options && options.inline) el.append(" ");
      el.append(card(c, options));
    });
    return el;
  }

  // A translated line whose %(card)s / %(cards)s are cards, the other placeholders text.
  function line(text, values) {
    const el = document.createElement("span");
    el.className = "rline";
    for (const piece of text.split(/(%\(\w+\)s)/)) {
      const key = /^%\((\w+)\)s$/.exec(piece);
      if (!key) { if (piece) el.append(piece); continue; }
      const value = values[key[1]];
      if (value instanceof Node) el.append(value);
      else el.append(String(value ?? ""));
    }
    return el;
  }

  function badge(text, kind) {
    const el = document.createElement("span");
    el.className = "tag";
    if (kind) el.dataset.badge = kind;
    el.textContent = text;
    return el;
  }

  // Each step in words: the deal; a draw; a turn (taken card, melds, lay-offs, the discard, going
  // out or going rummy); the stock rebuilt, or running out a second time.
  function describe(step, previous) {
    const event = step.event || {};
    const who = name(event.seat);
    const parts = [];
    if (event.type === "deal") {
      parts.push(line(T.rk_dealt, { name: name(event.starting_seat), card: card(step.discard_top || step.discards[0], { inline: true }) }));
    } else if (event.type === "draw") {
      parts.push(line(T.rk_drew_stock, { name: who }));
    } else if (event.type === "turn") {
      if (event.draw === "stock") parts.push(line(T.rk_drew_stock, { name: who }));
      if (event.took) parts.push(line(T.rk_took, { name: who, card: card(event.took, { inline: true }) }));
      for (const action of event.actions || []) {
        if (action.type === "meld") {
          parts.push(line(action.kind === "set" ? T.rk_melded_set : T.rk_melded_run,
            { name: who, cards: cards(action.cards, { inline: true }) }));
        } else if (action.type === "lay_off") {
          parts.push(line(T.rk_laid_off, { name: who, card: card(action.card, { inline: true }) }));
        }
      }
      parts.push(line(T.rk_discarded, { name: who, card: card(event.discard, { inline: true }) }));
    }
    const result = step.result;
    if (result && result.reason === "finished") {
      parts.push(line(result.rummy ? T.rk_went_rummy : T.rk_went_out, { name: name(result.winner) }));
    } else if (result && result.reason === "stock_out") {
      parts.push(line(T.rk_stock_out, {}));
    } else if (previous && step.stock_outs > previous.stock_outs) {
      parts.push(line(T.rk_rebuilt, {}));
    }
    const box = document.createElement("span");
    parts.forEach((part, i) => { if (i) box.append(" · "); box.append(part); });
    return box;
  }

  function renderMelds(step) {
    const box = $("replay-melds");
    if (!box) return;
    if (!step.melds.length) {
      const none = document.createElement("p");
      none.className = "replay-melds__none";
      none.textContent = T.rk_melds_none;
      box.replaceChildren(none);
      return;
    }
    const rows = [];
    for (let seat = 0; seat < step.players; seat++) {
      const melds = step.melds.filter((meld) => meld.owner === seat);
      if (!melds.length) continue;
      const row = document.createElement("div");
      row.className = "replay-melds__owner";
      row.dataset.seat = String(seat);
      const head = document.createElement("p");
      head.className = "replay-melds__head";
      head.textContent = name(seat);
      row.append(head, ...melds.map((meld) => {
        const group = cards(meld.cards);
        group.classList.add("rmeld");
        group.dataset.meld = String(meld.id);
        group.dataset.kind = meld.kind;
        group.title = meld.kind === "set" ? T.rk_meld_set : T.rk_meld_run;
        return group;
      }));
      rows.push(row);
    }
    box.replaceChildren(...rows);
  }

  function render(step, previous, animate, seatBox) {
    root.dataset.phase = step.result ? "over" : "playing";
    $("replay-event").replaceChildren(describe(step, previous));
    $("replay-stock").textContent = String(step.stock_count);
    const top = step.discards.length ? step.discards[step.discards.length - 1] : null;
    $("replay-discard-top").replaceChildren(...(top ? [card(top)] : []));
    $("replay-discard-count").textContent = fmt(T.rk_cards, { n: step.discards.length });
    $("replay-discard-pile").replaceChildren(...step.discards.map((c) => card(c, { mini: true })));
    renderMelds(step);
    const result = step.result;
    for (let seat = 0; seat < step.players; seat++) {
      const box = seatBox(seat);
      if (!box) continue;
      box.hidden = false;
      box.dataset.seat = String(seat);
      box.classList.toggle("on-turn", step.turn === seat && !result);
      box.classList.toggle("winner", !!(result && result.winner === seat));
      const head = box.querySelector(".rseat__head");
      const nick = document.createElement("b");
      nick.textContent = name(seat);
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = fmt(T.rk_cards, { n: step.hands[seat].length });
      const value = document.createElement("span");
      value.className = "value";
      value.dataset.value = String(step.hand_values[seat]);
      value.textContent = fmt(T.rk_hand_value, { n: step.hand_values[seat] });
      head.replaceChildren(nick, count, value);
      if (step.starting_seat === seat) head.append(badge(T.starter, "starter"));
      if (result) {
        if (result.winner === seat) head.append(badge(T.rk_winner, "winner"));
        if (result.winner === seat && result.rummy) head.append(badge(T.rk_rummy_badge, "rummy"));
        const score = badge(fmt(T.rk_hand_score, { n: result.scores[seat] }), "score");
        score.dataset.score = String(result.scores[seat]);
        head.append(score);
      }
      const hand = box.querySelector(".rhand");
      hand.replaceChildren(...step.hands[seat].map((c) => card(c)));
      if (!animate || !previous) continue;
      // A card that came into the hand slides in (none with prefers-reduced-motion: replay.js).
      const before = {};
      for (const c of previous.hands[seat]) before[c] = (before[c] || 0) + 1;
      for (const el of hand.querySelectorAll(".rcard")) {
        if (before[el.dataset.card]) before[el.dataset.card] -= 1;
        else el.classList.add("arrive");
      }
    }
    if (animate && previous && step.discards.length && step.discards.length >= previous.discards.length) {
      const landed = $("replay-discard-top").firstElementChild;
      if (landed) landed.classList.add("arrive");
    }
  }

  return { render, describe, words, card };
}
