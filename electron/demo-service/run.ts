/**
 * Runs the demo Report Service from a terminal: `npm run demo-service -- [--port N] [--data-file F]`.
 * The port also comes from the PORT environment variable; the default is 8787.
 */
import { toAppError } from '../../shared/errors';
import { DEMO_API_KEY, startDemoService } from './server';

const DEFAULT_PORT = 8787;

function usageError(text: string): never {
  console.error(`${text}\nUsage: npm run demo-service -- [--port N] [--data-file FILE]`);
  process.exit(2);
}

function parseArguments(argv: string[]): { port: number; dataFile?: string } {
  let portText = process.env.PORT;
  let dataFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    const [name, inlineValue] = argument.startsWith('--') ? argument.split(/=(.*)/s, 2) : [argument];
    const value = () => {
      const next = inlineValue ?? argv[++i];
      if (next === undefined || next === '') usageError(`${name} needs a value.`);
      return next;
    };
    if (name === '--port') portText = value();
    else if (name === '--data-file') dataFile = value();
    else usageError(`Unknown option "${argument}".`);
  }
  if (portText === undefined || portText === '') return { port: DEFAULT_PORT, dataFile };
  const port = /^\d+$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 0 && port <= 65535))
    usageError(`The port must be a number from 0 to 65535, not "${portText}".`);
  return { port, dataFile };
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
