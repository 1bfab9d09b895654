/* One drawing of a tile, shared by the table (static/js/table.js) and the replay
   (static/js/replay.js) and the guest practice hand: each imports ``okeyTiles`` (a native ES module)
   and calls it with the texts of games/views.py table_strings.

   No tile notation ("K5") ever reaches visible text: tiles are drawn as tiles, and named in words
   ("kırmızı 5") for screen readers and messages. */
const COLORS = { K: "red", S: "black", M: "blue", Y: "green" };
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => (values[key] ?? ""));

export function okeyTiles(T) {
    // Tiles in words ("kırmızı 7"), never in notation.
    function words(notation, okey) {
      if (!notation) return "";
      if (notation === "J") return okey ? fmt(T.false_joker_as, { tile: words(okey) }) : T.false_joker;
      const color = T["color_" + COLORS[notation[0]]] || "";
      return `${color} ${notation.slice(1)}`;
    }

    // A tile as a tile. The okey (wild) has a gold face and a star badge; a false joker has a face
    // of its own (a clover) with the value it stands for written small in its corner; ``options.as``:
    // the tile an okey stands for inside a meld (result panels, the replay), drawn as that face,
    // still gold; ``options.mini``: the small size of feeds and histories.
    function tile(notation, okey, options) {
      const el = document.createElement("span");
      el.className = "tile";
      el.dataset.tile = notation;
      const standsFor = options && options.as;
      if (notation === "J") {
        el.classList.add("joker");
        el.innerHTML = '<span class="n jsym" aria-hidden="true">♣</span>';
        if (okey) {
          el.classList.add(`as-${COLORS[okey[0]] || "black"}`);
          const value = document.createElement("span");
          value.className = "as-value";
          value.setAttribute("aria-hidden", "true");
          value.textContent = okey.slice(1);
          el.append(value);
        }
      } else {
        const face = standsFor || notation;
        el.classList.add(COLORS[face[0]] || "black");
        const number = document.createElement("span");
        number.className = "n";
        number.textContent = face.slice(1);
        const mark = document.createElement("span");
        mark.className = "mark";
        mark.setAttribute("aria-hidden", "true");
        el.append(number, mark);
      }
      const isOkey = okey && notation === okey;
      if (isOkey) {
        el.classList.add("okey");
        const star = document.createElement("span");
        star.className = "okey-badge";
        star.setAttribute("aria-hidden", "true");
        star.textContent = "★";
        el.append(star);
      }
      if (isOkey && standsFor) el.classList.add("stands-for");
      let label = words(notation, okey);
      if (isOkey) label = standsFor ? fmt(T.okey_as, { tile: words(standsFor) }) : `${label} (${T.okey_word})`;
      el.setAttribute("aria-label", label);
      el.title = label;
      if (options && options.mini) el.classList.add("mini");
      return el;
    }

    // What each okey of a meld stands for (a run is sent low to high; a set has one number; a pair
    // two equal tiles): the tile notation per position, null where a tile is itself.
    function standIns(group, okey) {
      const face = (t) => (t === "J" ? okey : t);
      const real = group.map((t, i) => [i, t]).filter(([, t]) => t !== okey).map(([i, t]) => [i, face(t)]);
      if (!okey || real.length === group.length || !real.length) return group.map(() => null);
      const colours = new Set(real.map(([, t]) => t[0]));
      const numbers = new Set(real.map(([, t]) => t.slice(1)));
      if (group.length === 2) return group.map((t) => (t === okey ? real[0][1] : null));
      if (colours.size === 1 && numbers.size === real.length && !(real.length === 1 && group.length === 4)) {
        const [at, first] = real[0];
        const base = Number(first.slice(1));
        return group.map((t, i) => (t === okey ? `${first[0]}${((base - 1 + i - at) % 13 + 13) % 13 + 1}` : null));
      }
      const missing = Object.keys(COLORS).filter((c) => !colours.has(c));
      const number = real[0][1].slice(1);
      return group.map((t) => (t === okey ? `${missing.shift() || real[0][1][0]}${number}` : null));
    }

    return { COLORS, fmt, words, tile, standIns };
  }
