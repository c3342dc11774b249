// Half of a deliberate cycle through a lazily loaded module (see ../README.md): the shell loads
// the screen when first used...
export const loadScreen = () => import('./screen');
export const progress = 'the progress bar the screen shows too';
