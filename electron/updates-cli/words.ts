/** The update commands' sentences for the core's update reasons (the app words its own). */
import type { UpdateCheckReason } from '../core/updates/updateCheck';
import type { ReleaseKeyError } from '../core/updates/signatures';

export function checkReasonSentence(reason: UpdateCheckReason, feed: string): string {
  switch (reason) {
    case 'up_to_date':
      return `No newer version is on ${feed}.`;
    case 'staged_rollout':
      return `A newer version is on ${feed}, but it is rolled out to a share of installs (stagingPercentage) and this check fell outside it.`;
    case 'unsupported_system':
      return `A newer version is on ${feed}, but it needs a newer operating system than this one (minimumSystemVersion).`;
    case 'not_a_url':
      return `--feed is not an address: give the feed's https:// address.`;
    case 'invalid_version':
      return '--current is not a version number (semver, for example 1.4.2 or 2.0.0-beta.1).';
    case 'insecure_feed':
      return `Update feeds must use https:// (plain http:// only for this computer), without a user name or password: ${feed} was not asked.`;
    case 'feed_unreachable':
      return `The feed ${feed} could not be reached, or answered with a server error. Check the address and the network, then try again.`;
    case 'feed_not_found':
      return `The feed ${feed} has no manifest for this channel and platform (404). Check the address and the channel.`;
    case 'feed_not_manifest':
      return `${feed} did not answer with an update manifest (an HTML page, or something else). Check the address.`;
    case 'signature_missing':
      return `The manifest on ${feed} has no .sig beside it: it was refused, nothing was downloaded. Sign it with npm run release-sign.`;
    case 'signature_invalid':
      return `The manifest on ${feed} is not signed by a trusted release key, or was changed after it was signed: it was refused, nothing was downloaded.`;
    case 'checksum_mismatch':
      return `The downloaded file is not the one the signed manifest describes (sha512 mismatch): it was deleted.`;
    case 'download_failed':
      return `The update could not be downloaded from ${feed}; nothing was kept. Try again.`;
    case 'install_failed':
      return 'The update could not be installed.';
  }
}

export function keyProblemSentence(
  option: string,
  file: string,
  problem: ReleaseKeyError['problem'],
): string {
  switch (problem) {
    case 'unreadable':
      return `${option} ${file} is not a PEM key file.`;
    case 'not_ed25519':
      return `${option} ${file} is not an Ed25519 key; release keys are Ed25519 (docs/RELEASING.md).`;
    case 'not_public':
      return `${option} ${file} holds a private key; give the public key (SPKI PEM). The private key stays on the release machine.`;
    case 'not_private':
      return `${option} ${file} holds a public key; signing needs the private key (PKCS#8 PEM).`;
  }
}
