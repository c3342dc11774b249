// First: the first screen's question goes out before React's code runs (boot.ts).
import { firstScreenAsked, opensOnList } from './boot';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { prefetchFirstScreen } from './lib/firstScreen';
import { createQueryClient } from './lib/queries';
import './styles.css';

/**
 * How long the first render waits for the first answer (issue 22). It usually comes within a
 * few milliseconds: the screen is then drawn at once, without drawing "Starting ReportDesk…"
 * for that moment first; a slower answer gets the placeholder after this wait.
 */
const FIRST_ANSWER_WAIT_MS = 100;

const client = createQueryClient();
prefetchFirstScreen(client, opensOnList, firstScreenAsked);

const root = document.getElementById('root');
if (root) {
  const answered = firstScreenAsked.answer.then(
    () => undefined,
    () => undefined,
  );
  const waited = new Promise<void>((resolve) => setTimeout(resolve, FIRST_ANSWER_WAIT_MS));
  // A task after the answer: the queries have taken it in by then.
  void Promise.race([answered, waited]).then(() =>
    setTimeout(() =>
      createRoot(root).render(
        <StrictMode>
          <App client={client} />
        </StrictMode>,
      ),
    ),
  );
}
