import { randomBase64Url, randomHex, sha256Hex } from '../../lib/crypto.js';

/** Formats of the credentials the service issues (resolutions §2). Only their SHA-256 is stored. */
export const ACCESS_TOKEN_PREFIX = 'mcs_';

export const newAccessToken = () => `${ACCESS_TOKEN_PREFIX}${randomBase64Url(32)}`;
export const newClientId = () => randomHex(10);
export const newClientSecret = () => randomHex(32);
export const newSigningSecret = () => randomHex(32);
export const newAuthorizationCode = () => randomBase64Url(32);

export const hashSecret = (value: string) => sha256Hex(value);
