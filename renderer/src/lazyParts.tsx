/**
 * The screens, dialogs and bars the reports list does not need, loaded when first used (issue 22):
 * their code stays out of the JavaScript the first screen waits for. Each is the module's own
 * component, so the screens stay as they are; while one loads, a screen shows an announced
 * skeleton (its heading, and with it the focus, arrive with the code — see lib/focus.ts) and a
 * dialog or panel shows nothing yet.
 */
import { Suspense, lazy, useState, type ReactNode } from 'react';
import { LoadingPlaceholder } from './components/Skeleton';

export const Welcome = lazy(() => import('./screens/Welcome').then((m) => ({ default: m.Welcome })));
export const ProfilesScreen = lazy(() =>
  import('./screens/Profiles').then((m) => ({ default: m.ProfilesScreen })),
);
export const CreateReport = lazy(() =>
  import('./screens/ReportForms').then((m) => ({ default: m.CreateReport })),
);
export const PrivacyEdit = lazy(() =>
  import('./screens/ReportForms').then((m) => ({ default: m.PrivacyEdit })),
);
export const ReportDetail = lazy(() =>
  import('./screens/ReportDetail').then((m) => ({ default: m.ReportDetail })),
);
export const AccountScreen = lazy(() =>
  import('./screens/Account').then((m) => ({ default: m.AccountScreen })),
);
export const SettingsScreen = lazy(() =>
  import('./screens/Settings').then((m) => ({ default: m.SettingsScreen })),
);

export const ShortcutSheet = lazy(() =>
  import('./components/ShortcutSheet').then((m) => ({ default: m.ShortcutSheet })),
);
export const ExportDialog = lazy(() =>
  import('./components/ExportDialog').then((m) => ({ default: m.ExportDialog })),
);
export const OpenLinkDialog = lazy(() =>
  import('./components/OpenLinkDialog').then((m) => ({ default: m.OpenLinkDialog })),
);
export const BulkActions = lazy(() =>
  import('./components/BulkActions').then((m) => ({ default: m.BulkActions })),
);
export const UpdateReadyBar = lazy(() =>
  import('./components/UpdateReadyBar').then((m) => ({ default: m.UpdateReadyBar })),
);

/** A screen whose code may still be on its way. */
export function LazyScreen({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <section className="screen">
          <LoadingPlaceholder lines={4} label="Loading…" />
        </section>
      }
    >
      {children}
    </Suspense>
  );
}

/** A dialog or panel whose code may still be on its way: nothing shows until it is there. */
export function LazyPart({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}

/**
 * Its children from the first time `when` holds, and from then on (its code is loaded then,
 * not with the first screen; kept mounted after, so its state lasts as if it had always been).
 */
export function OnceNeeded({ when, children }: { when: boolean; children: ReactNode }) {
  const [needed, setNeeded] = useState(when);
  // Adjusting state while rendering, as React recommends over an effect.
  if (when && !needed) setNeeded(true);
  return needed ? <LazyPart>{children}</LazyPart> : null;
}
