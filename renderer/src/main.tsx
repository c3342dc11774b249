// First: the first screen's question and the catalogue go out before React's code runs (boot.ts).
import { firstScreenAsked, opensOnList } from './boot';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { prefetchFirstScreen } from './lib/firstScreen';
import { languageReady } from './lib/i18n';
import { createQueryClient } from './lib/queries';
import './styles.css';

const client = createQueryClient();
prefetchFirstScreen(client, opensOnList, firstScreenAsked);

const root = document.getElementById('root');
// The words are needed for the first frame; the catalogue was asked for beside the first screen.
void languageReady.then(() => {
  if (root) {
    createRoot(root).render(
      <StrictMode>
        <App client={client} />
      </StrictMode>,
    );
  }
});
