/**
 * The rules for a profile's fields, without a schema library: the contract's schemas, the core
 * and the renderer's forms apply the same ones (their sentences by code, shared/errorCodes.ts:
 * `field.profile_name_required`, `base_url.required`, `field.api_key_required`).
 */
export const PROFILE_NAME_MAX_LENGTH = 80;
