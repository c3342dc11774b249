import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_WINDOW_STATE,
  MIN_WINDOW_HEIGHT,
  MIN_WINDOW_WIDTH,
  clampToDisplays,
  loadWindowState,
  parseWindowState,
  saveWindowState,
  type DisplayArea,
  type WindowState,
} from '../../../electron/core/desktop/windowState';

const laptop: DisplayArea = { x: 0, y: 0, width: 1440, height: 875 };
const monitorRight: DisplayArea = { x: 1440, y: -200, width: 2560, height: 1400 };

/** Every corner of the window lies on the display. */
function fullyOn(state: WindowState, display: DisplayArea): boolean {
  return (
    state.x !== undefined &&
    state.y !== undefined &&
    state.x >= display.x &&
    state.y >= display.y &&
    state.x + state.width <= display.x + display.width &&
    state.y + state.height <= display.y + display.height
  );
}

describe('clampToDisplays', () => {
  it('keeps a window that is fully visible unchanged', () => {
    const state = { x: 100, y: 50, width: 1000, height: 700, maximized: false };
    expect(clampToDisplays(state, [laptop])).toEqual(state);
  });

  it('keeps a window on a second monitor that is still attached', () => {
    const state = { x: 2000, y: 0, width: 1200, height: 800, maximized: true };
    expect(clampToDisplays(state, [laptop, monitorRight])).toEqual(state);
  });

  it('centres the window on the primary display when its monitor is gone', () => {
    const state = { x: 2000, y: 0, width: 1200, height: 800, maximized: false };
    const clamped = clampToDisplays(state, [laptop]);
    expect(clamped).toEqual({ x: 120, y: 37, width: 1200, height: 800, maximized: false });
    expect(fullyOn(clamped, laptop)).toBe(true);
  });

  it('pulls a window hanging off an edge back onto the display it overlaps most', () => {
    const clamped = clampToDisplays({ x: -300, y: 600, width: 900, height: 600, maximized: false }, [laptop]);
    expect(clamped).toEqual({ x: 0, y: 275, width: 900, height: 600, maximized: false });
  });

  it('moves a window straddling two displays onto the one holding most of it', () => {
    const clamped = clampToDisplays({ x: 1000, y: 100, width: 1200, height: 700, maximized: false }, [
      laptop,
      monitorRight,
    ]);
    expect(fullyOn(clamped, monitorRight)).toBe(true);
    expect(clamped.x).toBe(1440);
  });

  it('shrinks a window larger than its display, but never below the minimum size', () => {
    const clamped = clampToDisplays({ x: 0, y: 0, width: 4000, height: 3000, maximized: false }, [laptop]);
    expect(clamped).toMatchObject({ width: 1440, height: 875 });
    const tiny = clampToDisplays({ x: 10, y: 10, width: 50, height: 20, maximized: false }, [laptop]);
    expect(tiny).toMatchObject({ width: MIN_WINDOW_WIDTH, height: MIN_WINDOW_HEIGHT });
  });

  it('leaves the position to the system when none was saved', () => {
    expect(clampToDisplays({ width: 1200, height: 800, maximized: false }, [laptop])).toEqual({
      width: 1200,
      height: 800,
      maximized: false,
    });
  });

  it('copes with no display information at all', () => {
    expect(clampToDisplays({ x: 5000, y: 5000, width: 1200, height: 800, maximized: false }, [])).toEqual({
      width: 1200,
      height: 800,
      maximized: false,
    });
  });
});

describe('parseWindowState', () => {
  it('accepts a saved state and drops a half position', () => {
    expect(parseWindowState({ x: 1, y: 2, width: 800, height: 600, maximized: true })).toEqual({
      x: 1,
      y: 2,
      width: 800,
      height: 600,
      maximized: true,
    });
    expect(parseWindowState({ x: 1, width: 800, height: 600 })).toEqual({
      width: 800,
      height: 600,
      maximized: false,
    });
  });

  it.each([
    null,
    [],
    'big',
    { width: '800', height: 600 },
    { width: 800 },
    { width: -1, height: 600 },
    { width: Number.NaN, height: 600 },
    { width: 1e9, height: 600 },
    { width: 800, height: 600, maximized: 'yes' },
  ])('refuses %j', (raw) => expect(parseWindowState(raw)).toBeNull());
});

describe('loadWindowState / saveWindowState', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'reportdesk-winstate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips a state through the file', () => {
    const file = join(dir, 'nested', 'window-state.json');
    const state = { x: 10, y: 20, width: 1000, height: 700, maximized: true };
    expect(saveWindowState(file, state)).toBe(true);
    expect(loadWindowState(file)).toEqual(state);
    expect(readdirSync(join(dir, 'nested'))).toEqual(['window-state.json']);
  });

  it('falls back to the default for a missing or corrupt file', () => {
    expect(loadWindowState(join(dir, 'missing.json'))).toEqual(DEFAULT_WINDOW_STATE);
    const corrupt = join(dir, 'window-state.json');
    writeFileSync(corrupt, '{"width": 1000, "heig');
    expect(loadWindowState(corrupt)).toEqual(DEFAULT_WINDOW_STATE);
  });

  it('refuses to save an invalid state and keeps the previous file', () => {
    const file = join(dir, 'window-state.json');
    saveWindowState(file, { width: 900, height: 600, maximized: false });
    expect(saveWindowState(file, { width: Number.NaN, height: 600, maximized: false })).toBe(false);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ width: 900, height: 600, maximized: false });
  });

  it('answers false, leaving the neighbours untouched, when the folder cannot be written', () => {
    // A file where the folder should be: fails for every user, root included.
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, 'x');
    expect(saveWindowState(join(blocker, 'window-state.json'), DEFAULT_WINDOW_STATE)).toBe(false);
    expect(readdirSync(dir)).toEqual(['not-a-folder']);
  });
});
