/**
 * The release public keys the app trusts (SPKI PEM, Ed25519): an update manifest must carry a
 * signature by one of them. Two places, for a rotation: the next key is added here one release
 * before the feed is signed with it, and the old one is removed a release after
 * (docs/RELEASING.md › Rotate the key). The private keys never enter this repository.
 */
export const RELEASE_PUBLIC_KEYS: readonly string[] = [
  // release-key-2026-1: made 2026-11-25 (docs/RELEASING.md says where its private half is kept).
  `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEA4PH2bn6ugcKghO8jjhhMMd+dyi8GQj/Q3rTbhSudESk=
-----END PUBLIC KEY-----
`,
];
