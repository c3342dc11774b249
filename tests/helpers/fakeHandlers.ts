/** Contract handlers for bridge tests: every channel throws until a test gives it an answer. */
import { CHANNEL_NAMES, type ContractHandlers } from '../../shared/contract';

export function unimplementedHandlers(): ContractHandlers {
  return Object.fromEntries(
    CHANNEL_NAMES.map((name) => [
      name,
      async () => {
        throw new Error(`fake handler for ${name} is not implemented`);
      },
    ]),
  ) as unknown as ContractHandlers;
}
