/* Kart Okey's melds read on the page exactly as the engine reads them (games/engine/kart/melds.py,
   RULES.md "Kart Okey", rule 4), so a meld or a lay-off that cannot be is said at once, before
   anything is sent (the server checks the whole turn again). Cards are in notation ("K5").

   Run: 3 or more of one suit, consecutive; the ace low (A-2-3) or high (Q-K-A), never both and
   never K-A-2. Set: 3 or 4 of one rank, every suit different. A refusal is a MeldError whose
   `reason` is a key of the page's strings. */

import { cardValue, rankOf, suitOf } from "./cards.js";

export const RUN = "run";
export const SET = "set";

export class MeldError extends Error {
  constructor(reason, values) { super(reason); this.reason = reason; this.values = values || {}; }
}

const position = (card, aceHigh) => (rankOf(card) === 1 && aceHigh ? 14 : rankOf(card));

function reading(kind, cards, aceHigh) {
  return { kind, cards, aceHigh: !!aceHigh, value: cards.reduce((sum, card) => sum + cardValue(card), 0) };
}

export function readRun(cards) {
  if (cards.length < 3) throw new MeldError("k_meld_short");
  if (new Set(cards.map(suitOf)).size > 1) throw new MeldError("k_run_suit");
  const ranks = cards.map(rankOf);
  if (new Set(ranks).size < ranks.length) throw new MeldError(ranks.filter((r) => r === 1).length > 1 ? "k_run_aces" : "k_run_twice");
  for (const aceHigh of [false, true]) {
    const positions = cards.map((card) => position(card, aceHigh)).sort((a, b) => a - b);
    if (positions[positions.length - 1] - positions[0] === positions.length - 1) {
      const ordered = [...cards].sort((a, b) => position(a, aceHigh) - position(b, aceHigh));
      return reading(RUN, ordered, aceHigh && ranks.includes(1));
    }
  }
  if (ranks.includes(1) && ranks.includes(13) && ranks.includes(2)) throw new MeldError("k_run_corner");
  throw new MeldError("k_run_gap");
}

export function readSet(cards) {
  if (cards.length < 3) throw new MeldError("k_meld_short");
  if (cards.length > 4) throw new MeldError("k_set_big");
  if (new Set(cards.map(rankOf)).size > 1) throw new MeldError("k_set_rank");
  if (new Set(cards.map(suitOf)).size < cards.length) throw new MeldError("k_set_suits");
  return reading(SET, [...cards].sort((a, b) => "MKRS".indexOf(suitOf(a)) - "MKRS".indexOf(suitOf(b))));
}

/* Of `kind` when given; else the kind the player most likely meant names the reason. */
export function readMeld(cards, kind) {
  if (kind === RUN) return readRun(cards);
  if (kind === SET) return readSet(cards);
  const ranks = new Set(cards.map(rankOf)).size;
  const suits = new Set(cards.map(suitOf)).size;
  const meantSet = ranks === 1 || ranks < suits;
  const [first, second] = meantSet ? [readSet, readRun] : [readRun, readSet];
  try { return first(cards); } catch (error) {
    try { return second(cards); } catch (ignored) { throw error; }
  }
}

/* The meld read with `card` laid off on it, or null. */
export function extended(kind, cards, card) {
  try { return readMeld([...cards, card], kind); } catch (error) { return null; }
}
