import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { prefetchFirstScreen } from './lib/firstScreen';
import { createQueryClient } from './lib/queries';
import { currentPath, navigate, parsePath, restoredPath } from './lib/router';
import './styles.css';

// Open where the user left off, unless a deep link already chose a screen.
if (currentPath() === '/') navigate(restoredPath(), { replace: true });

const client = createQueryClient();
prefetchFirstScreen(client, parsePath(currentPath()).name === 'reports');

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App client={client} />
    </StrictMode>,
  );
}
