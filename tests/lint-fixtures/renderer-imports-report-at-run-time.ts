// Linted as renderer/src/screens/<file>: shared/report carries zod.
import * as report from '../../../shared/report';

export const schemas = report;
