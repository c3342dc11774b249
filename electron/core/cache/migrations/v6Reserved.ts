/**
 * Schema version 6 is the history engineer's (issue 27, branch `history`), merged beside this
 * branch: on merge, their migration takes this place and this file goes. Until then it changes
 * nothing, so that version 7 (v7ChangeOutbox.ts) keeps its number and applies after theirs.
 */
export const V6_RESERVED = `SELECT 1;`;
