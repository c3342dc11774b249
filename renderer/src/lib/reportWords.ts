/** A report's values in words: its result, its privacy (their names in the catalogue). */
import type { RendererMessageId as MessageId } from '../../../shared/i18n/messages';
import type { PrivacyValue, ReportResult } from '../../../shared/model';
import type { RendererWords } from './i18n';

export const RESULT_LABELS: Record<ReportResult, MessageId> = {
  good: 'report.result.good',
  decent: 'report.result.decent',
  bad: 'report.result.bad',
};

const PRIVACY_LABELS: Record<PrivacyValue, MessageId> = {
  0: 'report.privacy.public',
  1: 'report.privacy.private',
  2: 'report.privacy.password',
};

export const resultLabel = (words: RendererWords, result: ReportResult): string =>
  words(RESULT_LABELS[result]);

export const privacyLabel = (words: RendererWords, privacy: PrivacyValue): string =>
  words(PRIVACY_LABELS[privacy]);
