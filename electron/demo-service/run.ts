/**
 * Runs the demo Report Service from a terminal: `npm run demo-service -- [--port N] [--data-file F]`.
 * The port also comes from the PORT environment variable; the default is 8787.
 */
import { toAppError } from '../../shared/errors';
import { EntryUsageError, parseEntryArgs, parsePort } from '../core/entryArgs';
import { DEMO_API_KEY, startDemoService } from './server';

const DEFAULT_PORT = 8787;

function usageError(text: string): never {
  console.error(`${text}\nUsage: npm run demo-service -- [--port N] [--data-file FILE]`);
  process.exit(2);
}

function parseArguments(argv: string[]): { port: number; dataFile?: string } {
  try {
    const values = parseEntryArgs(argv, { port: { type: 'string' }, 'data-file': { type: 'string' } });
    // The port also comes from the PORT environment variable; an option wins.
    return { port: parsePort(values.port ?? process.env.PORT, DEFAULT_PORT), dataFile: values['data-file'] };
  } catch (thrown) {
    if (thrown instanceof EntryUsageError) usageError(thrown.message);
    throw thrown;
  }
}

async function main(): Promise<void> {
  const { port, dataFile } = parseArguments(process.argv.slice(2));
  let service;
  try {
    service = await startDemoService({ port, dataFile });
  } catch (error) {
    console.error(toAppError(error).message);
    process.exit(1);
  }
  console.log(`Report Service demo running at ${service.baseUrl}`);
  // The published demo key, not a secret: the service it opens holds only seeded sample data.
  console.log(`API key: ${DEMO_API_KEY}`);
  const stop = () => {
    void service.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
