import { Type } from '@sinclair/typebox';
import { Id } from '../schemas.js';

export const TAGS = ['admin listings'];

export const ListingParams = Type.Object({ accountId: Id('account id'), listingId: Id('listing id') });
export const StorefrontParams = Type.Object({ accountId: Id('account id'), storefrontId: Id('storefront id (the SALES_CHANNEL installation id)') });
export const Settings = Type.Record(Type.String(), Type.String(), { description: 'string keys to string values' });
