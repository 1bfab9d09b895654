/* What tells a player what happened without looking: a short sound per kind of move (Web Audio: no
   files to load), a vibration on phones, the page title on their turn. Each is the player's own
   setting (table.js keeps them in localStorage); ``record`` notes each for the browser tests. */

// [tones ([Hz, start s, length s]), volume, wave].
const SOUNDS = {
  turn: [[[660, 0.08, 0.12], [880, 0.21, 0.16]], 0.2, "sine"],  // after the throw that gave you the turn
  tick: [[[1200, 0, 0.05]], 0.08, "sine"],
  discard: [[[220, 0, 0.06]], 0.16, "triangle"],          // a tile set down: a low clack
  draw: [[[520, 0, 0.04]], 0.07, "sine"],                 // a tile picked up: a light tap
  take: [[[330, 0, 0.05], [440, 0.05, 0.05]], 0.1, "triangle"],  // a discard taken: two taps up
  indicator: [[[988, 0, 0.12], [1319, 0.1, 0.18]], 0.12, "sine"],
  finish: [[[523, 0, 0.14], [659, 0.12, 0.14], [784, 0.24, 0.3]], 0.18, "sine"],
};

export function makeFeedback({ settings, record, yourTurnTitle }) {
  let audio = null;
  const baseTitle = document.title;
  // Browsers keep audio and vibration off (and complain) until the first tap on the page.
  const beforeFirstTap = () => navigator.userActivation && !navigator.userActivation.hasBeenActive;

  function beep(name) {
    if (!settings.sound) return;
    record("sound", name);
    if (beforeFirstTap()) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
      const [tones, volume, wave] = SOUNDS[name] || SOUNDS.turn;
      for (const [freq, start, length] of tones) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.type = wave;
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, audio.currentTime + start);
        gain.gain.exponentialRampToValueAtTime(volume, audio.currentTime + start + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + start + length);
        osc.connect(gain).connect(audio.destination);
        osc.start(audio.currentTime + start);
        osc.stop(audio.currentTime + start + length + 0.02);
      }
    } catch (e) { /* no audio device: the title and the vibration still tell */ }
  }

  function vibrate() {
    if (!settings.vibrate || typeof navigator.vibrate !== "function") return;
    if (beforeFirstTap()) return;
    record("vibrate", 180);
    try { navigator.vibrate(180); } catch (e) { /* not allowed before a tap: fine */ }
  }

  function setTitle(mine) {
    const title = mine ? `${yourTurnTitle} · ${baseTitle}` : baseTitle;
    if (document.title !== title) { document.title = title; record("title", title); }
  }

  return { beep, vibrate, setTitle };
}
