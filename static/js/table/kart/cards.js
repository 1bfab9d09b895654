/* Kart Okey's cards drawn as cards (RULES.md "Kart Okey", rule 1; games/engine/kart/cards.py): the
   notation is the suit letter of its Turkish name, then the rank — M maça ♠, K kupa ♥, R karo ♦,
   S sinek ♣; A 2–10 J Q K ("MA", "K10", "RQ"). The notation never reaches visible text: a card
   shows its rank and suit symbol in the corner and a big symbol in the middle, and is named in
   words for screen readers ("kupa 5", "5 of hearts").

   Colour is never the only cue: the suit symbol is always drawn (four different shapes), and the
   red suits (♥ ♦) have a tinted face and a red edge; in colour-blind mode (body.cb) the deck is the
   four-colour one (♦ blue, ♣ green) and the suit's letter is written under its symbol. */

export const SUITS = "MKRS";
export const SYMBOLS = { M: "♠", K: "♥", R: "♦", S: "♣" };
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RED = new Set(["K", "R"]);

export function suitOf(card) { return card[0]; }
export function rankOf(card) { return RANKS.indexOf(card.slice(1)) + 1; }   // 1 (ace) … 13 (king)
export function isRed(card) { return RED.has(suitOf(card)); }
/* Rule 3: 2–10 their number, J/Q/K 10, the ace 11. */
export function cardValue(card) { const rank = rankOf(card); return rank === 1 ? 11 : Math.min(rank, 10); }
export function handValue(cards) { return cards.reduce((sum, card) => sum + cardValue(card), 0); }

/* `T`: the page's strings (suit and rank names, the card's words). */
export function kartCards(T) {
  const SUIT_WORD = { M: T.k_suit_m, K: T.k_suit_k, R: T.k_suit_r, S: T.k_suit_s };
  const SUIT_LETTER = { M: T.k_suit_letter_m, K: T.k_suit_letter_k, R: T.k_suit_letter_r, S: T.k_suit_letter_s };
  const RANK_WORD = { A: T.k_rank_a, J: T.k_rank_j, Q: T.k_rank_q, K: T.k_rank_k };
  const fill = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => values[key] ?? "");

  function words(card) {
    if (!card) return "";
    const rank = card.slice(1);
    return fill(T.k_card_words, { suit: SUIT_WORD[suitOf(card)] || "", rank: RANK_WORD[rank] || rank });
  }

  function span(className, text) {
    const node = document.createElement("span");
    node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* One card face. `options.small`: the feed's and the result's size. */
  function card(notation, options) {
    const face = span(`kcard kcard--${notation[0]}${isRed(notation) ? " kcard--red" : " kcard--black"}${options && options.small ? " kcard--small" : ""}`);
    face.dataset.card = notation;
    face.dataset.tile = notation;   // the shared modules and tests find a piece by data-tile
    face.setAttribute("role", "img");
    face.setAttribute("aria-label", words(notation));
    face.title = words(notation);
    const symbol = SYMBOLS[suitOf(notation)];
    const corner = span("kcard__corner");
    corner.setAttribute("aria-hidden", "true");
    const rank = span("kcard__rank", notation.slice(1));
    if (rank.textContent === "10") rank.classList.add("kcard__rank--ten");
    corner.append(rank, span("kcard__suit", symbol), span("kcard__letter", SUIT_LETTER[suitOf(notation)] || ""));
    const pip = span("kcard__pip", symbol);
    pip.setAttribute("aria-hidden", "true");
    face.append(corner, pip);
    return face;
  }

  /* The face-down back (the stock). */
  function back() {
    const node = span("kcard kcard--back");
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  // The shared feed draws a piece with `tile(notation)`: here a small card.
  return { card, back, words, tile: (notation) => card(notation, { small: true }) };
}
