/** A real core (temp data dir, SQLite cache, in-memory key store) with one profile on a service. */
import { join } from 'node:path';
import type { ContractHandlers } from '../../shared/contract';
import { MemoryKeyStore } from '../../electron/core/keys/keyStore';
import { createCoreServices, type CoreServices } from '../../electron/core/services';
import type { DemoService } from '../../electron/demo-service/server';
import { tempDir } from './common';

export interface BenchCore {
  core: CoreServices;
  handlers: ContractHandlers;
  profileId: string;
  dataDir: string;
  close(): Promise<void>;
}

/** A core on a fresh data dir with one profile on `service` (in this process or a child's). */
export async function coreWithProfile(
  service: Pick<DemoService, 'baseUrl' | 'apiKey'>,
  prefix: string,
): Promise<BenchCore> {
  const dir = tempDir(prefix);
  const core = await createCoreServices({
    dataDir: join(dir.path, 'data'),
    keyStore: new MemoryKeyStore(),
    probeIntervalMs: 0,
  });
  try {
    const profile = await core.handlers['profiles:add']({
      name: 'Bench',
      baseUrl: service.baseUrl,
      apiKey: service.apiKey,
      allowInsecureHttp: false,
      sessionOnly: false,
    });
    return {
      core,
      handlers: core.handlers,
      profileId: profile.id,
      dataDir: join(dir.path, 'data'),
      async close() {
        await core.close();
        dir.remove();
      },
    };
  } catch (thrown) {
    await core.close();
    dir.remove();
    throw thrown;
  }
}
