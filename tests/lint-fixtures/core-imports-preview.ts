// Linted as electron/core/<file>: the core must not import the browser preview.
import { startPreviewServer } from '../preview/server';

export const start = startPreviewServer;
