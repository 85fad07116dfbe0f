#!/usr/bin/env python3
"""Makes Steppie's own sound effects in Sounds/ (Python standard library only, reproducible).

Every sound: 44.1 kHz 16-bit mono, soft raised-cosine attack (15 ms, tick 18 ms), 50 ms release,
gentle exponential decay, a few quiet harmonic partials (a soft bell, no harsh transients),
peak normalised to -8 dBFS. The engine resamples to 22050 Hz on load.

    python3 scripts/make-sounds.py [OUTPUT_DIR]
"""
import math
import os
import struct
import sys
import wave

RATE = 44100
PEAK = 10 ** (-8 / 20)  # -8 dBFS


def note(freq, dur, attack=0.015, release=0.05, decay=3.0, partials=((1, 1.0), (2, 0.25), (3, 0.08))):
    n = int(dur * RATE)
    out = []
    for i in range(n):
        t = i / RATE
        env = math.exp(-decay * t)
        if t < attack:
            env *= 0.5 - 0.5 * math.cos(math.pi * t / attack)
        if t > dur - release:
            env *= 0.5 + 0.5 * math.cos(math.pi * (t - (dur - release)) / release)
        s = sum(a * math.sin(2 * math.pi * freq * k * t) for k, a in partials)
        out.append(env * s)
    return out


def place(track, samples, at):
    start = int(at * RATE)
    need = start + len(samples)
    if len(track) < need:
        track.extend([0.0] * (need - len(track)))
    for i, s in enumerate(samples):
        track[start + i] += s
    return track


def normalise(track, peak=PEAK):
    top = max(abs(s) for s in track) or 1.0
    return [s * peak / top for s in track]


def write(path, track):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", int(round(s * 32767))) for s in track))


def sounds():
    E5, G5, A5, B5, C6, D5, C5, A4, F4 = 659.25, 783.99, 880.0, 987.77, 1046.50, 587.33, 523.25, 440.0, 349.23
    yield "chime", normalise(note(E5, 0.45, decay=5.0))
    yield "chime-double", normalise(place(note(E5, 0.40, decay=5.0), note(B5, 0.50, decay=5.0), 0.13))
    yield "tick", normalise(note(C6, 0.11, attack=0.018, release=0.05, decay=18.0,
                                 partials=((1, 1.0), (2, 0.1))), peak=10 ** (-14 / 20))
    yield "undo", normalise(place(note(G5, 0.22, decay=6.0), note(D5, 0.32, decay=6.0), 0.12))
    melody = []
    for i, f in enumerate((C5, E5, G5)):
        place(melody, note(f, 0.30, decay=4.0), 0.14 * i)
    place(melody, note(C6, 0.60, decay=3.0), 0.42)
    yield "all-done", normalise(melody)
    yield "reminder", normalise(place(note(A5, 0.30, decay=5.0), note(E5, 0.40, decay=5.0), 0.18),
                                peak=10 ** (-10 / 20))
    yield "error", normalise(place(note(A4, 0.25, decay=5.0), note(F4, 0.35, decay=5.0), 0.15),
                             peak=10 ** (-10 / 20))


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "Sounds")
    os.makedirs(out, exist_ok=True)
    for name, track in sounds():
        write(os.path.join(out, name + ".wav"), track)
        print(f"{name}.wav  {len(track) / RATE:.2f} s")


if __name__ == "__main__":
    main()
