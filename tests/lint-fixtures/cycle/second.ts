// The other half: a type-only import still closes the cycle.
import type { first } from './first';

export const second = (): string => 'second';
export type First = typeof first;
