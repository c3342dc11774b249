// Linted as electron/core/gateway/<file>: the core must not import the reference service.
import { startDemoService } from '../../demo-service/server';

export const start = startDemoService;
