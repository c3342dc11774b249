/**
 * Every channel of the gateway tells a full disk or a read-only folder as such (issue 30): a
 * raw ENOSPC / SQLITE_FULL / EROFS / SQLITE_READONLY that reached a handler becomes `disk_full`
 * or `read_only` naming the data folder, and each such failure gets the reports still available
 * offline. It is logged with its code and kind, so the app's log never says "database or disk is
 * full" while the window shows "something went wrong".
 */
import type { ContractHandlers } from '../../shared/contract';
import { AppFailure } from '../../shared/errors';
import type { Logger } from './log';
import { errorCode } from './errorCode';
import { storageFailure, withOfflineReports } from './storageFailure';

export interface StorageErrorsOptions {
  /** The data folder. */
  folder: string;
  /** Reports of the active profile available offline (undefined without one). */
  offlineReports: () => number | undefined;
  logger: Logger;
}

export function withStorageErrors(
  handlers: ContractHandlers,
  options: StorageErrorsOptions,
): ContractHandlers {
  const log = options.logger.child('storage');
  const told = (channel: string) => (thrown: unknown) => {
    const mapped = withOfflineReports(
      storageFailure(thrown, { folder: options.folder, place: 'data_folder' }) ?? thrown,
      options.offlineReports,
    );
    if (
      mapped instanceof AppFailure &&
      (mapped.error.kind === 'disk_full' || mapped.error.kind === 'read_only')
    ) {
      log.warn('A request failed because of the disk.', {
        channel,
        kind: mapped.error.kind,
        code: mapped.error.details?.code ?? errorCode(thrown),
        folder: mapped.error.details?.folder,
      });
    }
    throw mapped;
  };
  const wrapped: Partial<Record<keyof ContractHandlers, unknown>> = {};
  for (const channel of Object.keys(handlers) as (keyof ContractHandlers)[]) {
    const handler = handlers[channel] as (input: unknown) => Promise<unknown>;
    const failed = told(channel);
    wrapped[channel] = (input: unknown) => handler(input).catch(failed);
  }
  return wrapped as ContractHandlers;
}
