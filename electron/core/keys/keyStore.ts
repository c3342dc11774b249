/**
 * Where API keys are kept: the OS keychain through keytar (macOS Keychain, Windows Credential
 * Manager, the Secret Service on Linux), or memory. Keys never go to a file or a log.
 */
import { createRequire } from 'node:module';
import { AppFailure, appError, type AppError } from '../../../shared/errors';
import { registerSecret, silentLogger, type Logger } from '../log';
import { nativeModuleFailure } from '../nativeModules';

export interface KeyStore {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
  /**
   * Every account the store holds a key for, with the key's hint (never the key): how keys that
   * no profile names are found. Absent where the store cannot list its entries.
   */
  accounts?(): Promise<{ account: string; keyHint: string | null }[]>;
}

export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials?(service: string): Promise<{ account: string; password: string }[]>;
}

/** What a key may show of itself: the last four characters, none for a key under eight (the hint would be most of it). */
export function keyHint(key: string): string | null {
  return key.length >= 8 ? key.slice(-4) : null;
}

/** What to do when the keychain cannot be used, in the words of the user's platform. */
export function keychainUnavailable(platform: NodeJS.Platform): AppError {
  return appError('keychain.unavailable', {
    platform: platform === 'darwin' || platform === 'win32' ? platform : 'other',
  });
}

// A plain require, never import(): inside Electron's CommonJS main bundle, import() of a package
// goes through Node's ESM loader inside app.asar, a path that has broken between Electron
// releases. In the bundle import.meta.url is defined from __filename (scripts/build-node.mjs).
const requireNative = createRequire(import.meta.url);

async function loadKeytarModule(): Promise<KeytarLike> {
  return requireNative('keytar') as KeytarLike;
}

export class KeytarKeyStore implements KeyStore {
  private readonly service: string;
  private readonly loadKeytar: () => Promise<KeytarLike>;
  private readonly platform: NodeJS.Platform;
  private readonly logger: Logger;
  private keytar: Promise<KeytarLike> | null = null;

  constructor(
    options: {
      service?: string;
      loadKeytar?: () => Promise<KeytarLike>;
      platform?: NodeJS.Platform;
      logger?: Logger;
    } = {},
  ) {
    this.service = options.service ?? 'ReportDesk';
    this.loadKeytar = options.loadKeytar ?? loadKeytarModule;
    this.platform = options.platform ?? process.platform;
    this.logger = (options.logger ?? silentLogger).child('keychain');
  }

  async get(account: string): Promise<string | null> {
    const secret = await this.call('read', (keytar) => keytar.getPassword(this.service, account));
    registerSecret(secret);
    return secret;
  }

  async set(account: string, secret: string): Promise<void> {
    registerSecret(secret);
    await this.call('write', (keytar) => keytar.setPassword(this.service, account, secret));
  }

  async delete(account: string): Promise<boolean> {
    return this.call('delete', (keytar) => keytar.deletePassword(this.service, account));
  }

  /** Every account of this service (keytar's findCredentials); the keys themselves are dropped at once. */
  async accounts(): Promise<{ account: string; keyHint: string | null }[]> {
    const found = await this.call('list', async (keytar) => {
      if (!keytar.findCredentials) throw new Error('this keytar cannot list its entries');
      return keytar.findCredentials(this.service);
    });
    return found.map(({ account, password }) => {
      registerSecret(password);
      return { account, keyHint: keyHint(password) };
    });
  }

  /** Runs one keytar call; any failure becomes `keychain_unavailable` with what to do. */
  private async call<T>(action: string, run: (keytar: KeytarLike) => Promise<T>): Promise<T> {
    try {
      // A failed load is retried next time: the user may have unlocked or installed the keychain.
      this.keytar ??= this.loadKeytar().catch((error: unknown) => {
        this.keytar = null;
        throw error;
      });
      return await run(await this.keytar);
    } catch (error) {
      // keytar's own text (e.g. "Could not connect") has no secret in it; it helps support.
      this.logger.warn(`Keychain ${action} failed.`, {
        error: error instanceof Error ? error.message : String(error),
      });
      // keytar built for the other runtime is not a keychain problem: say what to run instead.
      throw new AppFailure(nativeModuleFailure(error) ?? keychainUnavailable(this.platform));
    }
  }
}

/** Keys in memory: for tests, and behind KeyVault's session-only keys. */
export class MemoryKeyStore implements KeyStore {
  private readonly secrets = new Map<string, string>();

  async get(account: string): Promise<string | null> {
    return this.secrets.get(account) ?? null;
  }

  async set(account: string, secret: string): Promise<void> {
    registerSecret(secret);
    this.secrets.set(account, secret);
  }

  async delete(account: string): Promise<boolean> {
    return this.secrets.delete(account);
  }

  async accounts(): Promise<{ account: string; keyHint: string | null }[]> {
    return [...this.secrets].map(([account, secret]) => ({ account, keyHint: keyHint(secret) }));
  }
}
