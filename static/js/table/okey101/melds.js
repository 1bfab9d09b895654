/* 101's melds read on the page (RULES.md "101 Okey", rules 3 and 4): a mirror of the engine's
   games/engine/okey101/melds.py, so the table can count an opening as it is composed ("Açış: 87 /
   101"), say at once why a set of tiles is no meld, and warn before an işlek discard. The server
   reads every turn again and is the only judge: this is the live counter, never the rule.

   Tiles are in notation ("K5"; "J" a false joker). A wild okey (the tile equal to `okey`) stands in
   for any tile of a run or group that holds a real tile, and pairs with any tile; a false joker is
   a plain tile of the okey's face. A run is 3–13 tiles of one colour, 1 low only (no 12-13-1); a
   group 3–4 of one number in different colours; a pair two identical tiles. Values: a tile its
   number; an okey the tile it stands for, at the end of a run that gives the run its highest value. */

export const RUN = "run";
export const GROUP = "group";
export const PAIR = "pair";
const LONGEST_RUN = 13;
const MIN_MELD = 3;
const MAX_GROUP = 4;
export const OKEY_IN_RACK = 101;

/* A set of tiles that is no meld: `reason` names why (a key of the page's strings). */
export class MeldError extends Error {
  constructor(reason) { super(reason); this.reason = reason; }
}

const colorOf = (tile) => tile[0];
const numberOf = (tile) => Number(tile.slice(1));
/* The face a plain tile plays as: a false joker is exactly the okey's face. */
export function faceOf(tile, okey) { return tile === "J" ? okey : tile; }
export function tileValue(tile, okey) { return numberOf(faceOf(tile, okey)); }
/* What an opened player's rack costs (rule 11): numbers, a wild okey 101. */
export function rackValue(tiles, okey) {
  return tiles.reduce((sum, tile) => sum + (tile === okey ? OKEY_IN_RACK : tileValue(tile, okey)), 0);
}

function split(tiles, okey) {
  const faces = tiles.filter((tile) => tile !== okey).map((tile) => faceOf(tile, okey));
  return { faces, wilds: tiles.length - faces.length };
}

export function readRun(tiles, okey) {
  const { faces } = split(tiles, okey);
  const length = tiles.length;
  if (length < MIN_MELD) throw new MeldError("meld_short");
  if (length > LONGEST_RUN) throw new MeldError("run_long");
  if (!faces.length) throw new MeldError("meld_no_real");
  if (new Set(faces.map(colorOf)).size > 1) throw new MeldError("run_colour");
  const numbers = faces.map(numberOf);
  if (new Set(numbers).size < numbers.length) throw new MeldError("run_twice");
  // The highest window of `length` numbers inside 1..13 that covers every real number.
  const start = Math.min(Math.min(...numbers), LONGEST_RUN + 1 - length);
  if (start + length - 1 < Math.max(...numbers)) {
    if (numbers.includes(1) && Math.max(...numbers) >= 12) throw new MeldError("run_wrap");
    throw new MeldError("run_gap");
  }
  const color = colorOf(faces[0]);
  let value = 0;
  const standsFor = [];
  for (let number = start; number < start + length; number++) {
    value += number;
    if (!numbers.includes(number)) standsFor.push(`${color}${number}`);
  }
  return { kind: RUN, value, standsFor };
}

export function readGroup(tiles, okey) {
  const { faces } = split(tiles, okey);
  if (tiles.length < MIN_MELD || tiles.length > MAX_GROUP) throw new MeldError("group_size");
  if (!faces.length) throw new MeldError("meld_no_real");
  if (new Set(faces.map(numberOf)).size > 1) throw new MeldError("group_number");
  if (new Set(faces).size < faces.length) throw new MeldError("group_colour");
  return { kind: GROUP, value: numberOf(faces[0]) * tiles.length, standsFor: [] };
}

export function readPair(tiles, okey) {
  const { faces, wilds } = split(tiles, okey);
  if (tiles.length !== 2) throw new MeldError("pair_size");
  if (wilds === 0 && faces[0] !== faces[1]) throw new MeldError("pair_same");
  // An okey counts the tile it pairs with; two okeys count the okey's face.
  return { kind: PAIR, value: 2 * numberOf(faces.length ? faces[0] : okey), standsFor: [] };
}

const READERS = { [RUN]: readRun, [GROUP]: readGroup, [PAIR]: readPair };

/* Read an unordered set of tiles as a meld (of `kind`, or the reading worth most: a run on a tie),
   or throw a MeldError with the reason. */
export function readMeld(tiles, okey, kind) {
  if (kind) return READERS[kind](tiles, okey);
  if (tiles.length === 2) return readPair(tiles, okey);
  const readings = [];
  const problems = [];
  for (const reader of [readRun, readGroup]) {
    try { readings.push(reader(tiles, okey)); } catch (error) { if (error instanceof MeldError) problems.push(error); else throw error; }
  }
  if (!readings.length) {
    const { faces } = split(tiles, okey);
    // Name the closer kind: one number means the player meant a group.
    const meantGroup = new Set(faces.map(numberOf)).size === 1 && tiles.length <= MAX_GROUP;
    throw meantGroup ? problems[1] : problems[0];
  }
  return readings.reduce((best, reading) => (reading.value > best.value ? reading : best));
}

export function isMeld(tiles, okey, kind) {
  try { readMeld(tiles, okey, kind); return true; } catch (error) { if (error instanceof MeldError) return false; throw error; }
}

/* The meld's reading with `tile` laid off on it as an extra tile, or null. Nothing goes on a pair. */
export function extended(kind, tiles, tile, okey) {
  if (kind === PAIR) return null;
  try { return readMeld([...tiles, tile], okey, kind); } catch (error) { if (error instanceof MeldError) return null; throw error; }
}

/* The okey swap (rule 8): the meld with `tile` in place of one okey, or null. In a run the tile
   must be one the okey stands for; in a group only when real tiles then fill all four colours. */
export function swapped(kind, tiles, tile, okey) {
  if (kind === PAIR || !tiles.includes(okey) || tile === okey) return null;
  const rest = [...tiles];
  rest.splice(rest.indexOf(okey), 1);
  if (kind === GROUP && (tiles.length !== MAX_GROUP || rest.includes(okey))) return null;
  try { return readMeld([...rest, tile], okey, kind); } catch (error) { if (error instanceof MeldError) return null; throw error; }
}

/* Rule 9: could `tile` be laid off on a run or group on the table as an extra tile? */
export function isIslek(tile, melds, okey) {
  return melds.some((meld) => extended(meld.kind, meld.tiles, tile, okey) !== null);
}

/* A meld's tiles in the order a player reads them: a run low to high with each okey where it
   stands, a group and a pair as they are. Returns [{tile, as}] (`as`: what an okey stands for). */
export function ordered(kind, tiles, okey) {
  let reading;
  try { reading = readMeld(tiles, okey, kind); } catch (error) { return tiles.map((tile) => ({ tile, as: null })); }
  if (reading.kind === RUN) {
    const reals = tiles.filter((tile) => tile !== okey);
    const wilds = tiles.filter((tile) => tile === okey);
    const color = colorOf(faceOf(reals[0], okey));
    const stands = [...reading.standsFor];
    const numbers = reals.map((tile) => numberOf(faceOf(tile, okey)));
    const start = Math.min(...numbers, ...stands.map(numberOf));
    const out = [];
    for (let number = start; out.length < tiles.length; number++) {
      const real = reals.findIndex((tile) => numberOf(faceOf(tile, okey)) === number);
      if (real >= 0) out.push({ tile: reals.splice(real, 1)[0], as: null });
      else if (wilds.length) { wilds.pop(); out.push({ tile: okey, as: `${color}${number}` }); }
      else break;
    }
    return out;
  }
  const reals = tiles.filter((tile) => tile !== okey).map((tile) => ({ tile, as: null }));
  const face = reals.length ? faceOf(reals[0].tile, okey) : okey;
  if (reading.kind === PAIR) return [...reals, ...tiles.filter((tile) => tile === okey).map(() => ({ tile: okey, as: face }))];
  // A group: each okey stands for a colour the real tiles do not have.
  const missing = ["K", "S", "M", "Y"].filter((c) => !reals.some(({ tile }) => colorOf(faceOf(tile, okey)) === c));
  return [...reals, ...tiles.filter((tile) => tile === okey).map(() => ({ tile: okey, as: `${missing.shift() || colorOf(face)}${numberOf(face)}` }))];
}
