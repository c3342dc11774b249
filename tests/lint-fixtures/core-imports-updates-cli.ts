// Linted as electron/core/<file>: the core must not import the update commands' front end.
import { checkReasonSentence } from '../../updates-cli/words';

export const word = checkReasonSentence;
