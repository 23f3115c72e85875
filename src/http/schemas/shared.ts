import { V1Error, V2Error } from './common.js';
import { NESTED_ATTRIBUTE_VALUES } from './listings.js';

/** Schemas routes reference by $id (Type.Ref): registered with the app before any route (app.ts), components of the OpenAPI document. */
export const SHARED_SCHEMAS = [V1Error, V2Error, ...NESTED_ATTRIBUTE_VALUES];
