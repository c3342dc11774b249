/**
 * The repair banners at the top of the window (issue 30), one each: what ReportDesk repaired by
 * itself (a damaged offline copy set aside, the profiles or the change log restored), a damaged
 * profiles file with no backup (start a new list, once agreed), and keys in the keychain that
 * no profile names (restore their profiles, or remove them). Each is a region named by its
 * heading, read once by the polite announcer when it first appears, and reachable by Tab.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type ReactNode } from 'react';
import type { KeptData, OrphanedKey, RepairNotice, RepairsStatus } from '../../../shared/contract';
import { joinSentences } from '../../../shared/i18n/errorSentence';
import type { RendererMessageId as MessageId } from '../../../shared/i18n/messages';
import { announce } from '../lib/announce';
import { useToasts } from '../lib/appState';
import { call, errorOf } from '../lib/bridge';
import { errorText } from '../lib/errorWords';
import { focusScreenHeading } from '../lib/focus';
import { formatDate } from '../lib/format';
import { useWords, type RendererWords } from '../lib/i18n';
import { queryKeys, useProfiles } from '../lib/queries';
import { applyRepairs, REPAIRS_KEY, repairsShow, useRepairsStatus, type KeysInput } from '../lib/repairs';
import { ConfirmDialog } from './Modal';

/** What each window has said already: a banner is announced once, when it first appears. */
const announced = new Set<string>();

/** A path (user data): kept whole and left to right in any language. */
function Path({ children }: { children: string }) {
  return (
    <bdi className="mono" dir="ltr">
      {children}
    </bdi>
  );
}

export function RepairBanners() {
  const words = useWords();
  const { data } = useRepairsStatus();
  useEffect(() => {
    const fresh = data ? bannerTitles(words, data).filter(([key]) => !announced.has(key)) : [];
    if (fresh.length === 0) return;
    fresh.forEach(([key]) => announced.add(key));
    announce(
      joinSentences(
        words,
        fresh.map(([, title]) => title),
      ),
    );
  }, [data, words]);
  if (!data || !repairsShow(data)) return null;
  return (
    <div className="repair-banners">
      {data.profilesDamaged && <DamagedProfiles damage={data.profilesDamaged} level="banner" />}
      {data.notices.map((notice) => (
        <NoticeBanner key={notice.id} notice={notice} />
      ))}
      {data.orphanedKeys.length > 0 && <OrphanedKeysBanner keys={data.orphanedKeys} />}
    </div>
  );
}

/** Each banner's key and heading, in the order they show. */
function bannerTitles(words: RendererWords, status: RepairsStatus): [string, string][] {
  const titles: [string, string][] = [];
  if (status.profilesDamaged)
    titles.push([`damaged:${status.profilesDamaged.asideAs}`, words('damage.profiles_damaged.title')]);
  for (const notice of status.notices) titles.push([notice.id, noticeTitle(words, notice)]);
  const orphans = status.orphanedKeys;
  if (orphans.length > 0) {
    const accounts = orphans.map((key) => key.account).sort();
    titles.push([`orphans:${accounts.join(',')}`, words('damage.orphans.title', { count: orphans.length })]);
  }
  return titles;
}

function noticeTitle(words: RendererWords, notice: RepairNotice): string {
  switch (notice.kind) {
    case 'cache_set_aside':
      return words('damage.cache.title');
    case 'profiles_restored':
      return words('damage.profiles_restored.title');
    case 'local_restored':
      return words('damage.local_restored.title', { restored: notice.details.backupSavedAt ? 'yes' : 'no' });
  }
}

/** A banner: a region named by its heading, its sentences, and its actions. */
function Banner({
  title,
  children,
  actions,
  tone = 'warn',
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  tone?: 'warn' | 'error';
}) {
  const headingId = useId();
  return (
    <section className={`banner banner-repair banner-repair-${tone}`} aria-labelledby={headingId}>
      <div className="banner-repair-text">
        <h2 id={headingId} className="banner-repair-title">
          {title}
        </h2>
        {children}
      </div>
      {actions && <div className="banner-actions">{actions}</div>}
    </section>
  );
}

/** A backup's date and time, as the language writes them. */
function when(words: RendererWords, iso: string): string {
  return formatDate(words, iso)?.text ?? iso;
}

const KEPT_WORDS: Record<KeptData, MessageId> = {
  profiles: 'damage.kept.profiles',
  settings: 'damage.kept.settings',
  changes: 'damage.kept.changes',
};

function NoticeBanner({ notice }: { notice: RepairNotice }) {
  const words = useWords();
  const client = useQueryClient();
  const toasts = useToasts();
  const [busy, setBusy] = useState(false);

  async function dismiss() {
    setBusy(true);
    try {
      await applyRepairs(client, call('repairs:dismiss', { id: notice.id }));
      focusScreenHeading();
    } catch (thrown) {
      toasts.show(errorText(words, errorOf(thrown)), 'error');
      setBusy(false);
    }
  }

  const actions = (
    <>
      {notice.kind === 'profiles_restored' && (
        <a className="button small" href="#/profiles">
          {words('damage.profiles_restored.check')}
        </a>
      )}
      <button type="button" className="button small" disabled={busy} onClick={() => void dismiss()}>
        {words('damage.dismiss')}
      </button>
    </>
  );
  return (
    <Banner title={noticeTitle(words, notice)} actions={actions}>
      <NoticeText notice={notice} />
      <p>{words.rich('damage.file_kept', { path: <Path>{notice.details.asideAs}</Path> })}</p>
    </Banner>
  );
}

function NoticeText({ notice }: { notice: RepairNotice }) {
  const words = useWords();
  const profiles = useProfiles().data?.profiles ?? [];
  switch (notice.kind) {
    case 'cache_set_aside': {
      const { reportsLost, kept, refillProfileIds } = notice.details;
      const names = refillProfileIds.map((id) => profiles.find((p) => p.id === id)?.name ?? id);
      return (
        <>
          <p>
            {joinSentences(words, [
              words('damage.cache.lost', {
                known: reportsLost === null ? 'no' : 'yes',
                count: reportsLost ?? 0,
              }),
              ...(kept.length > 0
                ? [
                    words('damage.cache.kept', {
                      kept: words.intl.formatList(
                        kept.map((item) => words(KEPT_WORDS[item])),
                        { type: 'conjunction' },
                      ),
                    }),
                  ]
                : []),
            ])}
          </p>
          <p>
            {names.length > 0
              ? words('damage.cache.refill', {
                  count: names.length,
                  names: words.intl.formatList(names, { type: 'conjunction' }),
                })
              : words('damage.cache.no_refill')}
          </p>
        </>
      );
    }
    case 'profiles_restored':
      return (
        <p>{words('damage.profiles_restored.text', { time: when(words, notice.details.backupSavedAt) })}</p>
      );
    case 'local_restored': {
      const { backupSavedAt, entriesLost } = notice.details;
      return (
        <p>
          {joinSentences(words, [
            words('damage.local_restored.text', {
              restored: backupSavedAt ? 'yes' : 'no',
              time: backupSavedAt ? when(words, backupSavedAt) : '',
            }),
            // Sentences joined as the language joins them (no space in Japanese or Chinese).
            ...(entriesLost !== null ? [words('damage.local_restored.lost', { count: entriesLost })] : []),
          ])}
        </p>
      );
    }
  }
}

/**
 * profiles.json is damaged and had no backup: what happened, where the copy is, and the one way
 * on ReportDesk offers (a new list, once confirmed). A banner while the app runs; the whole
 * screen when the damage is found at start (no profile can be read then).
 */
export function DamagedProfiles({
  damage,
  level,
}: {
  damage: { file: string; asideAs: string };
  level: 'banner' | 'screen';
}) {
  const words = useWords();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const startAfresh = useMutation({
    mutationFn: () => call('profiles:startAfresh'),
    onSuccess: (state) => {
      setConfirming(false);
      client.setQueryData(queryKeys.profiles, state);
      client.setQueryData<RepairsStatus>(
        REPAIRS_KEY,
        (status) => status && { ...status, profilesDamaged: null },
      );
      // The first-run screen follows (no toasts there): said by the announcer.
      announce(words('damage.start_afresh.done'));
    },
  });
  const text = (
    <>
      <p>
        {words.rich('damage.profiles_damaged.text', {
          file: <Path>{damage.file}</Path>,
          asideAs: <Path>{damage.asideAs}</Path>,
        })}
      </p>
      <p>{words('damage.profiles_damaged.how')}</p>
    </>
  );
  const button = (
    <button type="button" className="button small primary" onClick={() => setConfirming(true)}>
      {words('damage.profiles_damaged.start_afresh')}
    </button>
  );
  const dialog = confirming && (
    <ConfirmDialog
      title={words('damage.start_afresh.title')}
      confirmLabel={words('damage.start_afresh.confirm')}
      action={startAfresh}
      onCancel={() => setConfirming(false)}
      hideProfileLinks
    >
      <p>{words.rich('damage.start_afresh.body', { asideAs: <Path>{damage.asideAs}</Path> })}</p>
    </ConfirmDialog>
  );
  if (level === 'banner') {
    return (
      <Banner title={words('damage.profiles_damaged.title')} actions={button} tone="error">
        {text}
        {dialog}
      </Banner>
    );
  }
  return (
    <section className="screen damaged-profiles" aria-labelledby="damaged-profiles-title">
      <h1 id="damaged-profiles-title" tabIndex={-1}>
        {words('damage.profiles_damaged.title')}
      </h1>
      {text}
      <div className="error-actions">{button}</div>
      {dialog}
    </section>
  );
}

function OrphanedKeysBanner({ keys }: { keys: OrphanedKey[] }) {
  const words = useWords();
  const client = useQueryClient();
  const toasts = useToasts();
  const [removing, setRemoving] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const restorable = keys.filter((key) => key.profile !== null).map((key) => key.account);
  const everyAccount = keys.map((key) => key.account);

  /** All keys when `accounts` names every one (the core's "all": none named). */
  const inputFor = (accounts: string[]): KeysInput =>
    accounts.length === everyAccount.length ? undefined : { accounts };

  const left = (status: RepairsStatus, accounts: string[]) =>
    accounts.length - status.orphanedKeys.filter((key) => accounts.includes(key.account)).length;

  async function restore(accounts: string[]) {
    setBusy(true);
    try {
      const status = await applyRepairs(client, call('repairs:restoreKeys', inputFor(accounts)));
      await client.invalidateQueries({ queryKey: queryKeys.profiles });
      toasts.show(words('damage.orphans.restored', { count: left(status, accounts) }));
      focusScreenHeading();
    } catch (thrown) {
      toasts.show(errorText(words, errorOf(thrown)), 'error');
    } finally {
      setBusy(false);
    }
  }

  const remove = useMutation({
    mutationFn: (accounts: string[]) =>
      applyRepairs(client, call('repairs:removeKeys', inputFor(accounts))).then((status) => ({
        status,
        accounts,
      })),
    onSuccess: ({ status, accounts }) => {
      setRemoving(null);
      toasts.show(words('damage.orphans.removed', { count: left(status, accounts) }));
    },
  });

  const keyName = (key: OrphanedKey) =>
    key.keyHint ? words('damage.orphans.key', { hint: key.keyHint }) : words('damage.orphans.key_short');

  const actions =
    keys.length > 1 ? (
      <>
        {restorable.length > 0 && (
          <button
            type="button"
            className="button small primary"
            disabled={busy}
            onClick={() => void restore(restorable)}
          >
            {words('damage.orphans.restore_all', { count: restorable.length })}
          </button>
        )}
        <button
          type="button"
          className="button small danger"
          disabled={busy}
          onClick={() => setRemoving(everyAccount)}
        >
          {words('damage.orphans.remove_all', { count: keys.length })}
        </button>
      </>
    ) : undefined;

  return (
    <Banner title={words('damage.orphans.title', { count: keys.length })} actions={actions}>
      <p>{words('damage.orphans.text', { count: keys.length })}</p>
      <ul className="orphaned-keys">
        {keys.map((key) => (
          <li key={key.account}>
            <span className="orphaned-key-text">
              <strong className="mono">{keyName(key)}</strong>{' '}
              {key.profile
                ? words.rich('damage.orphans.profile', {
                    name: <bdi>{key.profile.name}</bdi>,
                    url: <Path>{key.profile.baseUrl}</Path>,
                    foundIn: key.foundIn ?? 'unknown',
                  })
                : words('damage.orphans.unknown')}
            </span>
            <span className="banner-actions" role="group" aria-label={keyName(key)}>
              {key.profile && (
                <button
                  type="button"
                  className="button small"
                  disabled={busy}
                  onClick={() => void restore([key.account])}
                >
                  {words('damage.orphans.restore_one')}
                </button>
              )}
              <button
                type="button"
                className="button small"
                disabled={busy}
                onClick={() => setRemoving([key.account])}
              >
                {words('damage.orphans.remove_one')}
              </button>
            </span>
          </li>
        ))}
      </ul>
      {removing && (
        <ConfirmDialog
          title={words('damage.remove_keys.title', { count: removing.length })}
          confirmLabel={words('damage.remove_keys.confirm', { count: removing.length })}
          action={{ ...remove, mutate: () => remove.mutate(removing) }}
          onCancel={() => setRemoving(null)}
          hideProfileLinks
        >
          <p>{words('damage.remove_keys.body', { count: removing.length })}</p>
        </ConfirmDialog>
      )}
    </Banner>
  );
}
