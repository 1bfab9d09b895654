/* The move feed: one line per move of the hand (from the frames' events and, for a page that
   arrives mid-hand, the state's "feed" of moves so far), said to the player in their own words
   ("Attınız") and to everyone else by name; the line also shows in the ticker. One sound a frame:
   the weightiest of its new moves. Players leaving, coming back, going away, back again. */

import { $, fmt } from "./format.js";

export function makeFeed({ T, tiles, currentFrame, mySeat, playerName, playerOf, beep, describeOther, soundOf }) {
  const tileElement = tiles.tile;

  function feedLine(parts, options) {
    const item = document.createElement("li");
    for (const part of parts) item.append(part);
    if (options && options.mine) item.classList.add("mine");
    const feed = $("feed");
    feed.append(item);
    while (feed.children.length > 80) feed.firstChild.remove();
    feed.scrollTop = feed.scrollHeight;
    $("ticker").replaceChildren(...parts.map((part) => (part.cloneNode ? part.cloneNode(true) : part)));
  }

  function textWithTile(template, values, tile, okey) {
    // "%(name)s attı: %(tile)s" → text, a small tile, text (the tile never as a code).
    const [before, after] = template.split("%(tile)s");
    const parts = [document.createTextNode(fmt(before, values))];
    if (tile) parts.push(tileElement(tile, okey));
    if (after !== undefined) parts.push(document.createTextNode(fmt(after, values)));
    return parts;
  }

  function feedHandStart(hand) {
    feedLine([document.createTextNode(fmt(T.feed_deal, { n: hand.number + 1, name: playerName(hand.starting_seat) }))]);
  }

  function describeEvent(event) {
    const hand = currentFrame().hand;
    const okey = hand ? hand.okey : null;
    const name = event.seat !== undefined && event.seat !== null ? playerName(event.seat) : "";
    const mine = event.seat === mySeat();
    // Played by the turn clock: say why (a time-out, an away player, one who left), never "the server".
    const who = event.seat !== undefined && event.seat !== null ? playerOf(event.seat) : {};
    const auto = event.auto ? ` ${who.left ? T.feed_auto_left : who.away ? T.feed_auto_away : T.feed_auto}` : "";
    const line = (parts) => feedLine(parts, { mine });
    // Your own moves are said to you ("Attınız"), everyone else's by name.
    const say = (theirs, yours) => (mine ? T[yours] : T[theirs]);
    switch (event.type) {
      case "deal": break;
      case "draw":
        if (event.source === "discard") line(textWithTile(say("feed_took", "my_took") + auto, { name }, event.tile, okey));
        else line([document.createTextNode(fmt(say("feed_drew", "my_drew"), { name }) + auto)]);
        break;
      case "discard": line(textWithTile(say("feed_threw", "my_threw") + auto, { name }, event.tile, okey)); break;
      case "finish": line(textWithTile(say("feed_finished", "my_finished"), { name }, event.discard, okey)); break;
      case "show_indicator": line(textWithTile(say("feed_indicator", "my_indicator"), { name }, event.tile, okey)); break;
      case "declare_pairs": line([document.createTextNode(fmt(say("declared_pairs", "my_declared_pairs"), { name }))]); break;
      case "take_indicator": line(textWithTile(say("feed_take_indicator", "my_take_indicator"), { name }, event.tile, okey)); break;
      case "lay_first_okey": line(textWithTile(say("feed_lay_okey", "my_lay_okey"), { name }, event.tile, okey)); break;
      case "pile_out": line([document.createTextNode(T.pile_out)]); break;
      // A game's own moves (101's "turn", "hand_end"): said by that game's module.
      default: if (describeOther) describeOther(event, { line, feedLine, textWithTile, name, mine, auto, okey }); break;
    }
  }

  // Each move of a hand goes into the feed once: from the frames' events and, for a page that
  // arrives mid-hand or comes back after a lost connection, from the state's "feed" of moves so far.
  let feedHand = null;
  let feedMove = 0;
  function describeNewMoves(hand, next) {
    if (!hand) return;
    if (hand.id !== feedHand) { feedHand = hand.id; feedMove = 0; }
    // A page that just opened reads the moves so far silently; after that each new move is heard.
    const quiet = feedMove === 0 && !!next.feed;
    let sound = null;
    for (const event of [...(next.feed || []), ...(next.events || [])]) {
      const move = event.move || 0;
      if (move <= feedMove) continue;
      describeEvent(event);
      feedMove = move;
      sound = moveSound(event, sound);
    }
    if (sound && !quiet) beep(sound);
  }

  // One sound a frame: the weightiest of its new moves.
  const SOUND_WEIGHT = { finish: 5, indicator: 4, take: 3, discard: 2, draw: 1 };
  function moveSound(event, current) {
    const name = { discard: "discard", finish: "finish", show_indicator: "indicator", take_indicator: "indicator",
      lay_first_okey: "discard", draw: event.source === "discard" ? "take" : "draw" }[event.type]
      || (soundOf ? soundOf(event) : undefined);
    if (!name) return current;
    return !current || SOUND_WEIGHT[name] > SOUND_WEIGHT[current] ? name : current;
  }

  function describePlayerChanges(previous, next) {
    if (!previous || !previous.players || !next.players || !previous.hand || !next.hand
        || previous.match?.id !== next.match?.id) return;
    for (const player of next.players) {
      const before = previous.players.find((p) => p.seat === player.seat);
      if (!before) continue;
      if (player.left && !before.left) feedLine([document.createTextNode(fmt(T.feed_left, { name: player.nickname }))]);
      else if (!player.left && before.left) feedLine([document.createTextNode(fmt(T.feed_returned, { name: player.nickname }))]);
      else if (player.away && !before.away && !player.left) feedLine([document.createTextNode(fmt(T.feed_away, { name: player.nickname }))]);
      else if (!player.away && before.away && !player.left) feedLine([document.createTextNode(fmt(T.feed_back, { name: player.nickname }))]);
    }
  }

  return { textWithTile, feedHandStart, describeNewMoves, describePlayerChanges, feedLine };
}
