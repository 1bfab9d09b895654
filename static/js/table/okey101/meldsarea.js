/* The melds on the table (RULES.md "101 Okey", rule 15): grouped by player in play order from your
   own seat, each group headed by its owner and their opening total, every meld a drop target (lay
   off by dragging a tile onto it) and a button (tap it after picking a tile, or Enter on it). The
   staged part of your turn is drawn dashed: melds laid this turn, tiles laid off on a meld, and the
   opening being composed (each composed meld with a button to take it back).

   Shared with the Kart Okey table (static/js/tablekart.js): what differs between the games — how a
   meld's pieces are drawn and named, the group's head, the empty table's words — is a `look`
   (`look101` below is 101's; the card table passes its own). */

import { fmt } from "../format.js";
import { ordered } from "./melds.js";

/* 101's look: tiles with the okey drawn as the tile it stands for, the opening totals. */
export function look101(T, tiles) {
  return {
    you: T.m101_you,
    staged: T.m101_staged,
    meldStaged: T.m101_meld_staged,
    removeDraft: T.m101_remove_draft,
    pieces(meld, hand) {
      return ordered(meld.kind, meld.tiles, hand.okey).map(({ tile, as }) => ({ key: tile, face: tiles.tile(tile, hand.okey, { as }) }));
    },
    label(owner, meld, hand) {
      const words = ordered(meld.kind, meld.tiles, hand.okey).map(({ tile, as }) => (as ? fmt(T.okey_as, { tile: tiles.words(as) }) : tiles.words(tile, hand.okey)));
      return fmt(T.m101_meld_label, { name: owner, tiles: words.join(", "), value: meld.value });
    },
    headTotal(seat, { hand, view, mine }) {
      const opened = seat === mine ? view.opened : hand.opened[seat];
      const total = seat === mine ? view.openingTotal : hand.opening_totals[seat];
      if (!opened) return null;
      return { text: fmt(opened === "pairs" ? T.m101_opened_pairs : T.m101_opened_melds, { total }), staged: seat === mine && hand.opened[seat] === null };
    },
    showValue: (meld) => meld.staged,
    draftValue: (draft) => draft.kind !== "pair",
    empty(hand) {
      const needed = hand.opening_needed || { melds: 101, pairs: 5 };
      return [T.m101_no_melds, fmt(T.m101_needed, { points: needed.melds, pairs: needed.pairs })];
    },
  };
}

export function makeMeldsArea({ T, tiles, onMeldTap, onMeldKey, onDraftRemove, look }) {
  look = look || look101(T, tiles);
  const $ = (id) => document.getElementById(id);
  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  function meldTiles(meld, hand, staged) {
    const box = el("span", "meld__tiles");
    const left = [...(staged || [])];
    for (const { key, face } of look.pieces(meld, hand)) {
      const at = left.indexOf(key);
      if (at >= 0) { left.splice(at, 1); face.classList.add("staged"); }
      box.append(face);
    }
    return box;
  }

  /* `model`: {hand, view (the staged turn's table), drafts [{tiles, kind, value}], order,
     playerName, target (the meld picked as target), mine}; the opening's live counter is the
     controls' (table101.js renderCounter). */
  function render(model) {
    const { hand, view, drafts, order, playerName, target, mine } = model;
    const area = $("melds");
    const groups = [];
    for (const seat of order) {
      const melds = view.melds.filter((meld) => meld.owner === seat);
      const isMe = mine !== null && seat === mine;
      const myDrafts = isMe ? drafts : [];
      if (!melds.length && !myDrafts.length) continue;
      const group = el("section", "mgroup");
      group.dataset.owner = String(seat);
      if (isMe) group.classList.add("mine");
      const head = el("h3", "mgroup__head");
      head.append(el("span", "mgroup__name", isMe ? look.you : playerName(seat)));
      const total = look.headTotal(seat, { hand, view, mine, melds });
      if (total) {
        const line = el("span", "mgroup__total", total.text);
        if (isMe && total.staged) line.classList.add("staged");
        head.append(line);
      }
      group.append(head);
      const list = el("div", "mgroup__melds");
      for (const meld of melds) {
        const box = el("div", "meld");
        box.dataset.meld = String(meld.id);
        box.dataset.kind = meld.kind;
        box.tabIndex = 0;
        box.setAttribute("role", "button");
        box.setAttribute("aria-label", look.label(isMe ? look.you : playerName(seat), meld, hand) + (meld.staged ? ` (${look.meldStaged})` : ""));
        if (meld.staged) box.classList.add("staged");
        if (meld.stagedTiles.length) box.classList.add("has-staged");
        if (target === meld.id) box.classList.add("target");
        box.append(meldTiles(meld, hand, meld.stagedTiles));
        if (look.showValue(meld)) box.append(el("small", "meld__value", String(meld.value)));
        box.addEventListener("click", () => onMeldTap(meld.id));
        box.addEventListener("keydown", (event) => onMeldKey(event, meld.id));
        list.append(box);
      }
      myDrafts.forEach((draft, index) => {
        const box = el("div", "meld draft staged");
        box.dataset.draft = String(index);
        box.append(meldTiles(draft, hand, draft.tiles));
        if (look.draftValue(draft)) box.append(el("small", "meld__value", String(draft.value)));
        const remove = el("button", "meld__remove", "×");
        remove.type = "button";
        remove.setAttribute("aria-label", look.removeDraft);
        remove.title = look.removeDraft;
        remove.addEventListener("click", (event) => { event.stopPropagation(); onDraftRemove(index); });
        box.append(remove);
        list.append(box);
      });
      group.append(list);
      // Your staged part, said once under your melds: nothing of it has gone yet.
      if (isMe && (myDrafts.length || melds.some((meld) => meld.staged || meld.stagedTiles.length))) {
        group.append(el("p", "mgroup__note", look.staged));
      }
      groups.push(group);
    }
    if (!groups.length) {
      const empty = el("p", "melds__empty");
      look.empty(hand).forEach((text, index) => { if (index) empty.append(document.createTextNode(" ")); empty.append(el("span", "", text)); });
      groups.push(empty);
    }
    area.replaceChildren(...groups);
  }

  return { render };
}
