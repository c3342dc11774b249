/**
 * Where the computer's power comes from, as the scheduler needs it: the app passes Electron's
 * powerMonitor (electron/main/power.ts), every other front end runs on mains as far as it knows.
 */
export interface PowerSource {
  /** True while the computer runs on its battery. */
  onBattery(): boolean;
  /** Calls `listener` when the power source may have changed; answers the unsubscribe. */
  onChange(listener: () => void): () => void;
}

/** A computer that never says it is on battery (the preview, tests, a desktop without one). */
export const MAINS_POWER: PowerSource = {
  onBattery: () => false,
  onChange: () => () => {},
};
