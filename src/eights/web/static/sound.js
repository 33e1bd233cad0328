// Short sounds made with WebAudio (no sound files): a card played, a card drawn, your turn, a round's end.
// Off by default; one toggle, remembered on this device.

import { saved } from "./dom.js";

let audio = null;

/** Whether sounds are on. */
export const soundOn = () => saved.choice("sound");

/** Turn sounds on or off (a tap: the moment a browser lets a page start its audio). */
export function setSound(on) {
  saved.setChoice("sound", on);
  if (on && !audio && window.AudioContext) audio = new AudioContext();
  if (on) play("turn");
}

/** Notes for each sound: [frequency Hz, start s, length s, wave]. A play is a snap, a draw a soft slide. */
const SOUNDS = {
  play: [[660, 0, 0.07, "triangle"], [330, 0.02, 0.06, "square"]],
  draw: [[420, 0, 0.09, "sine"], [520, 0.05, 0.08, "sine"]],
  turn: [[784, 0, 0.12, "sine"], [1046, 0.1, 0.16, "sine"]],
  end: [[523, 0, 0.14, "triangle"], [659, 0.12, 0.14, "triangle"], [784, 0.24, 0.3, "triangle"]],
};

/** Play sound `name`, if sounds are on. */
export function play(name) {
  if (!soundOn()) return;
  if (!audio && window.AudioContext) audio = new AudioContext();
  if (!audio) return;
  const now = audio.currentTime;
  for (const [frequency, start, length, wave] of SOUNDS[name]) {
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.type = wave;
    tone.frequency.value = frequency;
    volume.gain.setValueAtTime(0.0001, now + start);
    volume.gain.exponentialRampToValueAtTime(0.18, now + start + 0.01);
    volume.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    tone.connect(volume).connect(audio.destination);
    tone.start(now + start);
    tone.stop(now + start + length + 0.02);
  }
}
