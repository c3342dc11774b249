/**
 * The main window's size, position and maximised state, kept in userData/window-state.json
 * between runs. A saved position may point at a monitor that is no longer attached, so it is
 * always clamped to the displays present now before use.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../atomicWrite';

export interface WindowState {
  /** Absent: let the system centre the window. */
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

/** A display's work area (the screen minus task bars and docks). */
export interface DisplayArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const WINDOW_STATE_FILE = 'window-state.json';
export const MIN_WINDOW_WIDTH = 720;
export const MIN_WINDOW_HEIGHT = 480;
export const DEFAULT_WINDOW_STATE: WindowState = { width: 1200, height: 800, maximized: false };
/** Larger than any real screen: a bigger number is corruption, not a preference. */
const MAX_COORDINATE = 100_000;

/**
 * Makes a saved state fit the displays present now: the window lies entirely on the display
 * it overlaps most (shrunk if the display is smaller), or is centred on the primary display
 * (the first one) when it overlaps none.
 */
export function clampToDisplays(state: WindowState, displays: readonly DisplayArea[]): WindowState {
  const width = Math.max(MIN_WINDOW_WIDTH, Math.round(state.width));
  const height = Math.max(MIN_WINDOW_HEIGHT, Math.round(state.height));
  const usable = displays.filter((d) => d.width > 0 && d.height > 0);
  if (usable.length === 0) return { width, height, maximized: state.maximized };
  const primary = usable[0];

  if (state.x === undefined || state.y === undefined) {
    return {
      width: Math.min(width, primary.width),
      height: Math.min(height, primary.height),
      maximized: state.maximized,
    };
  }

  const rect = { x: Math.round(state.x), y: Math.round(state.y), width, height };
  let best: DisplayArea | null = null;
  let bestArea = 0;
  for (const display of usable) {
    const area = overlapArea(rect, display);
    if (area > bestArea) {
      best = display;
      bestArea = area;
    }
  }
  const target = best ?? primary;
  const fittedWidth = Math.min(width, target.width);
  const fittedHeight = Math.min(height, target.height);
  if (!best) {
    return {
      x: target.x + Math.floor((target.width - fittedWidth) / 2),
      y: target.y + Math.floor((target.height - fittedHeight) / 2),
      width: fittedWidth,
      height: fittedHeight,
      maximized: state.maximized,
    };
  }
  return {
    x: clamp(rect.x, target.x, target.x + target.width - fittedWidth),
    y: clamp(rect.y, target.y, target.y + target.height - fittedHeight),
    width: fittedWidth,
    height: fittedHeight,
    maximized: state.maximized,
  };
}

function overlapArea(a: DisplayArea, b: DisplayArea): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/** Validates what was read from disk; null for anything that is not a plausible state. */
export function parseWindowState(raw: unknown): WindowState | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const isSize = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= MAX_COORDINATE;
  const isCoordinate = (v: unknown) =>
    typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= MAX_COORDINATE;
  if (!isSize(r.width) || !isSize(r.height)) return null;
  if (r.maximized !== undefined && typeof r.maximized !== 'boolean') return null;
  const state: WindowState = {
    width: r.width as number,
    height: r.height as number,
    maximized: r.maximized === true,
  };
  // A position is used only when both coordinates are valid.
  if (isCoordinate(r.x) && isCoordinate(r.y)) {
    state.x = r.x as number;
    state.y = r.y as number;
  }
  return state;
}

/** The saved state, or the default when there is none or it is unreadable. Never throws. */
export function loadWindowState(file: string): WindowState {
  try {
    return parseWindowState(JSON.parse(readFileSync(file, 'utf8'))) ?? { ...DEFAULT_WINDOW_STATE };
  } catch {
    return { ...DEFAULT_WINDOW_STATE };
  }
}

/**
 * Writes atomically (../atomicWrite), so a crash mid-write leaves the previous state rather
 * than half a file. Returns false (and keeps the old file) when it cannot write;
 * never throws, because it runs while the window closes.
 */
export function saveWindowState(file: string, state: WindowState): boolean {
  const valid = parseWindowState(state);
  if (!valid) return false;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileAtomic(file, JSON.stringify(valid, null, 2) + '\n');
    return true;
  } catch {
    return false;
  }
}
