/* The player's hand of Kart Okey: 10 cards (11 after the draw) in one row that always fits the
   screen — the cards overlap as much as the width needs, the rank and suit in each card's corner
   stay in view. The player keeps their own order (localStorage per hand): drag a card (pointer
   events: a mouse, a finger or a pen) to another place in the row, onto a meld on the table (lay
   off) or onto the discard pile (the turn goes); a tap picks a card (several at once, to meld).
   "Türe diz" sorts by suit then rank, "Sayıya diz" by rank then suit.

   Keys on a card: Enter/Space pick it, ←/→ move it, Delete or "d" discards it, "p" melds the
   picked cards (`onKey` gets the rest). */

import { rankOf, suitOf } from "./cards.js";

// Black and red suits in turn when sorted: ♠ ♥ ♣ ♦.
const SUIT_ORDER = "MKSR";

export function makeHand({ cards, tableId, onDrop, onChange, onKey, dropTargets }) {
  const $ = (id) => document.getElementById(id);
  let order = [];                  // the cards in the player's order
  let picked = new Set();          // indices into `order`
  let handId = null;
  let drag = null;
  // `order` holds every card the player owns this turn, those staged onto the table too (hidden
  // while staged): a refused or undone turn puts them back where they were.
  let look = { staged: [], hidden: [], drawn: null };

  const layoutKey = (id) => `kart-layout-${tableId}-${id}`;
  function load(id) {
    handId = id;
    order = [];
    picked = new Set();
    try {
      const saved = JSON.parse(localStorage.getItem(layoutKey(id)) || "null");
      if (Array.isArray(saved)) order = saved.filter((card) => typeof card === "string");
    } catch (e) { /* a broken saved order is simply ignored */ }
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (key && key.startsWith(`kart-layout-${tableId}-`) && key !== layoutKey(id)) localStorage.removeItem(key);
    }
  }
  function save() { if (handId !== null) localStorage.setItem(layoutKey(handId), JSON.stringify(order)); }

  /* Keep the player's order; a card that left leaves; a new one goes at the end. */
  function reconcile(hand) {
    const want = {};
    for (const card of hand) want[card] = (want[card] || 0) + 1;
    const have = {};
    const keptPicked = new Set();
    const next = [];
    order.forEach((card, index) => {
      have[card] = (have[card] || 0) + 1;
      if (have[card] > (want[card] || 0)) return;
      if (picked.has(index)) keptPicked.add(next.length);
      next.push(card);
    });
    const count = {};
    for (const card of next) count[card] = (count[card] || 0) + 1;
    for (const card of hand) {
      if ((count[card] || 0) > 0) { count[card] -= 1; continue; }
      next.push(card);
    }
    order = next;
    picked = keptPicked;
    save();
  }

  function pickedCards() { return [...picked].sort((a, b) => a - b).map((index) => order[index]); }
  function clearPicked() { picked = new Set(); render(); }
  function toggle(index) {
    if (order[index] === undefined) return;
    if (picked.has(index)) picked.delete(index); else picked.add(index);
    render();
    onChange();
    focusCard(index);
  }
  function focusCard(index) {
    const card = $("rack").querySelector(`.kcard[data-index="${index}"]`);
    if (card) card.focus({ preventScroll: true });
  }

  /* The card at `from` goes before the card at `before` (order.length: to the end). */
  function moveBefore(from, before) {
    if (from < 0 || from >= order.length) return;
    before = Math.max(0, Math.min(order.length, before));
    const to = before > from ? before - 1 : before;
    if (to === from) return;
    const pickedCardsNow = new Set([...picked].map((i) => order[i] + "#" + i));
    const entries = order.map((card, i) => ({ card, picked: pickedCardsNow.has(card + "#" + i) }));
    const [moving] = entries.splice(from, 1);
    entries.splice(to, 0, moving);
    order = entries.map((e) => e.card);
    picked = new Set(entries.flatMap((e, i) => (e.picked ? [i] : [])));
    save();
    render();
    onChange();
  }

  function keydown(event, index) {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(index); return; }
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      event.preventDefault();
      const shown = visibleIndices();
      const at = shown.indexOf(index);
      const left = event.key === "ArrowLeft";
      if ((left && at <= 0) || (!left && at >= shown.length - 1)) return;
      const before = left ? shown[at - 1] : shown[at + 1] + 1;
      moveBefore(index, before);
      focusCard(before > index ? before - 1 : before);
      return;
    }
    onKey(event, order[index], index);
  }

  /* The indices of `order` shown in the row (the staged-away cards are not). */
  function visibleIndices() {
    const hidden = [...(look.hidden || [])];
    const shown = [];
    order.forEach((card, index) => {
      const at = hidden.indexOf(card);
      if (at >= 0) hidden.splice(at, 1); else shown.push(index);
    });
    return shown;
  }

  /* Drawn again only when something it shows changed. */
  function render(next) {
    if (next) look = { hidden: [], ...next };
    if (drag && drag.moved) return;
    const rack = $("rack");
    const shown = visibleIndices();
    for (const index of [...picked]) if (!shown.includes(index)) picked.delete(index);
    const key = `${[...picked].join(",")}|${order.join(",")}|${shown.join(",")}|${look.staged.join(",")}|${look.drawn}`;
    if (rack.dataset.key === key && rack.childElementCount === shown.length) return;
    rack.dataset.key = key;
    rack.style.setProperty("--n", String(Math.max(shown.length, 2)));
    const staged = [...look.staged];
    let drawnMarked = false;
    rack.replaceChildren(...shown.map((index) => {
      const notation = order[index];
      const face = cards.card(notation);
      face.dataset.index = String(index);
      face.tabIndex = 0;
      face.setAttribute("role", "button");
      face.setAttribute("aria-pressed", String(picked.has(index)));
      if (picked.has(index)) face.classList.add("selected");
      const at = staged.indexOf(notation);
      if (at >= 0) { staged.splice(at, 1); face.classList.add("staged"); }
      else if (look.drawn === notation && !drawnMarked) { drawnMarked = true; face.classList.add("drawn"); }
      face.addEventListener("pointerdown", (event) => startDrag(event, index));
      face.addEventListener("keydown", (event) => keydown(event, index));
      return face;
    }));
  }

  /* Where in the row a card dropped at x goes: before the first card whose middle is right of x
     (an index among the other shown cards; faces.length: the end). */
  function placeAt(x, from) {
    const faces = [...$("rack").querySelectorAll(".kcard")].filter((face) => Number(face.dataset.index) !== from);
    let place = faces.length;
    for (let i = 0; i < faces.length; i++) {
      const box = faces[i].getBoundingClientRect();
      // Overlapping cards: the visible strip of a card is its left part; its "middle" is that strip's.
      const next = faces[i + 1] ? faces[i + 1].getBoundingClientRect().left : box.right;
      if (x < (box.left + Math.min(box.right, next)) / 2) { place = i; break; }
    }
    return place;
  }
  function orderIndexOfPlace(place, from) {
    const faces = [...$("rack").querySelectorAll(".kcard")].filter((face) => Number(face.dataset.index) !== from);
    return place < faces.length ? Number(faces[place].dataset.index) : order.length;
  }

  function startDrag(event, index) {
    if (event.button !== undefined && event.button !== 0) return;
    event.preventDefault();
    const source = event.currentTarget;
    drag = { index, card: order[index], startX: event.clientX, startY: event.clientY, ghost: null, moved: false, over: null, place: null };
    const rack = $("rack");
    const onMove = (moveEvent) => {
      if (!drag) return;
      if (!drag.moved && Math.hypot(moveEvent.clientX - drag.startX, moveEvent.clientY - drag.startY) < 6) return;
      if (!drag.ghost) {
        drag.moved = true;
        drag.ghost = source.cloneNode(true);
        drag.ghost.classList.add("ghost");
        drag.ghost.classList.remove("selected");
        const box = source.getBoundingClientRect();
        drag.ghost.style.width = `${box.width}px`;
        drag.ghost.style.height = `${box.height}px`;
        drag.dx = box.width / 2;
        drag.dy = box.height / 2;
        document.body.append(drag.ghost);
        source.classList.add("dragging");
        document.getElementById("okey-table").classList.add("dragging-tile");
      }
      drag.ghost.style.transform = `translate(${moveEvent.clientX - drag.dx}px, ${moveEvent.clientY - drag.dy}px) scale(1.06)`;
      const hit = document.elementFromPoint(moveEvent.clientX, moveEvent.clientY);
      const inRack = !!(hit && hit.closest("#rack"));
      const target = hit && !inRack ? hit.closest(dropTargets) : null;
      if (target !== drag.over) {
        if (drag.over) drag.over.classList.remove("drop-ok");
        drag.over = target;
        if (target) target.classList.add("drop-ok");
      }
      for (const face of rack.querySelectorAll(".insert-before, .insert-after")) face.classList.remove("insert-before", "insert-after");
      drag.place = inRack ? placeAt(moveEvent.clientX, drag.index) : null;
      if (drag.place !== null) {
        const faces = [...rack.querySelectorAll(".kcard")].filter((face) => Number(face.dataset.index) !== drag.index);
        if (faces[drag.place]) faces[drag.place].classList.add("insert-before");
        else if (faces.length) faces[faces.length - 1].classList.add("insert-after");
      }
    };
    const onUp = (up) => {
      document.removeEventListener("pointermove", onMove);
      document.removeEventListener("pointerup", onUp);
      document.removeEventListener("pointercancel", onUp);
      const current = drag;
      drag = null;
      document.getElementById("okey-table").classList.remove("dragging-tile");
      if (!current) return;
      if (current.over) current.over.classList.remove("drop-ok");
      if (current.ghost) current.ghost.remove();
      source.classList.remove("dragging");
      if (!current.moved) { toggle(current.index); return; }
      let from = current.index;
      if (order[from] !== current.card) from = order.indexOf(current.card);
      if (up.type !== "pointercancel" && from >= 0) {
        if (current.over) { rack.dataset.key = ""; render(); onDrop(current.card, current.over, from); return; }
        if (current.place !== null) { moveBefore(from, orderIndexOfPlace(current.place, current.index)); return; }
      }
      rack.dataset.key = "";
      render();
    };
    document.addEventListener("pointermove", onMove);
    document.addEventListener("pointerup", onUp);
    document.addEventListener("pointercancel", onUp);
  }

  /* By suit (♠ ♥ ♣ ♦, each low to high) or by rank (A to K, suits in the same order). */
  function sortBy(kind) {
    const keep = pickedCards();
    const suit = (card) => SUIT_ORDER.indexOf(suitOf(card));
    order.sort(kind === "rank" ? (a, b) => rankOf(a) - rankOf(b) || suit(a) - suit(b) : (a, b) => suit(a) - suit(b) || rankOf(a) - rankOf(b));
    picked = new Set();
    const left = [...keep];
    order.forEach((card, index) => { const at = left.indexOf(card); if (at >= 0) { picked.add(index); left.splice(at, 1); } });
    save();
    render();
    onChange();
  }

  return { load, reconcile, render, pickedCards, clearPicked, sortBy, toggle, order: () => [...order], isDragging: () => !!(drag && drag.moved) };
}
