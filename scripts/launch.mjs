// The launcher's entry point, as npm starts it (`node scripts/launch.mjs TASK [args...]`, see
// package.json): everything it does is scripts/launcher.mjs's. tests/integration/launcher.test.ts
// runs it through npm; it is not mutation-scored (a process, not a function, is what it is).
// Plain JavaScript with nothing newer than Node 18, like the launcher.
import { exitLike, launch } from './launcher.mjs';

exitLike(await launch(process.argv.slice(2)));
