/* The 101 rack: 22 tiles (and their gaps) in slots, three rows of ten on a portrait phone and two of
   fifteen elsewhere, as the classic table's rack (the same tile sizes: table.css --tw/--th/--cols).
   The player keeps their own layout (localStorage per hand); tiles are picked several at a time
   (a tap toggles one) to form a meld; a tile is dragged to another slot, onto a meld on the table
   (lay off), or onto the discard spot (the turn goes). Tiles the staged turn brought in (the taken
   discard, an okey freed by a swap) are drawn as staged; the tile just drawn is marked.

   Keys on a tile: Enter/Space pick it, arrows move it, Delete or "d" discards it, "p" makes a meld
   of the picked tiles (`onKey` gets the rest). */

export const SLOTS = 30;

export function makeRack({ root, tiles, tableId, onDrop, onChange, onKey, dropTargets }) {
  const $ = (id) => document.getElementById(id);
  let slots = new Array(SLOTS).fill(null);
  let picked = new Set();          // slot indices picked
  let handId = null;
  let drag = null;
  const columns = () => Number(getComputedStyle(root).getPropertyValue("--cols")) || 15;
  let ROW = columns();
  let look = { okey: null, staged: [], drawn: null };

  const layoutKey = (id) => `okey101-layout-${tableId}-${id}`;
  function load(id) {
    handId = id;
    slots = new Array(SLOTS).fill(null);
    picked = new Set();
    try {
      const saved = JSON.parse(localStorage.getItem(layoutKey(id)) || "null");
      if (saved && Array.isArray(saved.slots) && saved.slots.length === SLOTS) {
        slots = saved.slots;
        if (saved.cols !== ROW) reflow();
      }
    } catch (e) { /* a broken saved layout is simply ignored */ }
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (key && key.startsWith(`okey101-layout-${tableId}-`) && key !== layoutKey(id)) localStorage.removeItem(key);
    }
  }
  function save() { if (handId !== null) localStorage.setItem(layoutKey(handId), JSON.stringify({ cols: ROW, slots })); }

  function groupsOfSlots() {
    const groups = [];
    let run = [];
    for (const tile of slots) {
      if (tile === null) { if (run.length) groups.push(run); run = []; } else run.push(tile);
    }
    if (run.length) groups.push(run);
    return groups;
  }
  function reflow() { slots = arrange(groupsOfSlots(), []); }

  /* Groups on the rows, a gap after each, never split across two rows (unless longer than a row);
     the loose tiles last. */
  function arrange(groups, loose) {
    const next = new Array(SLOTS).fill(null);
    let index = 0;
    let fits = true;
    for (const group of groups.filter((g) => g.length)) {
      const col = index % ROW;
      if (col + group.length > ROW && col > 0) index += ROW - col;
      if (index + group.length > SLOTS) { fits = false; break; }
      group.forEach((tile, i) => { next[index + i] = tile; });
      index += group.length;
      if (index % ROW) index += 1;
    }
    if (fits) {
      for (const tile of loose) {
        while (index < SLOTS && next[index] !== null) index++;
        if (index >= SLOTS) { fits = false; break; }
        next[index++] = tile;
      }
    }
    if (!fits) return [...groups.flat(), ...loose, ...new Array(SLOTS).fill(null)].slice(0, SLOTS);
    return next;
  }

  /* Keep tiles where the player put them; a tile that left leaves a gap; a new one goes after the
     last tile (or into the first gap when the rack is full to its end). */
  function reconcile(rack) {
    const want = {};
    for (const tile of rack) want[tile] = (want[tile] || 0) + 1;
    const have = {};
    slots = slots.map((tile) => {
      if (tile === null) return null;
      have[tile] = (have[tile] || 0) + 1;
      return have[tile] > (want[tile] || 0) ? null : tile;
    });
    const added = [];
    for (const tile of Object.keys(want)) {
      let missing = want[tile] - Math.min(have[tile] || 0, want[tile]);
      while (missing-- > 0) {
        let last = -1;
        slots.forEach((t, i) => { if (t !== null) last = i; });
        let index = last + 1 < SLOTS ? last + 1 : slots.indexOf(null);
        if (index < 0) index = slots.push(null) - 1;
        slots[index] = tile;
        added.push(index);
      }
    }
    for (const index of [...picked]) if (slots[index] === null || slots[index] === undefined) picked.delete(index);
    save();
    return added;
  }

  function pickedTiles() { return [...picked].sort((a, b) => a - b).map((index) => slots[index]).filter(Boolean); }
  function clearPicked() { picked = new Set(); render(); }
  function toggle(index) {
    if (!slots[index]) return;
    if (picked.has(index)) picked.delete(index); else picked.add(index);
    render();
    onChange();
    focusSlot(index);
  }
  function pickTiles(list) {
    picked = new Set();
    const left = [...list];
    slots.forEach((tile, index) => { const at = left.indexOf(tile); if (tile && at >= 0) { picked.add(index); left.splice(at, 1); } });
    render();
  }
  function focusSlot(index) {
    const tile = $("rack").querySelector(`.slot[data-slot="${index}"] .tile`);
    if (tile) tile.focus({ preventScroll: true });
  }

  function move(from, to) {
    if (to < 0 || to >= SLOTS || from === to) return;
    [slots[to], slots[from]] = [slots[from], slots[to]];
    const a = picked.has(from);
    const b = picked.has(to);
    picked.delete(from); picked.delete(to);
    if (a) picked.add(to);
    if (b) picked.add(from);
    save();
    render();
  }

  function keydown(event, index) {
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -ROW, ArrowDown: ROW };
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(index); return; }
    if (moves[event.key] !== undefined) {
      event.preventDefault();
      const to = index + moves[event.key];
      if (to < 0 || to >= SLOTS) return;
      move(index, to);
      focusSlot(to);
      return;
    }
    onKey(event, slots[index], index);
  }

  /* Drawn again only when something it shows changed (most frames are other players' moves). */
  function render(next) {
    if (next) look = next;
    if (drag && drag.moved) return;
    const rack = $("rack");
    const staged = [...look.staged];
    const key = `${look.okey}|${[...picked].join(",")}|${slots.join(",")}|${staged.join(",")}|${look.drawn}`;
    if (rack.dataset.key === key && rack.childElementCount === slots.length) return;
    rack.dataset.key = key;
    let drawnMarked = false;
    const children = slots.map((tile, index) => {
      const slot = document.createElement("div");
      slot.className = "slot";
      slot.dataset.slot = String(index);
      slot.setAttribute("role", "gridcell");
      if (tile) {
        const el = tiles.tile(tile, look.okey);
        el.tabIndex = 0;
        el.setAttribute("role", "button");
        el.setAttribute("aria-pressed", String(picked.has(index)));
        if (picked.has(index)) el.classList.add("selected");
        const at = staged.indexOf(tile);
        if (at >= 0) { staged.splice(at, 1); el.classList.add("staged"); }
        else if (look.drawn === tile && !drawnMarked) { drawnMarked = true; el.classList.add("drawn"); }
        el.addEventListener("pointerdown", (event) => startDrag(event, index));
        el.addEventListener("keydown", (event) => keydown(event, index));
        slot.append(el);
      }
      return slot;
    });
    rack.replaceChildren(...children);
  }

  function startDrag(event, index) {
    if (event.button !== undefined && event.button !== 0) return;
    event.preventDefault();
    const source = event.currentTarget;
    drag = { index, tile: slots[index], startX: event.clientX, startY: event.clientY, ghost: null, moved: false, over: null };
    const onMove = (moveEvent) => {
      if (!drag) return;
      if (!drag.moved && Math.hypot(moveEvent.clientX - drag.startX, moveEvent.clientY - drag.startY) < 6) return;
      if (!drag.ghost) {
        drag.moved = true;
        drag.ghost = source.cloneNode(true);
        drag.ghost.classList.add("ghost");
        drag.ghost.classList.remove("selected");
        const box = source.getBoundingClientRect();
        drag.dx = box.width / 2;
        drag.dy = box.height / 2;
        document.body.append(drag.ghost);
        source.classList.add("dragging");
        root.classList.add("dragging-tile");
      }
      drag.ghost.style.transform = `translate(${moveEvent.clientX - drag.dx}px, ${moveEvent.clientY - drag.dy}px) scale(1.08)`;
      const target = targetAt(moveEvent.clientX, moveEvent.clientY);
      if (target !== drag.over) {
        if (drag.over) drag.over.classList.remove("drop-target", "drop-ok");
        drag.over = target;
        if (target) target.classList.add(target.classList.contains("slot") ? "drop-target" : "drop-ok");
      }
    };
    const onUp = (up) => {
      document.removeEventListener("pointermove", onMove);
      document.removeEventListener("pointerup", onUp);
      document.removeEventListener("pointercancel", onUp);
      const current = drag;
      drag = null;
      root.classList.remove("dragging-tile");
      if (!current) return;
      if (current.over) current.over.classList.remove("drop-target", "drop-ok");
      if (current.ghost) current.ghost.remove();
      source.classList.remove("dragging");
      if (!current.moved) { toggle(current.index); return; }
      let from = current.index;
      if (slots[from] !== current.tile) from = slots.indexOf(current.tile);
      if (up.type !== "pointercancel" && current.over && from >= 0) {
        if (current.over.classList.contains("slot")) move(from, Number(current.over.dataset.slot));
        else onDrop(current.tile, current.over, from);
      }
      render();
    };
    document.addEventListener("pointermove", onMove);
    document.addEventListener("pointerup", onUp);
    document.addEventListener("pointercancel", onUp);
  }

  function targetAt(x, y) {
    const target = document.elementFromPoint(x, y);
    if (!target) return null;
    return target.closest(".slot") || target.closest(dropTargets);
  }

  /* "Seri diz": colour by colour, low to high, a gap where a run breaks. "Çift diz": equal tiles
     side by side, then the same number in other colours. The okeys go last. */
  function sortBy(kind) {
    const okey = look.okey;
    const all = slots.filter(Boolean);
    const wild = all.filter((t) => t === okey);
    const rest = all.filter((t) => t !== okey);
    const face = (t) => (t === "J" ? okey : t);
    const number = (t) => Number(face(t).slice(1));
    const colour = (t) => "KSMY".indexOf(face(t)[0]);
    const groups = [];
    if (kind === "runs") {
      rest.sort((a, b) => colour(a) - colour(b) || number(a) - number(b));
      for (const tile of rest) {
        const group = groups[groups.length - 1];
        const last = group && group[group.length - 1];
        if (last && colour(last) === colour(tile) && number(tile) - number(last) <= 1) group.push(tile);
        else groups.push([tile]);
      }
    } else {
      rest.sort((a, b) => number(a) - number(b) || colour(a) - colour(b));
      for (const tile of rest) {
        const group = groups[groups.length - 1];
        if (group && number(group[0]) === number(tile)) group.push(tile); else groups.push([tile]);
      }
    }
    const keep = pickedTiles();
    const long = groups.filter((g) => g.length > 1);
    const single = groups.filter((g) => g.length === 1).flat();
    slots = arrange(long, [...single, ...wild]);
    pickTiles(keep);
    save();
  }

  window.addEventListener("resize", () => {
    const cols = columns();
    if (cols === ROW) return;
    ROW = cols;
    const keep = pickedTiles();
    reflow();
    pickTiles(keep);
    save();
  });

  return { load, reconcile, render, pickedTiles, clearPicked, pickTiles, sortBy, toggle, slotsNow: () => slots, isDragging: () => !!(drag && drag.moved) };
}
