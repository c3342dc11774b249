// Linted as electron/core/<file>: the core is plain Node.
import { app } from 'electron';

export const version = app.getVersion();
