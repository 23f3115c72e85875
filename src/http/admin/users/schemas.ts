import { Type } from '@sinclair/typebox';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../domain/users/passwords.js';
import { SELLER_ROLES, type SellerRole } from '../../../domain/users/users.js';

export const Email = Type.String({ minLength: 1, maxLength: 254, description: 'signs in to the console; compared case-insensitively, unique across all console users' });
export const Password = Type.String({
  minLength: MIN_PASSWORD_LENGTH,
  maxLength: MAX_PASSWORD_LENGTH,
  description: `${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters; stored as a scrypt hash, never shown again`,
});
export const Role = Type.Unsafe<SellerRole>({ type: 'string', enum: [...SELLER_ROLES], description: 'OWNER may invite users; STAFF may not' });

export const SellerUser = Type.Object({
  userId: Type.Integer(),
  email: Type.String(),
  role: Role,
  disabled: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});
