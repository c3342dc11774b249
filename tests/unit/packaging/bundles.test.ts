/**
 * The built bundles, parsed with acorn: what Electron will load must not depend on paths that
 * break inside app.asar. The preload is sandboxed (only `electron` can be required there); the
 * CommonJS main bundle must not use import() of an external module (Node's ESM loader inside
 * app.asar) nor import.meta (undefined in CommonJS), and must load the native modules with
 * require. The bundles are built here, with the project's own build script, into a temp folder.
 * The CLI bundle is also run, through a proxy, as bin/report-desk.mjs runs it.
 */
import { parse, type Node } from 'acorn';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../../scripts/build-node.mjs';
import { freeLoopbackPort } from '../../helpers/network';

type AnyNode = Node & Record<string, unknown>;

interface BundleFacts {
  /** Module names passed to require(...) (or to a function made by createRequire). */
  required: string[];
  /** import(...) expressions, with their argument's text when it is a literal. */
  dynamicImports: string[];
  /** Occurrences of import.meta. */
  importMeta: number;
}

function* walk(node: unknown): Generator<AnyNode> {
  if (Array.isArray(node)) {
    for (const child of node) yield* walk(child);
    return;
  }
  if (!node || typeof node !== 'object' || typeof (node as { type?: unknown }).type !== 'string') return;
  yield node as AnyNode;
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'type' && value && typeof value === 'object') yield* walk(value);
  }
}

const literal = (node: unknown): string | null => {
  const value = (node as { type?: string; value?: unknown } | undefined)?.value;
  return (node as { type?: string })?.type === 'Literal' && typeof value === 'string' ? value : null;
};

/** What a bundle loads, read from its syntax tree. */
function bundleFacts(source: string, sourceType: 'script' | 'module'): BundleFacts {
  const tree = parse(source, { ecmaVersion: 'latest', sourceType, allowHashBang: true });
  // Functions that behave as require: `require` itself and `x = createRequire(...)`.
  const requireNames = new Set(['require']);
  for (const node of walk(tree)) {
    if (node.type !== 'VariableDeclarator') continue;
    const init = node.init as AnyNode | null;
    const callee = init?.type === 'CallExpression' ? (init.callee as AnyNode) : null;
    const calleeText = callee ? source.slice(callee.start, callee.end) : '';
    if (/createRequire\)?$/.test(calleeText)) requireNames.add((node.id as { name: string }).name);
  }
  const facts: BundleFacts = { required: [], dynamicImports: [], importMeta: 0 };
  for (const node of walk(tree)) {
    if (node.type === 'ImportExpression') {
      facts.dynamicImports.push(literal(node.source) ?? source.slice(node.start, node.end));
    } else if (node.type === 'MetaProperty' && (node.meta as { name: string }).name === 'import') {
      facts.importMeta++;
    } else if (node.type === 'CallExpression') {
      const callee = node.callee as AnyNode;
      const name = literal((node.arguments as unknown[])[0]);
      if (callee.type === 'Identifier' && requireNames.has(callee.name as string) && name)
        facts.required.push(name);
    }
  }
  return facts;
}

const EXTERNAL_NATIVE = ['keytar', 'better-sqlite3'];
let outDir: string;
let main: BundleFacts;
let preload: BundleFacts;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'reportdesk-bundles-'));
  await buildNode(outDir);
  main = bundleFacts(readFileSync(join(outDir, 'electron', 'main.cjs'), 'utf8'), 'script');
  preload = bundleFacts(readFileSync(join(outDir, 'electron', 'preload.cjs'), 'utf8'), 'script');
}, 60_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the sandboxed preload bundle', () => {
  it('requires only electron', () => {
    expect(preload.required).toContain('electron');
    expect(new Set(preload.required)).toEqual(new Set(['electron']));
    expect(preload.dynamicImports).toEqual([]);
    expect(preload.importMeta).toBe(0);
  });
});

describe('the CommonJS main bundle', () => {
  it('has no import() and no import.meta', () => {
    expect(main.dynamicImports).toEqual([]);
    expect(main.importMeta).toBe(0);
  });

  it('loads keytar and better-sqlite3 with require', () => {
    for (const name of EXTERNAL_NATIVE) expect(main.required).toContain(name);
    expect(main.required).toContain('electron');
  });
});

describe('the CLI bundle', () => {
  it('runs, undici (CommonJS) included: an unreachable proxy is its sentence and exit 6', async () => {
    // The native modules stay external: found through a node_modules beside the bundle, as in the project.
    symlinkSync(join(process.cwd(), 'node_modules'), join(outDir, 'node_modules'), 'dir');
    const proxyPort = await freeLoopbackPort();
    const servicePort = await freeLoopbackPort();
    const result = spawnSync(
      process.execPath,
      [
        join(outDir, 'cli', 'report-desk.mjs'),
        '--no-cache',
        '--base-url',
        `http://127.0.0.1:${servicePort}`,
        'account',
      ],
      {
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH,
          HOME: outDir,
          REPORT_DESK_DATA_DIR: join(outDir, 'data'),
          REPORT_DESK_API_KEY: 'bundle-test-key',
          HTTP_PROXY: `http://127.0.0.1:${proxyPort}`,
        },
      },
    );
    expect(result.stderr).toBe(
      `The proxy 127.0.0.1:${proxyPort} (from HTTP_PROXY) could not be reached: the connection was refused. Check HTTP_PROXY, or unset it where the Report Service can be reached directly.\n`,
    );
    expect(result.status).toBe(6);
  });
});

describe('the check itself (not vacuous)', () => {
  it("flags import() of keytar, import.meta, and a preload's other require", () => {
    const esm = bundleFacts(
      "const m = await import('keytar'); const u = import.meta.url; export { m, u };",
      'module',
    );
    expect(esm.dynamicImports).toEqual(['keytar']);
    expect(esm.importMeta).toBe(1);
    const cjs = bundleFacts(
      "const { createRequire } = require('node:module'); const r = createRequire(__filename); r('better-sqlite3'); require('fs');",
      'script',
    );
    expect(cjs.required).toEqual(['node:module', 'better-sqlite3', 'fs']);
  });
});
