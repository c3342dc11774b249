/**
 * profiles.json on disk, read closely (electron/core/profiles/profilesFile.ts, issue 30): what
 * counts as damaged, the copies of damaged files set aside and pruned, and the profiles a
 * damaged copy still shows (to restore an orphaned key's profile).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  copyAside,
  damagedCopies,
  knownProfiles,
  parseProfiles,
  pruneDamagedCopies,
  readProfilesFile,
  salvageProfiles,
} from '../../electron/core/profiles/profilesFile';
import { onTmpfs } from '../helpers/tmpfs';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-profiles-file-'));
  file = join(dir, 'profiles.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const profile = (id: string, name = id.toUpperCase()) => ({
  id,
  name,
  baseUrl: `https://${id}.example`,
  allowInsecureHttp: false,
  demo: false,
  createdAt: '2026-01-01T00:00:00.000Z',
});
const copies = () =>
  readdirSync(dir)
    .filter((name) => name.includes('.corrupt-'))
    .sort();

describe('reading', () => {
  it('valid JSON that is no profile list is damaged; only a numeric version above 1 is "newer"', () => {
    expect(parseProfiles('null')).toEqual({ why: { reason: 'not_profiles' } });
    expect(parseProfiles('{"version": "2", "activeId": null, "profiles": []}')).toEqual({
      why: { reason: 'not_profiles' },
    });
    expect(parseProfiles('{"version": 2}')).toEqual({ newer: 2 });
  });

  it('the active profile is the one named when the list has it, else the first', () => {
    const list = (activeId: string | null) =>
      JSON.stringify({ version: 1, activeId, profiles: [profile('a'), profile('b')] });
    const active = (text: string) => {
      const parsed = parseProfiles(text);
      return 'state' in parsed ? parsed.state.activeId : parsed;
    };
    expect(active(list('b'))).toBe('b');
    expect(active(list('ghost'))).toBe('a');
    expect(active(list(null))).toBe('a');
    expect(active(JSON.stringify({ version: 1, activeId: 'x', profiles: [] }))).toBeNull();
  });

  it('a file that cannot be read is damaged, saying why', () => {
    mkdirSync(file);
    expect(readProfilesFile(file)).toMatchObject({
      kind: 'damaged',
      why: { reason: 'unreadable', readCode: 'EISDIR' },
    });
  });
});

describe('copies of damaged files', () => {
  it('are listed newest first, and none for a folder that is not there', () => {
    const names = ['2026-01-03', '2026-01-01', '2026-01-05', '2026-01-02', '2026-01-04'];
    for (const day of names) writeFileSync(`${file}.corrupt-${day}T000000000Z`, day);
    writeFileSync(join(dir, 'other.json.corrupt-2026-01-09T000000000Z'), 'not ours');
    expect(damagedCopies(file).map((path) => readFileSync(path, 'utf8'))).toEqual([
      '2026-01-05',
      '2026-01-04',
      '2026-01-03',
      '2026-01-02',
      '2026-01-01',
    ]);
    expect(damagedCopies(join(dir, 'missing', 'profiles.json'))).toEqual([]);
  });

  it('a damaged file is copied once; a different damage later is copied too', () => {
    writeFileSync(file, '{"version": 1, "prof');
    const first = copyAside(file);
    expect(first).not.toBe(file);
    expect(copyAside(file)).toBe(first);
    writeFileSync(file, 'garbage of another kind');
    const second = copyAside(file);
    expect(second).not.toBe(first);
    expect(readFileSync(second, 'utf8')).toBe('garbage of another kind');
    expect(copies()).toHaveLength(2);
  });

  it('a file that cannot be read is not copied: the file itself is named', () => {
    writeFileSync(`${file}.corrupt-2026-01-01T000000000Z`, 'an earlier damage');
    mkdirSync(file);
    expect(copyAside(file)).toBe(file);
    expect(copies()).toEqual(['profiles.json.corrupt-2026-01-01T000000000Z']);
  });

  onTmpfs('in a read-only folder no copy can be made: the file itself is named', 64 * 1024, (disk) => {
    const target = join(disk.dir, 'profiles.json');
    writeFileSync(target, 'damaged');
    disk.remount('ro');
    expect(copyAside(target)).toBe(target);
    expect(readdirSync(disk.dir)).toEqual(['profiles.json']);
  });
  it('a folder among the copies is skipped when comparing, and never pruned', () => {
    mkdirSync(`${file}.corrupt-2026-01-09T000000000Z`);
    writeFileSync(file, 'damaged');
    expect(copyAside(file)).not.toBe(file);
    expect(copies()).toHaveLength(2);
  });

  it('pruning keeps the five newest files (a folder among the old ones stays)', () => {
    for (let day = 1; day <= 8; day++)
      writeFileSync(`${file}.corrupt-2026-01-0${day}T000000000Z`, String(day));
    mkdirSync(`${file}.corrupt-2026-01-00T000000000Z`);
    pruneDamagedCopies(file);
    expect(copies()).toEqual([
      'profiles.json.corrupt-2026-01-00T000000000Z',
      ...[4, 5, 6, 7, 8].map((day) => `profiles.json.corrupt-2026-01-0${day}T000000000Z`),
    ]);
  });
});

describe('the profiles still known', () => {
  it('none without a backup or a copy, nor for a folder that is not there', () => {
    writeFileSync(file, JSON.stringify({ version: 1, activeId: null, profiles: [profile('a')] }));
    expect(knownProfiles(file)).toEqual([]);
    expect(knownProfiles(join(dir, 'missing', 'profiles.json'))).toEqual([]);
  });

  it('a copy that still parses is read whole (its other fields too); a folder among them is passed over', () => {
    const whole = { ...profile('w'), keySetAt: '2026-02-01T00:00:00.000Z', offline: { keepOffline: true } };
    writeFileSync(
      `${file}.corrupt-2026-01-01T000000000Z`,
      JSON.stringify({ version: 1, activeId: null, profiles: [whole] }),
    );
    mkdirSync(`${file}.corrupt-2026-01-02T000000000Z`);
    expect(knownProfiles(file)).toEqual([{ id: 'w', source: 'damaged_file', stored: whole }]);
  });
});

describe('salvaging a damaged text', () => {
  it('finds ids however the JSON was spaced, and flags written either way', () => {
    const text =
      '{"profiles": [{"id" : "spaced", "name" : "S", "baseUrl" : "https://s.example", "allowInsecureHttp" : true, "demo" : true},' +
      '{"id":"compact","name":"C","baseUrl":"https://c.example","allowInsecureHttp":true,"demo":true},' +
      '{"id": "plain", "name": "P", "baseUrl": "https://plain.example", "allowInsecureHttp": false, "demo": false, "createdAt": "2026-03-01T00:00:00.000Z"},' +
      '{"id": "cut", "name": "Cu';
    expect(salvageProfiles(text)).toEqual([
      {
        id: 'spaced',
        stored: {
          id: 'spaced',
          name: 'S',
          baseUrl: 'https://s.example',
          allowInsecureHttp: true,
          demo: true,
          createdAt: '1970-01-01T00:00:00.000Z',
        },
      },
      {
        id: 'compact',
        stored: {
          id: 'compact',
          name: 'C',
          baseUrl: 'https://c.example',
          allowInsecureHttp: true,
          demo: true,
          createdAt: '1970-01-01T00:00:00.000Z',
        },
      },
      { id: 'plain', stored: { ...profile('plain', 'P'), createdAt: '2026-03-01T00:00:00.000Z' } },
      { id: 'cut', stored: null },
    ]);
  });

  it('a profile whose own fields were lost does not take its neighbour’s', () => {
    const longId = 'x'.repeat(64);
    const text = `[{"id":"a","name":"A","baseUrl":"https://a.example"},{"id":"${longId}"`;
    expect(salvageProfiles(text).map((found) => [found.id, found.stored?.name ?? null])).toEqual([
      ['a', 'A'],
      [longId, null],
    ]);
  });
});
