/**
 * The sandboxed preload: exposes `window.reportDesk` (ReportDeskBridge) and nothing else. The
 * whitelisting lives in electron/core/ipc/preloadBridge.ts, where it is unit-tested.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from '../core/ipc/preloadBridge';

contextBridge.exposeInMainWorld('reportDesk', createBridge(ipcRenderer));
