/**
 * Electron's powerMonitor as "Keep available offline" needs it (core/offline/power.ts).
 * https://www.electronjs.org/docs/latest/api/power-monitor: `isOnBatteryPower()` answers on
 * every platform; the 'on-ac' and 'on-battery' events are emitted on macOS and Windows only —
 * the scheduler asks at every look, so Linux, without events, is right at the next one.
 */
import type { PowerMonitor } from 'electron';
import type { PowerSource } from '../core/offline/power';

export function electronPowerSource(
  monitor: Pick<PowerMonitor, 'isOnBatteryPower' | 'on' | 'removeListener'>,
): PowerSource {
  return {
    onBattery: () => monitor.isOnBatteryPower(),
    onChange: (listener) => {
      const changed = () => listener();
      monitor.on('on-ac', changed);
      monitor.on('on-battery', changed);
      return () => {
        monitor.removeListener('on-ac', changed);
        monitor.removeListener('on-battery', changed);
      };
    },
  };
}
