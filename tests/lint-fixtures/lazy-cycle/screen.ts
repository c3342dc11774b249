// ...and the screen imports the shell back: a cycle all the same (as Shell.tsx → lazyParts.tsx →
// Settings.tsx → Shell.tsx was).
import { progress } from './shell';

export const screen = () => progress;
