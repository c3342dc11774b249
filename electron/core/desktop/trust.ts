/**
 * Who may talk to the core: only the top frame of ReportDesk's own window, showing a page of
 * the app's own origin (app://reportdesk). Devtools, file: pages, about:blank, iframes and any
 * other origin are refused.
 */
import type { IpcInvokeEventLike } from '../ipc/bindContract';

/**
 * Compares scheme, host and port by hand: Node's URL reports the origin of a custom scheme
 * such as app:// as "null", while Chromium treats a registered standard scheme as a real origin.
 */
export function isTrustedFrameUrl(url: string, appOrigin: string): boolean {
  const frame = parseOrigin(url);
  const app = parseOrigin(appOrigin);
  return frame !== null && app !== null && frame === app;
}

export interface TrustedSenderOptions {
  appOrigin: string;
  /** webContents id of the main window; null while there is no window. */
  windowContentsId: number | null;
}

/** The main process's isTrustedSender: right window, top frame, app origin. */
export function isTrustedInvokeEvent(event: IpcInvokeEventLike, options: TrustedSenderOptions): boolean {
  if (options.windowContentsId === null || event.sender?.id !== options.windowContentsId) return false;
  const frame = event.senderFrame;
  if (!frame) return false;
  // Electron gives the top frame a null parent; an iframe has its parent frame there.
  if (frame.parent !== null && frame.parent !== undefined) return false;
  return isTrustedFrameUrl(frame.url, options.appOrigin);
}

function parseOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '' || url.host === '') return null;
  return `${url.protocol}//${url.host.toLowerCase()}`;
}
