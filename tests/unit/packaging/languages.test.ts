/**
 * The installers in the shipped languages (issue 28), checked through electron-builder's own code
 * without packaging (no Electron runtime here): the release configuration as electron-builder
 * loads it (electron-builder.config.ts over electron-builder.yml), the locales its clean-up keeps
 * in a package laid out as Electron's, the languages its NSIS script declares, and the desktop
 * entry it writes for the deb and the AppImage.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Platform, type Configuration } from 'app-builder-lib';
import { removeUnusedLanguagesIfNeeded } from 'app-builder-lib/out/electron/ElectronFramework';
import { LinuxTargetHelper } from 'app-builder-lib/out/targets/LinuxTargetHelper';
import { createAddLangsMacro, LangConfigurator } from 'app-builder-lib/out/targets/nsis/nsisLang';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger } from 'builder-util';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { compileMessage } from '../../../scripts/catalogues.mjs';
import { CATALOGUES } from 'virtual:catalogues/all';
import { desktopString, desktopWords } from '../../../electron/core/desktop/packagingLanguages';
import { SHIPPED_LANGUAGES } from '../../../shared/i18n/languages';
import type { CompiledMessages } from '../../../shared/i18n/pseudo';

const projectDir = fileURLToPath(new URL('../../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'reportdesk-packaging-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Chromium's locale files in an Electron 45 package (locales/*.pak; macOS's *.lproj are alike). */
const CHROMIUM_LOCALES =
  'af am ar bg bn ca cs da de el en-GB en-US es es-419 et fa fi fil fr gu he hi hr hu id it ja kn ko lt lv ml mr ms nb nl pl pt-BR pt-PT ro ru sk sl sr sv sw ta te th tr uk ur vi zh-CN zh-TW'.split(
    ' ',
  );

/** The release configuration, loaded for each test as electron-builder loads it (its function runs each time). */
let release: Configuration;
beforeEach(async () => {
  release = await getConfig(projectDir, 'electron-builder.config.ts', null);
});

describe('the release configuration, as electron-builder loads it', () => {
  it('is electron-builder.yml with the languages added, and passes electron-builder’s validation', async () => {
    const base = await getConfig(projectDir, 'electron-builder.yml', null);
    expect(release.appId).toBe(base.appId);
    expect(release.files).toEqual(base.files);
    expect(release.linux).toMatchObject({ category: base.linux?.category, target: base.linux?.target });
    expect(release.nsis).toMatchObject({ oneClick: true, perMachine: false });
    await expect(validateConfiguration(release, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('is what npm run dist packages with', async () => {
    const { default: packageJson } = await import('../../../package.json');
    expect(packageJson.scripts.dist).toContain('--config electron-builder.config.ts');
  });
});

describe('Chromium’s locales', () => {
  /** A package's locales after electron-builder's clean-up (ElectronFramework), for a platform's layout. */
  async function keptLocales(platform: Platform): Promise<string[]> {
    const appOutDir = mkdtempSync(join(scratch, 'app-'));
    const mac = platform === Platform.MAC;
    const dirs = mac
      ? [join(appOutDir, 'Resources'), join(appOutDir, 'Framework')]
      : [join(appOutDir, 'locales')];
    for (const dir of dirs) {
      mkdirSync(dir, { recursive: true });
      for (const locale of CHROMIUM_LOCALES) {
        // macOS names them en.lproj, pt_BR.lproj, zh_CN.lproj.
        if (mac) mkdirSync(join(dir, `${locale === 'en-US' ? 'en' : locale.replace('-', '_')}.lproj`));
        else writeFileSync(join(dir, `${locale}.pak`), '');
      }
    }
    const packager = {
      config: release,
      platformSpecificBuildOptions: {},
      platform,
      getResourcesDir: () => (mac ? dirs[0] : join(appOutDir, 'resources')),
      getMacOsElectronFrameworkResourcesDir: () => dirs[1],
    };
    await removeUnusedLanguagesIfNeeded({ packager, appOutDir } as never);
    const kept = dirs.map((dir) => readdirSync(dir).sort());
    if (mac) expect(kept[1]).toEqual(kept[0]);
    return kept[0];
  }

  it('are the shipped languages’ only, as Chromium names them', async () => {
    expect(release.electronLanguages).toEqual(['en-US', 'de', 'fr', 'es', 'pt-BR', 'ja', 'zh-CN', 'ar']);
    expect(release.electronLanguages).toHaveLength(SHIPPED_LANGUAGES.length);
    for (const locale of release.electronLanguages as string[]) expect(CHROMIUM_LOCALES).toContain(locale);
  });

  it('are all a Windows or Linux package keeps (es keeps Latin American Spanish with it)', async () => {
    expect(await keptLocales(Platform.LINUX)).toEqual(
      ['ar', 'de', 'en-US', 'es', 'es-419', 'fr', 'ja', 'pt-BR', 'zh-CN']
        .map((locale) => `${locale}.pak`)
        .sort(),
    );
  });

  it('are all a macOS package keeps, in both of its folders', async () => {
    expect(await keptLocales(Platform.MAC)).toEqual(
      ['ar', 'de', 'en', 'es', 'es_419', 'fr', 'ja', 'pt_BR', 'zh_CN']
        .map((locale) => `${locale}.lproj`)
        .sort(),
    );
  });
});

describe('the Windows installer', () => {
  it('speaks every shipped language, and picks the system’s itself', () => {
    const languages = new LangConfigurator(release.nsis!);
    expect(languages.isMultiLang).toBe(true);
    expect(languages.langs).toEqual(['en_US', 'de_DE', 'fr_FR', 'es_ES', 'pt_BR', 'ja_JP', 'zh_CN', 'ar_SA']);
    const macros: Record<string, string[]> = {};
    createAddLangsMacro(
      { macro: (name: string, lines: string[]) => (macros[name] = lines) } as never,
      languages,
    );
    expect(macros.addLangs).toEqual(
      [
        'English',
        'German',
        'French',
        'SpanishInternational',
        'PortugueseBR',
        'Japanese',
        'SimpChinese',
        'Arabic',
      ].map((name) => `!insertmacro MUI_LANGUAGE "${name}"`),
    );
    expect(release.nsis?.displayLanguageSelector).not.toBe(true);
  });
});

describe('the Linux desktop entry', () => {
  /** The .desktop file electron-builder writes for the deb and the AppImage. */
  async function desktopFile(config: Configuration): Promise<Record<string, string>> {
    const packager = {
      config,
      platformSpecificBuildOptions: config.linux,
      appInfo: {
        productName: 'ReportDesk',
        sanitizedProductName: 'ReportDesk',
        productFilename: 'ReportDesk',
        description: 'from package.json',
      },
      executableName: 'reportdesk',
      info: { metadata: { desktopName: undefined } },
      fileAssociations: [],
    };
    const text = await new LinuxTargetHelper(packager as never).computeDesktopEntry(
      config.linux!,
      undefined,
      {},
    );
    return Object.fromEntries(
      text
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
  }

  it('is named and described from the catalogues: in English, and in each language translated', async () => {
    const entry = await desktopFile(release);
    expect(entry.Name).toBe('ReportDesk');
    expect(entry.Comment).toBe('Browse and manage the reports of a Report Service');
    expect(entry.MimeType).toBe('x-scheme-handler/reportdesk;');
    const translated = Object.keys(CATALOGUES).filter((code) => code !== 'en');
    for (const code of translated) {
      expect(entry[`Name[${code.replace('-', '_')}]`], code).toBeTruthy();
      expect(entry[`Comment[${code.replace('-', '_')}]`], code).toBeTruthy();
    }
    expect(Object.keys(entry).filter((key) => key.includes('['))).toHaveLength(2 * translated.length);
  });

  it('carries a translation’s words as its language says them, escaped as desktop entries need', async () => {
    const catalogue = (name: string, comment: string): CompiledMessages => ({
      'app.name': compileMessage(name),
      'main.desktop_entry.comment': compileMessage(comment),
    });
    const words = desktopWords({
      en: CATALOGUES.en,
      de: catalogue('ReportDesk', 'Berichte eines Berichtsdienstes durchsuchen und verwalten'),
      'pt-BR': catalogue('ReportDesk', 'Navegue e gerencie\nrelatórios'),
      ar: catalogue('ريبورت ديسك', 'تصفح تقارير خدمة التقارير وإدارتها'),
    });
    const entry = await desktopFile(
      await getConfig(projectDir, 'electron-builder.yml', {
        linux: { description: words.comment, desktop: { entry: words.entry } },
      }),
    );
    // English is the entry's own Name and Comment, never a translation of itself.
    expect(entry['Name[en]']).toBeUndefined();
    expect(entry).toMatchObject({
      'Name[de]': 'ReportDesk',
      'Comment[de]': 'Berichte eines Berichtsdienstes durchsuchen und verwalten',
      'Comment[pt_BR]': 'Navegue e gerencie\\nrelatórios',
      'Name[ar]': 'ريبورت ديسك',
      'Comment[ar]': 'تصفح تقارير خدمة التقارير وإدارتها',
    });
    expect(desktopString('a\\b\tc\rd')).toBe('a\\\\b\\tc\\rd');
  });

  it('stops the build when a catalogue cannot word it, naming the language', () => {
    expect(() =>
      desktopWords({ en: CATALOGUES.en, de: { 'app.name': compileMessage('ReportDesk') } }),
    ).toThrow(/^The de catalogue cannot word the desktop entry/);
  });
});
