/** SignedFeedProvider on its own: which manifest it names, and that it needs our executor. */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AppUpdater } from 'electron-updater';
import { SignedFeedProvider } from '../../../electron/core/updates/signedFeedProvider';
import { UpdateFailure } from '../../../electron/core/updates/updateFailure';

const options = {
  provider: 'custom' as const,
  url: 'https://updates.example.org/rd',
  publicKeys: [generateKeyPairSync('ed25519').publicKey],
};
const provider = (channel: string | null, platform: 'linux' | 'darwin' | 'win32', executor: unknown) =>
  new SignedFeedProvider(options, { channel } as AppUpdater, {
    isUseMultipleRangeRequest: true,
    platform,
    executor: executor as never,
  });

describe('SignedFeedProvider', () => {
  it('names the manifest as electron-updater’s GenericProvider does', () => {
    expect(provider(null, 'linux', null).manifestName).toBe(
      process.arch === 'x64' ? 'latest-linux.yml' : `latest-linux-${process.arch}.yml`,
    );
    expect(provider('beta', 'darwin', null).manifestName).toBe('beta-mac.yml');
    expect(provider('latest', 'win32', null).manifestName).toBe('latest.yml');
  });

  it('resolves files against the feed as a folder', () => {
    const files = provider('latest', 'linux', null).resolveFiles({
      version: '1.2.0',
      files: [{ url: 'ReportDesk-1.2.0.AppImage', sha512: 'x' }],
      path: '',
      sha512: '',
      releaseDate: '',
    });
    expect(files[0].url.href).toBe('https://updates.example.org/rd/ReportDesk-1.2.0.AppImage');
  });

  it('refuses to read a feed through any executor but ours, asking nothing', async () => {
    const asked: unknown[] = [];
    const other = {
      request: (...args: unknown[]) => asked.push(args),
      downloadToBuffer: (...args: unknown[]) => asked.push(args),
    };
    const refused = await provider('latest', 'linux', other)
      .getLatestVersion()
      .catch((thrown: unknown) => thrown);
    expect(refused).toBeInstanceOf(UpdateFailure);
    expect((refused as UpdateFailure).reason).toBe('insecure_feed');
    expect(asked).toEqual([]);
  });
});
