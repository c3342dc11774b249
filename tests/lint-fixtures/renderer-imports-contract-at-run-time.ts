// Linted as renderer/src/lib/<file>: the channel table carries zod; the renderer may only name its types.
import { CHANNELS } from '../../../shared/contract';

export const channels = Object.keys(CHANNELS);
