import { SKIP_MESSAGE, electronExecutable } from './electronRuntime';

export default function globalSetup(): void {
  if (electronExecutable() === null) console.log(SKIP_MESSAGE);
}
