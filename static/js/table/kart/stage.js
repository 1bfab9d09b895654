/* The staged turn of a Kart Okey table (docs/protocol.md "101 Okey tables": Kart follows the same
   two-message turn). The stock's top is drawn as a message of its own (it must be seen); then
   everything else stays on this page, drawn dashed, and goes to the server as one `turn` frame with
   the discard:
     { took: "K5" | null,                       // the discard pile's top, taken inside the turn
       actions: [{type: "meld", cards: [...]},   // in order, as the engine plays them
                 {type: "lay_off", meld: 3, card: "K8"}] }
   `project(hand, stage)` plays it on a copy of what the frame shows, as the engine would, and
   throws a StageError / MeldError (a reason key of the page's strings) where it does not fit. */

import { MeldError, extended, readMeld } from "./melds.js";

export class StageError extends Error {
  constructor(reason, values) { super(reason); this.reason = reason; this.values = values || {}; }
}

export function emptyStage() { return { took: null, actions: [] }; }
export function isEmpty(stage) { return !stage.took && !stage.actions.length; }
const copy = (stage) => ({ took: stage.took, actions: stage.actions.map((a) => ({ ...a, cards: a.cards ? [...a.cards] : undefined })) });

function take(hand, cards) {
  for (const card of cards) {
    const index = hand.indexOf(card);
    if (index < 0) throw new StageError("k_not_in_hand");
    hand.splice(index, 1);
  }
}

/* {hand (the cards left in hand), melds (each with `staged` and `stagedTiles`), nextId, fresh
   (the taken card), placed (cards put on the table this turn)}. */
export function project(hand, stage) {
  const cards = [...(hand.hand || [])];
  const fresh = [];
  if (stage.took) { cards.push(stage.took); fresh.push(stage.took); }
  const melds = (hand.melds || []).map((meld) => ({ ...meld, cards: [...meld.cards], staged: false, stagedTiles: [] }));
  let nextId = hand.next_meld_id || 1;
  const placed = [];
  for (const action of stage.actions) {
    if (action.type === "meld") {
      take(cards, action.cards);
      const reading = readMeld(action.cards);
      melds.push({ id: nextId++, owner: hand.seat, kind: reading.kind, cards: reading.cards, value: reading.value,
        ace_high: reading.aceHigh, staged: true, stagedTiles: [...action.cards] });
      placed.push(...action.cards);
    } else {
      const meld = melds.find((m) => m.id === action.meld);
      if (!meld) throw new StageError("k_no_meld");
      take(cards, [action.card]);
      const reading = extended(meld.kind, meld.cards, action.card);
      if (!reading) throw new StageError("k_not_layable");
      meld.cards = reading.cards;
      meld.value = reading.value;
      meld.stagedTiles.push(action.card);
      placed.push(action.card);
    }
    // Going out is discarding the last card: a card must stay in hand for it.
    if (!cards.length) throw new StageError("k_keep_one");
  }
  return { hand: cards, melds, nextId, fresh, placed };
}

/* What still fits a new frame: the taken card only while it is still the pile's top and nothing
   was drawn; the actions that still play, in order. */
export function normalize(hand, stage) {
  const kept = { took: stage.took && !hand.drawn && stage.took === hand.discard_top ? stage.took : null, actions: [] };
  for (const action of stage.actions) {
    try { project(hand, { ...kept, actions: [...kept.actions, action] }); kept.actions.push(action); } catch (error) {
      if (!(error instanceof StageError) && !(error instanceof MeldError)) throw error;
    }
  }
  return kept;
}

export function takeDiscard(hand, stage) {
  if (!hand.discard_top) throw new StageError("k_discard_empty");
  if (hand.drawn) throw new StageError("k_drew_already");
  return { ...copy(stage), took: hand.discard_top };
}

/* The taken card goes back on the pile (with whatever leaned on it). */
export function giveBack(hand, stage) { return normalize(hand, { ...copy(stage), took: null }); }

export function meld(hand, stage, cards) {
  if (cards.length < 3) throw new StageError("k_meld_short");
  readMeld(cards);
  const next = copy(stage);
  next.actions.push({ type: "meld", cards: [...cards] });
  project(hand, next);
  return next;
}

export function layOff(hand, stage, meldId, card) {
  const view = project(hand, stage);
  const target = view.melds.find((m) => m.id === meldId);
  if (!target) throw new StageError("k_no_meld");
  if (!extended(target.kind, target.cards, card)) throw new StageError("k_not_layable");
  const next = copy(stage);
  next.actions.push({ type: "lay_off", meld: meldId, card });
  project(hand, next);
  return next;
}

/* "Geri al": the last action undone; with none left, the taken card goes back. */
export function undo(hand, stage) {
  const next = copy(stage);
  if (next.actions.length) next.actions.pop();
  else next.took = null;
  return normalize(hand, next);
}

/* The `turn` frame (the engine's shape, cards in notation). */
export function turnFrame(stage, discard) {
  return {
    draw: stage.took ? "discard" : null,
    actions: stage.actions.map((a) => (a.type === "meld" ? { type: "meld", cards: [...a.cards] } : { type: "lay_off", meld: a.meld, card: a.card })),
    discard,
  };
}
