/**
 * The inputs of a profile — its name, base URL and API key — as the add form and the rename and
 * replace-key dialogs all show them, so each field behaves the same wherever it is edited.
 */
import type { ComponentProps } from 'react';
import { PROFILE_NAME_MAX_LENGTH } from '../../../shared/profileRules';
import { useWords } from '../lib/i18n';
import { TextField } from './FormField';

type ProfileFieldProps = Omit<ComponentProps<typeof TextField>, 'label' | 'type'>;

export function ProfileNameField(props: ProfileFieldProps) {
  const words = useWords();
  return (
    <TextField
      {...props}
      label={words('profile.field.name')}
      type="text"
      maxLength={PROFILE_NAME_MAX_LENGTH}
    />
  );
}

export function BaseUrlField(props: ProfileFieldProps) {
  const words = useWords();
  return <TextField {...props} label={words('profile.field.base_url')} type="url" spellCheck={false} />;
}

/** A secret: masked, and kept out of the browser's autofill and spell checker. */
export function ApiKeyField(props: ProfileFieldProps & { label: string }) {
  return <TextField {...props} type="password" autoComplete="off" spellCheck={false} />;
}
