/**
 * The renderer's Content-Security-Policy, sent as a response header by the app:// protocol in
 * Electron and by the browser-preview server, so both front ends run the UI under the same rules.
 * Only the app's own files: no inline scripts, no eval, nothing remote. Inline styles stay
 * allowed because React's `style` props compile to them.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
