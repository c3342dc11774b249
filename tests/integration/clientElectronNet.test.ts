/**
 * The whole API client suite (client.test.ts) again, over a fetch that behaves like Electron's
 * net.fetch (tests/helpers/electronNet.ts) — the transport the app really uses — instead of
 * Node's. The suite is imported after the transport is chosen; each test file has its own
 * module instances, so client.test.ts itself still runs over Node's fetch.
 */
import { clientSuiteTransport } from '../helpers/electronNet';

clientSuiteTransport.name = 'electron';
await import('./client.test');
