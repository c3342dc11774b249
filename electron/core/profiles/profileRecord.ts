/**
 * What profiles.json holds, and its schema: a name, a base URL and options per profile, never
 * a secret (keys live in the keychain). Read and written only by ProfileStore.
 */
import { z } from 'zod';

/** "Keep available offline" per profile; absent fields mean "not chosen yet" (offline.ts's defaults). */
export interface OfflineProfileOptions {
  keepOffline?: boolean;
  /** Minutes between quick refreshes, or null: only by hand. */
  refreshMinutes?: 5 | 15 | 60 | null;
  notifyBad?: boolean;
}

export interface StoredProfile {
  id: string;
  name: string;
  baseUrl: string;
  allowInsecureHttp: boolean;
  demo: boolean;
  createdAt: string;
  /** When a key was last stored for this profile: other processes drop their copy of the key when it changes. */
  keySetAt?: string;
  /** Options, never secrets: "Keep available offline" and how. */
  offline?: OfflineProfileOptions;
}

const StoredProfileSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  name: z.string().min(1),
  baseUrl: z.string(),
  allowInsecureHttp: z.boolean(),
  demo: z.boolean(),
  createdAt: z.string(),
  keySetAt: z.string().optional(),
  offline: z
    .object({
      keepOffline: z.boolean().optional(),
      refreshMinutes: z.union([z.literal(5), z.literal(15), z.literal(60), z.null()]).optional(),
      notifyBad: z.boolean().optional(),
    })
    .optional(),
});

/**
 * A change to the keychain in progress (issue 30), written before the keychain is touched and
 * cleared in the write that completes it: a key that no profile names is an orphan only when
 * no such record of a running process explains it. `owner` is the process (core/processOwner).
 */
export interface PendingKeyChange {
  /** The keychain account: the profile's id. */
  id: string;
  /** 'add': a key is being stored for a new profile; 'remove': a removed profile's key is being deleted. */
  op: 'add' | 'remove';
  owner: string;
  at: string;
  /** The profile being added (no secret), to restore it when the add was cut short. */
  profile?: { name: string; baseUrl: string; allowInsecureHttp: boolean };
}

const PendingKeyChangeSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  op: z.enum(['add', 'remove']),
  owner: z.string(),
  at: z.string(),
  profile: z.object({ name: z.string(), baseUrl: z.string(), allowInsecureHttp: z.boolean() }).optional(),
});

export const ProfilesFileSchema = z.object({
  version: z.literal(1),
  activeId: z.string().nullable(),
  profiles: z.array(StoredProfileSchema),
  pending: z.array(PendingKeyChangeSchema).optional(),
});
export type ProfilesFile = z.infer<typeof ProfilesFileSchema>;
