/**
 * Fails any attempt to load `electron` in this process, and records it: the update-check path
 * must never load it (electron ≥ 42 downloads its runtime on first require). Two hooks, for
 * the two ways in: Node's module resolution hooks (require and import alike) and, as the lead
 * of the issue asked, Module._load (what electron-updater's own `require("electron")` calls).
 */
import Module, { registerHooks } from 'node:module';

export interface ElectronGuard {
  /** Every attempt to load electron since the guard was installed, with where it came from. */
  attempts: string[];
  remove(): void;
}

export function forbidElectron(): ElectronGuard {
  const attempts: string[] = [];
  const refuse = (how: string): never => {
    const stack = new Error().stack?.split('\n').slice(2, 8).join('\n') ?? '';
    attempts.push(`${how}\n${stack}`);
    throw new Error(`electron was loaded on the update-check path (${how})`);
  };
  const hooks = registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier === 'electron' || specifier.startsWith('electron/')) refuse(`resolve ${specifier}`);
      return nextResolve(specifier, context);
    },
  });
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const originalLoad = loader._load;
  loader._load = function (request: string, ...rest: unknown[]) {
    if (request === 'electron') refuse('Module._load electron');
    return originalLoad.call(this, request, ...rest);
  };
  return {
    attempts,
    remove() {
      hooks.deregister();
      loader._load = originalLoad;
    },
  };
}
