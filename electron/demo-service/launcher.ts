/**
 * The embedded demo's launcher: the reference service in-process on 127.0.0.1, its data kept
 * in the data dir. The desktop app and the preview pass it to createCoreServices (the core
 * never imports the demo service itself).
 */
import type { DemoLauncher } from '../core/gateway/connection';
import type { Logger } from '../core/log';
import { startDemoService, type DemoService } from './server';

/** Starts the service on first use, on its old port when that is still free. */
export function inProcessDemoLauncher(dataFile: string, logger: Logger): DemoLauncher {
  let running: Promise<DemoService> | null = null;
  const start = async (preferredPort?: number): Promise<DemoService> => {
    try {
      return await startDemoService({ port: preferredPort ?? 0, dataFile });
    } catch (thrown) {
      if (!preferredPort) throw thrown;
      // The old port is taken by something else: any free port will do.
      return startDemoService({ port: 0, dataFile });
    }
  };
  return {
    async ensureRunning(preferredPort) {
      running ??= start(preferredPort).catch((thrown) => {
        running = null;
        throw thrown;
      });
      const service = await running;
      logger.info('demo service running', { baseUrl: service.baseUrl });
      return { baseUrl: service.baseUrl, apiKey: service.apiKey };
    },
    async stop() {
      const service = await running?.catch(() => null);
      running = null;
      await service?.stop();
    },
  };
}
