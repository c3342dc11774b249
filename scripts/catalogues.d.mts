/** Types for scripts/catalogues.mjs. */
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { Plugin as EsbuildPlugin } from 'esbuild';
import type { Plugin as VitePlugin } from 'vite';

export type Compiled = Record<string, MessageFormatElement[]>;
export const CATALOGUE_DIR: string;
export const RENDERER_ENTRY: string;
export const MAIN_ONLY: RegExp;
export const WITHOUT_ICU_PARSER: Record<string, string>;
export function catalogueLanguages(dir?: string): string[];
export function catalogueFile(language: string, dir?: string): string;
export function readCatalogue(language: string, dir?: string): Record<string, string>;
export function compileMessage(text: string): MessageFormatElement[];
export function compileCatalogue(language: string, dir?: string): Compiled;
export function firstScreenIds(dir?: string, entry?: string): Set<string>;
export function rendererMessages(
  compiled: Compiled,
  part?: 'first' | 'later',
  first?: ReadonlySet<string>,
): Record<string, string | MessageFormatElement[]>;
export function catalogueModule(id: string, dir?: string): string | null;
export function viteCatalogues(dir?: string): VitePlugin;
export function esbuildCatalogues(dir?: string): EsbuildPlugin;
