import type { Deps } from '../../../../deps.js';
import type { App } from '../../../types.js';
import { registerBeginIngestion } from './begin.js';
import { registerEndIngestion } from './end.js';
import { registerIngestionRequest } from './request.js';

/** Ingestion (document 3.8, 4.7): begin, one request per listing, end. */
export function registerIngestionRoutes(app: App, deps: Deps): void {
  registerBeginIngestion(app, deps);
  registerIngestionRequest(app, deps);
  registerEndIngestion(app, deps);
}
