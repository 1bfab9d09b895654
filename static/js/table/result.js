/* The result panel of a hand and of a match: who won and how (the winning hand's groups and the
   tile put on the centre), every player's change explained part by part (the server's outcome of
   the hand: games/outcome.py), the chips the ledger moved, the totals and, at the end of a rated
   match, the ratings; eşli: one row per team. Who won is always the server's word. */

import { $, fmt, num, signed } from "./format.js";

export function makeResultPanel({ T, root, currentFrame, mySeat, playerName, standing, tiles, textWithTile,
                                  isSeatedAtTable, nextHandSeconds }) {
  const { teams, teamOf, higherIsBetter } = standing;
  const tileElement = tiles.tile;
  const standIns = tiles.standIns;
  const NEXT_HAND_SECONDS = nextHandSeconds;
  function teamName(team) { return teams()[team].map(playerName).join(" & "); }

  // -- end of hand and match ------------------------------------------------------------------
  function groupKind(group, okey) {
    const faces = group.filter((t) => t !== okey).map((t) => (t === "J" ? okey : t));
    if (faces.length >= 2 && faces.every((t) => t === faces[0])) return T.group_pair;
    const colours = new Set(faces.map((t) => t[0]));
    const numbers = new Set(faces.map((t) => t.slice(1)));
    if (colours.size <= 1 && numbers.size === faces.length) return T.group_run;
    return T.group_set;
  }

  function finishHow(finish) {
    const parts = [finish.kind === "pairs" ? T.how_pairs : T.how_sets];
    if (finish.color) parts.push(finish.color === "ordered" ? T.how_ordered_color : T.how_color);
    if (finish.okey_finish) parts.push(T.okey_finish);
    return parts.join(", ");
  }

  let countdownTimer = null;
  const PART_NAMES = { finish: () => T.part_finish, indicator: () => T.part_indicator, pile_out: () => T.part_pile_out };

  function showResult() {
    const frame = currentFrame();
    const hand = frame.hand;
    const match = frame.match || {};
    const result = hand.result || {};
    const dialog = $("result-dialog");
    const body = $("result-body");
    const nodes = [];
    const el = (tag, className, text) => { const n = document.createElement(tag); if (className) n.className = className; if (text !== undefined) n.textContent = text; return n; };
    const mine = mySeat();
    // Who won is the server's word: the hand's finisher, and at the end of a match the winners it
    // recorded (MatchPlayer.is_winner: a player who left or never played is none). Never the scores.
    const winners = match.over ? (match.winners || []) : [];
    const finished = result.reason === "finished" || !!result.finish;
    let title;
    if (match.over) {
      if (mine !== null && winners.includes(mine)) title = teams() ? T.your_team_won_match : T.you_won_match;
      else if (winners.length && teams()) title = fmt(T.match_won_by_team, { names: teamName(teamOf(winners[0])) });
      else if (winners.length) title = fmt(T.match_won_by, { names: winners.map(playerName).join(", ") });
      else title = T.match_no_winner;
    } else if (finished && mine !== null && result.finisher === mine) title = T.you_won_hand;
    else if (finished && mine !== null && teams() && teamOf(result.finisher) === teamOf(mine)) title = fmt(T.partner_finished, { name: playerName(result.finisher) });
    else title = finished ? fmt(T.finished_by, { name: playerName(result.finisher) }) : T.hand_over;
    $("result-title").textContent = title;
    dialog.classList.toggle("won", (match.over ? winners.includes(mine) : finished && result.finisher === mine) && mine !== null);
    if (finished) {
      const finish = result.finish || { groups: [] };
      const how = finishHow(finish) + (result.double_okey ? `, ${T.double_okey}` : "");
      nodes.push(el("p", "how", result.finisher === mine ? fmt(T.you_finished_how, { how }) : fmt(T.they_finished_how, { name: playerName(result.finisher), how })));
      // The winning hand, shown: its groups, and the tile put on the centre.
      const reveal = el("div", "result-reveal");
      reveal.setAttribute("aria-label", T.winning_hand);
      const groups = el("div", "result-groups");
      for (const group of finish.groups || []) {
        const box = el("div", "result-group group");
        const tiles = el("div", "tiles");
        const stands = standIns(group, hand.okey);
        group.forEach((tile, i) => tiles.append(tileElement(tile, hand.okey, { as: stands[i] })));
        box.append(tiles, el("small", "", groupKind(group, hand.okey)));
        groups.append(box);
      }
      reveal.append(groups);
      if (finish.discard) {
        const line = el("p", "finish-tile");
        line.append(document.createTextNode(`${T.finishing_tile}: `), tileElement(finish.discard, hand.okey));
        reveal.append(line);
      }
      nodes.push(reveal);
    } else {
      // No finisher: the pile ran out, or a shown indicator took a score to zero at the deal.
      nodes.push(el("p", "how", result.reason === "match_over" ? T.zero_by_indicator : T.pile_out));
    }
    for (const seat of result.shown_indicators || []) {
      const line = el("p", "shown");
      line.append(...textWithTile(seat === mine ? T.my_indicator : T.feed_indicator, { name: playerName(seat) }, hand.indicator, hand.okey));
      nodes.push(line);
    }
    // Every player's change, explained part by part (the server's outcome of this hand), the chips
    // the ledger moved, the new total and, at the end of a rated match, the rating.
    const entry = (match.history || []).find((h) => h.hand === hand.number);
    const outcome = match.outcome && match.outcome.hand === hand.number ? match.outcome : null;
    const chips = match.rules && match.rules.scoring === "chips";
    const table = el("table", "result-table");
    const head = el("tr");
    head.append(el("th", "", T.player), el("th", "num", T.change), el("th", "num", T.total));
    table.append(head);
    // Eşli: one row per team (its first seat speaks for it: partners share one score).
    const seatsInOrder = teams() ? teams().map((team) => team[0]) : [...Array(hand.players).keys()];
    if (match.over) seatsInOrder.sort((a, b) => standing(b) - standing(a));
    function standing(seat) {
      const score = (entry ? entry.scores : match.scores || [])[seat] || 0;
      return (winners.includes(seat) ? 1e6 : 0) + (higherIsBetter() ? score : -score);
    }
    for (const seat of seatsInOrder) {
      const row = el("tr");
      row.dataset.seat = String(seat);
      if (winners.includes(seat)) row.classList.add("winner");
      const team = teamOf(seat);
      if (seat === mine || (team >= 0 && team === teamOf(mine))) row.classList.add("me");
      if (team >= 0) row.dataset.team = String(team);
      const about = outcome ? outcome.seats[seat] || {} : {};
      const nameCell = el("td", "who");
      nameCell.append(el("span", "name", team >= 0 ? teamName(team) : playerName(seat)));
      // Ratings: each member's own (partners are rated as one team, but each keeps a rating).
      for (const member of team >= 0 ? teams()[team] : [seat]) {
        const rating = outcome && outcome.seats[member] ? outcome.seats[member].rating : null;
        if (!rating) continue;
        const moved = rating.after - rating.before;
        const text = `${fmt(T.rating_change, { before: rating.before, after: rating.after })}\u00a0(${signed(moved)})`;
        const line = el("small", "rating", team >= 0 ? `${playerName(member)}: ${text}` : text);
        if (moved) line.classList.add(moved > 0 ? "up" : "down");
        nameCell.append(line);
      }
      const delta = entry ? entry.deltas[seat] : null;
      const total = entry ? entry.scores[seat] : (match.scores || [])[seat];
      const deltaCell = el("td", "num delta");
      if (delta !== null && delta !== undefined) {
        // At a chip table the chips are what the ledger moved for this hand (a bot pays and gets none).
        const paid = chips && outcome ? (about.chips === null || about.chips === undefined ? 0 : about.chips) : delta;
        deltaCell.append(el("b", "", chips ? fmt(T.chips_won, { n: signed(paid) }) : (delta ? signed(delta) : "0")));
        const moved = chips ? paid : delta;
        const good = higherIsBetter() ? moved > 0 : moved < 0;
        if (moved) deltaCell.classList.add(good ? "up" : "down");
        const parts = about.parts || [];
        const why = el("small", "parts", parts.length
          ? parts.map((p) => `${PART_NAMES[p.why] ? PART_NAMES[p.why]() : p.why}\u00a0${signed(p.points)}`).join(" · ")
          : T.no_change);
        deltaCell.append(why);
      }
      if (about.chips !== null && about.chips !== undefined && !chips) {
        deltaCell.append(el("small", "chips", fmt(T.chips_won, { n: signed(about.chips) })));
      }
      row.append(nameCell, deltaCell, el("td", "num", total === undefined ? "" : (chips ? signed(total) : num(total))));
      table.append(row);
    }
    nodes.push(table);
    const next = el("p", "what-next");
    if (match.over) {
      const prizes = match.prizes || [];
      if (Array.isArray(prizes) && prizes.some((p) => p)) {
        nodes.push(el("p", "", `${T.prizes}: ${prizes.map((p, s) => `${playerName(s)} ${num(p)}`).join(", ")}`));
      }
      if (root.dataset.tournamentUrl) {
        next.append(document.createTextNode(`${T.what_next_tournament} `));
        const back = el("a", "", T.tournament_link);
        back.href = root.dataset.tournamentUrl;
        next.append(back);
      } else if (isSeatedAtTable()) next.textContent = T.what_next_match;
    } else {
      const ends = Date.now() + NEXT_HAND_SECONDS * 1000;
      clearInterval(countdownTimer);
      const tick = () => {
        const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
        next.textContent = fmt(T.what_next_hand, { n: left });
        if (!left) clearInterval(countdownTimer);
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
    body.replaceChildren(...nodes);
    const seated = isSeatedAtTable();
    // A tournament seats its own tables: no rematch there.
    $("btn-rematch").hidden = !(match.over && seated && !root.dataset.tournamentUrl);
    $("btn-result-leave").hidden = !(match.over && seated);
    if (typeof dialog.showModal === "function" && !dialog.open) dialog.showModal();
    ($("btn-rematch").hidden ? $("result-close") : $("btn-rematch")).focus({ preventScroll: true });
  }

  return { showResult };
}
