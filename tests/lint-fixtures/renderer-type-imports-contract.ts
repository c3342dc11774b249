// Linted as renderer/src/lib/<file>: type-only imports of the zod-bearing modules are allowed.
import type { Channel } from '../../../shared/contract';
import { type Report } from '../../../shared/report';

export type Named = { channel: Channel; report: Report };
