// First: the first screen's question goes out before React's code runs (boot.ts).
import { firstScreenAsked, opensOnList } from './boot';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { prefetchFirstScreen } from './lib/firstScreen';
import { createQueryClient } from './lib/queries';
import './styles.css';

const client = createQueryClient();
prefetchFirstScreen(client, opensOnList, firstScreenAsked);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App client={client} />
    </StrictMode>,
  );
}
