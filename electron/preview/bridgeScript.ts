/**
 * The browser side of the preview bridge, served as /__bridge/bridge.js before any other script.
 * It defines `window.reportDesk` with the same shape as the Electron preload
 * (`ReportDeskBridge` in shared/contract.ts): `invoke` posts to /__bridge/invoke and resolves
 * to the server's Result; `on` listens on one shared EventSource (/__bridge/events).
 *
 * The per-run token arrives in the page's address (`/?token=T`). The script moves it into
 * sessionStorage — readable by this origin only, kept across reloads of this tab — and takes it
 * out of the address bar (and so out of history), then sends it in a header with every call.
 *
 * A plain ES2020 string rather than a serialised TypeScript function: whatever transpiles this
 * module (tsx, vitest, esbuild) cannot slip helpers into the text the browser runs.
 */

import { appError } from '../../shared/errors';

/** What `invoke` resolves to when the preview server itself cannot be reached. */
export const PREVIEW_UNREACHABLE = appError('preview.unreachable');
const REFUSED = appError('preview.refused');
/** Its status is the browser's to fill in: the sentence's English around it, in two parts. */
const [NO_RESULT_BEFORE, NO_RESULT_AFTER] = appError('preview.no_result', { status: 0 }).message.split('0');

export const BRIDGE_SCRIPT = `(function () {
  'use strict';
  var TOKEN_KEY = 'reportdesk.previewToken';
  var token = '';
  try {
    var fromAddress = new URLSearchParams(location.search).get('token');
    if (fromAddress) {
      sessionStorage.setItem(TOKEN_KEY, fromAddress);
      history.replaceState(history.state, '', location.pathname + location.hash);
    }
    token = sessionStorage.getItem(TOKEN_KEY) || '';
  } catch (storageRefused) {
    // Storage disabled: this page load still works with the token in its address.
    token = new URLSearchParams(location.search).get('token') || '';
  }
  var UNREACHABLE = { ok: false, error: ${JSON.stringify(PREVIEW_UNREACHABLE)} };

  function refused(status) {
    if (status === 403) return { ok: false, error: ${JSON.stringify(REFUSED)} };
    var message = ${JSON.stringify(NO_RESULT_BEFORE)} + status + ${JSON.stringify(NO_RESULT_AFTER)};
    return { ok: false, error: { kind: 'internal', code: 'preview.no_result', values: { status: status }, message: message } };
  }

  function isResult(value) {
    return typeof value === 'object' && value !== null && typeof value.ok === 'boolean';
  }

  function invoke(channel, input) {
    var body;
    try {
      body = JSON.stringify({ channel: channel, input: input });
    } catch (cannotSerialise) {
      return Promise.resolve({ ok: false, error: { kind: 'invalid_input', message: 'The input could not be sent: it is not plain data.' } });
    }
    return fetch('/__bridge/invoke', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-ReportDesk-Preview-Token': token },
      body: body,
      credentials: 'omit',
      cache: 'no-store',
    }).then(
      function (response) {
        return response.json().then(
          function (parsed) { return isResult(parsed) ? parsed : refused(response.status); },
          function () { return refused(response.status); }
        );
      },
      function () { return UNREACHABLE; }
    );
  }

  var source = null;
  var listeners = new Map();

  function deliver(name, message) {
    var payload;
    try {
      payload = JSON.parse(message.data);
    } catch (notJson) {
      return;
    }
    var current = listeners.get(name);
    if (!current) return;
    Array.from(current).forEach(function (listener) {
      try {
        listener(payload);
      } catch (listenerFailed) {
        // One failing listener must not stop the others (as in the Electron preload).
        setTimeout(function () { throw listenerFailed; });
      }
    });
  }

  function on(name, listener) {
    if (typeof name !== 'string' || typeof listener !== 'function') {
      throw new TypeError('reportDesk.on(event, listener) needs an event name and a function.');
    }
    // One EventSource for the page; it reconnects by itself if the server restarts.
    if (source === null) source = new EventSource('/__bridge/events?token=' + encodeURIComponent(token));
    var current = listeners.get(name);
    if (!current) {
      current = new Set();
      listeners.set(name, current);
      source.addEventListener(name, function (message) { deliver(name, message); });
    }
    current.add(listener);
    return function unsubscribe() { current.delete(listener); };
  }

  Object.defineProperty(window, 'reportDesk', {
    value: Object.freeze({ invoke: invoke, on: on }),
    writable: false,
    enumerable: true,
    configurable: false,
  });
})();
`;
