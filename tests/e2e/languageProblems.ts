/** What tests/e2e/page/languageChecks.ts finds in the page, as the language spec reads it. */
export interface TextProblem {
  problem: 'untranslated' | 'cut off' | 'outside the window' | 'overlapping';
  text: string;
  /** A short path to the element: tag, id and classes of it and its parents. */
  where: string;
}

declare global {
  // The checks, installed in the page by tests/e2e/languages.spec.ts.
  var __languageChecks: {
    untranslated(): TextProblem[];
    layout(): TextProblem[];
  };
}
