/** Types for scripts/eslint/noUntranslatedText.mjs. */
import type { Rule } from 'eslint';
export const noUntranslatedText: Rule.RuleModule;
declare const plugin: { rules: Record<string, Rule.RuleModule> };
export default plugin;
