/**
 * The rules for a profile's fields, without a schema library: the contract's schemas, the core
 * and the renderer's forms say the same thing in the same words.
 */
export const PROFILE_NAME_MAX_LENGTH = 80;
export const PROFILE_NAME_REQUIRED = 'Give the profile a name.';
export const BASE_URL_REQUIRED = 'Enter the Report Service base URL.';
export const API_KEY_REQUIRED = 'Enter the API key.';
