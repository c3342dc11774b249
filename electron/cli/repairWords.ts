/**
 * The CLI's sentences for what the core repaired by itself (issue 30), said once on stderr in
 * the run that made the repair, and for keys that no profile names. English, like every other
 * CLI line; the app words the same notices from its catalogues.
 */
import type { OrphanedKey, RepairNotice } from '../../shared/contract';
import { formatBytes } from '../../shared/format';
import { PROGRAM } from './context';
import { display } from './format';

const KEPT = 'Your profiles, settings, change log and seen marks were not in it and are kept';

export function repairSentence(notice: RepairNotice): string {
  switch (notice.kind) {
    case 'cache_set_aside': {
      const { asideAs, reportsLost } = notice.details;
      const lost =
        reportsLost === null
          ? 'what it held can be fetched again'
          : `its ${reportsLost} ${reportsLost === 1 ? 'report is' : 'reports are'} fetched again by the next sync`;
      return `The offline copy was damaged, so it was set aside as ${display(asideAs)} and a new one was started; ${lost}. ${KEPT}.`;
    }
    case 'profiles_restored': {
      const { file, asideAs, backupSavedAt } = notice.details;
      return `The profiles file ${display(file)} was damaged, so its backup of ${backupSavedAt} was restored (the damaged file is kept as ${display(asideAs)}); a change made after that backup may be missing. Check the profiles with "${PROGRAM} profiles list".`;
    }
    case 'local_restored': {
      const { asideAs, backupSavedAt } = notice.details;
      return backupSavedAt === null
        ? `The change log was damaged and had no backup, so it was set aside as ${display(asideAs)} and started afresh; the offline copy and the profiles are untouched.`
        : `The change log was damaged, so its backup of ${backupSavedAt} was restored (the damaged file is kept as ${display(asideAs)}); changes found after that backup are missing.`;
    }
  }
}

/** One line per orphaned key, for `profiles orphans`. */
export function orphanLines(orphans: readonly OrphanedKey[]): string {
  if (orphans.length === 0) return 'No key in the system keychain is without its profile.\n';
  const lines = orphans.map((orphan) => {
    const key = orphan.keyHint === null ? 'a key' : `the key …${display(orphan.keyHint)}`;
    const whose =
      orphan.profile === null
        ? 'its profile is unknown (remove it with --remove)'
        : `it belonged to the profile "${display(orphan.profile.name)}" (${display(orphan.profile.baseUrl)}), which --restore brings back`;
    return `${display(orphan.account)}: ${key}; ${whose}.`;
  });
  return (
    `${keysBelong(orphans.length)} to no profile:\n` +
    lines.map((line) => `  ${line}\n`).join('') +
    `Restore their profiles with "${PROGRAM} profiles orphans --restore", or delete the keys with "${PROGRAM} profiles orphans --remove --yes".\n`
  );
}

/** "1 key in the system keychain belongs", "2 keys … belong". */
function keysBelong(count: number): string {
  return count === 1 ? '1 key in the system keychain belongs' : `${count} keys in the system keychain belong`;
}

/** The stderr hint `profiles list` adds when keys belong to no profile. */
export function orphanHint(count: number): string {
  return `Note: ${keysBelong(count)} to no profile; see them with "${PROGRAM} profiles orphans".\n`;
}

/** The disk's free space in words, for the full-disk sentence. */
export function freeText(freeBytes: number | undefined): string {
  return freeBytes === undefined ? '' : ` (${formatBytes(freeBytes)} free)`;
}
