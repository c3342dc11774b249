/** Shared by the reliability tests: a real core over a temp data dir, and error-shape checks. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { AppError } from '../../shared/errors';
import { MemoryKeyStore, type KeyStore } from '../../electron/core/keys/keyStore';
import {
  createCoreServices,
  type CoreServices,
  type CoreServicesOptions,
} from '../../electron/core/services';
import type { Logger } from '../../electron/core/log';
import { inProcessDemoLauncher } from '../../electron/demo-service/launcher';

/** Short time-out, quick retries: faults show up in milliseconds, not seconds. */
export const FAST_CLIENT = { timeoutMs: 500, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 50 } };

export interface TempCore {
  core: CoreServices;
  dataDir: string;
  close(): Promise<void>;
}

export async function tempCore(
  prefix: string,
  options: { keyStore?: KeyStore; logger?: Logger } & Partial<CoreServicesOptions> = {},
): Promise<TempCore> {
  const root = mkdtempSync(join(tmpdir(), `reportdesk-reliability-${prefix}-`));
  const dataDir = join(root, 'data');
  const core = await createCoreServices({
    keyStore: new MemoryKeyStore(),
    probeIntervalMs: 0,
    client: FAST_CLIENT,
    demoLauncher: inProcessDemoLauncher,
    ...options,
    dataDir,
  });
  return {
    core,
    dataDir,
    async close() {
      await core.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A message a person can act on: a sentence or two, no stack trace, no secret. */
export function expectUserMessage(error: AppError, secrets: string[] = []): void {
  expect(error.message.length).toBeGreaterThan(20);
  expect(error.message.length).toBeLessThan(600);
  expect(error.message).toMatch(/^[A-Z“"]/);
  expect(error.message).toMatch(/[.!?…]$/);
  expect(error.message).not.toMatch(/\n\s+at |Error:|TypeError|undefined|\[object /);
  for (const secret of secrets) expect(error.message).not.toContain(secret);
}
