// `npm run screenshots`'s entry point (the launcher runs it on the project's Node): everything it
// does is scripts/screenshotPictures.mjs's. Not mutation-scored: a process, not a function.
import { regenerate } from './screenshotPictures.mjs';

process.exit(regenerate());
