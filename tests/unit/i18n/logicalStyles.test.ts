/**
 * The renderer's styles name sides by the reading direction (issue 28): `margin-inline-start`,
 * `border-inline-end`, `text-align: start`, so that `<html dir="rtl">` mirrors the whole layout.
 * A side named left or right stays left or right in Arabic; this keeps it from coming back.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const STYLES = resolve(import.meta.dirname, '../../../renderer/src/styles.css');

/** A rule only for one direction may name its sides: `[dir='rtl'] .x { … }`. */
const FOR_ONE_DIRECTION = /\[dir=['"]?(rtl|ltr)['"]?\]/;
const PHYSICAL_PROPERTY = /(^|-)(left|right)(-|$)/;
const PHYSICAL_VALUE = /^(text-align|float|clear)$/;
const FOUR_SIDES =
  /^(margin|padding|inset|border-width|border-style|border-color|scroll-margin|scroll-padding)$/;

/** Each declaration that names a physical side, as `selector { property: value }`. */
function physicalSides(css: string): string[] {
  const found: string[] = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const [, selector, body] of text.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    if (FOR_ONE_DIRECTION.test(selector) || /^\s*(from|to|\d+%)\s*$/.test(selector)) continue;
    for (const declaration of body.split(';')) {
      const at = declaration.indexOf(':');
      if (at < 0) continue;
      const property = declaration.slice(0, at).trim();
      const value = declaration
        .slice(at + 1)
        .replace(/!important/, '')
        .trim();
      const values = value.split(/\s+(?![^(]*\))/);
      const named =
        PHYSICAL_PROPERTY.test(property) ||
        (PHYSICAL_VALUE.test(property) && /\b(left|right)\b/.test(value)) ||
        (property === 'background-position' && /\b(left|right)\b/.test(value)) ||
        (FOUR_SIDES.test(property) && values.length === 4 && values[1] !== values[3]) ||
        (property === 'border-radius' &&
          values.length === 4 &&
          (values[0] !== values[1] || values[2] !== values[3]));
      if (named) found.push(`${selector.trim().replace(/\s+/g, ' ')} { ${property}: ${value} }`);
    }
  }
  return found;
}

describe('the renderer’s styles', () => {
  it('name every side by the reading direction, so a right-to-left page mirrors', () => {
    expect(physicalSides(readFileSync(STYLES, 'utf8'))).toEqual([]);
  });
});

describe('the check', () => {
  it('finds every way of naming a side, and leaves rules for one direction and symmetric ones alone', () => {
    const css = `
      /* margin-left: 1px in a comment is not a rule */
      .a { margin-left: 4px; padding-right: 0 !important; }
      .b { border-left: 1px solid; right: 0; text-align: right; float: left; }
      .c { padding: 8px 8px 8px 14px; border-radius: 6px 6px 0 6px; background-position: left top; }
      .d { margin-inline-start: 4px; text-align: start; padding: 20px 24px 32px; margin: 0 auto; }
      .e { border-radius: 6px 6px 0 0; inset: 0; padding: 1px 2px 3px 2px; transform: translate(-50%, 0); }
      [dir='rtl'] .f { text-align: right; }
      @keyframes g { from { background-position: -50% 0; } to { background-position: 150% 0; } }
    `;
    expect(physicalSides(css)).toEqual([
      '.a { margin-left: 4px }',
      '.a { padding-right: 0 }',
      '.b { border-left: 1px solid }',
      '.b { right: 0 }',
      '.b { text-align: right }',
      '.b { float: left }',
      '.c { padding: 8px 8px 8px 14px }',
      '.c { border-radius: 6px 6px 0 6px }',
      '.c { background-position: left top }',
    ]);
  });
});
