/** Keys & profiles: list, add, rename, replace a key, remove, and choose the active profile. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ProfileView } from '../../../shared/contract';
import type { AppError } from '../../../shared/errors';
import { ErrorView } from '../components/ErrorView';
import { ConfirmDialog, Modal, ModalFormActions } from '../components/Modal';
import { ApiKeyField, BaseUrlField, ProfileNameField } from '../components/ProfileFields';
import { ProfileForm, baseUrlProblem } from '../components/ProfileForm';
import { ScreenFallback } from '../components/ScreenFallback';
import { useToasts } from '../lib/appState';
import { call, errorOf } from '../lib/bridge';
import { queryKeys, useProfiles } from '../lib/queries';
import { PROFILE_NAME_REQUIRED } from '../../../shared/profileRules';

const STORAGE_LABELS: Record<ProfileView['keyStorage'], string> = {
  keychain: 'System keychain',
  session: 'This session only (forgotten when ReportDesk closes)',
  none: 'No key stored',
};

function keyHintText(profile: ProfileView): string {
  return profile.keyHint ? `•••• ${profile.keyHint}` : 'No key';
}

type Dialog =
  | { kind: 'add' }
  | { kind: 'edit'; profile: ProfileView }
  | { kind: 'key'; profile: ProfileView }
  | { kind: 'remove'; profile: ProfileView }
  | null;

export function ProfilesScreen() {
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
      toasts.show(`Switched to ${profile.name}.`);
    });

  if (!profiles.isSuccess) {
    return (
      <ScreenFallback
        query={profiles}
        loadingLabel="Loading profiles…"
        skeletonLines={4}
        errorTitle="The profiles could not be loaded."
      />
    );
  }
  const { activeId } = profiles.data;

  return (
    <section className="screen" aria-labelledby="profiles-title">
      <div className="screen-header">
        <h1 id="profiles-title">Keys &amp; profiles</h1>
        <button type="button" className="button primary" onClick={() => setDialog({ kind: 'add' })}>
          Add profile
        </button>
      </div>
      {activeId === null && profiles.data.profiles.length > 0 && (
        <p className="banner banner-inline">Choose the profile to work with: press “Use” on one of them.</p>
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
                  {profile.name}
                  {active && <span className="badge badge-active">Active</span>}
                  {profile.demo && <span className="badge badge-none">Demo</span>}
                </h2>
                <dl className="profile-facts">
                  <div>
                    <dt>Base URL</dt>
                    <dd className="mono">{profile.baseUrl}</dd>
                  </div>
                  <div>
                    <dt>API key</dt>
                    <dd className="mono">{keyHintText(profile)}</dd>
                  </div>
                  <div>
                    <dt>Stored in</dt>
                    <dd>{STORAGE_LABELS[profile.keyStorage]}</dd>
                  </div>
                </dl>
              </div>
              <div className="profile-actions" role="group" aria-label={`Actions for ${profile.name}`}>
                {!active && (
                  <button
                    type="button"
                    className="button primary"
                    disabled={busyId !== null}
                    onClick={() => void activate(profile)}
                  >
                    Use
                  </button>
                )}
                <button type="button" className="button" onClick={() => setDialog({ kind: 'edit', profile })}>
                  Rename
                </button>
                <button type="button" className="button" onClick={() => setDialog({ kind: 'key', profile })}>
                  Replace key
                </button>
                <button
                  type="button"
                  className="button danger"
                  onClick={() => setDialog({ kind: 'remove', profile })}
                >
                  Remove
                </button>
              </div>
            </li>
          );
        })}
      </ul>

      {dialog?.kind === 'add' && (
        <Modal
          title="Add a profile"
          onClose={() => setDialog(null)}
          description="A profile is a Report Service address and an API key for it."
        >
          <ProfileForm
            submitLabel="Add profile"
            onCancel={() => setDialog(null)}
            onSaved={async (profile) => {
              setDialog(null);
              await client.invalidateQueries({ queryKey: queryKeys.profiles });
              toasts.show(`Profile ${profile.name} was added.`);
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

function EditProfileDialog({ profile, onDone }: ProfileDialogProps) {
  const client = useQueryClient();
  const toasts = useToasts();
  const [name, setName] = useState(profile.name);
  const [baseUrl, setBaseUrl] = useState(profile.baseUrl);
  const nameProblem = name.trim() === '' ? PROFILE_NAME_REQUIRED : null;
  const urlProblem = baseUrlProblem(baseUrl);

  const save = useMutation({
    mutationFn: async () => {
      const changes = {
        id: profile.id,
        name: name.trim(),
        ...(baseUrl.trim() !== profile.baseUrl ? { baseUrl: baseUrl.trim() } : {}),
      };
      await call('profiles:update', changes);
      await client.invalidateQueries({ queryKey: queryKeys.profiles });
    },
    onSuccess: () => {
      toasts.show('The profile was saved.');
      onDone();
    },
  });
  const failure = save.error ? errorOf(save.error) : null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (nameProblem || urlProblem) return;
    save.mutate();
  }

  return (
    <Modal
      title={`Rename ${profile.name}`}
      onClose={onDone}
      description="Change the name ReportDesk shows, or the address of the Report Service."
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        <ProfileNameField
          value={name}
          onChange={setName}
          errors={nameProblem ? [nameProblem] : failure?.fieldErrors?.name}
          data-autofocus
        />
        <BaseUrlField
          value={baseUrl}
          onChange={setBaseUrl}
          errors={urlProblem ? [urlProblem] : failure?.fieldErrors?.baseUrl}
        />
        {failure && <ErrorView error={failure} hideProfileLinks />}
        <ModalFormActions
          onCancel={onDone}
          submitLabel={save.isPending ? 'Saving…' : 'Save'}
          disabled={save.isPending || !!nameProblem || !!urlProblem}
        />
      </form>
    </Modal>
  );
}

function ReplaceKeyDialog({ profile, onDone }: ProfileDialogProps) {
  const client = useQueryClient();
  const toasts = useToasts();
  const [apiKey, setApiKey] = useState('');
  const [touched, setTouched] = useState(false);
  const keyProblem = touched && apiKey.trim() === '' ? 'Enter the new API key.' : null;

  const replace = useMutation({
    mutationFn: async (sessionOnly: boolean) => {
      await call('profiles:setKey', { id: profile.id, apiKey, sessionOnly });
      setApiKey('');
      // A key for another account clears that profile's cache: everything shown may change.
      await client.invalidateQueries();
    },
    onSuccess: () => {
      toasts.show(`The key of ${profile.name} was replaced.`);
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
      title={`Replace the key of ${profile.name}`}
      onClose={onDone}
      description={`The new key is tested against ${profile.baseUrl} before it is saved. The old key stays if the test fails.`}
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
          label="New API key"
          value={apiKey}
          onChange={setApiKey}
          errors={keyProblem ? [keyProblem] : failure?.fieldErrors?.apiKey}
          data-autofocus
        />
        {failure && <ErrorView error={failure} hideProfileLinks onSessionOnly={() => save(true)} />}
        <ModalFormActions
          onCancel={onDone}
          submitLabel={replace.isPending ? 'Testing the key…' : 'Test and save'}
          disabled={replace.isPending}
        />
      </form>
    </Modal>
  );
}

function RemoveProfileDialog({ profile, onDone }: ProfileDialogProps) {
  const client = useQueryClient();
  const toasts = useToasts();
  const remove = useMutation({
    mutationFn: () => call('profiles:remove', { id: profile.id }),
    onSuccess: (state) => {
      client.setQueryData(queryKeys.profiles, state);
      client.removeQueries({ predicate: (q) => q.queryKey[1] === profile.id });
      toasts.show(`Profile ${profile.name} was removed.`);
      onDone();
    },
  });

  return (
    <ConfirmDialog
      title={`Remove ${profile.name}?`}
      confirmLabel="Remove profile"
      action={remove}
      onCancel={onDone}
      hideProfileLinks
    >
      <p>
        This deletes the key from the keychain and the cached data of <strong>{profile.name}</strong> (
        {profile.baseUrl}). The reports on the Report Service are not touched.
      </p>
    </ConfirmDialog>
  );
}
