// Half of a deliberate import cycle (see ../README.md).
import { second } from './second';

export const first = (): string => `first, then ${second()}`;
