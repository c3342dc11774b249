/** Keys & profiles: list, add, rename, replace a key, remove, and choose the active profile. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ProfileView } from '../../../shared/contract';
import type { AppError } from '../../../shared/errors';
import { errorSentence } from '../../../shared/i18n/errorSentence';
import type { RendererMessageId as MessageId } from '../../../shared/i18n/messages';
import { ErrorView } from '../components/ErrorView';
import { ConfirmDialog, Modal, ModalFormActions } from '../components/Modal';
import { ApiKeyField, BaseUrlField, ProfileNameField } from '../components/ProfileFields';
import { ProfileForm, baseUrlProblem } from '../components/ProfileForm';
import { ScreenFallback } from '../components/ScreenFallback';
import { useToasts } from '../lib/appState';
import { call, errorOf } from '../lib/bridge';
import { fieldProblems } from '../lib/errorWords';
import { useWords, type RendererWords } from '../lib/i18n';
import { queryKeys, useProfiles } from '../lib/queries';

const STORAGE_LABELS: Record<ProfileView['keyStorage'], MessageId> = {
  keychain: 'profiles.storage.keychain',
  session: 'profiles.storage.session',
  none: 'profiles.storage.none',
};

function keyHintText(words: RendererWords, profile: ProfileView): string {
  return profile.keyHint ? words('profiles.key_hint', { hint: profile.keyHint }) : words('profiles.no_key');
}

type Dialog =
  | { kind: 'add' }
  | { kind: 'edit'; profile: ProfileView }
  | { kind: 'key'; profile: ProfileView }
  | { kind: 'remove'; profile: ProfileView }
  | null;

export function ProfilesScreen() {
  const words = useWords();
  const client = useQueryClient();
  const toasts = useToasts();
  const profiles = useProfiles();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [error, setError] = useState<AppError | null>(null);

  async function run(id: string, action: () => Promise<void>) {
    setBusyId(id);
    setError(null);
    try {
      await action();
    } catch (thrown) {
      setError(errorOf(thrown));
    } finally {
      setBusyId(null);
    }
  }

  const activate = (profile: ProfileView) =>
    run(profile.id, async () => {
      client.setQueryData(queryKeys.profiles, await call('profiles:activate', { id: profile.id }));
      toasts.show(words('profiles.switched', { name: profile.name }));
    });

  if (!profiles.isSuccess) {
    return (
      <ScreenFallback
        query={profiles}
        loadingLabel={words('profiles.loading')}
        skeletonLines={4}
        errorTitle={words('profiles.load_failed')}
      />
    );
  }
  const { activeId } = profiles.data;

  return (
    <section className="screen" aria-labelledby="profiles-title">
      <div className="screen-header">
        <h1 id="profiles-title">{words('nav.profiles')}</h1>
        <button type="button" className="button primary" onClick={() => setDialog({ kind: 'add' })}>
          {words('profiles.add')}
        </button>
      </div>
      {activeId === null && profiles.data.profiles.length > 0 && (
        <p className="banner banner-inline">{words('profiles.choose_one')}</p>
      )}
      {error && <ErrorView error={error} hideProfileLinks />}
      <ul className="profile-list">
        {profiles.data.profiles.map((profile) => {
          const active = profile.id === activeId;
          return (
            <li
              key={profile.id}
              className={active ? 'card profile active' : 'card profile'}
              aria-current={active ? 'true' : undefined}
            >
              <div className="profile-main">
                <h2 className="profile-name">
                  <bdi>{profile.name}</bdi>
                  {active && <span className="badge badge-active">{words('profiles.badge.active')}</span>}
                  {profile.demo && <span className="badge badge-none">{words('profiles.badge.demo')}</span>}
                </h2>
                <dl className="profile-facts">
                  <div>
                    <dt>{words('profile.field.base_url')}</dt>
                    <dd className="mono" dir="ltr">
                      {profile.baseUrl}
                    </dd>
                  </div>
                  <div>
                    <dt>{words('profile.field.api_key')}</dt>
                    <dd className="mono">{keyHintText(words, profile)}</dd>
                  </div>
                  <div>
                    <dt>{words('profiles.stored_in')}</dt>
                    <dd>{words(STORAGE_LABELS[profile.keyStorage])}</dd>
                  </div>
                </dl>
              </div>
              <div
                className="profile-actions"
                role="group"
                aria-label={words('profiles.actions_for', { name: profile.name })}
              >
                {!active && (
                  <button
                    type="button"
                    className="button primary"
                    disabled={busyId !== null}
                    onClick={() => void activate(profile)}
                  >
                    {words('profiles.use')}
                  </button>
                )}
                <button type="button" className="button" onClick={() => setDialog({ kind: 'edit', profile })}>
                  {words('profiles.rename')}
                </button>
                <button type="button" className="button" onClick={() => setDialog({ kind: 'key', profile })}>
                  {words('profiles.replace_key')}
                </button>
                <button
                  type="button"
                  className="button danger"
                  onClick={() => setDialog({ kind: 'remove', profile })}
                >
                  {words('profiles.remove')}
                </button>
              </div>
            </li>
          );
        })}
      </ul>

      {dialog?.kind === 'add' && (
        <Modal
          title={words('profiles.add_dialog.title')}
          onClose={() => setDialog(null)}
          description={words('profile.what_it_is')}
        >
          <ProfileForm
            submitLabel={words('profiles.add')}
            onCancel={() => setDialog(null)}
            onSaved={async (profile) => {
              setDialog(null);
              await client.invalidateQueries({ queryKey: queryKeys.profiles });
              toasts.show(words('profiles.added', { name: profile.name }));
            }}
          />
        </Modal>
      )}
      {dialog?.kind === 'edit' && (
        <EditProfileDialog profile={dialog.profile} onDone={() => setDialog(null)} />
      )}
      {dialog?.kind === 'key' && <ReplaceKeyDialog profile={dialog.profile} onDone={() => setDialog(null)} />}
      {dialog?.kind === 'remove' && (
        <RemoveProfileDialog profile={dialog.profile} onDone={() => setDialog(null)} />
      )}
    </section>
  );
}

/** The dialogs that change one profile; each closes itself with `onDone`. */
interface ProfileDialogProps {
  profile: ProfileView;
  onDone: () => void;
}

/** Scheme, host and port of a URL; null while it is not a full address. */
function originOf(url: string): string | null {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return null;
  }
}

function EditProfileDialog({ profile, onDone }: ProfileDialogProps) {
  const words = useWords();
  const client = useQueryClient();
  const toasts = useToasts();
  const [name, setName] = useState(profile.name);
  const [baseUrl, setBaseUrl] = useState(profile.baseUrl);
  const [apiKey, setApiKey] = useState('');
  const nameProblem =
    name.trim() === '' ? errorSentence(words, { code: 'field.profile_name_required' }) : null;
  const urlWording = baseUrlProblem(baseUrl);
  const urlProblem = urlWording ? errorSentence(words, urlWording) : null;
  // The stored key is never sent to another scheme, host or port: the core asks for it again.
  const newAddress = !urlProblem && originOf(baseUrl) !== originOf(profile.baseUrl);
  const [keyTouched, setKeyTouched] = useState(false);
  const keyProblem =
    newAddress && keyTouched && apiKey.trim() === ''
      ? errorSentence(words, { code: 'field.api_key_required' })
      : null;

  const save = useMutation({
    mutationFn: async () => {
      const changes = {
        id: profile.id,
        name: name.trim(),
        ...(baseUrl.trim() !== profile.baseUrl ? { baseUrl: baseUrl.trim() } : {}),
        ...(newAddress ? { apiKey } : {}),
      };
      await call('profiles:update', changes);
      setApiKey('');
      // A new address (and perhaps another account) changes everything shown for the profile.
      await client.invalidateQueries(newAddress ? undefined : { queryKey: queryKeys.profiles });
    },
    onSuccess: () => {
      toasts.show(words('profiles.saved'));
      onDone();
    },
  });
  const failure = save.error ? errorOf(save.error) : null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setKeyTouched(true);
    if (nameProblem || urlProblem || (newAddress && apiKey.trim() === '')) return;
    save.mutate();
  }

  return (
    <Modal
      title={words('profiles.rename_dialog.title', { name: profile.name })}
      onClose={onDone}
      description={words('profiles.rename_dialog.description')}
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        <ProfileNameField
          value={name}
          onChange={setName}
          errors={nameProblem ? [nameProblem] : fieldProblems(words, failure, 'name')}
          data-autofocus
        />
        <BaseUrlField
          value={baseUrl}
          onChange={setBaseUrl}
          errors={urlProblem ? [urlProblem] : fieldProblems(words, failure, 'baseUrl')}
        />
        {newAddress && (
          <ApiKeyField
            label={words('profiles.rename_dialog.new_key')}
            value={apiKey}
            onChange={setApiKey}
            errors={keyProblem ? [keyProblem] : fieldProblems(words, failure, 'apiKey')}
            hint={words('profiles.rename_dialog.new_key.hint')}
          />
        )}
        {failure && <ErrorView error={failure} hideProfileLinks />}
        <ModalFormActions
          onCancel={onDone}
          submitLabel={words(
            save.isPending ? (newAddress ? 'profiles.testing_key' : 'privacy_form.saving') : 'profiles.save',
          )}
          disabled={save.isPending || !!nameProblem || !!urlProblem}
        />
      </form>
    </Modal>
  );
}

function ReplaceKeyDialog({ profile, onDone }: ProfileDialogProps) {
  const words = useWords();
  const client = useQueryClient();
  const toasts = useToasts();
  const [apiKey, setApiKey] = useState('');
  const [touched, setTouched] = useState(false);
  const keyProblem = touched && apiKey.trim() === '' ? words('profiles.replace_key_dialog.required') : null;

  const replace = useMutation({
    mutationFn: async (sessionOnly: boolean) => {
      await call('profiles:setKey', { id: profile.id, apiKey, sessionOnly });
      setApiKey('');
      // A key for another account clears that profile's cache: everything shown may change.
      await client.invalidateQueries();
    },
    onSuccess: () => {
      toasts.show(words('profiles.key_replaced', { name: profile.name }));
      onDone();
    },
  });

  const failure = replace.error ? errorOf(replace.error) : null;

  function save(sessionOnly: boolean) {
    setTouched(true);
    if (apiKey.trim() === '') return;
    replace.mutate(sessionOnly);
  }

  return (
    <Modal
      title={words('profiles.replace_key_dialog.title', { name: profile.name })}
      onClose={onDone}
      description={words('profiles.replace_key_dialog.description', { url: profile.baseUrl })}
    >
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          save(false);
        }}
        noValidate
      >
        <ApiKeyField
          label={words('profiles.replace_key_dialog.field')}
          value={apiKey}
          onChange={setApiKey}
          errors={keyProblem ? [keyProblem] : fieldProblems(words, failure, 'apiKey')}
          data-autofocus
        />
        {failure && <ErrorView error={failure} hideProfileLinks onSessionOnly={() => save(true)} />}
        <ModalFormActions
          onCancel={onDone}
          submitLabel={words(replace.isPending ? 'profiles.testing_key' : 'profiles.test_and_save')}
          disabled={replace.isPending}
        />
      </form>
    </Modal>
  );
}

function RemoveProfileDialog({ profile, onDone }: ProfileDialogProps) {
  const words = useWords();
  const client = useQueryClient();
  const toasts = useToasts();
  const remove = useMutation({
    mutationFn: () => call('profiles:remove', { id: profile.id }),
    onSuccess: (state) => {
      client.setQueryData(queryKeys.profiles, state);
      client.removeQueries({ predicate: (q) => q.queryKey[1] === profile.id });
      toasts.show(words('profiles.removed', { name: profile.name }));
      onDone();
    },
  });

  return (
    <ConfirmDialog
      title={words('profiles.remove_dialog.title', { name: profile.name })}
      confirmLabel={words('profiles.remove_dialog.confirm')}
      action={remove}
      onCancel={onDone}
      hideProfileLinks
    >
      <p>
        {words.rich('profiles.remove_dialog.body', {
          name: <strong dir="auto">{profile.name}</strong>,
          url: profile.baseUrl,
        })}
      </p>
    </ConfirmDialog>
  );
}
