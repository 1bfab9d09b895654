/* Who plays together and which way scores go, as the frame's `match.standing` says (the engine's
   word: no page works it out). `frame()` returns the last state frame. */

export function makeStanding(frame) {
  const standing = () => { const f = frame(); return (f && f.match && f.match.standing) || {}; };
  // Eşli: the teams (seats that share one score); null when all play alone.
  function teams() { return standing().teams || null; }
  function teamOf(seat) { const all = teams(); return all ? all.findIndex((t) => t.includes(seat)) : -1; }
  function higherIsBetter() { return !!standing().higher_is_better; }
  return { teams, teamOf, higherIsBetter };
}
