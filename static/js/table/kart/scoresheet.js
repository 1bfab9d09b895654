/* The end of a Kart Okey round and of the table (RULES.md "Kart Okey", rules 6 to 9): who went out
   (or went rummy: +25 to everyone else; or the stock ran out twice: no winner), then per player the
   cards left in hand drawn as cards, their value, the +25 and the round's score (`hand.result.sheet`,
   the cards from each row's `left`); the table's scores round by round with the totals
   (`match.history`); at the table's end the winner and, at a table with a prize pool, each
   player's share (`match.prizes`). Low is good. Who won is the server's word. */

import { $, el, fmt, num } from "../format.js";

export function makeScoreSheet({ T, root, cards, currentFrame, mySeat, playerName, isSeatedAtTable, nextHandSeconds }) {
  let countdownTimer = null;

  function title(frame) {
    const hand = frame.hand;
    const match = frame.match || {};
    const result = hand.result || {};
    const mine = mySeat();
    if (match.over) {
      const winners = match.winners || [];
      if (mine !== null && winners.includes(mine)) return T.you_won_match;
      if (winners.length) return fmt(T.match_won_by, { names: winners.map(playerName).join(", ") });
      return T.match_no_winner;
    }
    return headline(result, mine);
  }

  /* "Dışarı çıktınız!", "Mert okey yaptı! (+25)", "Deste ikinci kez bitti…". */
  function headline(result, mine) {
    if (result.winner === null || result.winner === undefined) return T.k_stock_out_end;
    const me = mine !== null && result.winner === mine;
    if (result.rummy) return me ? T.k_you_rummy : fmt(T.k_rummy_by, { name: playerName(result.winner) });
    return me ? T.k_you_went_out : fmt(T.k_went_out_by, { name: playerName(result.winner) });
  }

  function leftCards(row, hand, mine) {
    if (Array.isArray(row.left)) return row.left;
    if (row.seat === mine && Array.isArray(hand.hand)) return hand.hand;
    return null;
  }

  function handTable(hand, mine) {
    const result = hand.result;
    // The +25 column only when someone went rummy (every cell would say "–" otherwise).
    const bonus = !!result.rummy;
    const table = el("table", "sheetk sheetk--hand");
    table.append(el("caption", "", T.k_round_scores));
    const head = el("tr");
    const columns = [[T.k_player, ""], [T.k_cards_left, ""], [T.k_value, "num"], ...(bonus ? [[T.k_rummy_bonus, "num"]] : []), [T.k_score, "num"]];
    for (const [text, className] of columns) head.append(el("th", className, text));
    table.append(head);
    for (const row of result.sheet || []) {
      const line = el("tr");
      line.dataset.seat = String(row.seat);
      if (row.seat === mine) line.classList.add("me");
      if (row.kind === "won") line.classList.add("finisher");
      line.append(el("td", "who", playerName(row.seat)));
      const left = el("td", "left");
      const list = leftCards(row, hand, mine);
      if (row.kind === "won") left.append(el("span", "went-out", result.rummy ? T.k_kind_rummy : T.k_kind_out));
      else if (list && list.length) {
        const box = el("span", "left-cards");
        for (const card of list) box.append(cards.card(card, { small: true }));
        left.append(box);
      } else left.append(el("span", "muted", "–"));
      line.append(left);
      line.append(el("td", "num value", row.kind === "won" ? "–" : num(row.cards)));
      if (bonus) line.append(el("td", "num bonus", row.rummy_bonus ? `+${row.rummy_bonus}` : "–"));
      const score = el("td", "num score", num(row.score));
      score.classList.add(row.score > 0 ? "bad" : "even");
      line.append(score);
      table.append(line);
    }
    return table;
  }

  function matchTable(match, mine) {
    const history = match.history || [];
    const wrap = el("div", "sheetk-wrap");
    const table = el("table", "sheetk sheetk--match");
    table.append(el("caption", "", `${T.k_table_scores} · ${T.k_low_wins}`));
    const head = el("tr");
    head.append(el("th", "", T.k_player));
    for (const entry of history) head.append(el("th", "num", fmt(T.k_round_n, { n: entry.round + 1 })));
    head.append(el("th", "num total", T.k_total));
    const prizes = match.over && Array.isArray(match.prizes) && match.prize_pool ? match.prizes : null;
    if (prizes) head.append(el("th", "num prize", T.k_prize));
    table.append(head);
    const winners = match.over ? (match.winners || []) : [];
    const totals = match.scores || [];
    for (let seat = 0; seat < totals.length; seat++) {
      const line = el("tr");
      line.dataset.seat = String(seat);
      if (seat === mine) line.classList.add("me");
      if (winners.includes(seat)) line.classList.add("winner");
      line.append(el("td", "who", playerName(seat)));
      for (const entry of history) line.append(el("td", "num", num(entry.deltas[seat])));
      line.append(el("td", "num total", num(totals[seat])));
      if (prizes) line.append(el("td", "num prize", fmt(T.chips_won, { n: prizes[seat] })));
      table.append(line);
    }
    wrap.append(table);
    if (prizes) wrap.append(el("p", "prize-note", fmt(T.k_prize_note, { pool: match.prize_pool, limit: match.prize_limit })));
    return wrap;
  }

  function showResult() {
    const frame = currentFrame();
    const hand = frame.hand;
    const match = frame.match || {};
    const result = hand.result || {};
    const mine = mySeat();
    const dialog = $("result-dialog");
    dialog.classList.add("resultk");
    $("result-title").textContent = title(frame);
    const won = match.over ? (match.winners || []).includes(mine) : result.winner === mine;
    dialog.classList.toggle("won", mine !== null && won);
    const nodes = [];
    // Under the title: the round's end when the title is the table's, the rummy's +25 explained.
    const how = el("p", "how", match.over ? headline(result, mine) : "");
    if (result.rummy) how.append(document.createTextNode(`${how.textContent ? " " : ""}${T.k_rummy_note}`));
    if (how.textContent) nodes.push(how);
    nodes.push(handTable(hand, mine));
    nodes.push(matchTable(match, mine));
    const next = el("p", "what-next");
    if (match.over) {
      if (root.dataset.tournamentUrl) {
        next.append(document.createTextNode(`${T.what_next_tournament} `));
        const back = el("a", "", T.tournament_link);
        back.href = root.dataset.tournamentUrl;
        next.append(back);
      } else if (isSeatedAtTable()) next.textContent = T.what_next_match;
    } else {
      const left = Math.max(0, (match.rounds || 0) - (match.rounds_played || 0));
      const ends = Date.now() + nextHandSeconds * 1000;
      clearInterval(countdownTimer);
      const tick = () => {
        const seconds = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
        next.textContent = `${fmt(T.k_next_round_in, { n: seconds })}${left ? ` · ${fmt(T.k_rounds_left, { n: left })}` : ""}`;
        if (!seconds) clearInterval(countdownTimer);
      };
      tick();
      countdownTimer = setInterval(tick, 500);
      next.classList.add("countdown");
    }
    if (next.textContent) nodes.push(next);
    const links = el("p", "result-links");
    const replay = el("a", "", T.replay_link);
    replay.href = `/hands/${hand.id}/`;
    const proof = el("a", "", T.proof_link);
    proof.href = `/hands/${hand.id}/proof.json`;
    links.append(replay, proof);
    nodes.push(links);
    $("result-body").replaceChildren(...nodes);
    const seated = isSeatedAtTable();
    $("btn-rematch").hidden = !(match.over && seated && !root.dataset.tournamentUrl);
    $("btn-result-leave").hidden = !(match.over && seated);
    if (typeof dialog.showModal === "function" && !dialog.open) dialog.showModal();
    ($("btn-rematch").hidden ? $("result-close") : $("btn-rematch")).focus({ preventScroll: true });
  }

  return { showResult, headline };
}
