/**
 * What a connected CLI run works with. Apart from ./session (which makes it) so that the
 * command context can name it without an import cycle.
 */
import type { ContractHandlers } from '../../shared/contract';
import type { EventHub } from '../core/events';
import type { CoreServices } from '../core/services';
import type { StoredProfile } from '../core/profiles/profileStore';

export type ConnectionTarget =
  { kind: 'profile'; profile: StoredProfile } | { kind: 'environment'; baseUrl: string };

export interface Connected {
  handlers: ContractHandlers;
  events: EventHub;
  target: ConnectionTarget;
  /** Every page of a list query (the export's walk). */
  listAll: CoreServices['listAll'];
}
