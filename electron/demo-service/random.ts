/**
 * Small deterministic helpers for the demo data: a seeded PRNG and a string hash. The demo
 * service must produce the same reports for the same seed on every machine, so nothing here
 * touches Math.random or the clock.
 */

export type Random = () => number;

/** mulberry32: a tiny, fast 32-bit PRNG with good enough spread for fake data. */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over UTF-16 code units: a stable 32-bit hash of a string. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Mixes several integers into one 32-bit seed, so each (seed, account, …) gets its own stream. */
export function mixSeed(...parts: number[]): number {
  return fnv1a(parts.map((p) => String(p >>> 0)).join(':'));
}

export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}
