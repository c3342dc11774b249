/**
 * The screens, dialogs and bars the reports list does not need, loaded when first used (issue 22):
 * their code stays out of the JavaScript the first screen waits for, and so do their words (issue
 * 28: each arrives with the catalogue's later part, lib/i18n.tsx › laterWords). Each is the
 * module's own component, so the screens stay as they are; while one loads, a screen shows an
 * announced skeleton (its heading, and with it the focus, arrive with the code — see
 * lib/focus.ts) and a dialog or panel shows nothing yet.
 */
import {
  Suspense,
  createContext,
  useContext,
  useEffect,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import { LoadingPlaceholder } from './components/Skeleton';
import { laterWords, useWords } from './lib/i18n';
import { afterFirstScreen } from './lib/queries';

/** A part loaded later; `preload` fetches its code and words ahead of its first use. */
export type LaterPart<P extends object> = ComponentType<P> & { preload(): Promise<void> };

/** What stands in for a part while its code loads: the enclosing LazyScreen's or LazyPart's. */
const StandIn = createContext<ReactNode>(null);

/**
 * A part loaded later: its module's component, with its words (both asked for at once), not
 * before `when` (the panels above the list wait for its rows).
 *
 * Not React.lazy: a lazy component suspends on every first mount, even when its module is
 * loaded, and React holds back the content of a boundary that showed its fallback until 300 ms
 * after that fallback (its retry throttle), a third of a second on every first visit to a
 * screen (issue 27 measured it: History's chart was drawn 337 ms after the click, its numbers
 * asked for at 307 ms). So a part renders at once when its code is here (preloaded, or shown
 * before), and otherwise shows its stand-in until the code arrives, then itself, without waiting.
 */
export function later<P extends object>(load: () => Promise<ComponentType<P>>, when?: () => Promise<void>) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const fetchPart = (): Promise<ComponentType<P>> =>
    (loading ??= (async () => {
      await when?.();
      const [component] = await Promise.all([load(), laterWords()]);
      loaded = component;
      return component;
    })().catch((thrown: unknown) => {
      // A load that failed (a chunk that did not arrive) is tried again when the part is next shown.
      loading = null;
      throw thrown;
    }));

  function Later(props: P) {
    const standIn = useContext(StandIn);
    const [shown, setShown] = useState<{ component: ComponentType<P> } | null>(() => {
      if (loaded) return { component: loaded };
      // Asked for while rendering, as React.lazy does: the code is on its way before the commit.
      void fetchPart().catch(() => undefined);
      return null;
    });
    useEffect(() => {
      if (shown) return;
      let current = true;
      fetchPart().then(
        (component) => current && setShown({ component }),
        // Thrown while rendering, so the nearest error boundary shows it as it did a lazy part's.
        (thrown: unknown) =>
          current &&
          setShown(() => {
            throw thrown;
          }),
      );
      return () => {
        current = false;
      };
    }, [shown]);
    if (!shown) return standIn;
    return <shown.component {...props} />;
  }
  return Object.assign(Later, { preload: () => fetchPart().then(() => undefined) }) as LaterPart<P>;
}

export const Welcome = later(() => import('./screens/Welcome').then((m) => m.Welcome));
export const ProfilesScreen = later(() => import('./screens/Profiles').then((m) => m.ProfilesScreen));
export const CreateReport = later(() => import('./screens/ReportForms').then((m) => m.CreateReport));
export const PrivacyEdit = later(() => import('./screens/ReportForms').then((m) => m.PrivacyEdit));
export const ReportDetail = later(() => import('./screens/ReportDetail').then((m) => m.ReportDetail));
export const AccountScreen = later(() => import('./screens/Account').then((m) => m.AccountScreen));
export const HistoryScreen = later(() => import('./screens/History').then((m) => m.HistoryScreen));
export const SettingsScreen = later(() => import('./screens/Settings').then((m) => m.SettingsScreen));

/**
 * History's code and words, once the first screen is on screen and the page idle (issue 27):
 * its screen then opens without waiting on them (see `later`), and its chart is drawn as soon as
 * its numbers arrive. A failure here costs nothing: the click loads it as before.
 */
export function preloadHistory(): void {
  void afterFirstScreen()
    .then(() => HistoryScreen.preload())
    .catch(() => undefined);
}

export const ShortcutSheet = later(() => import('./components/ShortcutSheet').then((m) => m.ShortcutSheet));
export const ExportDialog = later(() => import('./components/ExportDialog').then((m) => m.ExportDialog));
export const OpenLinkDialog = later(() =>
  import('./components/OpenLinkDialog').then((m) => m.OpenLinkDialog),
);
export const BulkActions = later(() => import('./components/BulkActions').then((m) => m.BulkActions));
export const UpdateReadyBar = later(() =>
  import('./components/UpdateReadyBar').then((m) => m.UpdateReadyBar),
);
export const RepairBanners = later(() => import('./components/RepairBanners').then((m) => m.RepairBanners));
export const DamagedProfiles = later(() =>
  import('./components/RepairBanners').then((m) => m.DamagedProfiles),
);
// Above the list, but never before its rows (issue 28): they only add to the list, once it is on screen.
export const ChangesPanel = later(
  () => import('./components/ChangesPanel').then((m) => m.ChangesPanel),
  afterFirstScreen,
);
export const OverviewPanel = later(
  () => import('./components/OverviewPanel').then((m) => m.OverviewPanel),
  afterFirstScreen,
);

/** A screen whose code may still be on its way: an announced skeleton stands in. */
export function LazyScreen({ children }: { children: ReactNode }) {
  const words = useWords();
  const standIn = (
    <section className="screen">
      <LoadingPlaceholder lines={4} label={words('app.loading')} />
    </section>
  );
  return (
    <StandIn.Provider value={standIn}>
      {/* For anything inside that suspends on its own. */}
      <Suspense fallback={standIn}>{children}</Suspense>
    </StandIn.Provider>
  );
}

/** A dialog or panel whose code may still be on its way: nothing shows until it is there. */
export function LazyPart({ children }: { children: ReactNode }) {
  return (
    <StandIn.Provider value={null}>
      <Suspense fallback={null}>{children}</Suspense>
    </StandIn.Provider>
  );
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
