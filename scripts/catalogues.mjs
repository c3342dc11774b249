// The message catalogues (shared/i18n/catalogues/<language>.json) as modules, for Vite (the
// renderer, and Vitest) and esbuild (the main process). Each message is compiled here, at build
// time, to FormatJS's ICU syntax tree, so the renderer ships no ICU parser and a catalogue with a
// broken message fails the build, naming the file and the id. The module names:
//   virtual:catalogues              CATALOGUE_LANGUAGES (the files present) and
//                                   loadCatalogue(code, part), which imports one part of one
//                                   catalogue: each is a chunk of its own
//   virtual:catalogue/<code>        the renderer's first part of a catalogue: the messages the
//   virtual:catalogue/<code>/later  first screen says (those named by the modules main.tsx runs
//                                   with at once), and the rest, loaded with the parts loaded
//                                   later (renderer/src/lazyParts.tsx). Descriptions and the main
//                                   process's messages left out; a message that is only text
//                                   comes as that text (the chunk is smaller)
//   virtual:catalogues/all          CATALOGUES: every catalogue whole, for the main process
// A language is there as soon as its file is: adding de.json needs no change here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@formatjs/icu-messageformat-parser';
import { messageIdsIn, staticClosure } from './sourceGraph.mjs';

export const CATALOGUE_DIR = resolve(fileURLToPath(new URL('../shared/i18n/catalogues', import.meta.url)));
/** The renderer's entry: what it reaches without import() is the first screen. */
export const RENDERER_ENTRY = resolve(fileURLToPath(new URL('../renderer/src/main.tsx', import.meta.url)));

const LOADERS_ID = 'virtual:catalogues';
const ALL_ID = 'virtual:catalogues/all';
const ONE_PREFIX = 'virtual:catalogue/';
const LATER_SUFFIX = '/later';
// Rollup's convention: a leading NUL marks a module no other plugin should touch.
const RESOLVED = '\0';
/** What only the main process says: the menu, notifications, its dialogs (shared/i18n/messages.ts › MainOnlyMessageId). */
export const MAIN_ONLY = /^(menu|notification|main)\./;

/**
 * The catalogues arrive compiled to ICU syntax trees, so the renderer ships FormatJS without its
 * ICU parser (7 KB gzip): a message that is not compiled fails to format instead of being parsed
 * in the page. vite.config.ts and Vitest's renderer project alias it so.
 */
export const WITHOUT_ICU_PARSER = {
  '@formatjs/icu-messageformat-parser': '@formatjs/icu-messageformat-parser/no-parser.js',
};

/** The languages that have a catalogue file, sorted. */
export function catalogueLanguages(dir = CATALOGUE_DIR) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /^[A-Za-z]{2,3}(-[A-Za-z0-9]+)*\.json$/.test(name))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();
}

export function catalogueFile(language, dir = CATALOGUE_DIR) {
  return join(dir, `${language}.json`);
}

/** A catalogue file's messages: id → ICU text (each entry is `{ message, description }`). */
export function readCatalogue(language, dir = CATALOGUE_DIR) {
  const file = catalogueFile(language, dir);
  const entries = JSON.parse(readFileSync(file, 'utf8'));
  const messages = {};
  for (const [id, entry] of Object.entries(entries)) {
    if (typeof entry?.message !== 'string') {
      throw new Error(`${file}: "${id}" has no "message" text.`);
    }
    messages[id] = entry.message;
  }
  return messages;
}

/** One ICU message as FormatJS's syntax tree (number and date skeletons parsed too). */
export function compileMessage(text) {
  return parse(text, { shouldParseSkeletons: true, requiresOtherClause: true });
}

/** A catalogue's messages compiled: id → syntax tree. Throws naming the file and id of a broken one. */
export function compileCatalogue(language, dir = CATALOGUE_DIR) {
  const compiled = {};
  for (const [id, text] of Object.entries(readCatalogue(language, dir))) {
    try {
      compiled[id] = compileMessage(text);
    } catch (thrown) {
      throw new Error(
        `${catalogueFile(language, dir)}: "${id}" is not a valid ICU message: ${thrown.message}`,
        { cause: thrown },
      );
    }
  }
  return compiled;
}

/** The ids the renderer's first screen says (the English catalogue's keys its modules name). */
export function firstScreenIds(dir = CATALOGUE_DIR, entry = RENDERER_ENTRY) {
  const ids = new Set(Object.keys(readCatalogue('en', dir)));
  const named = new Set();
  for (const file of staticClosure(entry)) for (const id of messageIdsIn(file, ids)) named.add(id);
  return named;
}

/**
 * One part of a compiled catalogue for the renderer: 'first' (the ids in `first`) or 'later'
 * (the others); no main-only message; a message that is only text as that text.
 */
export function rendererMessages(compiled, part = 'first', first = firstScreenIds()) {
  const out = {};
  for (const [id, message] of Object.entries(compiled)) {
    if (MAIN_ONLY.test(id) || first.has(id) !== (part === 'first')) continue;
    out[id] = message.length === 1 && message[0].type === 0 ? message[0].value : message;
  }
  return out;
}

/** JSON.parse of a string is parsed faster than the same object as a literal (V8's advice). */
const jsonModuleValue = (value) => `JSON.parse(${JSON.stringify(JSON.stringify(value))})`;

/** The source of a virtual module, or null when `id` is not one of them. */
export function catalogueModule(id, dir = CATALOGUE_DIR) {
  const name = id.startsWith(RESOLVED) ? id.slice(1) : id;
  const languages = catalogueLanguages(dir);
  if (name === LOADERS_ID) {
    const cases = languages
      .flatMap((code) => [
        `    case ${JSON.stringify(`${code} first`)}: return import(${JSON.stringify(ONE_PREFIX + code)});`,
        `    case ${JSON.stringify(`${code} later`)}: return import(${JSON.stringify(ONE_PREFIX + code + LATER_SUFFIX)});`,
      ])
      .join('\n');
    return [
      `export const CATALOGUE_LANGUAGES = ${JSON.stringify(languages)};`,
      "export function loadCatalogue(code, part = 'first') {",
      '  const loading = (() => {',
      '    switch (`${code} ${part}`) {',
      cases,
      '    default: return Promise.reject(new Error(`No catalogue for ${code}.`));',
      '    }',
      '  })();',
      '  return loading.then((module) => module.default);',
      '}',
    ].join('\n');
  }
  if (name === ALL_ID) {
    const entries = languages.map(
      (code) => `  ${JSON.stringify(code)}: ${jsonModuleValue(compileCatalogue(code, dir))},`,
    );
    return ['export const CATALOGUES = {', ...entries, '};'].join('\n');
  }
  if (name.startsWith(ONE_PREFIX)) {
    const later = name.endsWith(LATER_SUFFIX);
    const code = name.slice(ONE_PREFIX.length, later ? -LATER_SUFFIX.length : undefined);
    if (!languages.includes(code)) return null;
    const part = rendererMessages(
      compileCatalogue(code, dir),
      later ? 'later' : 'first',
      firstScreenIds(dir),
    );
    return `export default ${jsonModuleValue(part)};`;
  }
  return null;
}

function isCatalogueId(id) {
  return id === LOADERS_ID || id === ALL_ID || id.startsWith(ONE_PREFIX);
}

/** The Vite (and Vitest) plugin. */
export function viteCatalogues(dir = CATALOGUE_DIR) {
  return {
    name: 'reportdesk-catalogues',
    resolveId(id) {
      return isCatalogueId(id) ? RESOLVED + id : null;
    },
    load(id) {
      if (!id.startsWith(RESOLVED) || !isCatalogueId(id.slice(1))) return null;
      // A changed catalogue rebuilds what imports it (vite build --watch, Vitest's watch mode).
      for (const code of catalogueLanguages(dir)) this.addWatchFile?.(catalogueFile(code, dir));
      return catalogueModule(id, dir);
    },
  };
}

/** The esbuild plugin (the main process bundle). */
export function esbuildCatalogues(dir = CATALOGUE_DIR) {
  return {
    name: 'reportdesk-catalogues',
    setup(build) {
      build.onResolve({ filter: /^virtual:catalogues?(\/|$)/ }, (args) => ({
        path: args.path,
        namespace: 'catalogues',
      }));
      build.onLoad({ filter: /.*/, namespace: 'catalogues' }, (args) => {
        const contents = catalogueModule(args.path, dir);
        if (contents === null) return { errors: [{ text: `No catalogue module ${args.path}.` }] };
        return {
          contents,
          loader: 'js',
          resolveDir: dir,
          watchFiles: catalogueLanguages(dir).map((code) => catalogueFile(code, dir)),
        };
      });
    },
  };
}
