/* The staged turn of a 101 table (docs/protocol.md "101 Okey tables"): everything a player does
   between the draw and the discard stays on this page, shown as staged, and goes to the server as
   one `turn` frame with the discard. Nothing here is ever sent half-done; a refused turn keeps its
   stage, so the player can fix it.

   A stage is plain data:
     { took: "K5" | null,                 // the previous player's discard, taken (it must be used)
       drafts: [{tiles, kind}],           // melds composed for the opening, not yet "El aç"
       actions: [                          // in order, as the server plays them
         {type: "open", melds: [{tiles, kind}]}, {type: "lay_down", melds: [...]},
         {type: "lay_off", meld: 3, tile: "K13"}, {type: "swap", meld: 3, tile: "K11"}] }
   `project(hand, stage)` plays it on a copy of what the frame shows (the rack, the melds) exactly as
   the engine would, throwing a StageError (a reason key of the page's strings) where it does not
   fit; every change below is made on a copy too. */

import { PAIR, extended, readMeld, swapped } from "./melds.js";

export const MELDS = "melds";
export const PAIRS = "pairs";

export class StageError extends Error {
  constructor(reason, values) { super(reason); this.reason = reason; this.values = values || {}; }
}

export function emptyStage() { return { took: null, drafts: [], actions: [] }; }
export function isEmpty(stage) { return !stage.took && !stage.drafts.length && !stage.actions.length; }

function copy(stage) {
  return {
    took: stage.took,
    drafts: stage.drafts.map((meld) => ({ tiles: [...meld.tiles], kind: meld.kind })),
    actions: stage.actions.map((action) => ({ ...action, melds: action.melds ? action.melds.map((meld) => ({ tiles: [...meld.tiles], kind: meld.kind })) : undefined })),
  };
}

function take(rack, tiles) {
  for (const tile of tiles) {
    const index = rack.indexOf(tile);
    if (index < 0) throw new StageError("stage_not_in_rack");
    rack.splice(index, 1);
  }
}

/* The table as the staged turn leaves it. Returns {rack, melds, opened, openingTotal, layoffs,
   placed, nextId, fresh}: `melds` carry `staged` (laid this turn) and `stagedTiles` (tiles put on a
   meld this turn); `fresh` the tiles that came into the rack this turn (the taken discard, freed okeys). */
export function project(hand, stage) {
  const okey = hand.okey;
  const seat = hand.seat;
  const rack = [...(hand.rack || [])];
  const fresh = [];
  if (stage.took) { rack.push(stage.took); fresh.push(stage.took); }
  const melds = (hand.melds || []).map((meld) => ({ ...meld, tiles: [...meld.tiles], staged: false, stagedTiles: [] }));
  let nextId = hand.next_meld_id || 1;
  let opened = hand.opened ? hand.opened[seat] : null;
  let openingTotal = hand.opening_totals ? hand.opening_totals[seat] : null;
  let layoffs = 0;
  const placed = [];
  const lay = (specs) => {
    for (const spec of specs) {
      take(rack, spec.tiles);
      const reading = readMeld(spec.tiles, okey, spec.kind);
      melds.push({ id: nextId++, owner: seat, kind: reading.kind, tiles: [...spec.tiles], value: reading.value,
        stands_for: reading.standsFor, staged: true, stagedTiles: [...spec.tiles] });
      placed.push(...spec.tiles);
    }
  };
  const find = (id) => {
    const meld = melds.find((m) => m.id === id);
    if (!meld) throw new StageError("stage_no_meld");
    return meld;
  };
  const countLayoff = () => {
    const limit = hand.rules ? hand.rules.pairs_layoff_limit : 2;
    if (opened === PAIRS && limit !== null && limit !== undefined && layoffs >= limit) throw new StageError("layoff_limit", { limit });
    layoffs += 1;
  };
  for (const draft of stage.drafts) take(rack, draft.tiles);
  for (const action of stage.actions) {
    if (action.type === "open") {
      if (opened) throw new StageError("already_opened");
      const pairs = action.melds.every((meld) => meld.kind === PAIR);
      lay(action.melds);
      opened = pairs ? PAIRS : MELDS;
      openingTotal = pairs ? action.melds.length : action.melds.reduce((sum, meld) => sum + readMeld(meld.tiles, okey, meld.kind).value, 0);
    } else if (action.type === "lay_down") {
      if (!opened) throw new StageError("not_opened");
      lay(action.melds);
    } else if (action.type === "lay_off" || action.type === "swap") {
      if (!opened) throw new StageError("not_opened");
      const meld = find(action.meld);
      take(rack, [action.tile]);
      const reading = action.type === "lay_off" ? extended(meld.kind, meld.tiles, action.tile, okey) : swapped(meld.kind, meld.tiles, action.tile, okey);
      if (!reading) throw new StageError(action.type === "lay_off" ? "not_layable" : "bad_swap");
      countLayoff();
      if (action.type === "swap") {
        meld.tiles.splice(meld.tiles.indexOf(okey), 1);
        rack.push(okey);
        fresh.push(okey);
      }
      meld.tiles.push(action.tile);
      meld.stagedTiles.push(action.tile);
      meld.value = reading.value;
      meld.stands_for = reading.standsFor;
      placed.push(action.tile);
    }
  }
  return { rack, melds, opened, openingTotal, layoffs, placed, nextId, fresh };
}

/* The opening being composed: its kind (melds, pairs, or mixed), its total and what it needs. */
export function draftSummary(hand, stage) {
  const okey = hand.okey;
  const readings = stage.drafts.map((draft) => readMeld(draft.tiles, okey, draft.kind));
  const pairs = readings.filter((reading) => reading.kind === PAIR).length;
  const kind = !readings.length ? null : pairs === readings.length ? PAIRS : pairs ? "mixed" : MELDS;
  const needed = (hand.opening_needed || { melds: 101, pairs: 5 });
  const total = kind === PAIRS ? pairs : readings.reduce((sum, reading) => sum + (reading.kind === PAIR ? 0 : reading.value), 0);
  return { kind, total, needed: kind === PAIRS ? needed.pairs : needed.melds, count: readings.length };
}

/* Keep what still fits (after a new frame, or when the taken discard is given back): drafts and
   actions that no longer fit are dropped, in order, with everything that leans on them. */
export function normalize(hand, stage) {
  const kept = { took: stage.took, drafts: [], actions: [] };
  if (kept.took && kept.took !== hand.available_discard) kept.took = null;
  for (const draft of stage.drafts) {
    try { project(hand, { ...kept, drafts: [...kept.drafts, draft], actions: [] }); kept.drafts.push(draft); } catch (error) { if (!(error instanceof StageError)) throw error; }
  }
  for (const action of stage.actions) {
    try { project(hand, { ...kept, actions: [...kept.actions, action] }); kept.actions.push(action); } catch (error) { if (!(error instanceof StageError) && !error.reason) throw error; }
  }
  return kept;
}

/* -- what a player does (each returns a new stage, or throws a StageError / MeldError) --------- */

export function takeDiscard(hand, stage) {
  if (!hand.available_discard) throw new StageError("discard_pile_empty");
  return { ...copy(stage), took: hand.available_discard };
}

export function giveBack(hand, stage) {
  return normalize(hand, { ...copy(stage), took: null });
}

/* A meld from the selected tiles: before the opening it goes into the opening being composed;
   after it (this turn or earlier) it is laid down at once, of the opening's kind only. */
export function makeMeld(hand, stage, tiles) {
  const reading = readMeld(tiles, hand.okey);
  const view = project(hand, stage);
  const spec = { tiles: [...tiles], kind: reading.kind };
  const next = copy(stage);
  if (!view.opened) next.drafts.push(spec);
  else {
    if ((view.opened === PAIRS) !== (reading.kind === PAIR)) throw new StageError(view.opened === PAIRS ? "wrong_kind_pairs" : "wrong_kind_melds");
    next.actions.push({ type: "lay_down", melds: [spec] });
  }
  project(hand, next);
  return next;
}

export function removeDraft(hand, stage, index) {
  const next = copy(stage);
  next.drafts.splice(index, 1);
  return next;
}

/* "El aç": the composed melds become the opening (still staged: nothing is sent before the discard).
   Below the threshold only when the same turn can finish elden: every tile but one in the melds,
   while nobody else has opened. */
export function openHand(hand, stage) {
  if (!stage.drafts.length) throw new StageError("open_nothing");
  const summary = draftSummary(hand, stage);
  if (summary.kind === "mixed") throw new StageError("mixed_opening");
  const view = project(hand, stage);
  const nobodyOpened = (hand.opened || []).every((kind, seat) => seat === hand.seat || !kind);
  const elden = nobodyOpened && view.rack.length === 1 && !stage.actions.length;
  if (summary.total < summary.needed && !elden) {
    throw new StageError(summary.kind === PAIRS ? "opening_too_low_pairs" : "opening_too_low_melds", { needed: summary.needed, total: summary.total });
  }
  const next = copy(stage);
  next.actions.push({ type: "open", melds: next.drafts });
  next.drafts = [];
  project(hand, next);
  return next;
}

/* A tile onto a meld: as an extra tile when it fits, else in place of the meld's okey (the swap). */
export function layOff(hand, stage, meldId, tile, how) {
  const view = project(hand, stage);
  if (!view.opened) throw new StageError("not_opened");
  const meld = view.melds.find((m) => m.id === meldId);
  if (!meld) throw new StageError("stage_no_meld");
  if (meld.kind === PAIR) throw new StageError("not_layable_pair");
  const fits = how !== "swap" && extended(meld.kind, meld.tiles, tile, hand.okey);
  const swaps = how !== "lay_off" && !fits && swapped(meld.kind, meld.tiles, tile, hand.okey);
  if (!fits && !swaps) throw new StageError(how === "swap" ? "bad_swap" : "not_layable");
  const next = copy(stage);
  next.actions.push({ type: fits ? "lay_off" : "swap", meld: meldId, tile });
  project(hand, next);
  return next;
}

export function canSwap(hand, stage, meldId, tile) {
  try { layOff(hand, stage, meldId, tile, "swap"); return true; } catch (error) { return false; }
}
export function canLayOff(hand, stage, meldId, tile) {
  try { layOff(hand, stage, meldId, tile, "lay_off"); return true; } catch (error) { return false; }
}

/* "Geri al": the last step undone (an opening goes back to being composed). */
export function undo(hand, stage) {
  const next = copy(stage);
  if (next.drafts.length) { next.drafts.pop(); return next; }
  const last = next.actions.pop();
  if (last && last.type === "open") next.drafts = last.melds;
  else if (!last && next.took) next.took = null;
  return normalize(hand, next);
}

/* The `turn` frame's fields (docs/protocol.md): each meld as "kind: tiles", so the server reads it
   as the page did. */
export function turnFrame(stage, discard) {
  const wire = (meld) => `${meld.kind}: ${meld.tiles.join(" ")}`;
  return {
    draw: stage.took ? "discard" : null,
    actions: stage.actions.map((action) => (action.melds
      ? { type: action.type, melds: action.melds.map(wire) }
      : { type: action.type, meld: action.meld, tile: action.tile })),
    discard,
  };
}
