/* The people at the table: the side drawer (phones) with the table chat, each live line also shown
   for a few seconds as a speech bubble at its author's seat, the players muted in this browser, who
   is online and how many watch, and the player card (record, mute, report). */

import { $, fmt } from "./format.js";

export function makeChat({ T, root, me, lang, muted, send, currentFrame, renderPlayers, paintSeatClock, faceOf,
                           showMessage }) {
  // -- side drawer (phones) and chat --------------------------------------------------------------
  let unread = 0;
  const side = $("side");
  function drawerShown() { return side.classList.contains("open") || getComputedStyle($("btn-drawer")).display === "none"; }
  function setUnread(n) { unread = n; $("chat-unread").textContent = String(n); $("chat-unread").hidden = n === 0; }
  $("btn-drawer").addEventListener("click", () => {
    const open = !side.classList.contains("open");
    side.classList.toggle("open", open);
    $("btn-drawer").setAttribute("aria-expanded", String(open));
    if (open) setUnread(0);
  });
  $("side-close").addEventListener("click", () => { side.classList.remove("open"); $("btn-drawer").setAttribute("aria-expanded", "false"); });

  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (text && send("chat", { text })) input.value = "";
  });
  for (const button of root.querySelectorAll("[data-say]")) button.addEventListener("click", () => send("chat", { text: button.dataset.say }));

  function addChat(message, live) {
    message = message || {};
    const author = message.author && typeof message.author === "object" ? message.author.nickname : message.author;
    const item = document.createElement("li");
    item.dataset.author = author || "";
    item.hidden = muted.has(author);
    const who = document.createElement("b");
    who.textContent = `${author || ""}: `;
    item.append(who, document.createTextNode(message.text || ""));
    const log = $("chat-log");
    log.append(item);
    while (log.children.length > 100) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
    if (live && author !== me && !item.hidden && !drawerShown()) setUnread(unread + 1);
    if (live && !item.hidden && message.text) showBubble(author, message.text);
  }

  // -- table chat as speech bubbles at the seats --------------------------------------------------
  // A live line shows for a few seconds as a bubble beside its author's seat (a watcher's under the
  // top seat, with their name) and fades; the drawer keeps the history. The bubbles' layer is the
  // felt itself, clipped to it: a line never covers the rack or its buttons.
  function showBubble(author, text) {
    const layer = $("bubbles");
    const name = author ? [...root.querySelectorAll(".pbox .name")].find((b) => b.dataset.nickname === author) : null;
    const seat = name ? name.closest(".pbox") : null;
    const rel = seat && !seat.hidden ? seat.dataset.rel : "watcher";
    for (const old of layer.querySelectorAll(`.bubble[data-rel="${rel}"]`)) old.remove();
    const bubble = document.createElement("div");
    bubble.className = "bubble";
    bubble.dataset.rel = rel;
    bubble.dataset.author = author || "";
    const words = document.createElement("span");
    words.className = "bubble__text";
    if (rel === "watcher") {
      const who = document.createElement("b");
      who.textContent = `${author || ""}: `;
      words.append(who);
    }
    words.append(document.createTextNode(text));
    bubble.append(words);
    const life = Math.min(9000, 3500 + 60 * text.length);  // long enough to read, then gone
    bubble.style.setProperty("--life", `${life}ms`);
    layer.append(bubble);
    placeBubble(bubble);
    setTimeout(() => bubble.remove(), life);
  }

  // Beside the seat where the felt has room (the top and bottom seats of a wide screen: in their own
  // row, off the centre's tiles), else towards the centre; always inside the felt.
  function placeBubble(bubble) {
    const layer = $("bubbles");
    const area = layer.getBoundingClientRect();
    bubble.style.left = "0px";
    bubble.style.top = "0px";
    bubble.style.maxWidth = "";
    const rel = bubble.dataset.rel;
    const seat = root.querySelector(`.pbox[data-rel="${rel === "watcher" ? "2" : rel}"]`);
    const gap = 9;
    let own = bubble.getBoundingClientRect();
    let x = (area.width - own.width) / 2;
    let y = gap;
    let side = "below";
    if (seat && !seat.hidden) {
      const box = seat.getBoundingClientRect();
      const left = box.left - area.left;
      const top = box.top - area.top;
      const middleY = () => top + box.height / 2 - own.height / 2;
      // The room beside a top or bottom seat, up to the discard pile in that corner.
      const corner = { 0: "0", 2: "1", watcher: "2" }[rel];
      const pile = corner ? root.querySelector(`.discard[data-rel="${corner}"]`) : null;
      const room = pile && !pile.hidden ? (rel === "watcher" ? box.left - pile.getBoundingClientRect().right
        : pile.getBoundingClientRect().left - box.right) - 2 * gap : 0;
      if (corner && room >= 110) {
        bubble.style.maxWidth = `min(${Math.floor(room)}px, 15rem)`;
        own = bubble.getBoundingClientRect();
        side = rel === "watcher" ? "left-of" : "right-of";
        x = rel === "watcher" ? left - own.width - gap : left + box.width + gap;
        y = middleY();
      } else if (rel === "0") { side = "above"; x = left + box.width / 2 - own.width / 2; y = top - own.height - gap; }
      else if (rel === "1" || rel === "3") {
        // A side seat: beside it if that leaves the centre's tiles clear, else above it, against
        // the felt's edge (a portrait phone's side seats sit right next to the centre).
        const tiles = root.querySelector(".centre__tiles").getBoundingClientRect();
        const between = (rel === "1" ? box.left - tiles.right : tiles.left - box.right) - 2 * gap;
        if (between >= 110) {
          bubble.style.maxWidth = `min(${Math.floor(between)}px, 15rem)`;
          own = bubble.getBoundingClientRect();
          side = rel === "1" ? "left-of" : "right-of";
          x = rel === "1" ? left - own.width - gap : left + box.width + gap;
          y = middleY();
        } else {
          side = "above";
          bubble.dataset.edge = rel === "1" ? "right" : "left";
          x = rel === "1" ? left + box.width - own.width : left;
          y = top - own.height - gap;
          const overTiles = x < tiles.right - area.left && x + own.width > tiles.left - area.left;
          if (overTiles) y = Math.min(y, tiles.top - area.top - own.height - 14);  // clear of the okey's star too
        }
      }
      else {
        x = left + box.width / 2 - own.width / 2;
        y = top + box.height + gap;
        const under = rel === "watcher" && layer.querySelector('.bubble[data-rel="2"][data-side="below"]');
        if (under) y = under.getBoundingClientRect().bottom - area.top + 4;
      }
    }
    bubble.dataset.side = side;
    x = Math.max(4, Math.min(x, area.width - own.width - 4));
    y = Math.max(4, Math.min(y, area.height - own.height - 4));
    bubble.style.left = `${Math.round(x)}px`;
    bubble.style.top = `${Math.round(y)}px`;
  }
  window.addEventListener("resize", () => { for (const bubble of $("bubbles").children) placeBubble(bubble); });

  function applyMutes() {
    for (const item of $("chat-log").children) item.hidden = muted.has(item.dataset.author);
  }

  // Seated players' pages ping every 30 s; a person not heard from for a minute is offline.
  let online = null;
  function showOnline(names) {
    if (!Array.isArray(names)) return;
    online = new Set(names);
    if (currentFrame()) { renderPlayers(); paintSeatClock(false); }
  }
  const pageOpenedAt = Date.now();
  // Every open page has pinged once within 30 s: before that, a missing name proves nothing.
  function isOffline(player) { return !!(online && Date.now() - pageOpenedAt > 35000 && player.nickname && !player.bot && !player.left && !online.has(player.nickname)); }

  function showWatchers(count) {
    const el = $("watchers");
    el.hidden = !count;
    el.textContent = fmt(T.watchers, { n: count });
    el.setAttribute("aria-label", fmt(T.watchers, { n: count }));
  }

  // -- player card ------------------------------------------------------------------------------
  const card = $("card-dialog");
  let cardFor = null;
  function openCard(nickname, bot) {
    cardFor = { nickname, bot };
    $("card-name").textContent = nickname;
    $("card-bot").hidden = !bot;
    $("card-avatar").style.setProperty("--hue", faceOf(nickname).hue);
    $("card-avatar").textContent = faceOf(nickname).initials;
    for (const id of ["card-games", "card-wins", "card-rating", "card-since"]) $(id).textContent = "…";
    $("card-profile").href = `/players/${encodeURIComponent(nickname)}/`;
    $("card-report").hidden = bot || nickname === me;
    $("card-mute").hidden = nickname === me;
    $("card-mute").textContent = muted.has(nickname) ? T.unmute : T.mute;
    send("player_card", { nickname });
    if (!card.open) card.showModal();
  }
  function showCard(data) {
    if (!data || !cardFor || data.nickname !== cardFor.nickname) return;
    // The record: matches played and won (with the share won), the rating, and since when.
    $("card-games").textContent = String(data.games_played);
    const share = data.win_rate === null || data.win_rate === undefined ? ""
      : ` · ${new Intl.NumberFormat(lang, { style: "percent" }).format(data.win_rate / 100)}`;
    $("card-wins").textContent = `${data.games_won ?? "–"}${share}`;
    $("card-rating").textContent = data.rating === null ? "–" : String(data.rating);
    const [year, month] = String(data.since || "").split("-").map(Number);
    $("card-since").textContent = year && month
      ? new Intl.DateTimeFormat(lang, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(year, month - 1, 1)))
      : "–";
    $("card-bot").hidden = !data.bot;
    $("card-report").hidden = data.bot || data.nickname === me;
  }
  $("card-close").addEventListener("click", () => card.close());
  $("card-mute").addEventListener("click", () => {
    if (!cardFor) return;
    if (muted.has(cardFor.nickname)) muted.delete(cardFor.nickname); else muted.add(cardFor.nickname);
    localStorage.setItem("okey-muted", JSON.stringify([...muted]));
    $("card-mute").textContent = muted.has(cardFor.nickname) ? T.unmute : T.mute;
    applyMutes();
  });

  // -- reporting a player (moderation): a small form in a dialog, posted with the page's CSRF token
  const reportDialog = $("report-dialog");
  $("card-report").addEventListener("click", () => {
    if (!cardFor) return;
    card.close();
    reportDialog.querySelector("[name=reported]").value = cardFor.nickname;
    reportDialog.querySelector("[data-report-name]").textContent = cardFor.nickname;
    reportDialog.showModal();
  });
  if (reportDialog) {
    const form = reportDialog.querySelector("form");
    reportDialog.querySelector("[data-report-cancel]").addEventListener("click", () => reportDialog.close());
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const response = await fetch(form.action, {
        method: "POST", body: new FormData(form), headers: { Accept: "application/json" }, credentials: "same-origin",
      });
      const answer = await response.json().catch(() => ({ ok: false, error: { message: response.statusText } }));
      reportDialog.close();
      form.reset();
      showMessage(answer.ok ? answer.message : answer.error.message, answer.ok ? "info" : "error");
    });
  }

  return { addChat, showCard, showWatchers, showOnline, isOffline, openCard };
}
