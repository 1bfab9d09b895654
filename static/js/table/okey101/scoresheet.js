/* The end of a 101 hand as 101 players write it (RULES.md "101 Okey", rules 9, 11, 12, 13; "Eşli"):
   the hand's sheet (per player the base and what it is, the multipliers, the penalties with their
   reasons, the hand's score) from `hand.result.sheet`, then the match's running totals for every
   hand so far from `match.history`, team totals in eşli. Low is good. Who won is the server's word. */

import { $, el, fmt, num, signed } from "../format.js";

export function makeScoreSheet({ T, root, currentFrame, mySeat, playerName, standing, isSeatedAtTable, nextHandSeconds }) {
  const { teams, teamOf } = standing;
  const teamName = (team) => teams()[team].map(playerName).join(" & ");
  let countdownTimer = null;

  function title(frame) {
    const hand = frame.hand;
    const match = frame.match || {};
    const result = hand.result || {};
    const mine = mySeat();
    const winners = match.over ? (match.winners || []) : [];
    if (match.over) {
      if (mine !== null && winners.includes(mine)) return teams() ? T.your_team_won_match : T.you_won_match;
      if (winners.length && teams()) return fmt(T.match_won_by_team, { names: teamName(teamOf(winners[0])) });
      if (winners.length) return fmt(T.match_won_by, { names: winners.map(playerName).join(", ") });
      return T.match_no_winner;
    }
    if (result.reason === "finished") {
      if (mine !== null && result.finisher === mine) return T.s101_you_finished;
      if (mine !== null && teams() && teamOf(result.finisher) === teamOf(mine)) return fmt(T.partner_finished, { name: playerName(result.finisher) });
      return fmt(T.s101_finished_by, { name: playerName(result.finisher) });
    }
    return result.reason === "cancelled" ? T.s101_cancelled : T.s101_pile_out;
  }

  function how(result) {
    if (result.reason === "cancelled") return T.f101_cancelled;
    if (result.reason === "pile_out") return T.f101_pile_out;
    const parts = [fmt(T.f101_finished, { name: playerName(result.finisher) })];
    if (result.okey_finish) parts.push(T.s101_okey_finish);
    if (result.pairs_finish) parts.push(T.s101_pairs_finish);
    if (result.elden) parts.push(T.s101_elden);
    return parts.join(" · ");
  }

  const KIND = { finished: "s101_kind_finished", partner: "s101_kind_partner", opened: "s101_kind_opened", unopened: "s101_kind_unopened" };
  const REASON = { islek: "s101_reason_islek", okey_discard: "s101_reason_okey_discard" };

  function cell(tag, className, main, note) {
    const node = el(tag, className);
    node.append(el("b", "", main));
    if (note) node.append(el("small", "", note));
    return node;
  }

  function handTable(result, mine) {
    const table = el("table", "sheet101 sheet101--hand");
    table.append(el("caption", "", T.s101_hand_title));
    const head = el("tr");
    for (const [text, className] of [[T.s101_player, ""], [T.s101_base, "num"], [T.s101_multiplier, "num"], [T.s101_penalties, "num"], [T.s101_score, "num"]]) head.append(el("th", className, text));
    table.append(head);
    for (const row of result.sheet || []) {
      const line = el("tr");
      line.dataset.seat = String(row.seat);
      if (row.seat === mine || (teams() && mine !== null && teamOf(row.seat) === teamOf(mine))) line.classList.add("me");
      if (row.kind === "finished") line.classList.add("finisher");
      const notes = [T[KIND[row.kind]]];
      if (row.kind === "opened") notes.push(fmt(T.s101_rack, { n: row.rack }));
      if (row.pairs_double) notes.push(T.s101_pairs_double);
      line.append(cell("td", "who", playerName(row.seat)));
      line.append(cell("td", "num", num(row.base), notes.join(" · ")));
      line.append(cell("td", "num", row.multiplier > 1 ? `×${row.multiplier}` : "–"));
      const reasons = (row.penalty_reasons || []).map((reason) => T[REASON[reason]] || reason).join(", ");
      line.append(cell("td", `num${row.penalties ? " penalty" : ""}`, row.penalties ? signed(row.penalties) : "–", reasons));
      const score = cell("td", "num score", num(row.score));
      score.classList.add(row.score < 0 ? "good" : row.score > 0 ? "bad" : "even");
      line.append(score);
      table.append(line);
    }
    return table;
  }

  function matchTable(match, mine) {
    const history = match.history || [];
    const wrap = el("div", "sheet101-wrap");
    const table = el("table", "sheet101 sheet101--match");
    table.append(el("caption", "", `${T.s101_match_title} · ${T.s101_low_wins}`));
    const head = el("tr");
    head.append(el("th", "", T.s101_player));
    for (const entry of history) head.append(el("th", "num", fmt(T.s101_hand_n, { n: entry.hand + 1 })));
    head.append(el("th", "num total", T.s101_total));
    table.append(head);
    const winners = match.over ? (match.winners || []) : [];
    const totals = match.scores || [];
    const row = (name, values, total, className) => {
      const line = el("tr", className || "");
      line.append(el("td", "who", name));
      for (const value of values) line.append(el("td", "num", value === null ? "" : num(value)));
      line.append(el("td", "num total", num(total)));
      return line;
    };
    for (let seat = 0; seat < totals.length; seat++) {
      const line = row(playerName(seat), history.map((entry) => entry.deltas[seat]), totals[seat]);
      line.dataset.seat = String(seat);
      if (seat === mine) line.classList.add("me");
      if (winners.includes(seat)) line.classList.add("winner");
      table.append(line);
    }
    if (teams()) {
      teams().forEach((members, team) => {
        const sum = (values) => members.reduce((total, seat) => total + (values[seat] || 0), 0);
        const line = row(`${T.s101_team}: ${teamName(team)}`, history.map((entry) => sum(entry.deltas)), sum(totals), "team");
        line.dataset.team = String(team);
        if (mine !== null && members.includes(mine)) line.classList.add("me");
        if (members.some((seat) => winners.includes(seat))) line.classList.add("winner");
        table.append(line);
      });
    }
    wrap.append(table);
    return wrap;
  }

  function showResult() {
    const frame = currentFrame();
    const hand = frame.hand;
    const match = frame.match || {};
    const result = hand.result || {};
    const mine = mySeat();
    const dialog = $("result-dialog");
    dialog.classList.add("result101");
    $("result-title").textContent = title(frame);
    const won = match.over ? (match.winners || []).includes(mine) : result.reason === "finished" && result.finisher === mine;
    dialog.classList.toggle("won", mine !== null && won);
    const nodes = [el("p", "how", how(result))];
    if (result.reason !== "cancelled") nodes.push(handTable(result, mine));
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
      const left = Math.max(0, (match.hands || 0) - (match.hands_played || 0));
      const ends = Date.now() + nextHandSeconds * 1000;
      clearInterval(countdownTimer);
      const tick = () => {
        const seconds = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
        next.textContent = `${fmt(T.what_next_hand, { n: seconds })}${left ? ` · ${fmt(T.s101_hands_left, { n: left })}` : ""}`;
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

  return { showResult };
}
